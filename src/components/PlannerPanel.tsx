import { useMemo } from 'react';
import { formatBytes, formatFlopRate, formatFlops } from '../core/memory';
import { catalogEntry } from '../core/models';
import { planInput, planKeras, planTfjs, predictionError, type Plan } from '../core/planner';
import type { TrainConfig, TrainingPhase } from '../core/trainConfig';
import { curveBatches, predictedBatchCurve } from '../core/sweep';
import { featureCache } from '../core/techniques';
import {
  columnWords,
  crossingWords,
  headlineWords,
  largestWords,
  seedVerdict,
  trainableWords,
} from '../core/verdict';
import { SweepChart } from '../charts/SweepChart';
import type { BatchPoint } from '../store/types';
import { useLab } from './useLab';

const CATEGORY_LABELS: [keyof Plan['categories'], string][] = [
  ['weights', 'weights'],
  ['gradients', 'gradients'],
  ['optimizer', 'Adam slots'],
  ['input', 'input batches'],
  ['savedActivations', 'saved for backward'],
  ['transient', 'activation gradients and temporaries'],
];

const AT_LABELS: Record<Plan['at'], string> = {
  forward: 'end of the forward pass',
  backward: 'end of backprop',
  optimizer: 'Adam update',
  backbone: 'frozen backbone',
};

/** The settings a prediction depends on, to match a run's measurements with the prediction shown. */
const plannedFor = (c: TrainConfig): string =>
  JSON.stringify([c.model, c.height, c.width, c.batchSize, c.fineTune, c.prefetch, c.techniques]);

/**
 * The phase that needs the most, predicted against batch size with the current settings, next to the
 * simulated card: where the batch stops fitting, before anything runs.
 */
function BatchCurve() {
  const spec = useLab((s) => s.planner.spec);
  const config = useLab((s) => s.config);
  const curve = useMemo(() => {
    if (!spec) return null;
    const phase: TrainingPhase = config.fineTuneEpochs > 0 ? 'fine-tune' : 'frozen';
    return { phase, rows: predictedBatchCurve(spec, config, phase, curveBatches(config.batchSize)) };
  }, [spec, config]);
  if (!curve) return null;
  return (
    <div data-testid="planner-batch-curve">
      <SweepChart
        title={`Peak vs batch size · ${curve.phase} phase · current settings`}
        xLabel="batch size"
        rows={curve.rows}
        budgetBytes={config.budgetBytes}
        backendLabel=""
        predictedOnly
        testId="planner-curve-chart"
      />
      <p className="hint">
        Resolution works like batch for activations (they grow with the pixel count); the sweeps below measure
        both curves.
      </p>
    </div>
  );
}

/**
 * The verdict on the current settings and card, in words: per column whether a step fits and by how
 * much, where the forward pass crosses the card, and the largest batch that fits (core/verdict).
 */
function VerdictView() {
  const spec = useLab((s) => s.planner.spec);
  const config = useLab((s) => s.config);
  const verdict = useMemo(() => {
    if (!spec || config.budgetBytes === null) return null;
    const phase: TrainingPhase = config.fineTuneEpochs > 0 ? 'fine-tune' : 'frozen';
    const what = `${catalogEntry(config.model).displayName} at ${spec.height}×${spec.width}, batch ${config.batchSize}, ${trainableWords(spec, config, phase)}`;
    return { what, v: seedVerdict(spec, config, phase, config.budgetBytes) };
  }, [spec, config]);
  if (!spec) return null;
  if (!verdict)
    return (
      <p className="hint" data-testid="verdict">
        Choose a card above to get a verdict: fits or not, where it crosses, and the largest batch that fits.
      </p>
    );
  const { what, v } = verdict;
  return (
    <div
      className="verdict"
      data-testid="verdict"
      data-fits={v.columns.some((c) => c.fits) ? 'some' : 'none'}
    >
      <p>
        <strong data-testid="verdict-headline">{headlineWords(v, what)}</strong>{' '}
        <span className="label-predicted">predicted · planner, {v.phase} phase</span>
      </p>
      <ul>
        {v.columns.map((c) => (
          <li key={c.column} data-testid={`verdict-${c.column}`} data-fits={String(c.fits)}>
            {columnWords(c, v.limit)}.
          </li>
        ))}
      </ul>
      <p data-testid="verdict-crossing">{crossingWords(v)}</p>
      <p data-testid="verdict-largest">{largestWords(v)}</p>
    </div>
  );
}

/** One row of the table: a phase, or the frozen phase's steps on cached features. */
interface PlanRow {
  key: string;
  label: string;
  /** The run's steps the row's measurement is read from. */
  steps: (b: BatchPoint) => boolean;
  tfjs: Plan;
  /** Keras has no counterpart of the feature cache row. */
  keras: Plan | null;
  mixed: Plan | null;
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;

/**
 * The planner: the peak of one training step of each phase, predicted from layer shapes before
 * anything runs, next to what the last run measured, and what Keras on a CUDA card would need.
 */
export function PlannerPanel() {
  const planner = useLab((s) => s.planner);
  const config = useLab((s) => s.config);
  const run = useLab((s) => s.run);
  const backend = useLab((s) => s.run.backend ?? s.engine.backend?.name ?? 'no backend');
  const spec = planner.spec;

  const plans = useMemo((): PlanRow[] => {
    if (!spec) return [];
    const phases: TrainingPhase[] = config.fineTuneEpochs > 0 ? ['frozen', 'fine-tune'] : ['frozen'];
    const rows = phases.map((phase): PlanRow => {
      const input = planInput(spec, config, phase);
      return {
        key: phase,
        label: phase,
        // The phase's peak step; with the feature cache, that is a step of the first epoch.
        steps: (b) => b.phase === phase,
        tfjs: planTfjs(input),
        keras: planKeras(input),
        mixed: planKeras(input, 'mixed_float16'),
      };
    });
    if (featureCache(config).on) {
      rows.splice(1, 0, {
        key: 'frozen-cached',
        label: 'frozen, epochs 2+ on cached features',
        steps: (b) => b.technique.featureCache === 'reading',
        tfjs: planTfjs({ ...planInput(spec, config, 'frozen'), cachedFeatures: true }),
        keras: null,
        mixed: null,
      });
    }
    return rows;
  }, [spec, config]);

  // Measurements only compare with a prediction for the same configuration.
  const sameConfig = run.config !== null && plannedFor(run.config) === plannedFor(config);
  const measuredPeak = (row: PlanRow) => {
    const peaks = run.batches.filter(row.steps).flatMap((b) => b.peakBytes ?? []);
    return peaks.length ? Math.max(...peaks) : undefined;
  };
  // Achieved FLOP/s only over steps that did the work the row's FLOPs count.
  const stepMs = (row: PlanRow) => {
    const times = run.batches
      .filter((b) => row.steps(b) && (row.key === 'frozen-cached' || b.technique.featureCache !== 'reading'))
      .map((b) => b.stepMs)
      .sort((a, b) => a - b);
    return times.length ? times[times.length >> 1] : undefined;
  };

  return (
    <section className="panel" aria-labelledby="planner-title" data-testid="planner">
      <h2 id="planner-title">Planner</h2>
      {planner.status === 'loading' && !spec && <p>Describing the model…</p>}
      {planner.status === 'error' && (
        <p role="alert">The planner could not describe the model: {planner.error}</p>
      )}
      {spec && (
        <>
          <p className="hint">
            Predicted from layer shapes before anything runs: {spec.layers.length} layers at {spec.height}×
            {spec.width}, batch {config.batchSize}, Adam, {config.prefetch} batch
            {config.prefetch === 1 ? '' : 'es'} prefetched. The tfjs model counts what TensorFlow.js 4.22
            keeps; the Keras column is what TensorFlow on a CUDA card would need for the same step.
          </p>
          <table className="planner-table">
            <thead>
              <tr>
                <th scope="col">phase</th>
                <th scope="col">
                  peak <span className="label-predicted">predicted · tfjs</span>
                </th>
                <th scope="col">
                  step peak <span className="label-measured">measured · {backend}</span>
                </th>
                <th scope="col">error</th>
                <th scope="col">
                  Keras/CUDA <span className="label-predicted">predicted</span>
                </th>
                <th scope="col">
                  mixed fp16 <span className="label-predicted">predicted</span>
                </th>
                <th scope="col">work per step</th>
              </tr>
            </thead>
            <tbody>
              {plans.map((row) => {
                const { key, label, tfjs, keras, mixed } = row;
                const m = sameConfig ? measuredPeak(row) : undefined;
                const ms = sameConfig ? stepMs(row) : undefined;
                return (
                  <tr key={key} data-testid={`planner-${key}`}>
                    <th scope="row">{label}</th>
                    <td data-testid={`planner-${key}-predicted`}>
                      {formatBytes(tfjs.peakBytes)}
                      <div className="hint">at the {AT_LABELS[tfjs.at]}</div>
                    </td>
                    <td data-testid={`planner-${key}-measured`}>{m === undefined ? '—' : formatBytes(m)}</td>
                    <td data-testid={`planner-${key}-error`}>
                      {m === undefined ? '—' : pct(predictionError(tfjs.peakBytes, m))}
                    </td>
                    <td>{keras ? formatBytes(keras.peakBytes) : '—'}</td>
                    <td>{mixed ? formatBytes(mixed.peakBytes) : '—'}</td>
                    <td>
                      {formatFlops(tfjs.flops)}
                      {ms !== undefined && (
                        <div className="hint" data-testid={`planner-${key}-speed`}>
                          {formatFlopRate(tfjs.flops / (ms / 1000))}, {ms.toFixed(0)} ms a step{' '}
                          <span className="label-measured">measured · {backend}</span>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <VerdictView />
          <BatchCurve />
          {plans.some((p) => p.key === 'frozen-cached') && (
            <p className="hint" data-testid="planner-cache-note">
              Feature cache: the first frozen epoch runs the backbone and stores its features in host memory;
              later frozen epochs train the head on them, with no decoding and no backbone. The frozen
              phase&apos;s peak is still the first epoch&apos;s.
            </p>
          )}
          {plans.length > 0 && (
            <details>
              <summary>Where the predicted bytes go</summary>
              <table className="planner-table">
                <thead>
                  <tr>
                    <th scope="col">category</th>
                    {plans.map((p) => (
                      <th scope="col" key={p.key}>
                        {p.label} <span className="label-predicted">predicted · tfjs</span>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {CATEGORY_LABELS.map(([key, label]) => (
                    <tr key={key}>
                      <th scope="row">{label}</th>
                      {plans.map((p) => (
                        <td key={p.key}>{formatBytes(p.tfjs.categories[key])}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {plans.some((p) => p.tfjs.approximateKinds.length > 0) && (
                <p className="hint">
                  Estimated without a measured recipe:{' '}
                  {[...new Set(plans.flatMap((p) => p.tfjs.approximateKinds))].join(', ')}.
                </p>
              )}
            </details>
          )}
        </>
      )}
    </section>
  );
}

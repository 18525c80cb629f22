import { useMemo } from 'react';
import { formatBytes } from '../core/memory';
import { stepPeaks } from '../core/phasePeaks';
import { planInput, planKeras, planTfjs, predictionError, type Plan } from '../core/planner';
import type { TrainConfig, TrainingPhase } from '../core/protocol';
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
  JSON.stringify([
    c.model,
    c.height,
    c.width,
    c.batchSize,
    c.unfreezeLastN,
    c.fineTuneLayers,
    c.prefetch,
    c.techniques,
  ]);

const flops = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} GFLOP` : `${(n / 1e6).toFixed(1)} MFLOP`);
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

  const plans = useMemo(() => {
    if (!spec) return [];
    const phases: TrainingPhase[] = config.fineTuneEpochs > 0 ? ['frozen', 'fine-tune'] : ['frozen'];
    return phases.map((phase) => {
      const input = planInput(spec, config, phase);
      return {
        phase,
        tfjs: planTfjs(input),
        keras: planKeras(input),
        mixed: planKeras(input, 'mixed_float16'),
      };
    });
  }, [spec, config]);

  // Measurements only compare with a prediction for the same configuration.
  const sameConfig = run.config !== null && plannedFor(run.config) === plannedFor(config);
  const measured = useMemo(() => stepPeaks(run.batches), [run.batches]);
  const stepMs = (phase: TrainingPhase) => {
    const times = run.batches
      .filter((b) => b.phase === phase)
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
              {plans.map(({ phase, tfjs, keras, mixed }) => {
                const m = sameConfig ? measured.find((p) => p.phase === phase)?.peakBytes : undefined;
                const ms = sameConfig ? stepMs(phase) : undefined;
                return (
                  <tr key={phase} data-testid={`planner-${phase}`}>
                    <th scope="row">{phase}</th>
                    <td data-testid={`planner-${phase}-predicted`}>
                      {formatBytes(tfjs.peakBytes)}
                      <div className="hint">at the {AT_LABELS[tfjs.at]}</div>
                    </td>
                    <td data-testid={`planner-${phase}-measured`}>
                      {m === undefined ? '—' : formatBytes(m)}
                    </td>
                    <td data-testid={`planner-${phase}-error`}>
                      {m === undefined ? '—' : pct(predictionError(tfjs.peakBytes, m))}
                    </td>
                    <td>{formatBytes(keras.peakBytes)}</td>
                    <td>{formatBytes(mixed.peakBytes)}</td>
                    <td>
                      {flops(tfjs.flops)}
                      {ms !== undefined && (
                        <div className="hint">
                          {((tfjs.flops / ms) * 1e-6).toFixed(2)} GFLOP/s{' '}
                          <span className="label-measured">measured · {backend}</span>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {plans.length > 0 && (
            <details>
              <summary>Where the predicted bytes go</summary>
              <table className="planner-table">
                <thead>
                  <tr>
                    <th scope="col">category</th>
                    {plans.map((p) => (
                      <th scope="col" key={p.phase}>
                        {p.phase} <span className="label-predicted">predicted · tfjs</span>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {CATEGORY_LABELS.map(([key, label]) => (
                    <tr key={key}>
                      <th scope="row">{label}</th>
                      {plans.map((p) => (
                        <td key={p.phase}>{formatBytes(p.tfjs.categories[key])}</td>
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

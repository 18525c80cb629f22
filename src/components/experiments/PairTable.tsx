import type React from 'react';
import type { ExperimentPair } from '../../core/experiments/experiments';
import type { PhasePrediction } from '../../core/experiments/math';
import type { TrainingPhase } from '../../core/settings/trainConfig';
import type { Side, SideResult } from '../../store/types';
import { formatBytes } from '../../core/format';

interface Props {
  id: string;
  pair: ExperimentPair;
  /** The planner's peaks per side, from the model described now; null for a side at another size. */
  predicted: Record<Side, PhasePrediction[] | null>;
  results: Partial<Record<Side, SideResult>>;
  /** Show the Keras mixed-float16 prediction too (the mixed-precision card). */
  keras: boolean;
}

const PHASES: readonly TrainingPhase[] = ['frozen', 'fine-tune'];

/** The planner's tfjs peak of a phase: from the model described now, else from the run's own entry. */
function predictedPeak(p: PhasePrediction[] | null, r: SideResult | undefined, phase: TrainingPhase) {
  const now = p?.find((x) => x.phase === phase)?.tfjsBytes;
  return now ?? r?.entry.predicted.find((x) => x.phase === phase)?.peakBytes;
}

const bytes = (b: number | undefined) => (b === undefined ? '—' : formatBytes(b));

/** Where a measured number comes from: the backend, and whether the run was reused from the history. */
function source(r: SideResult | undefined): string {
  if (!r) return 'not run yet';
  return `${r.entry.backend ?? '?'}${r.reused ? ', from the history' : ''}`;
}

const SIDES = ['before', 'after'] as const;

/** One row: a label, then one cell per side. */
function Row({ label, cell }: { label: React.ReactNode; cell: (s: Side) => React.ReactNode }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      {SIDES.map((s) => (
        <td key={s}>{cell(s)}</td>
      ))}
    </tr>
  );
}

const predictedLabel = (what: string, by: string) => (
  <>
    {what} <span className="label-predicted">predicted · {by}</span>
  </>
);
const measuredLabel = (what: string) => (
  <>
    {what} <span className="label-measured">measured</span>
  </>
);

/** A phase's rows: the planner's peak (and Keras mixed float16's), and the measured peak. */
function PhaseRows({ id, phase, predicted, results, keras }: Omit<Props, 'pair'> & { phase: TrainingPhase }) {
  const measured = (s: Side) => results[s]?.entry.measured.find((x) => x.phase === phase)?.peakBytes;
  return (
    <>
      <Row
        label={predictedLabel(`${phase} step peak`, 'planner, tfjs')}
        cell={(s) => bytes(predictedPeak(predicted[s], results[s], phase))}
      />
      {keras && (
        <Row
          label={predictedLabel(`${phase} step peak`, 'Keras/CUDA mixed float16')}
          cell={(s) => bytes(predicted[s]?.find((x) => x.phase === phase)?.kerasMixedBytes)}
        />
      )}
      <Row
        label={measuredLabel(`${phase} step peak`)}
        cell={(s) => (
          <span data-testid={`experiment-${id}-${s}-${phase}-measured`}>
            {bytes(measured(s))} <small>({source(results[s])})</small>
          </span>
        )}
      />
    </>
  );
}

const stepText = (r: SideResult | undefined) => {
  const ms = r?.entry.stepMs;
  return ms === undefined || ms === null ? '—' : `${ms.toFixed(0)} ms`;
};
const accuracyText = (r: SideResult | undefined) => {
  const a = r?.entry.valAccuracy;
  return a === undefined || a === null ? '—' : `${(a * 100).toFixed(1)}%`;
};
const outcomeText = (r: SideResult | undefined) =>
  r ? `${r.entry.outcome}${r.entry.oomAt ? ` at ${r.entry.oomAt}` : ''}` : '—';

/** Before and after side by side: predicted and measured peaks per phase, step time, accuracy, outcome. */
export function PairTable({ id, pair, predicted, results, keras }: Props) {
  const phases = PHASES.filter((ph) =>
    SIDES.some((s) => (ph === 'frozen' ? pair[s].frozenEpochs : pair[s].fineTuneEpochs) > 0),
  );
  const cell = (kind: string, text: (r: SideResult | undefined) => string) => (s: Side) => (
    <span data-testid={`experiment-${id}-${s}-${kind}`}>
      {text(results[s])} {kind !== 'outcome' && <small>({source(results[s])})</small>}
    </span>
  );
  return (
    <table className="planner-table experiment-table" data-testid={`experiment-${id}-table`}>
      <caption className="hint">
        Before: {pair.beforeLabel}. After: {pair.afterLabel}.
      </caption>
      <thead>
        <tr>
          <th scope="col">figure</th>
          <th scope="col">before</th>
          <th scope="col">after</th>
        </tr>
      </thead>
      <tbody>
        {phases.map((phase) => (
          <PhaseRows
            key={phase}
            id={id}
            phase={phase}
            predicted={predicted}
            results={results}
            keras={keras}
          />
        ))}
        <Row label={measuredLabel('step time, median')} cell={cell('step', stepText)} />
        <Row label={measuredLabel('validation accuracy')} cell={cell('accuracy', accuracyText)} />
        <Row label="outcome" cell={cell('outcome', outcomeText)} />
      </tbody>
    </table>
  );
}

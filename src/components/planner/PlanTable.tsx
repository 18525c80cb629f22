import { predictionError, type Plan } from '../../core/planner/planner';
import type { BatchPoint } from '../../store/types';
import { PeakNote } from '../run/BackendBadge';
import { GuessResult } from '../workshop/GuessResult';
import { PredictGuess } from '../workshop/PredictGuess';
import { useNumbersHidden } from '../workshop/useNumbersHidden';
import { measuredPeak, medianStepMs, type PlanRow } from './planRows';
import { formatBytes, formatFlopRate, formatFlops } from '../../core/format';

const AT_LABELS: Record<Plan['at'], string> = {
  forward: 'end of the forward pass',
  backward: 'end of backprop',
  optimizer: 'Adam update',
  backbone: 'frozen backbone',
};

const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;

interface Props {
  plans: readonly PlanRow[];
  /** Whether the last run had the settings the plans are for (measurements compare only then). */
  sameConfig: boolean;
  batches: readonly BatchPoint[];
  backend: string;
}

/**
 * Each phase's predicted peak next to the last run's measured one, Keras/CUDA's and the work per step. In
 * predict mode the question comes first, and the guess stands beside the planner and the run once made.
 */
export function PlanTable({ plans, sameConfig, batches, backend }: Props) {
  const hidden = useNumbersHidden();
  if (hidden) return <PredictGuess />;
  return (
    <>
      <GuessResult />
      <PlanTableView plans={plans} sameConfig={sameConfig} batches={batches} backend={backend} />
    </>
  );
}

function PlanTableView({ plans, sameConfig, batches, backend }: Props) {
  return (
    <>
      <p className="hint beside-only">
        Beside the controls: tfjs&apos;s prediction and the last run. The Keras/CUDA columns and the work per
        step are in the Memory view.
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
            <th scope="col" className="wide-only">
              Keras/CUDA <span className="label-predicted">predicted</span>
            </th>
            <th scope="col" className="wide-only">
              mixed fp16 <span className="label-predicted">predicted</span>
            </th>
            <th scope="col" className="wide-only">
              work per step
            </th>
          </tr>
        </thead>
        <tbody>
          {plans.map((row) => (
            <PlanRowView
              key={row.key}
              row={row}
              measured={sameConfig ? measuredPeak(batches, row) : undefined}
              ms={sameConfig ? medianStepMs(batches, row) : undefined}
              backend={backend}
            />
          ))}
        </tbody>
      </table>
    </>
  );
}

interface RowProps {
  row: PlanRow;
  /** Measured step peak, bytes, when the last run matches. */ measured: number | undefined;
  /** Median measured step time, ms, when the last run matches. */ ms: number | undefined;
  backend: string;
}

function PlanRowView({ row: { key, label, tfjs, keras, mixed }, measured: m, ms, backend }: RowProps) {
  return (
    <tr data-testid={`planner-${key}`}>
      <th scope="row">{label}</th>
      <td data-testid={`planner-${key}-predicted`}>
        {formatBytes(tfjs.peakBytes)}
        <div className="hint">at the {AT_LABELS[tfjs.at]}</div>
      </td>
      <td data-testid={`planner-${key}-measured`}>{m === undefined ? '—' : formatBytes(m)}</td>
      <td data-testid={`planner-${key}-error`}>
        {m === undefined ? '—' : pct(predictionError(tfjs.peakBytes, m))}
      </td>
      <td className="wide-only">{keras ? formatBytes(keras.peakBytes) : '—'}</td>
      <td className="wide-only">{mixed ? formatBytes(mixed.peakBytes) : '—'}</td>
      <td className="wide-only">
        {formatFlops(tfjs.flops)}
        {ms !== undefined && (
          <div className="hint" data-testid={`planner-${key}-speed`}>
            {formatFlopRate(tfjs.flops / (ms / 1000))}, {ms.toFixed(0)} ms a step{' '}
            <span className="label-measured">measured · {backend}</span>
            <PeakNote />
          </div>
        )}
      </td>
    </tr>
  );
}

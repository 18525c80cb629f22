import { useId, useState } from 'react';
import { SweepChart } from '../charts/SweepChart';
import { formatBytes } from '../core/memory';
import { predictionError } from '../core/planner';
import {
  DEFAULT_SWEEP_PRESETS,
  SWEEP_FIELD_LABELS,
  byBatch,
  bySize,
  parseNumberList,
  skipCause,
  validateGrid,
  type SweepGrid,
  type SweepPoint,
  type SweepPreset,
  type SweepProblem,
  type SweepStatus,
} from '../core/sweep';
import './SweepPanel.css';

export interface SweepPanelProps extends SweepStatus {
  grid: SweepGrid;
  onGridChange(grid: SweepGrid): void;
  /** Points run so far, in run order. */ points: SweepPoint[];
  /** Simulated card in bytes; null when none is set. */ budgetBytes: number | null;
  /** Backend the peaks are measured on. */ backendLabel: string;
  onRun(): void;
  onStop(): void;
  onFindLargest(): void;
  /** Nothing can run now (no data set, training in progress…). */ disabled: boolean;
}

type ListKey = 'batches' | 'sizes';

const uniqueSorted = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
const pct = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;

/**
 * Sweeps: a grid of batch sizes × input sizes × trainable presets, one measured training step per
 * point, charted against the planner's prediction and the simulated card, and a binary search for the
 * largest batch that fits. Presentational: the caller runs the points and passes them in.
 */
export function SweepPanel(props: SweepPanelProps) {
  const { grid, onGridChange, points, status, budgetBytes, backendLabel, largest } = props;
  // Text being typed into a list field; null shows the grid's own list.
  const [drafts, setDrafts] = useState<Record<ListKey, string | null>>({ batches: null, sizes: null });
  const draftProblems = (['batches', 'sizes'] as const).flatMap((key) => {
    const draft = drafts[key];
    return draft === null ? [] : parseNumberList(draft, key).problems;
  });
  const problems = [...draftProblems, ...validateGrid(grid)];
  const busy = status === 'running' || largest.status === 'running';

  const editList = (key: ListKey, text: string) => {
    setDrafts((d) => ({ ...d, [key]: text }));
    const parsed = parseNumberList(text, key);
    if (parsed.problems.length === 0) onGridChange({ ...grid, [key]: parsed.values });
  };
  const settleList = (key: ListKey) => {
    const draft = drafts[key];
    if (draft !== null && parseNumberList(draft, key).problems.length === 0)
      setDrafts((d) => ({ ...d, [key]: null }));
  };

  const available = [
    ...DEFAULT_SWEEP_PRESETS,
    ...grid.presets.filter((p) => !DEFAULT_SWEEP_PRESETS.some((d) => d.id === p.id)),
  ];
  const togglePreset = (preset: SweepPreset, on: boolean) => {
    const ids = new Set(grid.presets.map((p) => p.id));
    if (on) ids.add(preset.id);
    else ids.delete(preset.id);
    onGridChange({ ...grid, presets: available.filter((p) => ids.has(p.id)) });
  };
  const presetLabel = (id: string) => available.find((p) => p.id === id)?.label ?? id;

  return (
    <section className="panel sweep-panel" aria-labelledby="sweep-title" data-testid="sweep-panel">
      <h2 id="sweep-title">Sweep</h2>
      <p className="hint">
        One training step at every point of the grid, measured on {backendLabel}, next to the planner&apos;s
        prediction.{' '}
        {budgetBytes === null
          ? 'No simulated card is set: a point runs out only when the real GPU does.'
          : `A point runs out when the step needs more than the simulated ${formatBytes(budgetBytes)} card; the larger batches at the same size and preset are then skipped.`}{' '}
        Between points the lab releases everything and re-creates the backend, so tfjs&apos; pool (which never
        frees a buffer size it has seen) does not distort later points. Each point builds the configured model
        at its size with zero weights and trains one step on a synthetic batch (memory depends on neither
        weights nor pixels) after a warm-up step that creates Adam&apos;s slots. Find largest batch searches
        batches 1–256 at the configured resolution and trainable layers.
      </p>

      <fieldset disabled={busy}>
        <legend>Grid</legend>
        <div className="row">
          <ListField
            field="batches"
            hint="comma-separated, e.g. 4, 8, 16, 32"
            text={drafts.batches ?? grid.batches.join(', ')}
            problems={problems}
            onEdit={(text) => editList('batches', text)}
            onSettle={() => settleList('batches')}
          />
          <ListField
            field="sizes"
            hint="square, in pixels, multiples of 8"
            text={drafts.sizes ?? grid.sizes.join(', ')}
            problems={problems}
            onEdit={(text) => editList('sizes', text)}
            onSettle={() => settleList('sizes')}
          />
        </div>
        <fieldset className="sweep-presets" aria-describedby="sweep-presets-problems">
          <legend>Trainable presets</legend>
          {available.map((p) => (
            <label key={p.id}>
              <input
                type="checkbox"
                checked={grid.presets.some((g) => g.id === p.id)}
                onChange={(e) => togglePreset(p, e.target.checked)}
                data-testid={`sweep-preset-${p.id}`}
              />{' '}
              {p.label}
            </label>
          ))}
          <Problems id="sweep-presets-problems" problems={problems} field="presets" />
        </fieldset>
        <Problems problems={problems} field="points" />
      </fieldset>

      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={props.onRun}
          disabled={props.disabled || busy || problems.length > 0}
          data-testid="sweep-run"
        >
          Run sweep
        </button>
        <button type="button" onClick={props.onStop} disabled={!busy} data-testid="sweep-stop">
          Stop
        </button>
        <button
          type="button"
          onClick={props.onFindLargest}
          disabled={props.disabled || busy}
          data-testid="sweep-find-largest"
        >
          Find largest batch
        </button>
      </div>

      <SweepStatusLine {...props} />

      <SweepCharts
        points={points}
        grid={grid}
        presetLabel={presetLabel}
        budgetBytes={budgetBytes}
        backendLabel={backendLabel}
      />

      {points.length > 0 && (
        <PointsTable points={points} presetLabel={presetLabel} backendLabel={backendLabel} />
      )}
    </section>
  );
}

function Problems({
  id,
  problems,
  field,
}: {
  id?: string;
  problems: SweepProblem[];
  field: SweepProblem['field'];
}) {
  const mine = problems.filter((p) => p.field === field);
  if (mine.length === 0) return null;
  return (
    <ul id={id} className="sweep-problems error-text" data-testid={`sweep-problems-${field}`}>
      {mine.map((p) => (
        <li key={p.message}>{p.message}</li>
      ))}
    </ul>
  );
}

interface ListFieldProps {
  field: ListKey;
  hint: string;
  text: string;
  problems: SweepProblem[];
  onEdit(text: string): void;
  onSettle(): void;
}

/** A comma-separated list of numbers, with the problems that name it. */
function ListField({ field, hint, text, problems, onEdit, onSettle }: ListFieldProps) {
  const id = useId();
  const invalid = problems.some((p) => p.field === field);
  return (
    <div className="field sweep-list">
      <label htmlFor={id}>{SWEEP_FIELD_LABELS[field]}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        value={text}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint ${id}-problems`}
        onChange={(e) => onEdit(e.target.value)}
        onBlur={onSettle}
        data-testid={`sweep-${field}`}
      />
      <small id={`${id}-hint`} className="hint">
        {hint}
      </small>
      <Problems id={`${id}-problems`} problems={problems} field={field} />
    </div>
  );
}

/** Progress of the sweep, its error or summary, and the largest-batch search. */
function SweepStatusLine({ status, error, progress, points, largest }: SweepPanelProps) {
  const count = (s: SweepPoint['status']) => points.filter((p) => p.status === s).length;
  const tried = largest.tried.map((t) => `${t.batch} ${t.fits ? 'fits' : 'runs out'}`).join(', ');
  const smallestTried = Math.min(...largest.tried.map((t) => t.batch));
  return (
    <>
      {status === 'running' && progress && (
        <p role="status" data-testid="sweep-progress">
          {progress.done} of {progress.total} points
        </p>
      )}
      {status === 'done' && (
        <p role="status" data-testid="sweep-summary">
          Sweep done: {count('measured')} measured, {count('oom')} out of memory, {count('skipped')} skipped.
        </p>
      )}
      {error !== null && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      {largest.status !== 'idle' && (
        <p role="status" data-testid="sweep-largest-result" data-largest={largest.batch ?? ''}>
          {largest.status === 'running'
            ? 'Searching for the largest batch that fits…'
            : largest.batch !== null
              ? `Largest batch that fits: ${largest.batch}.`
              : largest.tried.length > 0
                ? `Not even batch ${smallestTried} fits.`
                : 'No batch was tried.'}
          {tried && <span className="hint"> Tried, in order: {tried}.</span>}
        </p>
      )}
    </>
  );
}

interface ChartsProps {
  points: SweepPoint[];
  grid: SweepGrid;
  presetLabel(id: string): string;
  budgetBytes: number | null;
  backendLabel: string;
}

/** Peak against batch size and against input size, for the preset, size and batch the user picks. */
function SweepCharts({ points, grid, presetLabel, budgetBytes, backendLabel }: ChartsProps) {
  const presetId = useId();
  const sizeId = useId();
  const batchId = useId();
  const [chosen, setChosen] = useState<{ presetId?: string; size?: number; batch?: number }>({});

  // Options come from the points once there are some (the grid may have been edited since).
  const presetIds =
    points.length > 0 ? [...new Set(points.map((p) => p.presetId))] : grid.presets.map((p) => p.id);
  const sizes = uniqueSorted(points.length > 0 ? points.map((p) => p.size) : grid.sizes);
  const batches = uniqueSorted(points.length > 0 ? points.map((p) => p.batch) : grid.batches);
  // By default follow the latest point, so a running sweep shows the curve it is drawing.
  const latest = points.at(-1);
  const pick = <T,>(options: T[], choice: T | undefined, fallback: T | undefined) =>
    choice !== undefined && options.includes(choice) ? choice : (fallback ?? options[0]);
  const preset = pick(presetIds, chosen.presetId, latest?.presetId);
  const size = pick(sizes, chosen.size, latest?.size);
  const batch = pick(batches, chosen.batch, batches[0]);
  if (preset === undefined || size === undefined || batch === undefined) return null;

  return (
    <div className="sweep-charts">
      <div className="field sweep-select">
        <label htmlFor={presetId}>Preset shown</label>
        <select
          id={presetId}
          value={preset}
          onChange={(e) => setChosen((c) => ({ ...c, presetId: e.target.value }))}
          data-testid="sweep-chart-preset"
        >
          {presetIds.map((id) => (
            <option key={id} value={id}>
              {presetLabel(id)}
            </option>
          ))}
        </select>
      </div>
      <div className="charts">
        <div>
          <div className="field sweep-select">
            <label htmlFor={sizeId}>Input size</label>
            <select
              id={sizeId}
              value={size}
              onChange={(e) => setChosen((c) => ({ ...c, size: Number(e.target.value) }))}
              data-testid="sweep-chart-size"
            >
              {sizes.map((s) => (
                <option key={s} value={s}>
                  {s}×{s}
                </option>
              ))}
            </select>
          </div>
          <SweepChart
            title={`Peak vs batch size · ${size}×${size} · ${presetLabel(preset)}`}
            xLabel="batch size"
            rows={byBatch(points, size, preset)}
            budgetBytes={budgetBytes}
            backendLabel={backendLabel}
          />
        </div>
        <div>
          <div className="field sweep-select">
            <label htmlFor={batchId}>Batch size</label>
            <select
              id={batchId}
              value={batch}
              onChange={(e) => setChosen((c) => ({ ...c, batch: Number(e.target.value) }))}
              data-testid="sweep-chart-batch"
            >
              {batches.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
          </div>
          <SweepChart
            title={`Peak vs input size · batch ${batch} · ${presetLabel(preset)}`}
            xLabel="input size (px, square)"
            rows={bySize(points, batch, preset)}
            budgetBytes={budgetBytes}
            backendLabel={backendLabel}
          />
        </div>
      </div>
      <p className="hint" data-testid="sweep-precision-note">
        Precision: tfjs 4.22 has no float16 dtype, so the sweep cannot measure one. The dotted lines are the
        planner&apos;s Keras/CUDA prediction for the same steps in float32 and in mixed float16 (float16
        activations, float32 master weights): the question &quot;would this fit in Keras on that card?&quot;.
      </p>
    </div>
  );
}

interface TableProps {
  points: SweepPoint[];
  presetLabel(id: string): string;
  backendLabel: string;
}

/** Every point so far: its measured peak or how it ended, the prediction and the error. */
function PointsTable({ points, presetLabel, backendLabel }: TableProps) {
  return (
    <table className="sweep-table" data-testid="sweep-table">
      <thead>
        <tr>
          <th scope="col">batch</th>
          <th scope="col">input</th>
          <th scope="col">preset</th>
          <th scope="col">
            step peak <span className="label-measured">measured · {backendLabel}</span>
          </th>
          <th scope="col">
            peak <span className="label-predicted">predicted · planner</span>
          </th>
          <th scope="col">error</th>
        </tr>
      </thead>
      <tbody>
        {points.map((p) => {
          const measured = p.status === 'measured' ? p.peakBytes : undefined;
          return (
            <tr key={`${p.presetId}/${p.size}/${p.batch}`} data-testid="sweep-row" data-status={p.status}>
              <td>{p.batch}</td>
              <td>
                {p.size}×{p.size}
              </td>
              <td>{presetLabel(p.presetId)}</td>
              <td title={p.message}>
                <Outcome point={p} points={points} />
              </td>
              <td>{p.predictedBytes === undefined ? '—' : formatBytes(p.predictedBytes)}</td>
              <td>
                {measured === undefined || p.predictedBytes === undefined
                  ? '—'
                  : pct(predictionError(p.predictedBytes, measured))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Outcome({ point, points }: { point: SweepPoint; points: SweepPoint[] }) {
  if (point.status === 'measured')
    return <>{point.peakBytes === undefined ? 'measured' : formatBytes(point.peakBytes)}</>;
  if (point.status === 'oom')
    return <span className="error-text">{point.oomLayer ? `OOM at ${point.oomLayer}` : 'OOM'}</span>;
  const cause = skipCause(points, point);
  return (
    <span className="muted">
      skipped: a smaller batch already ran out{cause ? ` (batch ${cause.batch})` : ''}
    </span>
  );
}

import type { SweepGrid, SweepPoint, SweepStatus } from '../../core/sweep/sweep';
import { GridEditor } from './GridEditor';
import { LargestBatchResult } from './LargestBatchResult';
import { PointsTable } from './PointsTable';
import { SweepCharts } from './SweepCharts';
import { SweepStatusLine } from './SweepStatusLine';
import { useGridEditor } from './useGridEditor';
import './SweepPanel.css';
import { formatBytes } from '../../core/format';

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

/**
 * Sweeps: a grid of batch sizes × input sizes × trainable presets, one measured training step per
 * point, charted against the planner's prediction and the simulated card, and a binary search for the
 * largest batch that fits. Presentational: the caller runs the points and passes them in.
 */
export function SweepPanel(props: SweepPanelProps) {
  const { grid, points, status, budgetBytes, backendLabel, largest } = props;
  const editor = useGridEditor(grid, props.onGridChange);
  const running = status === 'running' || largest.status === 'running';
  return (
    <section className="panel sweep-panel" aria-labelledby="sweep-title" data-testid="sweep-panel">
      <h2 id="sweep-title">Sweep</h2>
      <SweepIntro budgetBytes={budgetBytes} backendLabel={backendLabel} />
      <GridEditor grid={grid} editor={editor} disabled={running} />
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={props.onRun}
          disabled={props.disabled || running || editor.problems.length > 0}
          data-testid="sweep-run"
        >
          Run sweep
        </button>
        <button type="button" onClick={props.onStop} disabled={!running} data-testid="sweep-stop">
          Stop
        </button>
        <button
          type="button"
          onClick={props.onFindLargest}
          disabled={props.disabled || running}
          data-testid="sweep-find-largest"
        >
          Find largest batch
        </button>
      </div>
      <SweepStatusLine status={status} error={props.error} progress={props.progress} points={points} />
      <LargestBatchResult largest={largest} points={points} backendLabel={backendLabel} />
      <SweepCharts
        points={points}
        grid={grid}
        presetLabel={editor.presetLabel}
        budgetBytes={budgetBytes}
        backendLabel={backendLabel}
      />
      {points.length > 0 && (
        <PointsTable points={points} presetLabel={editor.presetLabel} backendLabel={backendLabel} />
      )}
    </section>
  );
}

/** What a sweep measures, on which backend, and what keeps its points independent of each other. */
function SweepIntro({ budgetBytes, backendLabel }: Pick<SweepPanelProps, 'budgetBytes' | 'backendLabel'>) {
  return (
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
  );
}

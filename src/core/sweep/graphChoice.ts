import { DEFAULT_SWEEP_PRESETS, type SweepGrid } from './sweep';
import type { TrainConfig } from '../settings/trainConfig';

/**
 * The settings a run on the loaded graph model takes: the graph's own input size (it was exported for
 * it), no fine-tune epochs (a frozen graph has nothing to unfreeze) and at least one frozen epoch.
 */
export function graphChoice(
  config: Pick<TrainConfig, 'frozenEpochs'>,
  size: { height: number; width: number },
): Partial<TrainConfig> {
  return { weights: 'graph', ...size, fineTuneEpochs: 0, frozenEpochs: Math.max(1, config.frozenEpochs) };
}

/**
 * What a sweep measures on the loaded graph model: what its run trains (the graph outside the tape and
 * the head, in the frozen phase) at the graph's own input, for each batch of the grid. Input sizes do not
 * apply (the graph was exported for one), nor do fine-tune presets or float16 storage (a frozen graph has
 * nothing to unfreeze): the grid's frozen presets stay, or head only when it has none.
 */
export function graphSweepGrid(grid: SweepGrid, graphSize: number): SweepGrid {
  const frozen = grid.presets.filter((p) => p.phase === 'frozen');
  const head = DEFAULT_SWEEP_PRESETS.filter((p) => p.id === 'head');
  return { batches: grid.batches, sizes: [graphSize], presets: frozen.length > 0 ? frozen : head };
}

/** The sweep panel's words for a graph model's sweep and batch search. */
export function graphSweepWords(height: number, width: number): string {
  return (
    `With a graph model, the sweep and Find largest batch measure what its run trains: the graph outside ` +
    `the tape and the head, frozen phase only, at the graph's ${height}×${width} input. Input sizes, ` +
    `fine-tune presets and float16 storage do not apply, so they are turned off here.`
  );
}

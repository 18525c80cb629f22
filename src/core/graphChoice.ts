import type { TrainConfig } from './trainConfig';

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

import type { DatasetPayload, SourceItem } from '../core/run/protocol';
import type { TrainConfig } from '../core/settings/trainConfig';
import { makeDataset, type PipelineItem } from '../ml/data/pipeline';
import { decodeImage } from './decode';

/**
 * The input pipeline over one split of a loaded data set, decoding each image from its source in the
 * browser. `epoch` reseeds shuffling and augmentation; only the training split is augmented.
 */
export function labDataset(
  config: TrainConfig,
  data: DatasetPayload,
  split: 'train' | 'validation',
  epoch: number,
  shuffle = split === 'train',
  isStopped = () => false,
) {
  const items = split === 'train' ? data.train : data.validation;
  const byPath = new Map<string, SourceItem>(items.map((i) => [i.path, i]));
  const pipelineItems: PipelineItem[] = items.map(({ path, label }) => ({ path, label }));
  return makeDataset(pipelineItems, {
    height: config.height,
    width: config.width,
    batchSize: config.batchSize,
    numClasses: data.classes.length,
    augment: split === 'train' ? config.augment : undefined,
    seed: config.seed * 1000 + epoch,
    shuffle,
    prefetch: config.prefetch,
    augmentOn: config.augmentOn,
    isStopped,
    decode: (item) =>
      decodeImage(byPath.get(item.path)!.source, item.path, { height: config.height, width: config.width }),
  });
}

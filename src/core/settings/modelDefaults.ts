import { catalogEntry, packagedModel, type ModelId } from '../model/models';
import type { TrainConfig } from './trainConfig';

/** The settings a model choice writes: the model, its input size and, when they must change, the weights. */
export type ModelChoice = Pick<TrainConfig, 'model' | 'height' | 'width'> &
  Partial<Pick<TrainConfig, 'weights'>>;

/**
 * What choosing `model` in the settings changes. The input becomes the model's own default size (the
 * Keras default its label names, e.g. 64×64 for Tiny), so a preset is never left at the previous
 * model's resolution. Packaged weights fit one architecture (nsfwjs: MobileNetV2, lite0: Lite0): any
 * other starts from random weights instead; random and user-loaded weights stay as chosen.
 */
export function chooseModel(current: Pick<TrainConfig, 'weights'>, model: ModelId): ModelChoice {
  const size = catalogEntry(model).defaultSize;
  const choice: ModelChoice = { model, height: size, width: size };
  const fits = packagedModel(current.weights);
  return fits !== null && model !== fits ? { ...choice, weights: 'random' } : choice;
}

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
  return { model, height: size, width: size, ...weightsForModel(current, model) };
}

/**
 * The weights patch a change of model needs: packaged weights fit one architecture (nsfwjs: MobileNetV2,
 * lite0: Lite0), so another architecture starts from random weights; other weights stay as chosen (an
 * empty patch). A link that names a model uses it too, so a saved pretrained choice never leaves a linked
 * model untrainable.
 */
export function weightsForModel(
  current: Pick<TrainConfig, 'weights'>,
  model: string,
): Partial<Pick<TrainConfig, 'weights'>> {
  const fits = packagedModel(current.weights);
  return fits !== null && model !== fits ? { weights: 'random' } : {};
}

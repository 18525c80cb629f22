import * as tf from '@tensorflow/tfjs';
import type { EngineEvent } from '../../core/run/protocol';
import type { Batch } from '../data/pipeline';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../models/efficientnet';
import { EFFICIENTNET_V2_VARIANTS, efficientNetV2 } from '../models/efficientnetV2';
import { initializers } from '../models/graph';
import { attachHead, type Classifier } from '../models/head';
import { buildClassifier as buildLabModel } from '../models/registry';
import { NSFWJS_INPUT_SCALE } from '../weights/nsfwjs';
import { dropoutLayers, setDropoutRate } from '../tfjsInternals';
import type { RunContext } from './runLoop';
import { maxOf } from '../../core/extent';

/** Small models and seeded batches shared by the trainer's tests and the techniques bench. */

/** The Tiny classifier at a small square size, seeded so two builds have equal weights. */
export function tinyClassifier(size = 32, numClasses = 3, seed = 1) {
  return buildClassifier({ ...EFFICIENTNET_PRESETS.tiny, height: size, width: size, numClasses, seed });
}

/**
 * EfficientNetV2-B0 at a quarter of its width and half its depth: the three fused-MBConv stages and the
 * three MBConv stages with squeeze-and-excitation, one to four blocks each, at a size cpu can train.
 */
export function smallEfficientNetV2(size: number): Classifier {
  const arch = efficientNetV2({
    ...EFFICIENTNET_V2_VARIANTS['v2-b0'],
    widthCoefficient: 0.25,
    depthCoefficient: 0.5,
  });
  const init = initializers(1);
  const input = tf.input({ shape: [size, size, 3], name: 'input_layer' });
  const features = arch.features(input, { includePreprocessing: true, imagenetLayout: false, init });
  return attachHead(input, features, 3, init, `${arch.modelName}_classifier`);
}

/**
 * A family's model as the lab builds it (browser/labModels.ts) for 3 classes: Keras preprocessing, and for
 * MobileNetV2 the packaged nsfwjs weights' ×1/255 input. Seeded, so two builds have equal weights.
 */
export function labFamilyModel(id: 'mobilenetv2' | 'tiny' | 'lite0', size: number): Classifier {
  return buildLabModel({
    id,
    height: size,
    width: size,
    includePreprocessing: true,
    ...(id === 'mobilenetv2' ? { inputScale: NSFWJS_INPUT_SCALE } : {}),
    numClasses: 3,
    seed: 1,
  });
}

/** Seeded noise images in 0–255 with cycling labels: varied enough that batch statistics matter. */
export function noiseBatch(n: number, size: number, numClasses: number, seed: number): Batch {
  return tf.tidy(() => ({
    xs: tf.randomUniform([n, size, size, 3], 0, 255, 'float32', seed) as tf.Tensor4D,
    ys: tf.tensor1d(
      Array.from({ length: n }, (_, i) => i % numClasses),
      'int32',
    ),
  }));
}

/** Sets every Dropout rate to 0, for comparisons that dropout's fresh masks would blur. */
export function withoutDropout(model: tf.LayersModel): void {
  for (const layer of dropoutLayers(model)) setDropoutRate(layer, 0);
}

/** Largest |a − b| over all entries, relative to the largest |b| (0 when both are zero). */
export function relativeDifference(a: tf.Tensor, b: tf.Tensor): number {
  return tf.tidy(() => {
    const diff = tf.max(tf.abs(tf.sub(a, b))).dataSync()[0]!;
    const scale = tf.max(tf.abs(b)).dataSync()[0]!;
    return scale === 0 ? diff : diff / scale;
  });
}

/** Trainer gradients with the model they belong to. */
export interface ModelGradients {
  model: tf.LayersModel;
  grads: tf.NamedTensorMap;
}

/**
 * Largest relative difference between the gradients of two equally built models, weight by weight
 * (variable names differ between builds, so weights are matched by their place in the model).
 */
export function gradientDifference(a: ModelGradients, b: ModelGradients): number {
  const inOrder = ({ model, grads }: ModelGradients) =>
    model.weights.flatMap((w) => grads[(w.read() as tf.Variable).name] ?? []);
  const x = inOrder(a);
  const y = inOrder(b);
  if (x.length !== Object.keys(a.grads).length || y.length !== x.length) {
    throw new Error(
      `Gradients do not pair up: ${x.length} and ${y.length} of ${Object.keys(a.grads).length}.`,
    );
  }
  return maxOf(x.map((g, i) => relativeDifference(g, y[i]!)));
}

/**
 * A run context for tests: time stands still, nobody presses Stop, steps run unguarded and nothing
 * yields; every event lands in `events`. `rest` gives the data and whatever the test varies.
 */
export function quietRunContext(
  events: EngineEvent[],
  rest: Pick<RunContext, 'dataset' | 'batchesPerEpoch' | 'patience'> & Partial<RunContext>,
): RunContext {
  return {
    now: () => 0,
    emit: (e) => events.push(e),
    shouldStop: () => false,
    abort: () => {},
    guardStep: (step) => step(),
    yieldToEventLoop: async () => {},
    ...rest,
  };
}

import * as tf from '@tensorflow/tfjs';
import { EFFICIENTNET_VARIANTS, efficientNet, type EfficientNetId } from './efficientnet';
import { EFFICIENTNET_V2_VARIANTS, efficientNetV2, type EfficientNetV2Id } from './efficientnetV2';
import { initializers, type Architecture, type InitMode, type Sym } from './graph';
import { attachHead, type Classifier } from './head';
import { mobileNetV2 } from './mobilenetV2';
import type { ModelId } from '../../core/model/models';

export type { ModelId } from '../../core/model/models';
export type ModelFamily = 'efficientnet' | 'efficientnetv2' | 'mobilenetv2';

export interface ModelInfo {
  id: ModelId;
  /** Name for the model picker, e.g. 'EfficientNetV2-L'. */
  displayName: string;
  family: ModelFamily;
  /** The keras.applications function it reproduces, or null for the lab's own Tiny. */
  kerasName: string | null;
  /** Keras' default (square) input size. */
  defaultSize: number;
  /**
   * Whether Keras builds the preprocessing into the model. MobileNetV2 expects its caller to apply
   * mobilenet_v2.preprocess_input; the lab's includePreprocessing adds that as a Rescaling layer instead.
   */
  preprocessingInKeras: boolean;
}

// keras.applications has no EfficientNet-Lite: like Tiny, Lite0 is the lab's own member of the family.
const v1 = (id: EfficientNetId): ModelInfo => ({
  id,
  displayName: EFFICIENTNET_VARIANTS[id].name,
  family: 'efficientnet',
  kerasName: id === 'tiny' || id === 'lite0' ? null : `EfficientNet${id.toUpperCase()}`,
  defaultSize: EFFICIENTNET_VARIANTS[id].defaultSize,
  preprocessingInKeras: true,
});

const v2 = (id: EfficientNetV2Id): ModelInfo => ({
  id,
  displayName: EFFICIENTNET_V2_VARIANTS[id].name,
  family: 'efficientnetv2',
  kerasName: `EfficientNetV2${id.slice(3).toUpperCase()}`,
  defaultSize: EFFICIENTNET_V2_VARIANTS[id].defaultSize,
  preprocessingInKeras: true,
});

/** Every architecture the lab builds, smallest family member first. */
export const MODELS: readonly ModelInfo[] = [
  v1('tiny'),
  ...(['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7'] as const).map(v1),
  v1('lite0'),
  ...(['v2-b0', 'v2-b1', 'v2-b2', 'v2-b3', 'v2-s', 'v2-m', 'v2-l'] as const).map(v2),
  {
    id: 'mobilenetv2',
    displayName: 'MobileNetV2',
    family: 'mobilenetv2',
    kerasName: 'MobileNetV2',
    defaultSize: 224,
    preprocessingInKeras: false,
  },
];

export function modelInfo(id: ModelId): ModelInfo {
  const info = MODELS.find((m) => m.id === id);
  if (!info) throw new Error(`Unknown model '${id}'.`);
  return info;
}

function architecture(id: ModelId, height: number): Architecture {
  if (id === 'mobilenetv2') return mobileNetV2(height);
  if (id in EFFICIENTNET_V2_VARIANTS) return efficientNetV2(EFFICIENTNET_V2_VARIANTS[id as EfficientNetV2Id]);
  return efficientNet(
    EFFICIENTNET_VARIANTS[id as EfficientNetId],
    id === 'tiny' || id === 'lite0' ? `efficientnet-${id}` : `efficientnet${id}`,
  );
}

export interface BackboneOptions {
  id: ModelId;
  /** Input height in pixels (any size from 32 up, e.g. 300). */
  height: number;
  /** Input width in pixels, independent of the height (e.g. 500). */
  width: number;
  /** Keras' preprocessing layers, taking pixels in [0, 255] (include_preprocessing; see ModelInfo). */
  includePreprocessing: boolean;
  /** The layout Keras builds for weights='imagenet' (EfficientNet V1 only adds a Rescaling); default false. */
  imagenetLayout?: boolean;
  /** MobileNetV2 only: the preprocessing Rescaling for weights trained on another pixel range. */
  inputScale?: { scale: number; offset: number };
  /** Seed for the kernel initialisers. */
  seed?: number;
  /** 'zeros' skips random sampling: fast builds for shapes, counts and memory experiments. */
  init?: InitMode;
}

export interface BuildOptions extends BackboneOptions {
  /** Keras' include_top classifier (1000-way softmax unless numClasses says otherwise). */
  includeTop: boolean;
  numClasses?: number;
}

function backbone(opts: BackboneOptions) {
  const init = initializers(opts.seed, opts.init);
  const arch = architecture(opts.id, opts.height);
  const input = tf.input({ shape: [opts.height, opts.width, 3], name: 'input_layer' });
  const features: Sym = arch.features(input, {
    includePreprocessing: opts.includePreprocessing,
    imagenetLayout: opts.imagenetLayout ?? false,
    ...(opts.inputScale ? { inputScale: opts.inputScale } : {}),
    init,
  });
  return { arch, init, input, features };
}

/** The keras.applications model for `id`: same layers, names, weight names and shapes as Keras builds. */
export function buildModel(opts: BuildOptions): tf.LayersModel {
  const { arch, init, input, features } = backbone(opts);
  const output = opts.includeTop ? arch.top(features, opts.numClasses ?? 1000, init) : features;
  return tf.model({ inputs: input, outputs: output, name: arch.modelName });
}

export interface ClassifierOptions extends BackboneOptions {
  numClasses: number;
  /** Rate of the head's two dropouts; default the seed script's 0.2. */
  headDropout?: number;
}

/** The lab's classifier: a Keras backbone (include_top=False) and the seed's head, as one flat model. */
export function buildClassifier(opts: ClassifierOptions): Classifier {
  const { arch, init, input, features } = backbone(opts);
  const name = `${arch.modelName}_classifier`;
  return attachHead(input, features, opts.numClasses, init, name, opts.headDropout);
}

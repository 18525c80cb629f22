import type { ComputeKind } from '../device/adapterKind';
import { DEFAULT_AUGMENT, NO_AUGMENT } from '../data/augment';
import { configProblems } from './schema';
import type { TrainConfig } from './trainConfig';

/**
 * Defaults sized for the built-in sample on a laptop GPU: the offline pretrained MobileNetV2 (from the
 * nsfwjs package) at 128×128, so fine-tuning starts from learned features with no download.
 */
export const DEFAULT_TRAIN_CONFIG: TrainConfig = {
  model: 'mobilenetv2',
  weights: 'nsfwjs',
  height: 128,
  width: 128,
  batchSize: 8,
  frozenEpochs: 2,
  fineTuneEpochs: 1,
  frozenLearningRate: 1e-3,
  fineTuneLearningRate: 1e-4,
  fineTune: { kind: 'last', n: 20 },
  techniques: {
    backboneOutsideTape: true,
    accumulationSteps: 1,
    checkpointing: 'off',
    cacheFeatures: true,
    float16Storage: false,
    leanBackward: false,
  },
  precision: { webglF16Textures: false, lossScaling: 'off' },
  augment: DEFAULT_AUGMENT,
  augmentOn: 'gpu',
  validationFraction: 0.2,
  seed: 42,
  patience: 2,
  prefetch: 1,
  budgetBytes: null,
  preciseProfile: false,
};

/**
 * The defaults on a machine without a GPU (a software adapter such as SwiftShader, or the cpu backend),
 * where a 128×128 MobileNetV2 step takes many seconds (issue 16: the default journey projected at over
 * 10 minutes there). The built-in sample's own 64×64 instead of 128×128 (a quarter of the compute), and
 * augmentation off so that the feature cache serves every frozen epoch after the first (no decoding,
 * no backbone). Measured by the bench's journey row (`npm run bench -- --only=journey`).
 */
export const SOFTWARE_TRAIN_CONFIG: TrainConfig = {
  ...DEFAULT_TRAIN_CONFIG,
  height: 64,
  width: 64,
  augment: NO_AUGMENT,
};

/** The defaults for what computes the kernels: the software ones without a GPU, else DEFAULT_TRAIN_CONFIG. */
export function defaultsFor(kind: ComputeKind): TrainConfig {
  return kind === 'software' || kind === 'cpu' ? SOFTWARE_TRAIN_CONFIG : DEFAULT_TRAIN_CONFIG;
}

/** The same settings, whatever order their keys were stored in. */
const sameSettings = (a: unknown, b: unknown): boolean => {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameSettings(ra[k], rb[k]));
};

/**
 * The settings once the backend is known: untouched defaults (either set) become the defaults for this
 * machine; anything the user or a link chose stays as it is. A link always writes every value
 * explicitly (core/settings/url writeLink), so it reproduces the same settings on any machine.
 */
export function adoptMachineDefaults(config: TrainConfig, kind: ComputeKind): TrainConfig {
  const untouched = sameSettings(config, DEFAULT_TRAIN_CONFIG) || sameSettings(config, SOFTWARE_TRAIN_CONFIG);
  return untouched ? defaultsFor(kind) : config;
}

/** Whether these are the defaults chosen for a machine without a GPU (what the backend badge says). */
export const isSoftwareDefaults = (config: TrainConfig): boolean =>
  sameSettings(config, SOFTWARE_TRAIN_CONFIG);

/** Card sizes offered for the simulated budget, in GB (10^9 bytes, as cards are sold). */
export const BUDGET_PRESETS_GB = [2, 4, 8, 12, 16, 24, 40, 80] as const;

/** Problems with a configuration, each naming the setting and why; empty when it can run. */
export function validateTrainConfig(c: TrainConfig): string[] {
  return configProblems(c);
}

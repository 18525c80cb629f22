import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG, validateTrainConfig } from './settings';
import type { TechniqueConfig, TrainConfig } from './trainConfig';
import { readLink, writeLink, type LinkSettings } from './url';

const BASE: LinkSettings = {
  config: DEFAULT_TRAIN_CONFIG,
  backend: 'auto',
  sample: false,
  view: null,
  mode: 'explore',
};

const withConfig = (patch: Partial<TrainConfig>): LinkSettings => ({
  ...BASE,
  config: { ...DEFAULT_TRAIN_CONFIG, ...patch },
});
const withTechniques = (patch: Partial<TechniqueConfig>): Partial<TrainConfig> => ({
  techniques: { ...DEFAULT_TRAIN_CONFIG.techniques, ...patch },
});

// One change per setting. Typed by TrainConfig's keys, so a new setting fails to compile until it has a
// case here (and a codec in urlSettings.ts).
const CHANGES: Record<keyof TrainConfig, Partial<TrainConfig>[]> = {
  model: [
    { model: 'tiny', weights: 'random' },
    { model: 'v2-l', weights: 'random' },
  ],
  weights: [{ weights: 'random' }],
  height: [{ height: 300 }],
  width: [{ width: 500 }],
  batchSize: [{ batchSize: 28 }],
  frozenEpochs: [{ frozenEpochs: 5 }],
  fineTuneEpochs: [{ fineTuneEpochs: 0 }],
  frozenLearningRate: [{ frozenLearningRate: 3e-5 }],
  fineTuneLearningRate: [{ fineTuneLearningRate: 0.00012345 }],
  fineTune: [
    { fineTune: { kind: 'all' } },
    { fineTune: { kind: 'head' } },
    { fineTune: { kind: 'last', n: 40 } },
    { fineTune: { kind: 'from-block', block: 'block6a' } },
    { fineTune: { kind: 'layers', names: ['block7a_project_conv', 'top_conv'] } },
    { fineTune: { kind: 'layers', names: [] } },
  ],
  techniques: [
    withTechniques({ backboneOutsideTape: false }),
    withTechniques({ accumulationSteps: 4 }),
    withTechniques({ checkpointing: 'blocks' }),
    withTechniques({ cacheFeatures: false }),
    withTechniques({ backboneOutsideTape: false, cacheFeatures: false }),
    withTechniques({ float16Storage: true }),
  ],
  precision: [
    { precision: { webglF16Textures: true, lossScaling: 'off' } },
    { precision: { webglF16Textures: false, lossScaling: 'dynamic' } },
  ],
  augment: [
    { augment: { flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] } },
    { augment: { flip: false, brightnessMaxDelta: 12.5, contrastRange: [0.8, 1.25] } },
  ],
  augmentOn: [{ augmentOn: 'cpu' }],
  validationFraction: [{ validationFraction: 0.35 }],
  seed: [{ seed: 7 }, { seed: -3 }],
  patience: [{ patience: 9 }],
  prefetch: [{ prefetch: 0 }],
  budgetBytes: [{ budgetBytes: 90e6 }, { budgetBytes: 16e9 }, { budgetBytes: 1_234_567 }],
  preciseProfile: [{ preciseProfile: true }],
};

describe('a link', () => {
  it('round-trips every setting, each changed from the defaults', () => {
    for (const [key, changes] of Object.entries(CHANGES)) {
      for (const change of changes) {
        const s = withConfig(change);
        expect(s.config[key as keyof TrainConfig], key).not.toEqual(
          DEFAULT_TRAIN_CONFIG[key as keyof TrainConfig],
        );
        const read = readLink(writeLink(s), BASE);
        expect(read.ignored, key).toEqual([]);
        expect(read.settings, key).toEqual(s);
      }
    }
  });

  it('sets what a saved setting said before, not only what differs from the defaults', () => {
    const saved = withConfig({ batchSize: 99, budgetBytes: 4e9, fineTune: { kind: 'all' } });
    expect(readLink(writeLink(BASE), saved).settings).toEqual(BASE);
  });

  it('round-trips the backend, the sample, the view and the mode', () => {
    const s: LinkSettings = { ...BASE, backend: 'webgpu', sample: true, view: 'planner', mode: 'predict' };
    expect(readLink(`?${writeLink(s)}`, BASE)).toEqual({
      settings: s,
      applied: expect.arrayContaining(['backend', 'sample', 'view', 'mode']) as unknown as string[],
      ignored: [],
    });
  });

  it('reads the short form a person writes', () => {
    const q =
      'model=tiny&weights=random&size=64x64&batch=16&epochs=5+1&lr=1e-3,1e-4&train=from:block6&tech=outside,acc2,ckpt,cache&card=90MB&aug=off&split=0.2&seed=42&backend=webgpu&sample=1&mode=predict';
    const { settings, ignored } = readLink(q, BASE);
    expect(ignored).toEqual([]);
    expect(settings.config).toMatchObject({
      model: 'tiny',
      height: 64,
      width: 64,
      batchSize: 16,
      frozenEpochs: 5,
      fineTuneEpochs: 1,
      frozenLearningRate: 1e-3,
      fineTuneLearningRate: 1e-4,
      fineTune: { kind: 'from-block', block: 'block6' },
      techniques: {
        backboneOutsideTape: true,
        accumulationSteps: 2,
        checkpointing: 'blocks',
        cacheFeatures: true,
      },
      budgetBytes: 90e6,
      augment: { flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] },
    });
    // A form-encoded '+' (a space) and percent-encoding read the same.
    expect(readLink('epochs=5%2B1', BASE).settings.config.fineTuneEpochs).toBe(1);
    expect(readLink('epochs=5 1', BASE).settings.config.frozenEpochs).toBe(5);
  });

  it('names each bad or unknown value, applies the good ones, and never half of one', () => {
    const q =
      'model=tiny&weights=random&batch=0&size=64x9999&foo=1&train=last:-3&tech=acc2,warp&card=12XB&lr=1e-3&model=b0&split=abc&weights=file&view=nowhere&mode=guess&backend=tpu&aug=contrast:2:1&x=%E0%A4%A';
    const { settings, applied, ignored } = readLink(q, BASE);
    expect(applied).toEqual(['model', 'weights']);
    expect(settings).toEqual(withConfig({ model: 'tiny', weights: 'random' }));
    expect(ignored).toEqual([
      'batch=0: Batch size must be a whole number from 1 to 1024 (got 0).',
      'size=64x9999: Input width must be a whole number from 8 to 2048 (got 9999).',
      'foo=1: the lab has no such setting.',
      'train=last:-3: Unfrozen layers must be a whole number from 0 to 100000 (got -3).',
      "tech=acc2,warp: tech has no technique 'warp': use outside, cache, f16, lean, ckpt, accN or none.",
      'card=12XB: card must be none or a size in MB or GB, e.g. 90MB or 16GB.',
      'lr=1e-3: lr must be FROZEN,FINE-TUNE learning rates, e.g. 1e-3,1e-4.',
      'model=b0: given twice; the first one counts.',
      'split=abc: Validation share must be above 0 and below 1 (got abc); EarlyStopping needs val_loss.',
      'weights=file: given twice; the first one counts.',
      'view=nowhere: view must be one of data, preview, model, settings, layers, memory, card, planner, train, run, oom, metrics, log, results, history, experiments, sweep, workshop, lessons, class-results.',
      'mode=guess: mode must be predict or explore.',
      "backend=tpu: Backend must be one of auto, webgpu, webgl, cpu (got 'tpu').",
      'aug=contrast:2:1: Contrast lower bound 2 is above the upper bound 1.',
      'x=%E0%A4%A: it is not validly percent-encoded.',
    ]);
  });

  it('starts a linked model other than MobileNetV2 from random weights over saved pretrained ones', () => {
    const saved = withConfig({ model: 'mobilenetv2', weights: 'nsfwjs' });
    const linked = readLink('model=tiny&size=32x32', saved);
    expect(linked.settings.config).toMatchObject({ model: 'tiny', weights: 'random' });
    expect(validateTrainConfig(linked.settings.config)).toEqual([]);
    expect(readLink('model=mobilenetv2', saved).settings.config.weights).toBe('nsfwjs');
    expect(readLink('model=resnet', saved).settings.config).toEqual(saved.config);
  });

  it('refuses weights from a file and an unknown model, saying why', () => {
    expect(readLink('weights=file&model=resnet', BASE).ignored).toEqual([
      'weights=file: weights from a file cannot come with a link: load the file, or use random, nsfwjs or lite0.',
      "model=resnet: Unknown model 'resnet'; choose one from the list.",
    ]);
    expect(writeLink(withConfig({ weights: 'file' }))).not.toContain('weights=');
  });

  it('refuses a graph model as weights, which a link cannot carry either', () => {
    expect(readLink('weights=graph', BASE).ignored).toEqual([
      'weights=graph: weights from a file (a graph model) cannot come with a link: load the file, or use random, nsfwjs or lite0.',
    ]);
    expect(writeLink(withConfig({ weights: 'graph' }))).not.toContain('weights=');
  });

  it('keeps a technique the link does not know about as it was', () => {
    const base = withConfig({});
    const extended = {
      ...base,
      config: { ...base.config, techniques: { ...base.config.techniques, future: true } },
    };
    const read = readLink('tech=none', extended as LinkSettings);
    expect(read.settings.config.techniques).toMatchObject({ backboneOutsideTape: false, future: true });
  });

  it('names a card or learning rate outside what a number can say, with the range', () => {
    const { ignored } = readLink('card=1e308GB&lr=1e-400,1e-4', BASE);
    expect(ignored).toEqual([
      'card=1e308GB: card must be from 1MB to 1000GB (got 1e308GB); e.g. 90MB or 16GB, or none.',
      'lr=1e-400,1e-4: Frozen learning rate must be above 0 and below 10 (got 1e-400).',
    ]);
    expect(readLink('card=1e9MB', BASE).ignored).toEqual([
      'card=1e9MB: card must be from 1MB to 1000GB (got 1e9MB); e.g. 90MB or 16GB, or none.',
    ]);
    expect(readLink('card=1000GB', BASE).settings.config.budgetBytes).toBe(1e12);
  });

  it('reads numbers written in decimal only: hex, binary, octal and Infinity are named, not read', () => {
    const { settings, ignored } = readLink('batch=0x10&seed=0b11&patience=0o7&prefetch=Infinity', BASE);
    expect(ignored.map((line) => line.split(':')[0])).toEqual([
      'batch=0x10',
      'seed=0b11',
      'patience=0o7',
      'prefetch=Infinity',
    ]);
    expect(settings.config.batchSize).toBe(BASE.config.batchSize);
    const read = readLink('batch=16&lr=1e-3,.5e-4&split=0.25&seed=-3', BASE);
    expect(read.ignored).toEqual([]);
    expect(read.settings.config).toMatchObject({
      batchSize: 16,
      frozenLearningRate: 1e-3,
      fineTuneLearningRate: 0.5e-4,
      validationFraction: 0.25,
      seed: -3,
    });
  });

  it('lists the first twenty ignored parameters and counts the rest by reason', () => {
    const q = Array.from({ length: 1500 }, (_, i) => `k${i}=1`).join('&') + '&batch=0';
    const { ignored } = readLink(q, BASE);
    expect(ignored).toHaveLength(21);
    expect(ignored[0]).toBe('k0=1: the lab has no such setting.');
    expect(ignored[20]).toBe(
      '…and 1,481 more ignored: 1,480 because the lab has no such setting; 1 because Batch size must be a whole number from 1 to 1024 (got 0).',
    );
  });
});

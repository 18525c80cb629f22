import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_CONFIG, validateTrainConfig } from './settings';
import { mergeValid } from './schema';

describe('validateTrainConfig', () => {
  it('accepts the defaults', () => {
    expect(validateTrainConfig(DEFAULT_TRAIN_CONFIG)).toEqual([]);
  });
  it('names each bad setting', () => {
    const problems = validateTrainConfig({
      ...DEFAULT_TRAIN_CONFIG,
      model: 'b0',
      weights: 'random',
      batchSize: 0,
      height: 12.5,
      fineTuneLearningRate: 0,
      validationFraction: 0,
      augment: { ...DEFAULT_AUGMENT_BAD },
    });
    expect(problems).toEqual([
      'Input height must be a whole number from 8 to 2048 (got 12.5).',
      'Batch size must be a whole number from 1 to 1024 (got 0).',
      'Fine-tune learning rate must be above 0 and below 10 (got 0).',
      'Validation share must be above 0 and below 1 (got 0); EarlyStopping needs val_loss.',
      'Brightness max delta must be a number ≥ 0 (got -1).',
    ]);
  });
  it('refuses precise profiling together with a simulated card', () => {
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, preciseProfile: true })).toEqual([]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, preciseProfile: true, budgetBytes: 4e9 })).toEqual([
      'Precise profiling cannot run with a simulated card: tf.profile hides the error the card raises inside a kernel. Turn one of them off.',
    ]);
  });
  it('keeps the packaged weights to the architecture they are for', () => {
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, model: 'b0' })).toEqual([
      'The packaged pretrained weights are a MobileNetV2: choose MobileNetV2, or other weights.',
    ]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, model: 'b0', weights: 'random' })).toEqual([]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, model: 'b0', weights: 'lite0' })).toEqual([
      'The packaged pretrained weights are an EfficientNet-Lite0: choose EfficientNet-Lite0, or other weights.',
    ]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, model: 'lite0', weights: 'lite0' })).toEqual([]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, height: 16, width: 16 })).toEqual([
      'MobileNetV2 needs at least 32×32 pixels (got 16×16).',
    ]);
  });
  it('runs a graph model in the frozen phase only, at its own size', () => {
    const graph = { ...DEFAULT_TRAIN_CONFIG, weights: 'graph' as const, height: 16, width: 16 };
    expect(validateTrainConfig({ ...graph, fineTuneEpochs: 0 })).toEqual([]);
    expect(validateTrainConfig({ ...graph, fineTuneEpochs: 2 })).toEqual([
      'A graph model trains the frozen phase only: set fine-tune epochs to 0 and at least one frozen epoch.',
    ]);
  });
  it('needs at least one epoch', () => {
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, frozenEpochs: 0, fineTuneEpochs: 0 })).toContain(
      'Set at least one epoch in either phase.',
    );
  });
});

describe('mergeValid (saved settings and links)', () => {
  it('keeps every good field and the fallback for each bad or missing one, naming the bad', () => {
    const saved = {
      batchSize: 32,
      height: 'tall',
      model: 'resnet',
      techniques: { accumulationSteps: 4, checkpointing: 'sometimes' },
      augment: { flip: false, contrastRange: [2, 1] },
      fineTune: { kind: 'last', n: 3 },
      budgetBytes: null,
      unknownOldField: 1,
    };
    const { config, problems } = mergeValid(saved, DEFAULT_TRAIN_CONFIG);
    expect(config).toEqual({
      ...DEFAULT_TRAIN_CONFIG,
      batchSize: 32,
      techniques: { ...DEFAULT_TRAIN_CONFIG.techniques, accumulationSteps: 4 },
      augment: { ...DEFAULT_TRAIN_CONFIG.augment, flip: false },
      fineTune: { kind: 'last', n: 3 },
    });
    expect(problems).toEqual([
      'Input height must be a whole number from 8 to 2048 (got tall).',
      "Unknown model 'resnet'; choose one from the list.",
      "Checkpointing must be one of off, blocks (got 'sometimes').",
      'Contrast lower bound 2 is above the upper bound 1.',
    ]);
  });
  it('refuses a trainable set that is not one of the rules', () => {
    expect(mergeValid({ fineTune: { kind: 'some' } }, DEFAULT_TRAIN_CONFIG).problems).toEqual([
      "The trainable set must be last N layers, from a block, all, head only or chosen layers (got 'some').",
    ]);
  });
});

const DEFAULT_AUGMENT_BAD = {
  flip: true,
  brightnessMaxDelta: -1,
  contrastRange: [0.5, 1.5] as [number, number],
};

describe('the simulated card', () => {
  it('holds from 1 MB to 1 TB, and a refusal says the range, what it got and what to choose', () => {
    const refusal = (got: string) =>
      `The simulated card must hold from 1 MB to 1 TB (got ${got}); choose a card such as 16 GB or 80 GB, or no card.`;
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, budgetBytes: 1e15 })).toEqual([
      refusal('1000000 GB'),
    ]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, budgetBytes: 0.5e6 })).toEqual([refusal('0.5 MB')]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, budgetBytes: 1e12 })).toEqual([]);
    expect(validateTrainConfig({ ...DEFAULT_TRAIN_CONFIG, budgetBytes: 1e6 })).toEqual([]);
  });
});

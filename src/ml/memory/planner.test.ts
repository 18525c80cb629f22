import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { trainableLayers } from '../../core/model/modelSpec';
import { checkpointSegments, planTfjs, predictionError } from '../../core/planner/planner';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../models/efficientnet';
import type { Classifier } from '../models/head';
import { labFamilyModel, noiseBatch, smallEfficientNetV2, tinyClassifier } from '../train/fixtures';
import { blockSegments } from '../train/segments';
import { Trainer } from '../train/trainer';
import { describeModel } from './describe';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

type Case = [phase: 'frozen' | 'fine-tune', unfreeze: number, outside: boolean, size: number, batch: number];

// Each case peaks somewhere else: the Adam update, the forward pass, the end of backprop, the backbone.
const CASES: Case[] = [
  ['frozen', 0, true, 32, 4],
  ['frozen', 0, false, 32, 4],
  ['fine-tune', 1000, false, 32, 4],
  ['fine-tune', 30, false, 32, 2],
  ['fine-tune', 80, false, 40, 3],
];

describe('planner against tf.profile on the cpu backend', () => {
  it.each(CASES)(
    '%s (unfreeze %i, outside tape %s) at %i px, batch %i: within 3%',
    async (phase, unfreeze, outside, size, batch) => {
      const { model, backboneLayerCount } = buildClassifier({
        ...EFFICIENTNET_PRESETS.tiny,
        height: size,
        width: size,
        numClasses: 3,
        seed: 1,
      });
      const spec = describeModel(model, backboneLayerCount);
      const trainer = new Trainer(model, backboneLayerCount, { frozenBackboneOutsideTape: outside });
      trainer.compile(phase, 1e-3, unfreeze);
      const data = tf.tidy(() => ({
        xs: tf.randomUniform([batch, size, size, 3], 0, 255) as tf.Tensor4D,
        ys: tf.tensor1d(
          Array.from({ length: batch }, (_, i) => i % 3),
          'int32',
        ),
      }));
      // The first step creates Adam's slots; the planner predicts every later step.
      await trainer.step(data);
      const measured = await tf.profile(async () => {
        await trainer.step(data);
      });
      const plan = planTfjs({
        spec,
        batch,
        trainable: trainableLayers(spec, phase, unfreeze),
        optimizer: 'adam',
        backboneOutsideTape: phase === 'frozen' && outside,
      });
      expect(Math.abs(predictionError(plan.peakBytes, measured.peakBytes))).toBeLessThan(3);
      tf.dispose(data);
      trainer.dispose();
      model.dispose();
    },
  );

  type TechniqueCase = [
    label: string,
    unfreeze: number,
    batch: number,
    accumulationSteps: number,
    checkpointing: 'off' | 'blocks',
  ];
  // Cases where the technique's own term is the peak (not the Adam update): accumulation peaks in a
  // later micro-batch's backprop next to the gradient sum; checkpointing in block2a's recompute (full
  // fine-tune) or in its forward outside the tape (last 30 layers, never recomputed).
  const TECHNIQUES: TechniqueCase[] = [
    ['accumulation 2, full fine-tune', 1000, 8, 2, 'off'],
    ['accumulation 4, full fine-tune', 1000, 12, 4, 'off'],
    ['accumulation 4 of an uneven batch (3, 2, 2, 2)', 1000, 9, 4, 'off'],
    ['checkpointed full fine-tune', 1000, 8, 1, 'blocks'],
    ['checkpointed, last 30 layers', 30, 32, 1, 'blocks'],
    ['checkpointed and accumulation 2', 1000, 12, 2, 'blocks'],
  ];

  it.each(TECHNIQUES)(
    '%s (unfreeze %i) at 32 px, batch %i: within 3%',
    async (_label, unfreeze, batch, accumulationSteps, checkpointing) => {
      const { model, backboneLayerCount } = buildClassifier({
        ...EFFICIENTNET_PRESETS.tiny,
        height: 32,
        width: 32,
        numClasses: 3,
        seed: 1,
      });
      const spec = describeModel(model, backboneLayerCount);
      const trainer = new Trainer(model, backboneLayerCount, { accumulationSteps, checkpointing, seed: 1 });
      trainer.compile('fine-tune', 1e-3, unfreeze);
      const data = noiseBatch(batch, 32, 3, 1);
      await trainer.step(data);
      const measured = await tf.profile(async () => {
        await trainer.step(data);
      });
      const plan = planTfjs({
        spec,
        batch,
        trainable: trainableLayers(spec, 'fine-tune', unfreeze),
        optimizer: 'adam',
        backboneOutsideTape: false,
        accumulationSteps,
        checkpointing,
      });
      expect(plan.at).not.toBe('optimizer');
      expect(Math.abs(predictionError(plan.peakBytes, measured.peakBytes))).toBeLessThan(3);
      tf.dispose(data);
      trainer.dispose();
      model.dispose();
    },
  );

  it.each([4, 64])(
    'a frozen step on cached backbone features at 32 px, batch %i: within 3%',
    async (batch) => {
      const { model, backboneLayerCount } = tinyClassifier(32, 3, 1);
      const spec = describeModel(model, backboneLayerCount);
      const trainer = new Trainer(model, backboneLayerCount, { seed: 1 });
      trainer.compile('frozen', 1e-3, 0);
      const data = noiseBatch(batch, 32, 3, 1);
      const features = trainer.backboneFeatures(data.xs);
      tf.dispose(data.xs);
      const cached = { features, ys: data.ys };
      await trainer.step(cached);
      const measured = await tf.profile(async () => {
        await trainer.step(cached);
      });
      const plan = planTfjs({
        spec,
        batch,
        trainable: trainableLayers(spec, 'frozen', 0),
        optimizer: 'adam',
        backboneOutsideTape: true,
        cachedFeatures: true,
        queuedBatches: 3,
      });
      expect(plan.categories.input).toBe(features.size * 4 + batch * 4);
      expect(Math.abs(predictionError(plan.peakBytes, measured.peakBytes))).toBeLessThan(3);
      tf.dispose([features, data.ys]);
      trainer.dispose();
      model.dispose();
    },
  );

  // One configuration per family the lab builds, each where a family's own layers set the peak.
  const lab = labFamilyModel;

  type FamilyCase = [
    label: string,
    size: number,
    batch: number,
    build: (size: number) => Classifier,
    outside: boolean,
    at: string,
  ];
  const mobileNet = (n: number) => lab('mobilenetv2', n);
  const FAMILIES: FamilyCase[] = [
    // ReLU6 leaves its uncapped ReLU in the scope, on the tape and outside it.
    ['MobileNetV2 ×1/255, frozen on tape', 48, 4, mobileNet, false, 'forward'],
    ['MobileNetV2 ×1/255, frozen outside the tape', 64, 8, mobileNet, true, 'backbone'],
    [
      'EfficientNet B0-style (Tiny, Normalization), frozen on tape',
      48,
      4,
      (n) => lab('tiny', n),
      false,
      'forward',
    ],
    // Lite0: B0's blocks with ReLU6 (a capped ReLU) and no squeeze-and-excite gates.
    ['EfficientNet-Lite0, frozen on tape', 48, 4, (n) => lab('lite0', n), false, 'forward'],
    ['EfficientNet-Lite0, frozen outside the tape', 64, 8, (n) => lab('lite0', n), true, 'backbone'],
    // Normalization's counted cast and difference set the backbone's peak at its first layers.
    ['EfficientNetV2 fused, frozen outside the tape', 96, 8, smallEfficientNetV2, true, 'backbone'],
  ];

  it.each(FAMILIES)('%s at %i px, batch %i: within 3%', async (_label, size, batch, build, outside, at) => {
    const { model, backboneLayerCount } = build(size);
    const spec = describeModel(model, backboneLayerCount);
    const trainer = new Trainer(model, backboneLayerCount, { frozenBackboneOutsideTape: outside, seed: 1 });
    trainer.compile('frozen', 1e-3, 0);
    const data = noiseBatch(batch, size, 3, 1);
    await trainer.step(data);
    const measured = await tf.profile(async () => {
      await trainer.step(data);
    });
    const plan = planTfjs({
      spec,
      batch,
      trainable: trainableLayers(spec, 'frozen', 0),
      optimizer: 'adam',
      backboneOutsideTape: outside,
    });
    expect(plan.at).toBe(at);
    expect(plan.approximateKinds).toEqual([]);
    expect(Math.abs(predictionError(plan.peakBytes, measured.peakBytes))).toBeLessThan(3);
    tf.dispose(data);
    trainer.dispose();
    model.dispose();
  });

  it("cuts the same checkpoint segments as the trainer's blockSegments", () => {
    const legacy = (preset: typeof EFFICIENTNET_PRESETS.tiny, size: number) =>
      buildClassifier({ ...preset, height: size, width: size, numClasses: 3, seed: 1 });
    for (const { model, backboneLayerCount } of [
      legacy(EFFICIENTNET_PRESETS.tiny, 32),
      legacy({ ...EFFICIENTNET_PRESETS.b0, widthCoefficient: 0.25 }, 64),
      // MobileNetV2 names its blocks 'block_2_', and its residual adds read the block's input.
      lab('mobilenetv2', 32),
      smallEfficientNetV2(32),
    ]) {
      const planned = checkpointSegments(describeModel(model, backboneLayerCount));
      const trained = blockSegments(model).map((s) => ({
        name: s.name,
        layers: s.layers.map((l) => l.name),
      }));
      expect(planned).toEqual(trained);
      expect(planned.length).toBeGreaterThan(3);
      model.dispose();
    }
  });

  it('describes the model without creating tensors', () => {
    const { model, backboneLayerCount } = buildClassifier({
      ...EFFICIENTNET_PRESETS.tiny,
      height: 32,
      width: 32,
      numClasses: 3,
      seed: 1,
    });
    const before = tf.memory().numTensors;
    const spec = describeModel(model, backboneLayerCount);
    expect(tf.memory().numTensors).toBe(before);
    expect(spec.layers.map((l) => l.name)).toEqual(model.layers.map((l) => l.name));
    const conv = spec.layers.find((l) => l.name === 'stem_conv');
    expect(conv?.kind).toBe('conv2d');
    expect(conv?.outputShape).toEqual([16, 16, 8]);
    expect(spec.layers.find((l) => l.name === 'block1a_se_excite')?.inputs).toHaveLength(2);
    model.dispose();
  });
});

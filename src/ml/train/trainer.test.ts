import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { EngineEvent } from '../../core/run/protocol';
import type { Batch } from '../data/pipeline';
import { buildClassifier, EFFICIENTNET_PRESETS } from '../models/efficientnet';
import { attributeOutputs, trackLayers } from '../memory/layerContext';
import { registeredVariables, setDropoutRate } from '../tfjsInternals';
import { quietRunContext } from './fixtures';
import { applyPhase } from './freeze';
import { forEachBatch } from './iteration';
import { runTraining } from './runLoop';
import { Trainer } from './trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const CLASSES = 3;

function tiny() {
  return buildClassifier({
    ...EFFICIENTNET_PRESETS.tiny,
    height: SIZE,
    width: SIZE,
    numClasses: CLASSES,
    seed: 7,
  });
}

/** A batch whose class is visible in the pixels (brightness), so a step has something to learn. */
function makeBatch(n: number, offset = 0): Batch {
  return tf.tidy(() => {
    const labels = Array.from({ length: n }, (_, i) => (i + offset) % CLASSES);
    const xs = tf.stack(labels.map((l) => tf.fill([SIZE, SIZE, 3], 40 + l * 80))) as tf.Tensor4D;
    return { xs, ys: tf.tensor1d(labels, 'int32') };
  });
}

function dataset(batches: number, batchSize: number): tf.data.Dataset<Batch> {
  return tf.data.generator(function* () {
    for (let b = 0; b < batches; b++) yield makeBatch(batchSize, b);
  });
}

describe('Trainer', () => {
  it('steps twice without leaking: numTensors after step 2 equals after step 1', async () => {
    const { model, backboneLayerCount } = tiny();
    const trainer = new Trainer(model, backboneLayerCount);
    trainer.compile('fine-tune', 1e-3, 1000);
    const batch = makeBatch(4);
    const m1 = await trainer.step(batch);
    const afterFirst = tf.memory().numTensors;
    const m2 = await trainer.step(batch);
    expect(tf.memory().numTensors).toBe(afterFirst);
    expect(Number.isFinite(m1.loss) && Number.isFinite(m2.loss)).toBe(true);
    expect(m1.accuracy).toBeGreaterThanOrEqual(0);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  });

  it.each([true, false])(
    'frozen phase changes only the head; frozen BatchNorm keeps its moving statistics (outside tape: %s)',
    async (outside) => {
      const { model, backboneLayerCount } = tiny();
      const trainer = new Trainer(model, backboneLayerCount, { frozenBackboneOutsideTape: outside });
      const summary = trainer.compile('frozen', 1e-2, 0);
      const read = (layer: string) =>
        model
          .getLayer(layer)
          .getWeights()
          .map((w) => Array.from(w.dataSync()));
      const stemBefore = read('stem_bn');
      const convBefore = read('stem_conv');
      const headBefore = read('predictions');
      const batch = makeBatch(6);
      await trainer.step(batch);
      await trainer.step(batch);
      expect(read('stem_bn')).toEqual(stemBefore);
      expect(read('stem_conv')).toEqual(convBefore);
      expect(read('predictions')).not.toEqual(headBefore);
      expect(summary.trainableLayers).toBe(2);
      tf.dispose(batch);
      trainer.dispose();
      model.dispose();
    },
  );

  it('recompiling for fine-tuning makes the last N backbone layers trainable', () => {
    const { model, backboneLayerCount } = tiny();
    const frozen = applyPhase(model, backboneLayerCount, 'frozen', 0);
    const fine = applyPhase(model, backboneLayerCount, 'fine-tune', 3);
    expect(fine.trainableParams).toBeGreaterThan(frozen.trainableParams);
    expect(model.layers.slice(backboneLayerCount - 3).every((l) => l.trainable)).toBe(true);
    expect(model.layers[backboneLayerCount - 4]!.trainable).toBe(false);
    const all = applyPhase(model, backboneLayerCount, 'fine-tune', 10_000);
    expect(all.trainableParams + 2 * model.getLayer('top_bn').getWeights()[0]!.size).toBeLessThanOrEqual(
      all.totalParams,
    );
    model.dispose();
  });
});

describe('frozen backbone outside the tape', () => {
  /** Seeded build with the head's dropout off, so two steps can be compared value for value. */
  function deterministic() {
    const built = tiny();
    for (const name of ['head_dropout_1', 'head_dropout_2', 'block6a_drop', 'block7a_drop']) {
      const layer = built.model.layers.find((l) => l.name === name);
      // Test-only: dropout draws unseeded masks, which would make the two runs differ.
      if (layer) setDropoutRate(layer, 0);
    }
    return built;
  }

  async function stepOnce(
    outside: boolean,
  ): Promise<{ weights: Float32Array[]; peak: number; loss: number }> {
    const { model, backboneLayerCount } = deterministic();
    const trainer = new Trainer(model, backboneLayerCount, { frozenBackboneOutsideTape: outside });
    trainer.compile('frozen', 1e-2, 0);
    const batch = makeBatch(8);
    let loss = 0;
    const profile = await tf.profile(async () => {
      loss = (await trainer.step(batch)).loss;
    });
    const weights = model
      .getLayer('head_dense')
      .getWeights()
      .map((w) => w.dataSync() as Float32Array);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
    return { weights, peak: profile.peakBytes, loss };
  }

  it('gives the same update as the taped step, at a lower measured peak', async () => {
    const taped = await stepOnce(false);
    const outside = await stepOnce(true);
    expect(outside.loss).toBeCloseTo(taped.loss, 5);
    outside.weights.forEach((w, i) => {
      const ref = taped.weights[i]!;
      expect(Math.max(...w.map((v, j) => Math.abs(v - ref[j]!)))).toBeLessThan(1e-5);
    });
    expect(outside.peak).toBeLessThan(taped.peak * 0.75);
  });

  it('leaks nothing across steps', async () => {
    const { model, backboneLayerCount } = tiny();
    const trainer = new Trainer(model, backboneLayerCount);
    trainer.compile('frozen', 1e-3, 0);
    expect(trainer.backboneOutsideTape).toBe(true);
    const batch = makeBatch(4);
    await trainer.step(batch);
    const after1 = tf.memory().numTensors;
    await trainer.step(batch);
    expect(tf.memory().numTensors).toBe(after1);
    trainer.compile('fine-tune', 1e-4, 5);
    expect(trainer.backboneOutsideTape).toBe(false);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  });
});

describe('disposal', () => {
  it('frees every variable of the classifier after a frozen phase (the split head takes layer references)', async () => {
    const before = tf.memory().numTensors;
    const variablesBefore = Object.keys(registeredVariables()).length;
    const { model, backboneLayerCount } = tiny();
    const trainer = new Trainer(model, backboneLayerCount);
    trainer.compile('frozen', 1e-3, 0);
    const batch = makeBatch(4);
    await trainer.step(batch);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
    expect(Object.keys(registeredVariables()).length).toBe(variablesBefore);
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('step breakdown', () => {
  it('measures weights, gradients, Adam slots, saved activations and input, and they fit under the peak', async () => {
    const { model, backboneLayerCount } = tiny();
    trackLayers(model);
    const offAttribution = attributeOutputs('cpu');
    onTestFinished(offAttribution);
    const trainer = new Trainer(model, backboneLayerCount);
    const batch = makeBatch(6);
    const frozenSummary = trainer.compile('frozen', 1e-3, 0);
    const frozen = (await trainer.step(batch)).breakdown;
    const fineSummary = trainer.compile('fine-tune', 1e-3, 10_000);
    const peak = await tf.profile(async () => {
      await trainer.step(batch);
    });
    const fine = (await trainer.step(batch)).breakdown;

    expect(fine.weights).toBe(fineSummary.totalParams * 4);
    expect(frozen.gradients).toBe(frozenSummary.trainableParams * 4);
    expect(fine.gradients).toBe(fineSummary.trainableParams * 4);
    // Adam: momentum and variance per trainable weight, plus two scalar powers of beta.
    expect(fine.optimizer - 2 * fineSummary.trainableParams * 4).toBeGreaterThanOrEqual(0);
    expect(fine.optimizer - 2 * fineSummary.trainableParams * 4).toBeLessThanOrEqual(64);
    expect(fine.input).toBe(6 * SIZE * SIZE * 3 * 4 + 6 * 4);
    // With the backbone outside the tape, the frozen phase saves a small fraction of the activations.
    expect(frozen.savedActivations).toBeLessThan(fine.savedActivations / 4);
    // By layer: sums to the total, led by backbone layers, with the largest tensor named.
    expect(fine.savedByLayer.reduce((n, e) => n + e.bytes, 0)).toBe(fine.savedActivations);
    expect(fine.savedByLayer[0]!.layer).toMatch(/^(stem|block|top)/);
    expect(fine.largestSaved!.shape[0]).toBe(6);
    expect(fine.largestSaved!.bytes).toBe(fine.largestSaved!.shape.reduce((a, d) => a * d, 1) * 4);
    const sum = fine.weights + fine.gradients + fine.optimizer + fine.savedActivations + fine.input;
    expect(sum).toBeLessThanOrEqual(peak.peakBytes);
    tf.dispose(batch);
    trainer.dispose();
    model.dispose();
  });
});

describe('forEachBatch', () => {
  it('disposes every batch, also the ones left when stopped early', async () => {
    const before = tf.memory().numTensors;
    let calls = 0;
    const stopped = await forEachBatch(
      dataset(5, 2).prefetch(3),
      () => calls >= 2,
      async () => {
        calls++;
      },
    );
    expect(stopped).toBe(true);
    expect(calls).toBe(2);
    expect(tf.memory().numTensors).toBe(before);
  });
});

describe('runTraining', () => {
  it('runs the frozen phase then fine-tuning, emitting phases, batches and epochs', async () => {
    const { model, backboneLayerCount } = tiny();
    const trainer = new Trainer(model, backboneLayerCount);
    const events: EngineEvent[] = [];
    const before = tf.memory().numTensors;
    const result = await runTraining(
      trainer,
      [
        { phase: 'frozen', epochs: 1, learningRate: 1e-3, unfreeze: 0 },
        { phase: 'fine-tune', epochs: 1, learningRate: 1e-4, unfreeze: 10 },
      ],
      quietRunContext(events, {
        dataset: (split) => dataset(split === 'train' ? 2 : 1, 3),
        batchesPerEpoch: 2,
        patience: 2,
      }),
    );
    expect(result.outcome).toBe('completed');
    expect(result.phases).toEqual(['frozen', 'fine-tune']);
    expect(events.map((e) => e.kind)).toEqual([
      'phase',
      'batch',
      'batch',
      'epoch',
      'phase',
      'batch',
      'batch',
      'epoch',
    ]);
    const phases = events.filter((e) => e.kind === 'phase');
    expect(phases[1]!.trainableParams).toBeGreaterThan(phases[0]!.trainableParams);
    trainer.dispose();
    // Only the Adam slots are gone; the model's variables remain until it is disposed.
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('a failing step ends the run with its error, aborts the data set and leaks no batch', async () => {
    const { model, backboneLayerCount } = tiny();
    const trainer = new Trainer(model, backboneLayerCount);
    const before = tf.memory().numTensors;
    let steps = 0;
    let aborted = false;
    const run = runTraining(trainer, [{ phase: 'frozen', epochs: 2, learningRate: 1e-3, unfreeze: 0 }], {
      dataset: () => dataset(6, 2).prefetch(3),
      batchesPerEpoch: 6,
      patience: 2,
      now: () => 0,
      emit: () => {},
      shouldStop: () => false,
      abort: () => {
        aborted = true;
      },
      guardStep: async (step) => {
        if (++steps === 2) throw new Error('simulated device failure');
        return step();
      },
      yieldToEventLoop: async () => {},
    });
    await expect(run).rejects.toThrow('simulated device failure');
    expect(aborted).toBe(true);
    trainer.dispose();
    expect(tf.memory().numTensors).toBe(before);
    model.dispose();
  });

  it('stops between steps when asked and reports it', async () => {
    const { model, backboneLayerCount } = tiny();
    const trainer = new Trainer(model, backboneLayerCount);
    let steps = 0;
    const result = await runTraining(
      trainer,
      [{ phase: 'frozen', epochs: 3, learningRate: 1e-3, unfreeze: 0 }],
      {
        dataset: () => dataset(4, 2),
        batchesPerEpoch: 4,
        patience: 2,
        now: () => 0,
        emit: (e) => {
          if (e.kind === 'batch') steps++;
        },
        shouldStop: () => steps >= 1,
        abort: () => {},
        guardStep: (step) => step(),
        yieldToEventLoop: async () => {},
      },
    );
    expect(result.outcome).toBe('stopped');
    expect(steps).toBe(1);
    trainer.dispose();
    model.dispose();
  });
});

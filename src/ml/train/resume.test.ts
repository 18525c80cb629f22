import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../core/run/protocol';
import type { ResumePoint, SavedTensor, TrainerSnapshot } from '../../core/run/resume';
import type { Batch } from '../data/pipeline';
import { quietRunContext, tinyClassifier } from './fixtures';
import { restoreModelWeights, saveModelWeights, snapshotTrainer } from './resume';
import { runTraining, type PhasePlan } from './runLoop';
import { Trainer } from './trainer';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const CLASSES = 3;
const PLAN: PhasePlan[] = [
  { phase: 'frozen', epochs: 2, learningRate: 1e-2, unfreeze: 0 },
  { phase: 'fine-tune', epochs: 2, learningRate: 1e-3, unfreeze: 1000 },
];

/** Images whose class shows in their brightness, different for every epoch and batch (the epoch seeds them). */
function epochData(epoch: number, batches: number): tf.data.Dataset<Batch> {
  return tf.data.generator(function* () {
    for (let b = 0; b < batches; b++) {
      yield tf.tidy(() => {
        const labels = [0, 1, 2].map((i) => (i + b + epoch) % CLASSES);
        const noise = tf.randomUniform([3, SIZE, SIZE, 3], -30, 30, 'float32', 100 * epoch + b);
        const level = tf.tensor4d(
          labels.map((l) => 40 + 80 * l),
          [3, 1, 1, 1],
        );
        return { xs: tf.add(noise, level) as tf.Tensor4D, ys: tf.tensor1d(labels, 'int32') };
      });
    }
  });
}

/** A saved point and the trainer's state there, as the engine's checkpoint hook records them. */
interface Checkpoint {
  point: ResumePoint;
  snapshot: TrainerSnapshot;
}

/** Trains a fresh seeded Tiny model through PLAN (from a checkpoint when given); its events, checkpoints and final weights. */
async function train(from?: Checkpoint) {
  const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES, 5);
  const trainer = new Trainer(model, backboneLayerCount, { seed: 9 });
  const events: EngineEvent[] = [];
  const checkpoints: Checkpoint[] = [];
  if (from) restoreModelWeights(model, from.snapshot.weights);
  const ctx = quietRunContext(events, {
    dataset: (split, epoch) => epochData(split === 'train' ? epoch : 50 + epoch, split === 'train' ? 2 : 1),
    batchesPerEpoch: 2,
    patience: 5,
    checkpoint: async (point) => {
      checkpoints.push({ point, snapshot: await snapshotTrainer(trainer, point) });
    },
  });
  const resume = from
    ? { point: from.point, restore: (t: Trainer) => t.restoreState(from.snapshot) }
    : undefined;
  const result = await runTraining(trainer, PLAN, ctx, resume);
  const weights = await saveModelWeights(model);
  trainer.dispose();
  model.dispose();
  return { result, events, checkpoints, weights };
}

/** Largest |a − b| over every value of the model's weights, relative to the largest |b|. */
function modelGap(a: readonly SavedTensor[], b: readonly SavedTensor[]): number {
  let diff = 0;
  let scale = 0;
  b.forEach((w, k) => {
    for (let i = 0; i < w.values.length; i++) {
      diff = Math.max(diff, Math.abs(a[k]!.values[i]! - w.values[i]!));
      scale = Math.max(scale, Math.abs(w.values[i]!));
    }
  });
  return diff / scale;
}

/** The weights at a run's checkpoint `index`, or its final weights when it has no more checkpoints. */
function oneEpochAfter(run: { checkpoints: Checkpoint[]; weights: SavedTensor[] }, index: number) {
  return run.checkpoints[index]?.snapshot.weights ?? run.weights;
}

function epochsOf(events: EngineEvent[]) {
  return events.flatMap((e) =>
    e.kind === 'epoch' ? [{ phase: e.phase, epoch: e.epoch, loss: e.loss }] : [],
  );
}

describe('resuming a saved run', () => {
  it('continues mid-phase and across a phase boundary to the weights an uninterrupted run reaches', async () => {
    const whole = await train();
    expect(whole.result.outcome).toBe('completed');
    // After frozen 1 (mid-phase), frozen 2 (the fine-tune phase's start) and fine-tune 1 (mid-phase).
    expect(whole.checkpoints.map((c) => `${c.point.phase}:${c.point.epoch}:${c.point.epochIndex}`)).toEqual([
      'frozen:1:1',
      'fine-tune:0:2',
      'fine-tune:1:3',
    ]);
    // A mid-phase point keeps Adam's iteration count (two steps of fine-tuning) and slots; a phase start none.
    const [midFrozen, boundary, midFine] = whole.checkpoints as [Checkpoint, Checkpoint, Checkpoint];
    expect(Array.from(midFine.snapshot.optimizer[0]!.values)).toEqual([2]);
    expect(midFine.snapshot.optimizer.length).toBeGreaterThan(1);
    expect(boundary.snapshot.optimizer).toEqual([]);
    expect(midFrozen.snapshot.weights.length).toBe(whole.weights.length);

    // A phase start restores no optimizer: the resumed run is the uninterrupted one, bit for bit.
    const fromBoundary = await train(boundary);
    expect(epochsOf(fromBoundary.events)).toEqual(epochsOf(whole.events).slice(2));
    expect(fromBoundary.weights).toEqual(whole.weights);

    for (const from of [midFrozen, midFine]) {
      const resumed = await train(from);
      expect(resumed.result.outcome).toBe('completed');
      expect(resumed.result.phases).toEqual(['frozen', 'fine-tune']);
      // The epochs the resumed run trains are exactly those after the point: none repeated, none lost.
      const expected = epochsOf(whole.events).slice(whole.checkpoints.indexOf(from) + 1);
      const got = epochsOf(resumed.events);
      expect(got.map((e) => `${e.phase}:${e.epoch}`)).toEqual(expected.map((e) => `${e.phase}:${e.epoch}`));
      got.forEach((e, i) => expect(e.loss).toBeCloseTo(expected[i]!.loss, 2));
      // Mid-phase, tfjs' Adam.setWeights recomputes beta^t as a power where the running optimizer kept a
      // product, so the last bits differ (and Adam's normalised steps carry that on, epoch after epoch).
      // One epoch after the point the weights agree to 1e-3 of their scale; a resume that lost Adam's slots
      // and iteration count is far off.
      const withoutAdam = await train({ ...from, snapshot: { ...from.snapshot, optimizer: [] } });
      const target = oneEpochAfter(whole, whole.checkpoints.indexOf(from) + 1);
      const gap = modelGap(oneEpochAfter(resumed, 0), target);
      expect(gap, `from ${from.point.phase}:${from.point.epoch}`).toBeLessThan(1e-3);
      expect(modelGap(oneEpochAfter(withoutAdam, 0), target)).toBeGreaterThan(20 * gap);
    }
  }, 300_000);

  it('restoring weights and Adam state, then stepping, leaks nothing', async () => {
    const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES, 5);
    const trainer = new Trainer(model, backboneLayerCount, { seed: 9 });
    trainer.compile('fine-tune', 1e-3, 1000);
    const batch = await epochData(0, 1)
      .iterator()
      .then((it) => it.next());
    const b = batch.value as Batch;
    await trainer.step(b);
    const point: ResumePoint = {
      phase: 'fine-tune',
      epoch: 1,
      phaseEpochs: 2,
      epochIndex: 1,
      phasesDone: [],
      valLosses: [1],
      last: { loss: 1, accuracy: 0 },
    };
    const snapshot = await snapshotTrainer(trainer, point);
    await trainer.step(b);
    const baseline = tf.memory().numTensors;
    const losses: number[] = [];
    for (let i = 0; i < 2; i++) {
      restoreModelWeights(model, snapshot.weights);
      trainer.compile('fine-tune', 1e-3, 1000);
      await trainer.restoreState(snapshot);
      await trainer.step(b);
      // The step after the restore updates the weights; the next step's loss shows where it got to.
      losses.push((await trainer.step(b)).loss);
      expect(tf.memory().numTensors).toBe(baseline);
    }
    // The same state restored twice leads to the same place: the restore is the snapshot, not what was live.
    expect(losses[1]).toBe(losses[0]);
    tf.dispose([b.xs, b.ys]);
    trainer.dispose();
    model.dispose();
  }, 120_000);

  it('refuses weights of another model with a message naming the first difference', async () => {
    const small = tinyClassifier(SIZE, CLASSES, 5);
    const other = tinyClassifier(SIZE, 4, 5);
    const weights = await saveModelWeights(small.model);
    const before = tf.memory().numTensors;
    expect(() => restoreModelWeights(other.model, weights)).toThrow(/is \d+×3; the model's is \d+×4/);
    expect(tf.memory().numTensors).toBe(before);
    small.model.dispose();
    other.model.dispose();
  });
});

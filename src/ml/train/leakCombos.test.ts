import * as tf from '@tensorflow/tfjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installBudget, ResourceExhaustedError } from '../memory/budget';
import { onKernel } from '../memory/kernelHook';
import {
  graphClassifier,
  graphFeatures,
  loadGraphBackbone,
  type GraphBackbone,
} from '../models/graphBackbone';
import { fixtureArtifacts, graphModelFixture } from '../models/graphModelFixture';
import { noiseBatch, tinyClassifier } from './fixtures';
import { Trainer } from './trainer';
import type { StepBatch, TrainerOptions } from './types';

const SIZE = 16;
const CLASSES = 3;

/** The graph model backbone of the graph combinations (loaded once; its constants count as before). */
let graph: GraphBackbone;
beforeAll(async () => {
  await tf.setBackend('cpu');
  graph = await loadGraphBackbone(tf.io.fromMemory(fixtureArtifacts(graphModelFixture(SIZE))));
});
afterAll(() => graph.graph.dispose());

let limit: number | null = null;
let remove: (() => void) | null = null;
afterEach(() => {
  remove?.();
  remove = null;
  limit = null;
});

/** One way of running the step: the techniques, and whether it trains on cached features. */
interface Combo {
  outsideTape: boolean;
  accumulationSteps: 1 | 2;
  checkpointing: TrainerOptions['checkpointing'];
  /** 'filling': images with the features just computed from them; 'reading': features only. */
  cache: 'off' | 'filling' | 'reading';
  /** float16 storage of the checkpointed step's boundaries. */
  float16?: boolean;
  /** The backbone is a tfjs graph model: the head trains on its features, made before each step. */
  graph?: boolean;
}

/**
 * Every combination the trainer accepts. The feature cache needs the backbone outside the tape (the
 * trainer refuses features otherwise), and outside the tape checkpointing has nothing to recompute, yet
 * it is still walked: the OOM panel can switch it on under any other technique.
 */
const COMBOS: Combo[] = [true, false].flatMap((outsideTape) =>
  ([1, 2] as const).flatMap((accumulationSteps) =>
    (['off', 'blocks'] as const).flatMap((checkpointing) =>
      (outsideTape ? (['off', 'filling', 'reading'] as const) : (['off'] as const)).map((cache) => ({
        outsideTape,
        accumulationSteps,
        checkpointing,
        cache,
      })),
    ),
  ),
);
// float16 storage is a fine-tune technique on top of checkpointing, with and without accumulation.
COMBOS.push(
  ...([1, 2] as const).map((accumulationSteps): Combo => ({
    outsideTape: false,
    accumulationSteps,
    checkpointing: 'blocks',
    cache: 'off',
    float16: true,
  })),
);

// A graph model serves the frozen phase only (no fine-tuning, so no float16 storage): every frozen
// combination again with the graph as the backbone, its forward pass inside the provoked window.
COMBOS.push(...COMBOS.filter((c) => !c.float16 && c.outsideTape).map((c) => ({ ...c, graph: true })));

/** Highest live bytes (before + allocation) of any kernel of one step. */
async function stepPeak(step: () => Promise<unknown>): Promise<number> {
  let peak = 0;
  const off = onKernel('cpu', (run) => {
    peak = Math.max(peak, run.liveBytes + run.allocation.bytes);
  });
  try {
    await step();
  } finally {
    off();
  }
  return peak;
}

const name = (c: Combo) =>
  `outside tape ${c.outsideTape ? 'on' : 'off'}, accumulation ${c.accumulationSteps}, checkpointing ${c.checkpointing}, feature cache ${c.cache}${c.float16 ? ', float16 storage' : ''}${c.graph ? ', graph model backbone' : ''}`;

/**
 * The step a combination runs, as the run loop feeds it. A preset's batch is the images (with their
 * backbone features when the cache fills, or the features alone when it reads). A graph model's batch
 * is made from the images at every step (RunContext.headInput), and the cache fills from those
 * features; reading the cache never runs the graph. `dispose` frees what outlives the steps.
 */
function comboStep(trainer: Trainer, combo: Combo, images: { xs: tf.Tensor4D; ys: tf.Tensor1D }) {
  const cacheBatch = (xs: tf.Tensor4D, features: tf.Tensor): StepBatch =>
    combo.cache === 'filling' ? { xs, ys: images.ys, features } : { ys: images.ys, features };
  if (combo.graph && combo.cache !== 'reading') {
    return {
      step: async () => {
        const xs = graphFeatures(graph, images.xs) as tf.Tensor4D;
        let features: tf.Tensor | null = null;
        try {
          features = combo.cache === 'off' ? null : trainer.backboneFeatures(xs);
          return await trainer.step(features ? cacheBatch(xs, features) : { xs, ys: images.ys });
        } finally {
          tf.dispose([xs, ...(features ? [features] : [])]);
        }
      },
      dispose: () => undefined,
    };
  }
  const xs = combo.graph ? (graphFeatures(graph, images.xs) as tf.Tensor4D) : images.xs;
  const features = combo.cache === 'off' ? null : trainer.backboneFeatures(xs);
  const batch: StepBatch = features ? cacheBatch(xs, features) : images;
  return {
    step: () => trainer.step(batch),
    dispose: () => tf.dispose([...(xs === images.xs ? [] : [xs]), ...(features ? [features] : [])]),
  };
}

describe('no leak in any combination of the memory techniques', () => {
  it.each(COMBOS.map((c) => [name(c), c] as const))(
    '%s: provoked OOMs and a successful step leave numTensors where it was',
    async (_, combo) => {
      const { model, backboneLayerCount } = combo.graph
        ? graphClassifier(graph, CLASSES, 5)
        : tinyClassifier(SIZE, CLASSES);
      const trainer = new Trainer(model, backboneLayerCount, {
        seed: 5,
        frozenBackboneOutsideTape: combo.outsideTape,
        accumulationSteps: combo.accumulationSteps,
        checkpointing: combo.checkpointing,
        activationStorage: combo.float16 ? 'float16' : 'float32',
      });
      // Fine-tuning tapes the backbone; outside the tape is a frozen-phase technique.
      trainer.compile(combo.outsideTape ? 'frozen' : 'fine-tune', 1e-3, 10_000);
      const images = noiseBatch(4, SIZE, CLASSES, 9);
      const { step, dispose } = comboStep(trainer, combo, images);
      // Burn in one step (Adam's slots, the split models), then measure its peak unconstrained.
      await step();
      const before = tf.memory();
      const peak = await stepPeak(step);
      expect(tf.memory().numTensors).toBe(before.numTensors);
      remove = installBudget('cpu', () => limit);
      // Limits across the step's whole range, so the OOM strikes early, midway and late in the step.
      const fractions = [0.05, 0.35, 0.65, 0.95];
      const failures: string[] = [];
      for (const f of fractions) {
        limit = before.numBytes + f * (peak - before.numBytes);
        const err = await step().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ResourceExhaustedError);
        failures.push((err as ResourceExhaustedError).details.phase ?? 'none');
        expect(tf.memory().numTensors, `after an OOM at ${f} of the peak`).toBe(before.numTensors);
        limit = null;
        await step();
        expect(tf.memory().numTensors, `after a step following ${f}`).toBe(before.numTensors);
      }
      // The sweep reached past the forward pass (the backward pass holds the most).
      expect(failures.some((p) => p !== 'forward')).toBe(true);
      dispose();
      tf.dispose([images.xs, images.ys]);
      trainer.dispose();
      model.dispose();
    },
  );
});

import * as tf from '@tensorflow/tfjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { installBudget, ResourceExhaustedError } from '../memory/budget';
import { onKernel } from '../memory/kernelHook';
import { noiseBatch, tinyClassifier } from './fixtures';
import { Trainer } from './trainer';
import type { StepBatch, TrainerOptions } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 16;
const CLASSES = 3;

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
  `outside tape ${c.outsideTape ? 'on' : 'off'}, accumulation ${c.accumulationSteps}, checkpointing ${c.checkpointing}, feature cache ${c.cache}${c.float16 ? ', float16 storage' : ''}`;

describe('no leak in any combination of the memory techniques', () => {
  it.each(COMBOS.map((c) => [name(c), c] as const))(
    '%s: provoked OOMs and a successful step leave numTensors where it was',
    async (_, combo) => {
      const { model, backboneLayerCount } = tinyClassifier(SIZE, CLASSES);
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
      const features = combo.cache === 'off' ? null : trainer.backboneFeatures(images.xs);
      const batch: StepBatch =
        combo.cache === 'off'
          ? images
          : combo.cache === 'filling'
            ? { ...images, features: features! }
            : { ys: images.ys, features: features! };
      // Burn in one step (Adam's slots, the split models), then measure its peak unconstrained.
      await trainer.step(batch);
      const before = tf.memory();
      const peak = await stepPeak(() => trainer.step(batch));
      expect(tf.memory().numTensors).toBe(before.numTensors);
      remove = installBudget('cpu', () => limit);
      // Limits across the step's whole range, so the OOM strikes early, midway and late in the step.
      const fractions = [0.05, 0.35, 0.65, 0.95];
      const failures: string[] = [];
      for (const f of fractions) {
        limit = before.numBytes + f * (peak - before.numBytes);
        const err = await trainer.step(batch).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(ResourceExhaustedError);
        failures.push((err as ResourceExhaustedError).details.phase ?? 'none');
        expect(tf.memory().numTensors, `after an OOM at ${f} of the peak`).toBe(before.numTensors);
        limit = null;
        await trainer.step(batch);
        expect(tf.memory().numTensors, `after a step following ${f}`).toBe(before.numTensors);
      }
      // The sweep reached past the forward pass (the backward pass holds the most).
      expect(failures.some((p) => p !== 'forward')).toBe(true);
      tf.dispose([images.xs, images.ys, ...(features ? [features] : [])]);
      trainer.dispose();
      model.dispose();
    },
  );
});

import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { planInput, planTfjs, predictionError, type PlanInput } from '../../core/planner/planner';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import { featureCache } from '../../core/settings/techniques';
import type { TechniqueConfig, TrainConfig, TrainingPhase } from '../../core/settings/trainConfig';
import { NO_AUGMENT } from '../../core/data/augment';
import { fineTunedBackbone } from '../../core/settings/trainable';
import { describeModel } from '../memory/describe';
import { noiseBatch, tinyClassifier } from './fixtures';
import { trainerOptionsFor } from './options';
import { Trainer } from './trainer';
import type { StepBatch, StepMetrics } from './types';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const SIZE = 32;
const BATCH = 8;

/** Every phase × technique × outside-tape combination, the feature cache included where it applies. */
const COMBOS = (['frozen', 'fine-tune'] as const).flatMap((phase) =>
  [true, false].flatMap((backboneOutsideTape) =>
    (['off', 'blocks'] as const).flatMap((checkpointing) =>
      [false, true].flatMap((float16Storage) =>
        ([1, 2] as const).flatMap((accumulationSteps) =>
          [false, true].map((cacheFeatures) => ({
            phase: phase as TrainingPhase,
            techniques: {
              backboneOutsideTape,
              checkpointing,
              float16Storage,
              accumulationSteps,
              cacheFeatures,
              // Lean backward changes how the tape is walked, not the step's mode: the planner plans stock tfjs.
              leanBackward: false,
            },
          })),
        ),
      ),
    ),
  ),
);

function configOf(techniques: TechniqueConfig): TrainConfig {
  return {
    ...DEFAULT_TRAIN_CONFIG,
    model: 'tiny',
    height: SIZE,
    width: SIZE,
    batchSize: BATCH,
    fineTune: { kind: 'all' },
    techniques,
    augment: NO_AUGMENT,
    // The step below holds no prefetched batch beside it.
    prefetch: 0,
  };
}

/** One measured step of the trainer under tf.profile, on features when the run would read the cache. */
async function measuredStep(trainer: Trainer, cached: boolean) {
  const data = noiseBatch(BATCH, SIZE, 3, 1);
  const features = cached ? trainer.backboneFeatures(data.xs) : null;
  const batch: StepBatch = features ? { features, ys: data.ys } : data;
  // The first step creates Adam's slots; the planner predicts every later step.
  await trainer.step(batch);
  let metrics: StepMetrics | null = null;
  const profile = await tf.profile(async () => {
    metrics = await trainer.step(batch);
  });
  tf.dispose([data.xs, data.ys, ...(features ? [features] : [])]);
  return { peakBytes: profile.peakBytes, metrics: metrics! as StepMetrics };
}

/** The trainer for a combination, compiled for its phase, with the planner's input for the same step. */
function both(phase: TrainingPhase, techniques: TechniqueConfig) {
  const config = configOf(techniques);
  const { model, backboneLayerCount } = tinyClassifier(SIZE, 3, 1);
  const spec = describeModel(model, backboneLayerCount);
  const trainer = new Trainer(model, backboneLayerCount, trainerOptionsFor(config));
  trainer.compile(phase, 1e-3, phase === 'frozen' ? 0 : fineTunedBackbone(spec, config.fineTune));
  // The run loop caches features only where the trainer runs its backbone outside the tape.
  const cached = phase === 'frozen' && featureCache(config).on;
  const input = { ...planInput(spec, config, phase), cachedFeatures: cached };
  const done = () => {
    trainer.dispose();
    model.dispose();
  };
  return { config, trainer, input, cached, done };
}

/** The planner input's key without the model: combinations with equal keys are planned alike. */
const planKey = (input: PlanInput) =>
  JSON.stringify({ ...input, spec: null, trainable: [...input.trainable] });

describe('one plan per step: the trainer and planInput agree on every combination', () => {
  const measuredKeys = new Set<string>();
  it.each(COMBOS.map((c) => [c.phase, JSON.stringify(c.techniques), c] as const))(
    '%s, %s',
    async (_phase, _label, { phase, techniques }) => {
      const { config, trainer, input, cached, done } = both(phase, techniques);
      expect(cached && !trainer.backboneOutsideTape).toBe(false);
      expect(input.backboneOutsideTape).toBe(trainer.mode === 'outside-tape');
      expect(input.checkpointing === 'blocks').toBe(trainer.mode === 'checkpointed');
      expect(input.boundaryStorage === 'float16').toBe(
        trainer.mode === 'checkpointed' && config.techniques.float16Storage,
      );
      // Each distinct plan is also run and measured once (tf.profile), with what the step reports it ran.
      const key = planKey(input);
      if (!measuredKeys.has(key)) {
        measuredKeys.add(key);
        const { peakBytes, metrics } = await measuredStep(trainer, cached);
        expect(input.backboneOutsideTape).toBe(metrics.technique.mode === 'outside-tape');
        expect(input.checkpointing === 'blocks').toBe(metrics.technique.mode === 'checkpointed');
        expect(metrics.technique.microBatches).toBe(input.accumulationSteps);
        expect(Math.abs(predictionError(planTfjs(input).peakBytes, peakBytes))).toBeLessThan(3);
      }
      done();
    },
  );
});

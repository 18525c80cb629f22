import * as tf from '@tensorflow/tfjs';
import {
  predictSweepKeras,
  predictSweepPeak,
  type SweepPoint,
  type SweepPreset,
  type SweepTarget,
} from '../core/sweep';
import { fineTunedBackbone } from '../core/trainable';
import type { TrainConfig } from '../core/trainConfig';
import { installBudget, ResourceExhaustedError } from '../ml/memory/budget';
import { describeModel } from '../ml/memory/describe';
import { attributeOutputs, trackLayers } from '../ml/memory/layerContext';
import { LargestAllocation } from '../ml/memory/recorder';
import { StepPeak } from '../ml/memory/stepPeak';
import { buildClassifier } from '../ml/models/registry';
import { Trainer } from '../ml/train/trainer';
import { makeStepGuard } from './gpuGuard';

/**
 * One sweep point: the configured architecture at size×size with zero weights (memory does not depend
 * on weight values), one synthetic batch of that size (nor on pixel values), a warm-up step that creates
 * Adam's slots, then the measured step: its peak read at every kernel (as tf.profile counts it), under
 * the simulated card and the WebGPU error scopes. Every tensor it made is freed before it returns.
 */
export async function measurePoint(
  backendName: string,
  config: TrainConfig,
  target: SweepTarget,
  preset: SweepPreset,
  numClasses: number,
): Promise<SweepPoint> {
  const { model, backboneLayerCount } = buildClassifier({
    id: config.model,
    height: target.size,
    width: target.size,
    includePreprocessing: true,
    numClasses,
    seed: config.seed,
    init: 'zeros',
  });
  const spec = describeModel(model, backboneLayerCount);
  const predicted = {
    predictedBytes: predictSweepPeak(spec, target.batch, preset, 0),
    ...predictSweepKeras(spec, target.batch, preset),
  };
  trackLayers(model);
  const offAttribution = attributeOutputs(backendName);
  const offBudget = installBudget(backendName, () => config.budgetBytes);
  const recorder = new LargestAllocation(backendName);
  const guard = makeStepGuard(recorder);
  const peak = new StepPeak(backendName);
  const trainer = new Trainer(model, backboneLayerCount, { seed: config.seed });
  const batch = tf.tidy(() => ({
    xs: tf.randomUniform([target.batch, target.size, target.size, 3], 0, 255) as tf.Tensor4D,
    ys: tf.tensor1d(
      Array.from({ length: target.batch }, (_, i) => i % numClasses),
      'int32',
    ),
  }));
  try {
    trainer.compile(preset.phase, config.fineTuneLearningRate, fineTunedBackbone(spec, preset.fineTune));
    await guard(() => trainer.step(batch));
    peak.reset();
    await guard(() => trainer.step(batch));
    return { ...target, status: 'measured', peakBytes: peak.value, ...predicted };
  } catch (err) {
    if (!(err instanceof ResourceExhaustedError)) throw err;
    return {
      ...target,
      status: 'oom',
      ...predicted,
      oomKind: err.details.kind,
      ...(err.details.layer ? { oomLayer: err.details.layer } : {}),
      message: err.message,
    };
  } finally {
    tf.dispose([batch.xs, batch.ys]);
    trainer.dispose();
    model.dispose();
    peak.dispose();
    recorder.dispose();
    offBudget();
    offAttribution();
  }
}

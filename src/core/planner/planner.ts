import type { ModelSpec } from '../model/modelSpec';
import { planKeras as planKerasOnce, type Precision } from './keras';
import type { Plan, PlanInput } from './parts';
import { planTfjs as planTfjsOnce } from './tfjs';
import { stepModeOf } from '../settings/stepMode';
import { resolveTrainable } from '../settings/trainable';
import type { TrainConfig, TrainingPhase } from '../settings/trainConfig';

/**
 * The memory planner: peak bytes of one training step, by category, from layer shapes alone.
 *
 * Two models of the same configuration:
 * - `planTfjs`: what TensorFlow.js 4.22 really allocates, counted the way `tf.memory().numBytes` and
 *   `tf.profile().peakBytes` count (plannerTfjs.ts). The per-layer recipes (plannerRecipes.ts) were
 *   read off tfjs' gradient tape for each layer kind (ml/memory/planner.test.ts checks whole steps of
 *   every family the lab builds against tf.profile, so they cannot drift silently). Four tfjs facts
 *   shape the result:
 *   1. every op run under the tape saves clones of the tensors its gradient needs, frozen layers
 *      included, and they live until backprop ends;
 *   2. the forward pass runs inside one tidy, so every layer output lives until the loss is computed
 *      (and so does what a layer without a tidy of its own leaves behind, such as ReLU6's relu);
 *   3. the backward pass runs inside one tidy too, and each op's input gradient in a tidy of its own:
 *      the gradient of every activation lives until the last layer's gradient is done, its
 *      temporaries do not; a full fine-tune peaks at the end of backprop;
 *   4. Adam updates all variables inside one tidy, leaving 14 temporaries per weight until the end:
 *      with few activations (small batch, few trainable layers) the update is the peak.
 *   The memory-saving techniques are modelled as ml/train/trainer.ts runs them. Accumulation: each
 *   micro-batch is a plain step of its own size, beside the whole batch, the micro-batch's slice and,
 *   from the second micro-batch on, the running gradient sum (one more copy of the trainable weights).
 *   Block checkpointing (plannerCheckpoint.ts, segments cut by segments.ts): the largest of the
 *   segment-by-segment forward outside the tape (kept segment inputs plus one segment's outputs) and
 *   each segment's recompute under the tape (kept inputs up to it, its saved tensors and gradients by
 *   the same recipes, the incoming activation gradient and the weight gradients of the segments done).
 *   Float16 storage keeps those segment inputs packed as binary16 pairs (ceil(n / 2) int32 words), with
 *   the float32 input of the segment running beside its packed copy.
 * - `planKeras` (plannerKeras.ts): what TensorFlow/Keras on a CUDA card would need: activations only
 *   where a gradient needs them, nothing before the first trainable layer, each activation gradient
 *   freed once used.
 */

export { checkpointSegments } from './checkpoint';
export type { Precision } from './keras';
export { microBatchSizes, type OptimizerName, type Plan, type PlanCategories, type PlanInput } from './parts';

/**
 * Plans already made, per described model. The page predicts the same steps many times over (the
 * experiment cards' before sides are the current settings, the batch curve's current batch is the
 * planner's row), and a new description (another class count) re-plans every view at once: a trace of
 * a dropped folder had one 300 ms task doing it. A plan is never changed once made, so callers share it.
 */
const made = new WeakMap<ModelSpec, Map<string, Plan>>();
/** Plans kept per model; a sweep's batch search may ask for many more, once each. */
const KEPT_PER_MODEL = 400;

function remembered(input: PlanInput, model: string, plan: () => Plan): Plan {
  let plans = made.get(input.spec);
  if (!plans) made.set(input.spec, (plans = new Map()));
  const key = model + JSON.stringify({ ...input, spec: null, trainable: [...input.trainable] });
  let p = plans.get(key);
  if (!p) {
    if (plans.size >= KEPT_PER_MODEL) plans.clear();
    p = plan();
    plans.set(key, p);
  }
  return p;
}

/** Predicted peak of one tfjs training step (plannerTfjs.ts), made once per model and input. */
export const planTfjs = (input: PlanInput): Plan => remembered(input, 'tfjs', () => planTfjsOnce(input));

/** What TensorFlow/Keras on a CUDA card would need (plannerKeras.ts), made once per model and input. */
export const planKeras = (input: PlanInput, precision: Precision = 'float32'): Plan =>
  remembered(input, `keras ${precision}`, () => planKerasOnce(input, precision));

/** Signed error of a prediction against a measurement, in percent of the measurement. */
export function predictionError(predicted: number, measured: number): number {
  return measured > 0 ? ((predicted - measured) / measured) * 100 : 0;
}

/** The settings a prediction depends on, to match a run's measurements with the prediction shown. */
export const plannedFor = (c: TrainConfig): string =>
  JSON.stringify([c.model, c.height, c.width, c.batchSize, c.fineTune, c.prefetch, c.techniques]);

/** The planner's input for one phase of a configuration, in the step mode the trainer runs it in. */
export function planInput(spec: ModelSpec, c: TrainConfig, phase: TrainingPhase): PlanInput {
  const step = stepModeOf(phase, c.techniques);
  return {
    spec,
    batch: c.batchSize,
    trainable: resolveTrainable(spec, phase, c.fineTune),
    optimizer: 'adam',
    backboneOutsideTape: step.mode === 'outside-tape',
    queuedBatches: c.prefetch,
    accumulationSteps: c.techniques.accumulationSteps,
    // float16 storage is checkpointing with its boundaries packed (2 bytes a value); each recompute
    // still runs, and is taped, in float32.
    checkpointing: step.checkpointing,
    boundaryStorage: step.boundaryStorage,
  };
}

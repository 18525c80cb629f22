// The grid on which TensorFlow's own allocator judges the planner's Keras column, and the lab's side of
// each configuration: the classifier as the lab builds it, described, planned by planKeras, and the
// backbone layers the configuration unfreezes (by name, as the lab's Keras script names them). Python
// (interop/keras_memory.py) rebuilds the same classifier in Keras and measures one training step each.
import * as tf from '@tensorflow/tfjs';
import { planInput, planKeras, type Precision } from '../../src/core/planner/planner';
import { DEFAULT_TRAIN_CONFIG } from '../../src/core/settings/settings';
import { fineTunedBackbone } from '../../src/core/settings/trainable';
import type { TrainableSet, TrainConfig, TrainingPhase } from '../../src/core/settings/trainConfig';
import type { ModelId } from '../../src/core/model/models';
import { kerasApplication } from '../../src/core/export/kerasScript';
import { describeModel } from '../../src/ml/memory/describe';
import { buildClassifier } from '../../src/ml/models/registry';

/** One model build of the grid: a family at one size and precision, trained with several sets and batches. */
interface Build {
  model: ModelId;
  height: number;
  width: number;
  precision: Precision;
  /** Each trainable set, with the batches measured under it (one traced step per set). */
  runs: { set: 'frozen' | TrainableSet; batches: number[] }[];
  /** Whether planKeras was tuned on this build's configurations (the rest are held out). */
  tuning: boolean;
}

const FROZEN = 'frozen' as const;
const ALL: TrainableSet = { kind: 'all' };
const last = (n: number): TrainableSet => ({ kind: 'last', n });

/**
 * Ten families at small sizes (square and not), batches 1–32, frozen / last N / all, float32 and
 * mixed_float16. Builds marked `tuning` are the ones planKeras was fitted on.
 */
export const KERAS_GRID: Build[] = [
  {
    model: 'b0',
    height: 64,
    width: 64,
    precision: 'float32',
    tuning: true,
    runs: [
      { set: ALL, batches: [4, 16] },
      { set: FROZEN, batches: [8, 32] },
    ],
  },
  {
    model: 'b0',
    height: 64,
    width: 64,
    precision: 'mixed_float16',
    tuning: true,
    runs: [
      { set: ALL, batches: [16] },
      { set: last(30), batches: [8, 2] },
    ],
  },
  {
    model: 'mobilenetv2',
    height: 96,
    width: 64,
    precision: 'float32',
    tuning: true,
    runs: [
      { set: ALL, batches: [8, 2] },
      { set: last(20), batches: [16] },
    ],
  },
  {
    model: 'v2-b0',
    height: 64,
    width: 96,
    precision: 'float32',
    tuning: true,
    runs: [
      { set: ALL, batches: [8, 1] },
      { set: FROZEN, batches: [16] },
    ],
  },
  {
    model: 'b1',
    height: 80,
    width: 64,
    precision: 'float32',
    tuning: false,
    runs: [
      { set: ALL, batches: [4, 12, 1] },
      { set: last(40), batches: [8] },
    ],
  },
  {
    model: 'b2',
    height: 64,
    width: 64,
    precision: 'mixed_float16',
    tuning: false,
    runs: [
      { set: ALL, batches: [8, 2] },
      { set: FROZEN, batches: [24, 4] },
    ],
  },
  {
    model: 'b3',
    height: 64,
    width: 72,
    precision: 'float32',
    tuning: false,
    runs: [
      { set: ALL, batches: [4] },
      { set: last(60), batches: [6, 16] },
    ],
  },
  {
    model: 'v2-b1',
    height: 64,
    width: 64,
    precision: 'mixed_float16',
    tuning: false,
    runs: [
      { set: ALL, batches: [8, 32] },
      { set: last(25), batches: [4] },
    ],
  },
  {
    model: 'v2-b2',
    height: 72,
    width: 64,
    precision: 'float32',
    tuning: false,
    runs: [
      { set: ALL, batches: [6] },
      { set: FROZEN, batches: [1, 12] },
    ],
  },
  {
    model: 'v2-b3',
    height: 64,
    width: 64,
    precision: 'float32',
    tuning: false,
    runs: [
      { set: ALL, batches: [4, 10] },
      { set: last(50), batches: [2, 6] },
    ],
  },
  {
    model: 'v2-s',
    height: 64,
    width: 64,
    precision: 'float32',
    tuning: false,
    runs: [
      { set: ALL, batches: [2, 8] },
      { set: last(30), batches: [16] },
    ],
  },
  {
    model: 'mobilenetv2',
    height: 64,
    width: 64,
    precision: 'mixed_float16',
    tuning: false,
    runs: [
      { set: ALL, batches: [32, 4] },
      { set: FROZEN, batches: [8] },
    ],
  },
];

/** One configuration as Python measures it and the planner predicted it. */
export interface KerasConfiguration {
  family: ModelId;
  /** keras.applications' function for the family. */ application: string;
  /** Whether the Keras model rescales its input in front of the backbone (MobileNetV2's [-1, 1]). */
  rescale: boolean;
  height: number;
  width: number;
  precision: Precision;
  batch: number;
  /** 'frozen', or the fine-tune set's words ('all', 'last 30'). */ set: string;
  /** Backbone layers that train; null: every one ('all'). */ unfrozen: string[] | null;
  tuning: boolean;
  /** planKeras' peak for the step, bytes. */ predictedBytes: number;
  classes: number;
}

const CLASSES = 3;
const setWords = (s: 'frozen' | TrainableSet) =>
  s === FROZEN ? 'frozen' : s.kind === 'last' ? `last ${s.n}` : s.kind;

/** The configurations of one build, planned; the model is built with zero weights, described and freed. */
function planBuild(b: Build): KerasConfiguration[] {
  const built = buildClassifier({
    id: b.model,
    height: b.height,
    width: b.width,
    includePreprocessing: true,
    numClasses: CLASSES,
    init: 'zeros',
  });
  const spec = describeModel(built.model, built.backboneLayerCount);
  built.model.dispose();
  const app = kerasApplication(b.model);
  return b.runs.flatMap(({ set, batches }) =>
    batches.map((batch) => {
      const phase: TrainingPhase = set === FROZEN ? 'frozen' : 'fine-tune';
      const fineTune = set === FROZEN ? ALL : set;
      const config: TrainConfig = {
        ...DEFAULT_TRAIN_CONFIG,
        model: b.model,
        height: b.height,
        width: b.width,
        batchSize: batch,
        fineTune,
      };
      const unfrozen =
        phase === 'frozen'
          ? []
          : set !== FROZEN && set.kind === 'all'
            ? null
            : fineTunedBackbone(spec, fineTune);
      return {
        family: b.model,
        application: app.fn,
        rescale: app.preprocessing === 'rescaling',
        height: b.height,
        width: b.width,
        precision: b.precision,
        batch,
        set: setWords(set),
        unfrozen,
        tuning: b.tuning,
        predictedBytes: planKeras(planInput(spec, config, phase), b.precision).peakBytes,
        classes: CLASSES,
      };
    }),
  );
}

/** Every configuration of the grid, planned, with no tensor left behind. */
export function planKerasGrid(): KerasConfiguration[] {
  const before = tf.memory().numTensors;
  const out = KERAS_GRID.flatMap(planBuild);
  if (tf.memory().numTensors !== before) throw new Error('planning the Keras grid left tensors behind');
  return out;
}

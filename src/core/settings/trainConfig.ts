// The settings of a training run: what the user chose, read by the planner, the trainer and the UI.
// Pure types with no wire format; core/run/protocol.ts carries them between threads.
import type { AugmentConfig } from '../data/augment';
import type { AugmentOn } from '../data/pixels';
import type { ModelId, WeightsChoice } from '../model/models';

/** The memory-saving techniques of a run (each a real training mode, predicted and measured). */
export interface TechniqueConfig {
  /** Frozen phase: run the backbone outside the gradient tape (same maths, far lower peak). */
  backboneOutsideTape: boolean;
  /** Split every batch into this many micro-batches and update once: activations of one micro-batch. */
  accumulationSteps: number;
  /** Fine-tune: keep only block boundaries in the forward pass and recompute each block in backward. */
  checkpointing: 'off' | 'blocks';
  /**
   * Frozen phase without augmentation: store the backbone's features on the host in the first epoch and
   * train the head on them afterwards (a speed technique: later epochs skip decoding and the backbone).
   */
  cacheFeatures: boolean;
  /**
   * Checkpointed steps keep their segment boundaries as float16 pairs (half the bytes), float32 maths;
   * turns checkpointing on in the fine-tune phase.
   */
  float16Storage: boolean;
  /**
   * The lab's lean backward pass: frees each forward intermediate, saved tensor and activation gradient
   * once nothing later reads it; same gradients. Off by default until the planner models it (the
   * planner predicts stock tfjs, so its figures stay an upper bound with this on).
   */
  leanBackward: boolean;
}

/** The precision experiment: WebGL's float16 textures, and dynamic loss scaling. */
export interface PrecisionConfig {
  /** Force WEBGL_FORCE_F16_TEXTURES (WebGL only: the backend switches to WebGL). */ webglF16Textures: boolean;
  /** Keras' LossScaleOptimizer: scale the loss, skip updates with non-finite gradients. */
  lossScaling: 'off' | 'dynamic';
}

/**
 * Which backbone layers fine-tuning unfreezes, as a rule that means the same on any model and size
 * (resolved by core/settings/trainable.ts): the last N layers (`base_model.layers[-N:]`), every layer from a block
 * on, all, none (head only), or layers chosen one by one in the layer explorer. The head always trains.
 */
export type TrainableSet =
  | { kind: 'last'; n: number }
  | { kind: 'from-block'; block: string }
  | { kind: 'all' }
  | { kind: 'head' }
  | { kind: 'layers'; names: string[] };

/** Everything a training run needs besides the images. */
export interface TrainConfig {
  /** Architecture (see core/model/models). */ model: ModelId;
  /** Starting weights: random, the offline nsfwjs MobileNetV2, or a file loaded this session. */ weights: WeightsChoice;
  /** Input height in pixels (images are resized to it). */ height: number;
  /** Input width in pixels. */ width: number;
  /** Images per batch, set on the dataset itself (the seed's trap: fit(batch_size) is ignored). */ batchSize: number;
  /** Epochs with the backbone frozen (phase 1). */ frozenEpochs: number;
  /** Epochs of fine-tuning (phase 2); 0 skips it. */ fineTuneEpochs: number;
  /** Adam learning rate in phase 1. */ frozenLearningRate: number;
  /** Adam learning rate in phase 2 (lower, as in the seed). */ fineTuneLearningRate: number;
  /** What phase 2 unfreezes besides the head: the one trainable set, read by every consumer. */
  fineTune: TrainableSet;
  /** Memory-saving training techniques. */ techniques: TechniqueConfig;
  /** Precision experiments (tfjs 4.22 has no float16 dtype; see README). */ precision: PrecisionConfig;
  /** Training-only augmentation. */ augment: AugmentConfig;
  /** Where resize and augmentation run: tensor ops on the backend, or plain TypeScript on the CPU. */
  augmentOn: AugmentOn;
  /** Share of each class held out for validation. */ validationFraction: number;
  /** Seed for the split, shuffling, augmentation and initialisation. */ seed: number;
  /** EarlyStopping patience on val_loss, in epochs. */ patience: number;
  /** Batches prepared ahead (tf.data prefetch). */ prefetch: number;
  /** Simulated card size in bytes (TensorFlow's memory_limit); null = no limit but the real GPU's. */
  budgetBytes: number | null;
  /** Precise mode: run every training step under tf.profile (per-kernel bytes and times; slower). */
  preciseProfile: boolean;
}

export type TrainingPhase = 'frozen' | 'fine-tune';

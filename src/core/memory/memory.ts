/** One point of the memory timeline, measured with tf.memory(). */
export interface MemorySample {
  /** Milliseconds since the run started. */ t: number;
  /** Largest live tensor bytes (tf.memory().numBytes) seen since the previous sample. */ liveBytes: number;
  /** Live tensors at the moment of the sample. */ numTensors: number;
  /** Bytes the backend holds for live tensors (WebGPU numBytesInGPU / WebGL numBytesInGPU), when reported. */
  gpuBytes?: number;
  /** Bytes the backend has allocated including its pool of freed buffers (WebGPU numBytesAllocatedInGPU /
   * WebGL numBytesInGPUAllocated), when reported. */
  allocatedBytes?: number;
}

/**
 * Where one training step's bytes went, each category measured from the tensors themselves
 * (not inferred from the total). What the step's peak holds beyond them is transient.
 */
export interface StepBreakdown {
  /** All model variables: trainable, frozen, BatchNorm moving statistics. */ weights: number;
  /** One gradient per trainable weight, alive between backward and the update. */ gradients: number;
  /** Optimizer slot variables (Adam: momentum and variance). */ optimizer: number;
  /** Tensors the gradient tape saved for the backward pass, at the end of the forward pass (weights excluded). */
  savedActivations: number;
  /** Those saved activations by the layer that produced them, largest first (the rest summed last). */
  savedByLayer: { layer: string; bytes: number }[];
  /** The single largest saved activation, like TensorBoard's memory profile shows. */
  largestSaved: { layer: string; shape: number[]; bytes: number } | null;
  /** The input batch (images and labels). */ input: number;
}

/** How a training step ran: outside the tape (frozen backbone), fully taped, or checkpointed. */
export type StepMode = 'outside-tape' | 'taped' | 'checkpointed';

/** How a step ran, so its measured bytes can be read against the technique that produced them. */
export interface StepTechnique {
  mode: StepMode;
  /** Micro-batches whose gradients were summed into the one update (1: no accumulation). */ microBatches: number;
  /** Images in the largest micro-batch: what saved activations scale with. */ microBatchSize: number;
  /** Bytes of the running gradient sum, alive next to each micro-batch's own gradients; 0 without accumulation. */
  accumulatorBytes: number;
  /** Checkpointing only: segments of the model, segments recomputed, bytes of the boundaries kept for backward. */
  checkpoint: { segments: number; recomputed: number; boundaryBytes: number } | null;
  /**
   * Frozen phase with the feature cache: 'filling' ran the backbone and stored its features on the host,
   * 'reading' trained the head on stored features (no images, no backbone); null without the cache.
   */
  featureCache: 'filling' | 'reading' | null;
}

/** One kernel of a profiled step. */
export interface ProfiledKernel {
  /** tfjs kernel name, e.g. 'Conv2D'. */ name: string;
  /** Net bytes the kernel added to the live total (negative when it freed more than it made). */ bytesAdded: number;
  /** Kernel time in ms as the backend timed it; null where the backend cannot time kernels. */ ms:
    number | null;
  /** Shapes of its outputs. */ outputShapes: number[][];
}

/**
 * A training step measured with tf.profile (the opt-in precise mode): its peak as tf.profile computes it,
 * what it left behind, and every kernel with its time (tf.profile makes each kernel time itself, which
 * serialises GPU work: slower, but per-kernel).
 */
export interface StepProfile {
  /** tf.profile's peakBytes. */ peakBytes: number;
  /** Bytes and tensors alive after the step that were not before (0 for a step that leaks nothing). */
  newBytes: number;
  newTensors: number;
  /** Kernels run. */ kernelCount: number;
  /** Sum of the kernels' times; null where the backend could not time them. */ kernelMs: number | null;
  /** The slowest kernels, slowest first. */ slowest: ProfiledKernel[];
  /** The kernels that added the most bytes, largest first. */ largest: ProfiledKernel[];
}

/**
 * The category "saved activations (float16)": bytes a step kept packed as float16 pairs between its
 * forward and backward pass (float16 storage's checkpoint boundaries, measured at the end of the
 * forward pass); null for a step that kept nothing packed.
 */
export function savedFloat16Bytes(technique: StepTechnique, float16Storage: boolean): number | null {
  return float16Storage && technique.checkpoint ? technique.checkpoint.boundaryBytes : null;
}

/** Everything at the step's peak that no category accounts for: temporaries of the largest op, etc. */
export function transientBytes(b: StepBreakdown, peak: number): number {
  return Math.max(0, peak - (b.weights + b.gradients + b.optimizer + b.savedActivations + b.input));
}

/** A named moment on the timeline (phase or epoch start). */
export interface TimelineMarker {
  /** Milliseconds since the run started. */ t: number;
  /** Short text drawn at the marker. */ label: string;
}

/** Highest liveBytes among samples with from ≤ t < to; 0 when there are none. */
export function peakLiveBytes(samples: readonly MemorySample[], from: number, to: number): number {
  let peak = 0;
  for (const s of samples) if (s.t >= from && s.t < to && s.liveBytes > peak) peak = s.liveBytes;
  return peak;
}

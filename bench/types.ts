/** One side of a benchmark row: the same configuration with or without a technique. */
export interface BenchSide {
  /** What this side is, e.g. 'on tape' or 'accumulate 4 × 4'. */
  name: string;
  /** Measured peak bytes of one step (tf.profile peakBytes). */
  peakBytes: number;
  /** Measured bytes of activations saved for the backward pass, where the row compares those. */
  activationBytes?: number;
  /** Measured median wall time of one step in milliseconds. */
  stepMs?: number;
  /** Kernels the profiled step ran (what a step's time scales with where each dispatch has a fixed cost). */
  kernels?: number;
  /** Forward + backward FLOPs of one step (the planner's count), for achieved FLOP/s. */
  flops?: number;
  /** The planner's predicted peak bytes for this side. */
  predictedPeakBytes?: number;
}

/** One row of `npm run bench`: two sides measured in the same run, and their ratio. */
export interface BenchRow {
  section: string;
  /** The configuration, e.g. 'B0-style 64×64 batch 16, frozen phase'. */
  config: string;
  backend: string;
  a: BenchSide;
  b: BenchSide;
  /** What is compared, e.g. 'peak' or 'activations'. */
  metric: string;
  /** b / a of the metric. */
  ratio: number;
  /** The target as text, e.g. '≤ 0.5×', and whether it was met. */
  target?: string;
  pass?: boolean;
}

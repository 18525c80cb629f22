import * as tf from '@tensorflow/tfjs';
import { setStepPhase } from '../memory/stepPhase';
import { packFloat16, unpackFloat16 } from '../precision/kernels';
import { gradientsBy } from './leanBackward';
import type { Backward } from './types';
import { distinctBytes } from './measure';
import { runSegment, type Segment } from './segments';

/** What one checkpointed forward + backward hands back. */
export interface CheckpointedGradients {
  /** The loss, as returned by the loss function on the last segment's output. */ value: tf.Scalar;
  /** Gradient of each trainable variable, by variable name (as tf.variableGrads names them). */
  grads: tf.NamedTensorMap;
  /** Bytes of the segment boundaries kept between the forward pass and the backward pass. */
  boundaryBytes: number;
  /** Segments recomputed under the tape (those from the first one with trainable weights on). */
  recomputed: number;
}

/**
 * How the segment boundaries are kept between the forward and the backward pass: 'float32' as computed;
 * 'float16' packed into binary16 pairs (half the bytes) and unpacked, rounded, for the recompute.
 */
export type BoundaryStorage = 'float32' | 'float16';

/** A boundary as kept: the tensor, and for packed ones the shape to unpack it to. */
interface Stored {
  tensor: tf.Tensor;
  shape: number[] | null;
}

/** A kept boundary as a float32 tensor: itself, or a new unpacked one (the caller frees it). */
const load = (b: Stored): tf.Tensor => (b.shape ? unpackFloat16(b.tensor as tf.Tensor1D, b.shape) : b.tensor);

/** Trainable variables called in a segment. */
const trainableOf = (segment: Segment): tf.Variable[] =>
  segment.layers
    .flatMap((l) => l.trainableWeights.map((w) => w.read() as tf.Variable))
    .filter((v) => v.trainable);

/**
 * State a training-mode call changes (BatchNorm moving statistics of trainable layers), copied so a
 * recompute's second update can be undone: the statistics move once per step, as in the plain step.
 */
function snapshotState(segment: Segment): () => void {
  const state = segment.layers.filter((l) => l.trainable).flatMap((l) => l.nonTrainableWeights);
  // Under tf.tidy so that a clone refused by the memory budget frees the clones made before it.
  const copies = tf.tidy(() => state.map((w) => w.read().clone()));
  return () => {
    state.forEach((w, i) => w.write(copies[i]!));
    tf.dispose(copies);
  };
}

/**
 * The forward pass outside the tape: runs every segment but the last on the previous one's output
 * (float32 as computed, whatever the storage), keeping each output in `boundaries` (which starts with
 * the batch). Inputs of segments before `first`, which are never recomputed, are freed as soon as the
 * next segment has run.
 */
function forward(
  segments: readonly Segment[],
  boundaries: Stored[],
  first: number,
  storage: BoundaryStorage,
): void {
  setStepPhase('forward');
  // The next segment's float32 input: a boundary itself, or (float16 storage) its own tensor,
  // freed here however the pass ends.
  let x = boundaries[0]!.tensor;
  const own = (t: tf.Tensor) => boundaries.every((b) => b.tensor !== t);
  try {
    for (let s = 0; s < segments.length - 1; s++) {
      const out = tf.tidy(() => runSegment(segments[s]!, x, true));
      if (s > 0 && (own(x) || s < first)) x.dispose();
      x = out;
      // Inputs of segments before `first` are freed once used: packing them would gain nothing.
      const pack = storage === 'float16' && s + 1 >= first;
      boundaries.push(pack ? { tensor: packFloat16(out), shape: out.shape } : { tensor: out, shape: null });
    }
  } finally {
    if (own(x)) x.dispose();
  }
}

/**
 * Gradient checkpointing. Forward segment by segment outside the tape, keeping only each segment's
 * input; then, from the last segment back, recompute one segment under the tape and backpropagate
 * through it alone (gradientsWithDy, with the incoming dy), so only one segment's activations
 * are taped at a time. Segments before the first trainable one are never taped. The caller seeds
 * dropout for the whole call, so the recompute draws the same masks as the forward pass.
 *
 * `loss` maps the model output to the scalar to minimise; `measure` is called at the end of each
 * recompute with the boundaries still held, while that segment's tape is active. With `storage`
 * 'float16' the boundaries are kept as binary16 pairs (half the bytes) and each recompute runs on its
 * input rounded to float16; weights, gradients and all arithmetic stay float32.
 */
export function checkpointedGradients(
  segments: readonly Segment[],
  xs: tf.Tensor,
  loss: (output: tf.Tensor) => tf.Scalar,
  measure: (held: readonly tf.Tensor[]) => void,
  storage: BoundaryStorage = 'float32',
  backward: Backward = 'stock',
): CheckpointedGradients {
  const last = segments.length - 1;
  const variables = segments.map(trainableOf);
  const first = variables.findIndex((v) => v.length > 0);
  if (first < 0) throw new Error('Checkpointing found no trainable variable in the model.');
  // boundaries[s] is the input of segment s; the batch (s = 0) stays the caller's.
  const boundaries: Stored[] = [{ tensor: xs, shape: null }];
  const grads: tf.NamedTensorMap = {};
  const pass: BackwardPass = {
    segments,
    variables,
    boundaries,
    grads,
    dy: undefined,
    loss,
    measure,
    backward,
  };
  try {
    forward(segments, boundaries, first, storage);
    const boundaryBytes = distinctBytes(boundaries.slice(Math.max(1, first)).map((b) => b.tensor));
    setStepPhase('backward');
    let value: tf.Scalar | null = null;
    for (let s = last; s >= first; s--) {
      const v = backwardSegment(pass, s, s > first);
      if (s === last) value = v as tf.Scalar;
      else v.dispose();
      if (s > 0) boundaries[s]!.tensor.dispose();
    }
    return { value: value!, grads, boundaryBytes, recomputed: last - first + 1 };
  } catch (err) {
    tf.dispose(Object.values(grads));
    throw err;
  } finally {
    pass.dy?.dispose();
    tf.dispose(boundaries.slice(1).map((b) => b.tensor));
  }
}

/** What the backward pass carries from one segment to the one before. */
interface BackwardPass {
  segments: readonly Segment[];
  variables: tf.Variable[][];
  boundaries: Stored[];
  /** Gradients so far, by variable name. */ grads: tf.NamedTensorMap;
  /** Gradient of the loss with respect to the output of the segment being recomputed. */
  dy: tf.Tensor | undefined;
  loss: (output: tf.Tensor) => tf.Scalar;
  measure: (held: readonly tf.Tensor[]) => void;
  /** Which backward pass each recompute runs. */ backward: Backward;
}

/**
 * Recomputes segment s under the tape from its kept input (unpacked when stored as float16) and
 * backpropagates `dy` through it: its variables' gradients go into `grads`, and with `withInput` the
 * gradient of its input becomes the next dy. Returns the recompute's value (the loss, for the last
 * segment); the caller frees the boundary.
 */
function backwardSegment(pass: BackwardPass, s: number, withInput: boolean): tf.Tensor {
  const segment = pass.segments[s]!;
  const last = s === pass.segments.length - 1;
  const restore = last ? null : snapshotState(segment);
  const stored = pass.boundaries[s]!;
  const input = load(stored);
  const held = () => [
    ...pass.boundaries.slice(0, s + 1).map((b) => b.tensor),
    ...(input === stored.tensor ? [] : [input]),
  ];
  // The recompute's output once it is handed to the backward pass. tfjs tracks it in the caller's
  // scope, and the step runs in none: if the backward pass fails, nothing else would free it.
  let output: tf.Tensor | null = null;
  try {
    const vars = pass.variables[s]!;
    const result = gradientsBy(
      pass.backward,
      () => {
        const out = runSegment(segment, input, true);
        const y = last ? pass.loss(out) : out;
        pass.measure(held().filter((b) => !b.isDisposed));
        output = y;
        return y;
      },
      withInput ? [input, ...vars] : vars,
      pass.dy,
      segment.layers,
    );
    pass.dy?.dispose();
    pass.dy = undefined;
    if (withInput) {
      pass.dy = result.grads[0] ?? undefined;
      if (!pass.dy) throw new Error(`Segment '${segment.name}' does not depend on its input.`);
    }
    result.grads.slice(withInput ? 1 : 0).forEach((g, i) => {
      if (g) pass.grads[vars[i]!.name] = g;
    });
    return result.value;
  } catch (err) {
    // The loss (last segment) is the trainer's; a block's output is this function's.
    if (!last) (output as tf.Tensor | null)?.dispose();
    throw err;
  } finally {
    restore?.();
    if (input !== stored.tensor) input.dispose();
  }
}

import * as tf from '@tensorflow/tfjs';
import { setStepPhase } from '../memory/stepPhase';
import { gradientsWithDy } from '../tfjsInternals';
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
  const copies = state.map((w) => w.read().clone());
  return () => {
    state.forEach((w, i) => w.write(copies[i]!));
    tf.dispose(copies);
  };
}

/**
 * The forward pass outside the tape: runs every segment but the last on the previous one's output,
 * pushing each output onto `boundaries` (which starts with the batch). Inputs of segments before
 * `first`, which are never recomputed, are freed as soon as the next segment has run.
 */
function forward(segments: readonly Segment[], boundaries: tf.Tensor[], first: number): void {
  setStepPhase('forward');
  for (let s = 0; s < segments.length - 1; s++) {
    boundaries.push(tf.tidy(() => runSegment(segments[s]!, boundaries[s]!, true)));
    if (s > 0 && s < first) boundaries[s]!.dispose();
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
 * recompute with the boundaries still held, while that segment's tape is active.
 */
export function checkpointedGradients(
  segments: readonly Segment[],
  xs: tf.Tensor,
  loss: (output: tf.Tensor) => tf.Scalar,
  measure: (held: readonly tf.Tensor[]) => void,
): CheckpointedGradients {
  const last = segments.length - 1;
  const variables = segments.map(trainableOf);
  const first = variables.findIndex((v) => v.length > 0);
  if (first < 0) throw new Error('Checkpointing found no trainable variable in the model.');
  // boundaries[s] is the input of segment s; the batch (s = 0) stays the caller's.
  const boundaries: tf.Tensor[] = [xs];
  const grads: tf.NamedTensorMap = {};
  let dy: tf.Tensor | undefined;
  try {
    forward(segments, boundaries, first);
    const held = boundaries.slice(Math.max(1, first), last + 1);
    const boundaryBytes = distinctBytes(held);
    setStepPhase('backward');
    let value: tf.Scalar | null = null;
    for (let s = last; s >= first; s--) {
      const segment = segments[s]!;
      const input = boundaries[s]!;
      const withInput = s > first;
      const restore = s < last ? snapshotState(segment) : null;
      try {
        const result = gradientsWithDy(
          () => {
            const out = runSegment(segment, input, true);
            const y = s === last ? loss(out) : out;
            measure(boundaries.slice(0, s + 1).filter((b) => !b.isDisposed));
            return y;
          },
          withInput ? [input, ...variables[s]!] : variables[s]!,
          dy,
        );
        if (s === last) value = result.value as tf.Scalar;
        else result.value.dispose();
        dy?.dispose();
        dy = undefined;
        if (withInput) {
          dy = result.grads[0] ?? undefined;
          if (!dy) throw new Error(`Segment '${segment.name}' does not depend on its input.`);
        }
        result.grads.slice(withInput ? 1 : 0).forEach((g, i) => {
          if (g) grads[variables[s]![i]!.name] = g;
        });
      } finally {
        restore?.();
      }
      if (s > 0) input.dispose();
    }
    return { value: value!, grads, boundaryBytes, recomputed: last - first + 1 };
  } catch (err) {
    tf.dispose(Object.values(grads));
    throw err;
  } finally {
    dy?.dispose();
    tf.dispose(boundaries.slice(1));
  }
}

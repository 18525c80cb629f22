import type * as tf from '@tensorflow/tfjs';
import { cutSegments } from '../../core/model/segments';

/**
 * Consecutive layer calls of a model with exactly one tensor flowing in and one flowing out, so the
 * segment can be run, and rerun, from its input alone: a gradient-checkpointing unit.
 */
export interface Segment {
  /** The block it covers, e.g. 'stem', 'block2a' or 'top'. */ name: string;
  /** The model input or the previous segment's output. */ input: tf.SymbolicTensor;
  /** Tensors to compute, in an order that respects the graph; the last is the segment's output. */
  steps: tf.SymbolicTensor[];
  /** Layers called in the segment (each layer of the model is called in exactly one segment). */
  layers: tf.layers.Layer[];
}

/**
 * Cuts the model's graph into segments at block boundaries with core/model/segments' rule (a cut only where a
 * single tensor is live, 'stem' before the first block, 'top' after the last) and maps each onto the
 * model's symbolic tensors and layers.
 */
export function blockSegments(model: tf.LayersModel): Segment[] {
  const [output] = model.outputs;
  if (model.inputs.length !== 1 || model.outputs.length !== 1 || !output) {
    throw new Error('Checkpointing needs a model with one input and one output.');
  }
  const cut = cutSegments<tf.SymbolicTensor>({
    output,
    inputs: (t) => t.inputs,
    layer: (t) => t.sourceLayer.name,
  });
  return cut.map((s) => ({ ...s, layers: s.steps.map((t) => t.sourceLayer) }));
}

/**
 * Runs a segment on concrete tensors, calling each layer as the model's own executor does. Its
 * intermediates belong to the caller's scope (a tf.tidy, or the gradient tape while recomputing).
 */
export function runSegment(segment: Segment, x: tf.Tensor, training: boolean): tf.Tensor {
  const values = new Map<number, tf.Tensor>([[segment.input.id, x]]);
  let out = x;
  for (const t of segment.steps) {
    const inputs = t.inputs.map((s) => values.get(s.id)!);
    const result = t.sourceLayer.apply(inputs.length === 1 ? inputs[0]! : inputs, { training });
    if (Array.isArray(result))
      throw new Error(`Checkpointing cannot run multi-output layer '${t.sourceLayer.name}'.`);
    out = result as tf.Tensor;
    values.set(t.id, out);
  }
  return out;
}

import { SEGMENT_PREFIX } from '../../core/planner';
import type * as tf from '@tensorflow/tfjs';

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

/** Every tensor of a single-input, single-output functional model, inputs before the layers that use them. */
function topologicalOrder(model: tf.LayersModel): tf.SymbolicTensor[] {
  const [output] = model.outputs;
  if (model.inputs.length !== 1 || model.outputs.length !== 1 || !output) {
    throw new Error('Checkpointing needs a model with one input and one output.');
  }
  const order: tf.SymbolicTensor[] = [];
  const done = new Set<number>();
  // Iterative post-order walk: deep models would overflow a recursive one.
  const stack: { t: tf.SymbolicTensor; expanded: boolean }[] = [{ t: output, expanded: false }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    if (done.has(top.t.id)) continue;
    if (top.expanded) {
      done.add(top.t.id);
      order.push(top.t);
      continue;
    }
    stack.push({ t: top.t, expanded: true });
    for (const input of [...top.t.inputs].reverse()) stack.push({ t: input, expanded: false });
  }
  return order;
}

/**
 * Cuts the model's graph into segments at block boundaries (Keras layer-name prefixes). A cut is only
 * made where a single tensor is live, so residual connections stay inside a segment; layers before
 * the first block form 'stem' and those after the last form 'top' (with the head). A model without
 * block names is one segment.
 */
export function blockSegments(model: tf.LayersModel): Segment[] {
  const order = topologicalOrder(model);
  const position = new Map(order.map((t, i) => [t.id, i]));
  const lastUse = order.map(() => -1);
  order.forEach((t, i) => {
    for (const input of t.inputs) lastUse[position.get(input.id)!] = i;
  });
  const keyOf = (t: tf.SymbolicTensor, previous: string): string =>
    SEGMENT_PREFIX.exec(t.sourceLayer.name)?.[1] ?? (previous === 'stem' ? 'stem' : 'top');

  const input = model.inputs[0]!;
  const segments: Segment[] = [];
  let current: Segment = { name: 'stem', input, steps: [], layers: [] };
  let live = lastUse[0]! > 0 ? 1 : 0;
  for (let i = 1; i < order.length; i++) {
    const t = order[i]!;
    const key = keyOf(t, current.name);
    // Valid cut before t: the only live tensor is the one just computed.
    const cutHere = live === 1 && lastUse[i - 1]! >= i && current.steps.length > 0;
    if (cutHere && key !== current.name) {
      segments.push(current);
      current = { name: key, input: order[i - 1]!, steps: [], layers: [] };
    } else if (current.steps.length === 0) {
      current.name = key;
    }
    current.steps.push(t);
    current.layers.push(t.sourceLayer);
    if (lastUse[i]! > i) live++;
    for (const used of new Set(t.inputs.map((x) => position.get(x.id)!))) if (lastUse[used] === i) live--;
  }
  segments.push(current);
  return segments;
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

import * as tf from '@tensorflow/tfjs';
import { gradientsWithDy, recordTape, type TapeNode } from '../tfjsInternals';
import type { Backward } from './types';

/**
 * The lab's own backward pass over the tfjs tape, freeing as it goes. Stock tfjs (engine.gradients)
 * keeps every unsaved forward intermediate until the whole forward pass ends, every node's saved
 * tensors and every activation gradient until the whole backward pass ends. Here each layer's call runs
 * in its own scope (its unsaved intermediates go when the layer returns), the saved tensors of nodes off
 * the gradient path go right after the forward pass, and walking back each node's saved tensors and
 * its outputs' gradients go as soon as that node has run: a tensor's gradient is complete once every
 * consumer (all later on the tape) has added to it, and only its producer reads it. Variables, the
 * caller's inputs and dy, and the gradients returned are never released. The arithmetic is the tape's
 * own gradient functions in the same order, so the gradients equal stock tfjs'.
 */

/** A tape node on the path from the xs to y, with only the inputs that depend on an x. */
interface PathNode {
  node: TapeNode;
  inputs: [string, tf.Tensor][];
}

/** The nodes that depend on an x and lead to y, in tape order. */
function gradientPath(tape: readonly TapeNode[], xs: readonly tf.Tensor[], y: tf.Tensor): PathNode[] {
  const fromX = new Set(xs.map((x) => x.id));
  const reached = tape.map((node) => {
    const hit = Object.values(node.inputs).some((t) => fromX.has(t.id));
    if (hit) for (const o of node.outputs) fromX.add(o.id);
    return hit;
  });
  const toY = new Set([y.id]);
  const leads = new Array<boolean>(tape.length).fill(false);
  for (let i = tape.length - 1; i >= 0; i--) {
    const node = tape[i]!;
    if (!node.outputs.some((o) => toY.has(o.id))) continue;
    leads[i] = true;
    for (const t of Object.values(node.inputs)) toY.add(t.id);
  }
  return tape.flatMap((node, i) =>
    reached[i] && leads[i]
      ? [{ node, inputs: Object.entries(node.inputs).filter(([, t]) => fromX.has(t.id)) }]
      : [],
  );
}

const releaseSaved = (node: TapeNode): void => {
  for (const t of node.saved ?? []) t.dispose();
};

/** Runs fn with each layer's call() in its own tidy scope, then restores the layers' own call(). */
export function withLayerScopes<T>(layers: readonly tf.layers.Layer[], fn: () => T): T {
  const own = layers.map((layer) => layer.call);
  for (const layer of layers) {
    const call = layer.call.bind(layer);
    layer.call = (inputs, kwargs) => tf.tidy(() => call(inputs, kwargs));
  }
  try {
    return fn();
  } finally {
    layers.forEach((layer, i) => (layer.call = own[i]!));
  }
}

/** The gradient of one input of a node, checked the way tfjs checks it. */
function inputGradient(node: TapeNode, name: string, x: tf.Tensor, lazy: () => tf.Tensor): tf.Tensor {
  const dx = tf.tidy(lazy);
  const problem =
    dx.dtype !== 'float32'
      ? `has dtype '${dx.dtype}', not float32`
      : dx.shape.join() !== x.shape.join()
        ? `has shape [${dx.shape.join()}], not its input's [${x.shape.join()}]`
        : null;
  if (problem) {
    dx.dispose();
    throw new Error(`The gradient of input '${name}' of ${node.kernelName} ${problem}.`);
  }
  return dx;
}

/** Walks the path backward from y, accumulating into `grads` and freeing what no later node reads. */
function walk(
  path: readonly PathNode[],
  grads: Map<number, tf.Tensor>,
  keep: ReadonlySet<tf.Tensor>,
  keepIds: ReadonlySet<number>,
): void {
  for (let i = path.length - 1; i >= 0; i--) {
    const { node, inputs } = path[i]!;
    if (!node.gradient) throw new Error(`tfjs has no gradient for ${node.kernelName}.`);
    const lazy = node.gradient(node.outputs.map((o) => grads.get(o.id) ?? null));
    for (const [name, x] of inputs) {
      const get = lazy[name];
      if (!get) throw new Error(`${node.kernelName} gives no gradient for its input '${name}'.`);
      const dx = inputGradient(node, name, x, get);
      const sum = grads.get(x.id);
      grads.set(x.id, sum ? tf.add(sum, dx) : dx);
      if (sum) {
        sum.dispose();
        dx.dispose();
      }
    }
    releaseSaved(node);
    for (const o of node.outputs) {
      const dy = grads.get(o.id);
      if (!dy || keepIds.has(o.id)) continue;
      grads.delete(o.id);
      // A gradient function may hand a dy on unchanged as its input's gradient: that one stays.
      if (!keep.has(dy) && ![...grads.values()].includes(dy)) dy.dispose();
    }
  }
}

/**
 * Gradients of `f` with respect to `xs` with `dy` as the incoming gradient (ones when undefined), as
 * engine.gradients computes them with null for an x that f does not depend on, freeing as it goes;
 * `layers` are the layers f calls, each run in its own scope. On any failure (an OOM included) every
 * tensor the pass made is released before the error propagates.
 */
export function leanGradients(
  f: () => tf.Tensor,
  xs: tf.Tensor[],
  dy: tf.Tensor | undefined,
  layers: readonly tf.layers.Layer[] = [],
): { value: tf.Tensor; grads: (tf.Tensor | null)[] } {
  const { y, tape } = recordTape(() => withLayerScopes(layers, f));
  try {
    const path = gradientPath(tape, xs, y);
    const onPath = new Set(path.map((p) => p.node));
    for (const node of tape) if (!onPath.has(node)) releaseSaved(node);
    let grads: (tf.Tensor | null)[] = [];
    // The backward scope frees whatever the walk made and did not free, when the walk ends or fails.
    tf.tidy('backward', () => {
      const map = new Map<number, tf.Tensor>([[y.id, dy ?? tf.onesLike(y)]]);
      walk(path, map, new Set(dy ? [dy] : []), new Set(xs.map((x) => x.id)));
      grads = xs.map((x) => map.get(x.id) ?? null);
      return grads.filter((g): g is tf.Tensor => g !== null);
    });
    return { value: y, grads };
  } catch (err) {
    y.dispose();
    throw err;
  } finally {
    for (const node of tape) releaseSaved(node);
  }
}

/**
 * tf.variableGrads with the lean backward pass: the gradient of the scalar `f` for each trainable
 * variable it depends on, by variable name.
 */
export function leanVariableGrads(
  f: () => tf.Scalar,
  variables: readonly tf.Variable[],
  layers: readonly tf.layers.Layer[],
): { value: tf.Scalar; grads: tf.NamedTensorMap } {
  const trainable = variables.filter((v) => v.trainable);
  const { value, grads } = leanGradients(f, trainable, undefined, layers);
  const named: tf.NamedTensorMap = {};
  trainable.forEach((v, i) => {
    const g = grads[i];
    if (g) named[v.name] = g;
  });
  if (Object.keys(named).length === 0) {
    value.dispose();
    throw new Error('The loss does not depend on any trainable variable.');
  }
  return { value: value as tf.Scalar, grads: named };
}

/** tf.variableGrads by the chosen backward pass; `layers` are those f calls (lean: one scope each). */
export function variableGradsBy(
  backward: Backward,
  f: () => tf.Scalar,
  variables: readonly tf.Variable[],
  layers: readonly tf.layers.Layer[],
): { value: tf.Scalar; grads: tf.NamedTensorMap } {
  if (backward === 'stock')
    return tf.variableGrads(f, [...variables]) as { value: tf.Scalar; grads: tf.NamedTensorMap };
  return leanVariableGrads(f, variables, layers);
}

/** engine.gradients with a dy (tfjsInternals.gradientsWithDy) by the chosen backward pass. */
export function gradientsBy(
  backward: Backward,
  f: () => tf.Tensor,
  xs: tf.Tensor[],
  dy: tf.Tensor | undefined,
  layers: readonly tf.layers.Layer[],
): { value: tf.Tensor; grads: (tf.Tensor | null)[] } {
  return backward === 'stock' ? gradientsWithDy(f, xs, dy) : leanGradients(f, xs, dy, layers);
}

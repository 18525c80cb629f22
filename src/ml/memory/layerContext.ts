import type * as tf from '@tensorflow/tfjs';
import { onKernel, type KernelRun } from './kernelHook';

/** The layer whose call() is running, so a kernel can say which layer allocated. */
export interface ActiveLayer {
  /** Keras layer name, e.g. 'block3b_project_conv'. */ name: string;
  /** Layer class, e.g. 'Conv2D'. */ className: string;
}

const stack: ActiveLayer[] = [];
const tracked = new WeakSet<tf.layers.Layer>();
/** Which layer produced each tensor buffer in a forward pass (data ids are objects, so entries go with the buffer). */
const producedBy = new WeakMap<object, ActiveLayer>();
/** Backward-pass buffers, attributed to the layer their own inputs came from. */
const derivedFrom = new WeakMap<object, ActiveLayer>();

/** Innermost layer running now, or null outside any layer (loss, backward pass, optimizer). */
export function currentLayer(): ActiveLayer | null {
  return stack[stack.length - 1] ?? null;
}

/**
 * The layer a kernel run belongs to: the running layer in the forward pass; in the backward pass,
 * where no layer runs, the layer that produced one of its inputs (gradient kernels consume the
 * activations their layer saved for them).
 */
export function layerOf(run: KernelRun): ActiveLayer | null {
  const active = currentLayer();
  if (active) return active;
  for (const input of run.inputs) {
    const layer = producedBy.get(input.dataId);
    if (layer) return layer;
  }
  for (const input of run.inputs) {
    const layer = derivedFrom.get(input.dataId);
    if (layer) return layer;
  }
  return null;
}

/** The layer that produced a tensor buffer (forward pass, or by descent in the backward pass). */
export function layerOfData(dataId: object): ActiveLayer | null {
  return producedBy.get(dataId) ?? derivedFrom.get(dataId) ?? null;
}

/**
 * Wraps each layer's call() once so the layer is known while its kernels run (tfjs offers no hook;
 * the wrapper only pushes and pops a name). Shared layers of split models are covered too.
 */
export function trackLayers(model: tf.LayersModel): void {
  for (const layer of model.layers) {
    if (tracked.has(layer)) continue;
    tracked.add(layer);
    const call = layer.call.bind(layer);
    const active: ActiveLayer = { name: layer.name, className: layer.getClassName() };
    layer.call = (inputs, kwargs) => {
      stack.push(active);
      try {
        return call(inputs, kwargs);
      } finally {
        stack.pop();
      }
    };
  }
}

/**
 * Remembers which layer produced each kernel output, for attributing backward kernels: directly in
 * the forward pass, and by descent in the backward pass (a gradient computed from a layer's saved
 * activations, or from tensors derived from them, belongs to that layer).
 */
export function attributeOutputs(backendName: string): () => void {
  return onKernel(backendName, (run) => {
    const active = currentLayer();
    if (active) {
      for (const o of run.outputs) producedBy.set(o.dataId, active);
      return;
    }
    const layer = layerOf(run);
    if (layer) for (const o of run.outputs) if (!producedBy.has(o.dataId)) derivedFrom.set(o.dataId, layer);
  });
}

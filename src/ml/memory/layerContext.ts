import type * as tf from '@tensorflow/tfjs';

/** The layer whose call() is running, so a kernel can say which layer allocated. */
export interface ActiveLayer {
  /** Keras layer name, e.g. 'block3b_project_conv'. */ name: string;
  /** Layer class, e.g. 'Conv2D'. */ className: string;
}

const stack: ActiveLayer[] = [];
const tracked = new WeakSet<tf.layers.Layer>();

/** Innermost layer running now, or null outside any layer (loss, backward pass, optimizer). */
export function currentLayer(): ActiveLayer | null {
  return stack[stack.length - 1] ?? null;
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

import * as tf from '@tensorflow/tfjs';

/** Called after every kernel a backend runs, forward or backward, with the kernel's name. */
export type KernelListener = (kernelName: string) => void;

const listeners = new Map<string, Set<KernelListener>>();

/**
 * Wraps every kernel registered for `backendName` once, so listeners see each kernel as it runs.
 * tfjs has no allocation hook; re-registering its kernels (no fork) is the documented extension point.
 * Returns a function that removes this listener (the wrappers stay; they cost one Set lookup).
 */
export function onKernel(backendName: string, listener: KernelListener): () => void {
  let set = listeners.get(backendName);
  if (!set) {
    set = new Set();
    listeners.set(backendName, set);
    wrapKernels(backendName, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

function wrapKernels(backendName: string, set: Set<KernelListener>): void {
  for (const config of tf.getKernelsForBackend(backendName)) {
    const inner = config.kernelFunc;
    tf.unregisterKernel(config.kernelName, backendName);
    tf.registerKernel({
      ...config,
      kernelFunc: (args) => {
        const out = inner(args);
        for (const listener of set) listener(config.kernelName);
        return out;
      },
    });
  }
}

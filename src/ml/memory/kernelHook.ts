import * as tf from '@tensorflow/tfjs';

/** What a listener learns about one kernel run. */
export interface KernelRun {
  /** tfjs kernel name, e.g. 'Conv2D'. */ kernelName: string;
  /** Its inputs. */ inputs: tf.TensorInfo[];
  /** Its outputs, not yet registered with the engine (tf.memory() does not count them yet). */ outputs: tf.TensorInfo[];
}

/**
 * Called after every kernel a backend runs, forward or backward. A listener may throw (the memory
 * budget does): the kernel's outputs are then released and the error propagates as the kernel's own.
 */
export type KernelListener = (run: KernelRun) => void;

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
        if (set.size === 0) return out;
        const outputs = Array.isArray(out) ? out : [out as tf.TensorInfo];
        const inputs = Object.values(args.inputs).filter((t): t is tf.TensorInfo => t != null);
        try {
          for (const listener of set) listener({ kernelName: config.kernelName, inputs, outputs });
        } catch (err) {
          // The engine never sees these outputs, so nothing else would release them. An output that
          // aliases an input (Reshape) only took a reference, which is given back without freeing.
          const inputIds = new Set(inputs.map((t) => t.dataId));
          const backend = args.backend as tf.KernelBackend;
          for (const o of outputs) backend.disposeData(o.dataId, !inputIds.has(o.dataId));
          throw err;
        }
        return out;
      },
    });
  }
}

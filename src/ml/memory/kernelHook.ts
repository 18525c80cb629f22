import * as tf from '@tensorflow/tfjs';
import { tensorBytes } from '../../core/memory/oom';
import { interceptKernels } from '../tfjsInternals';

/** The new buffers a kernel run allocated (outputs that alias an input, like Reshape, cost nothing). */
export interface Allocation {
  /** Their bytes. */ bytes: number;
  /** The largest of them, or null when there is none. */ largest: tf.TensorInfo | null;
  /** Its bytes (0 when there is none). */ largestBytes: number;
}

/**
 * What a listener learns about one kernel run. Several listeners run per kernel (sampler, budget,
 * recorder, step peak), so the derived numbers are computed once, on first use, and shared.
 */
export class KernelRun {
  private live: number | null = null;
  private alloc: Allocation | null = null;

  constructor(
    /** tfjs kernel name, e.g. 'Conv2D'. */ readonly kernelName: string,
    /** Its inputs. */ readonly inputs: tf.TensorInfo[],
    /** Its outputs, not yet registered with the engine (tf.memory() does not count them yet). */
    readonly outputs: tf.TensorInfo[],
  ) {}

  /** tf.memory().numBytes as the kernel returns, before its outputs are counted. */
  get liveBytes(): number {
    this.live ??= tf.memory().numBytes;
    return this.live;
  }

  /** Bytes of all outputs, views included, as the engine is about to count them (tf.profile's view). */
  get outputBytes(): number {
    return this.outputs.reduce((n, o) => n + tensorBytes(o.shape, o.dtype), 0);
  }

  get allocation(): Allocation {
    if (!this.alloc) {
      const inputIds = new Set(this.inputs.map((t) => t.dataId));
      const a: Allocation = { bytes: 0, largest: null, largestBytes: 0 };
      for (const o of this.outputs) {
        if (inputIds.has(o.dataId)) continue;
        const b = tensorBytes(o.shape, o.dtype);
        a.bytes += b;
        if (!a.largest || b > a.largestBytes) {
          a.largest = o;
          a.largestBytes = b;
        }
      }
      this.alloc = a;
    }
    return this.alloc;
  }
}

/**
 * Called after every kernel a backend runs, forward or backward. A listener may throw (the memory
 * budget does): the kernel's outputs are then released and the error propagates as the kernel's own.
 */
export type KernelListener = (run: KernelRun) => void;

const listeners = new Map<string, Set<KernelListener>>();

/**
 * Wraps every kernel registered for `backendName` once, so listeners see each kernel as it runs.
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

function wrapKernels(backendName: string, set: ReadonlySet<KernelListener>): void {
  interceptKernels(
    backendName,
    () => set.size > 0,
    ({ kernelName, inputs, outputs }) => {
      const run = new KernelRun(kernelName, inputs, outputs);
      for (const listener of set) listener(run);
    },
  );
}

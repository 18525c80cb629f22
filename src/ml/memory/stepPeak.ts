import * as tf from '@tensorflow/tfjs';
import { onKernel } from './kernelHook';

/**
 * The highest live tensor bytes since the last reset, read after every kernel the way tf.profile
 * computes its peakBytes (live bytes plus the kernel's outputs, which the engine counts next, views
 * included). Unlike tf.profile it costs almost nothing and lets a kernel throw: under tf.profile a
 * kernel's exception turns into a TypeError plus an unhandled rejection, so no budget could work.
 */
export class StepPeak {
  private peak = 0;
  private readonly off: () => void;

  constructor(backendName: string) {
    this.off = onKernel(backendName, (run) => {
      const bytes = run.liveBytes + run.outputBytes;
      if (bytes > this.peak) this.peak = bytes;
    });
  }

  /** Starts a new measurement from the bytes live now. */
  reset(): void {
    this.peak = tf.memory().numBytes;
  }

  get value(): number {
    return this.peak;
  }

  dispose(): void {
    this.off();
  }
}

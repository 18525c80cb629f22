import * as tf from '@tensorflow/tfjs';
import type { MemorySample } from '../../core/memory/memory';

/** The backend-specific fields tf.memory() adds for GPU backends. */
interface BackendMemory {
  numBytesInGPU?: number;
  numBytesAllocatedInGPU?: number;
  numBytesInGPUAllocated?: number;
}

/** Reads tf.memory() into a timeline sample. */
export function readMemory(t: number): MemorySample {
  const m = tf.memory() as tf.MemoryInfo & BackendMemory;
  const sample: MemorySample = { t, liveBytes: m.numBytes, numTensors: m.numTensors };
  if (m.numBytesInGPU !== undefined) sample.gpuBytes = m.numBytesInGPU;
  const allocated = m.numBytesAllocatedInGPU ?? m.numBytesInGPUAllocated;
  if (allocated !== undefined) sample.allocatedBytes = allocated;
  return sample;
}

/**
 * Turns frequent reads (every kernel, every timer tick) into a timeline with at most one point per
 * `intervalMs`, where each point carries the highest live bytes seen since the previous point, so
 * short peaks inside a step are not lost between points.
 */
export class MemorySampler {
  private pending: MemorySample[] = [];
  private windowPeak = 0;
  private lastPointAt = Number.NEGATIVE_INFINITY;
  private lastFlushAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly now: () => number,
    private readonly flush: (samples: MemorySample[]) => void,
    private readonly intervalMs = 50,
    private readonly flushEveryMs = 250,
  ) {}

  /** Reads memory now; records a point when the interval has passed, and flushes when due. */
  sample(): void {
    const t = this.now();
    const s = readMemory(t);
    this.windowPeak = Math.max(this.windowPeak, s.liveBytes);
    if (t - this.lastPointAt >= this.intervalMs) {
      this.pending.push({ ...s, liveBytes: this.windowPeak });
      this.windowPeak = 0;
      this.lastPointAt = t;
    }
    if (t - this.lastFlushAt >= this.flushEveryMs) this.drain(t);
  }

  /** Records a point now regardless of the interval and sends everything pending. */
  mark(): void {
    const t = this.now();
    const s = readMemory(t);
    this.pending.push({ ...s, liveBytes: Math.max(this.windowPeak, s.liveBytes) });
    this.windowPeak = 0;
    this.lastPointAt = t;
    this.drain(t);
  }

  private drain(t: number): void {
    this.lastFlushAt = t;
    if (this.pending.length === 0) return;
    const out = this.pending;
    this.pending = [];
    this.flush(out);
  }
}

import type { StepPhase } from '../../core/memory/oom';
import { onKernel } from './kernelHook';
import { layerOf } from './layerContext';
import { stepPhase } from './stepPhase';

/** The largest single allocation seen, and where it happened. */
export interface AllocationRecord {
  shape: number[];
  dtype: string;
  /** Bytes of that tensor. */ bytes: number;
  /** Live tensor bytes when it was allocated. */ bytesInUse: number;
  layer: string | null;
  layerClass: string | null;
  op: string;
  phase: StepPhase;
}

/**
 * Remembers the largest tensor allocated since the last reset. A real GPU failure only says that some
 * allocation failed; the largest one of the failed step is the usual culprit (always, for a tensor
 * above maxBufferSize), so the lab can name its shape and layer.
 */
export class LargestAllocation {
  private record: AllocationRecord | null = null;
  private readonly off: () => void;

  constructor(backendName: string) {
    this.off = onKernel(backendName, (run) => {
      const { largest, largestBytes: bytes } = run.allocation;
      if (!largest) return;
      if (this.record && bytes <= this.record.bytes) return;
      const layer = layerOf(run);
      this.record = {
        shape: [...largest.shape],
        dtype: largest.dtype,
        bytes,
        bytesInUse: run.liveBytes,
        layer: layer?.name ?? null,
        layerClass: layer?.className ?? null,
        op: run.kernelName,
        phase: stepPhase(),
      };
    });
  }

  reset(): void {
    this.record = null;
  }

  get largest(): AllocationRecord | null {
    return this.record;
  }

  dispose(): void {
    this.off();
  }
}

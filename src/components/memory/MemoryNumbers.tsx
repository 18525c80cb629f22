import type { MemorySample } from '../../core/memory/memory';
import { count, formatBytes } from '../../core/format';

interface Props {
  /** The latest sample, if any. */ last: MemorySample | undefined;
  /** Whether the backend reports its allocated (pool) bytes. */ hasPool: boolean;
  /** Highest sampled live bytes per phase. */ peaks: readonly { phase: string; peakBytes: number }[];
  /** Highest step peak per phase, read at every kernel. */
  stepPeak: readonly { phase: string; peakBytes: number }[];
  backend: string;
}

/** The current numbers and each phase's peaks, all measured. */
export function MemoryNumbers({ last, hasPool, peaks, stepPeak, backend }: Props) {
  const tag = <span className="label-measured">measured · {backend}</span>;
  return (
    <dl className="numbers" data-testid="memory-numbers">
      <div>
        <dt>Live tensor bytes now</dt>
        <dd>
          {last ? formatBytes(last.liveBytes) : '—'} {tag}
        </dd>
      </div>
      <div>
        <dt>Live tensors</dt>
        <dd>
          {last ? count(last.numTensors) : '—'} {tag}
        </dd>
      </div>
      {hasPool && (
        <div>
          <dt>Allocated by backend (incl. freed-but-pooled)</dt>
          <dd>
            {formatBytes(last?.allocatedBytes ?? Number.NaN)} {tag}
          </dd>
        </div>
      )}
      {peaks.map((p) => (
        <div key={p.phase} data-testid={`peak-${p.phase}`} data-bytes={p.peakBytes}>
          <dt>Peak, {p.phase} phase</dt>
          <dd>
            {formatBytes(p.peakBytes)} {tag}
          </dd>
        </div>
      ))}
      {stepPeak.map((p) => (
        <div key={`profile-${p.phase}`} data-testid={`step-peak-${p.phase}`} data-bytes={p.peakBytes}>
          <dt>Step peak, {p.phase} phase</dt>
          <dd>
            {formatBytes(p.peakBytes)}{' '}
            <span className="label-measured">measured · {backend} · every kernel, as tf.profile</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}

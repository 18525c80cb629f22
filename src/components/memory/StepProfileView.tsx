import { type ProfiledKernel } from '../../core/memory/memory';
import { useLab } from '../ui/useLab';
import { count, formatBytes } from '../../core/format';

const kernelLine = (k: ProfiledKernel, value: string) => (
  <li key={`${k.name}-${value}-${k.outputShapes.map((s) => s.join('×')).join(',')}`}>
    <code>{k.name}</code> → [{k.outputShapes.map((s) => s.join('×')).join(', ')}]: {value}
  </li>
);

/**
 * Precise mode: the last training step as tf.profile saw it, next to the always-on kernel-hook peak of
 * the same step, with the kernels that took longest and those that added the most bytes.
 */
export function StepProfileView() {
  const last = useLab((s) => s.run.batches.findLast((b) => b.profile !== undefined));
  const backend = useLab((s) => s.run.backend ?? 'no backend');
  const p = last?.profile;
  if (!last || !p) return null;
  const tag = <span className="label-measured">measured · {backend} · tf.profile</span>;
  return (
    <div className="step-profile" data-testid="step-profile">
      <h3>Precise profile of the last step</h3>
      <p>
        Peak <span data-testid="profile-peak">{formatBytes(p.peakBytes)}</span> {tag}
        {last.peakBytes !== undefined && (
          <>
            {' '}
            (kernel hook: <span data-testid="profile-hook-peak">{formatBytes(last.peakBytes)}</span>)
          </>
        )}
        . {count(p.kernelCount)} kernels
        {p.kernelMs !== null && <>, {p.kernelMs.toFixed(1)} ms of kernel time</>};{' '}
        <span data-testid="profile-new-tensors">{p.newTensors}</span> tensors ({formatBytes(p.newBytes)}) made
        during the step still alive after it.
      </p>
      <p className="hint">
        Those are Adam&apos;s slots after a phase&apos;s first step, and whatever the prefetching pipeline
        prepared while the step ran (tf.profile counts every tensor made meanwhile; set prefetch to 0 to see
        the step alone). Any other would be a leak.
      </p>
      <div className="row">
        <div>
          <h4>Added the most bytes</h4>
          <ol>{p.largest.map((k) => kernelLine(k, formatBytes(k.bytesAdded)))}</ol>
        </div>
        <div>
          <h4>Slowest</h4>
          {p.slowest.length === 0 ? (
            <p className="hint">This backend cannot time single kernels.</p>
          ) : (
            <ol>{p.slowest.map((k) => kernelLine(k, `${(k.ms ?? 0).toFixed(2)} ms`))}</ol>
          )}
        </div>
      </div>
    </div>
  );
}

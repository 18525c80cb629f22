import { formatBytes } from '../../core/memory';
import { planKeras, type PlanInput } from '../../core/planner';

/** Why half precision is not among the fixes here, and what it would need in Keras. */
export function HalfPrecisionNote({ input }: { input: PlanInput }) {
  return (
    <p className="hint" data-testid="oom-half-precision">
      Not offered: half precision. tfjs 4.22 has no float16 dtype, so it cannot save memory here. In Keras,
      mixed float16 is the usual fix: this step would need{' '}
      {formatBytes(planKeras(input, 'mixed_float16').peakBytes)} there, against{' '}
      {formatBytes(planKeras(input).peakBytes)} in float32{' '}
      <span className="label-predicted">predicted · Keras/CUDA model</span>.
    </p>
  );
}

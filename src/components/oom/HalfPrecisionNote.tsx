import { planKeras, type PlanInput } from '../../core/planner/planner';
import { FLOAT16_WORDS } from '../../core/oom/remedies';
import { formatBytes } from '../../core/format';

/**
 * What half precision means here against Keras: the lab's float16 storage (a fix above, in the
 * fine-tune phase) packs only the checkpoint boundaries, while Keras' mixed float16 also computes in
 * 16 bits; its prediction stays beside it for comparison.
 */
export function HalfPrecisionNote({ input }: { input: PlanInput }) {
  return (
    <p className="hint" data-testid="oom-half-precision">
      Half precision here is {FLOAT16_WORDS} (tfjs 4.22 has no float16 dtype): float16 storage keeps the
      checkpointed step&apos;s block boundaries in 16 bits and recomputes each block in float32, so it saves
      less than Keras&apos; mixed float16, which stores and computes activations in 16 bits. In Keras this
      step would need {formatBytes(planKeras(input, 'mixed_float16').peakBytes)} in mixed float16, against{' '}
      {formatBytes(planKeras(input).peakBytes)} in float32{' '}
      <span className="label-predicted">predicted · Keras/CUDA model</span>.
    </p>
  );
}

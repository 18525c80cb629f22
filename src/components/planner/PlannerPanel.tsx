import { useMemo } from 'react';
import { BatchCurve } from './BatchCurve';
import { ByteCategories } from './ByteCategories';
import { plannedFor } from '../../core/planner/planner';
import { planRows } from './planRows';
import { PlanTable } from './PlanTable';
import { usePlanned } from './usePlanned';
import { VerdictView } from './VerdictView';
import { useLab } from '../ui/useLab';

/**
 * The planner: the peak of one training step of each phase, predicted from layer shapes before
 * anything runs, next to what the last run measured, and what Keras on a CUDA card would need.
 */
export function PlannerPanel() {
  const planner = useLab((s) => s.planner);
  const { spec, config } = usePlanned();
  const run = useLab((s) => s.run);
  const backend = useLab((s) => s.run.backend ?? s.engine.backend?.name ?? 'no backend');
  const plans = useMemo(() => (spec ? planRows(spec, config) : []), [spec, config]);
  // Measurements only compare with a prediction for the same configuration.
  const sameConfig = run.config !== null && plannedFor(run.config) === plannedFor(config);

  return (
    <section className="panel" aria-labelledby="planner-title" data-testid="planner">
      <h2 id="planner-title">Planner</h2>
      {planner.status === 'loading' && !spec && <p>Describing the model…</p>}
      {planner.status === 'error' && (
        <p role="alert">The planner could not describe the model: {planner.error}</p>
      )}
      {spec && (
        <>
          <p className="hint">
            Predicted from layer shapes before anything runs: {spec.layers.length} layers at {spec.height}×
            {spec.width}, batch {config.batchSize}, Adam, {config.prefetch} batch
            {config.prefetch === 1 ? '' : 'es'} prefetched. The tfjs model counts what TensorFlow.js 4.22
            keeps; the Keras column is what TensorFlow on a CUDA card would need for the same step.
          </p>
          <PlanTable plans={plans} sameConfig={sameConfig} batches={run.batches} backend={backend} />
          <VerdictView />
          <BatchCurve />
          {plans.some((p) => p.key === 'frozen-cached') && (
            <p className="hint" data-testid="planner-cache-note">
              Feature cache: the first frozen epoch runs the backbone and stores its features in host memory;
              later frozen epochs train the head on them, with no decoding and no backbone. The frozen
              phase&apos;s peak is still the first epoch&apos;s.
            </p>
          )}
          {plans.length > 0 && <ByteCategories plans={plans} />}
        </>
      )}
    </section>
  );
}

import { useMemo } from 'react';
import { SweepChart } from '../../charts/SweepChart';
import { curveBatches, predictedBatchCurve } from '../../core/sweep/sweep';
import type { TrainingPhase } from '../../core/settings/trainConfig';
import { useNumbersHidden } from '../workshop/useNumbersHidden';
import { usePlanned } from './usePlanned';

/**
 * The phase that needs the most, predicted against batch size with the current settings, next to the
 * simulated card: where the batch stops fitting, before anything runs.
 */
export function BatchCurve() {
  const { spec, config } = usePlanned();
  const hidden = useNumbersHidden();
  const curve = useMemo(() => {
    if (!spec) return null;
    const phase: TrainingPhase = config.fineTuneEpochs > 0 ? 'fine-tune' : 'frozen';
    return { phase, rows: predictedBatchCurve(spec, config, phase, curveBatches(config.batchSize)) };
  }, [spec, config]);
  if (!curve || hidden) return null;
  return (
    <div data-testid="planner-batch-curve">
      <SweepChart
        title={`Peak vs batch size · ${curve.phase} phase · current settings`}
        xLabel="batch size"
        rows={curve.rows}
        budgetBytes={config.budgetBytes}
        backendLabel=""
        predictedOnly
        testId="planner-curve-chart"
      />
      <p className="hint">
        Resolution works like batch for activations (they grow with the pixel count); the sweeps below measure
        both curves.
      </p>
    </div>
  );
}

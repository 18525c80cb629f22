import type { ModelSpec } from '../../core/model/modelSpec';
import { planInput, planKeras, planTfjs, type Plan } from '../../core/planner/planner';
import { featureCache } from '../../core/settings/techniques';
import type { TrainConfig, TrainingPhase } from '../../core/settings/trainConfig';
import type { BatchPoint } from '../../store/types';
import { maxOf } from '../../core/extent';

/** One row of the table: a phase, or the frozen phase's steps on cached features. */
export interface PlanRow {
  key: string;
  label: string;
  /** The run's steps the row's measurement is read from. */
  steps: (b: BatchPoint) => boolean;
  tfjs: Plan;
  /** Keras has no counterpart of the feature cache row. */
  keras: Plan | null;
  mixed: Plan | null;
}

/** Each phase's predicted step, and with the feature cache the frozen steps on cached features. */
export function planRows(spec: ModelSpec, config: TrainConfig): PlanRow[] {
  const phases: TrainingPhase[] = config.fineTuneEpochs > 0 ? ['frozen', 'fine-tune'] : ['frozen'];
  const rows = phases.map((phase): PlanRow => {
    const input = planInput(spec, config, phase);
    return {
      key: phase,
      label: phase,
      // The phase's peak step; with the feature cache, that is a step of the first epoch.
      steps: (b) => b.phase === phase,
      tfjs: planTfjs(input),
      keras: planKeras(input),
      mixed: planKeras(input, 'mixed_float16'),
    };
  });
  if (featureCache(config).on) {
    rows.splice(1, 0, {
      key: 'frozen-cached',
      label: 'frozen, epochs 2+ on cached features',
      steps: (b) => b.technique.featureCache === 'reading',
      tfjs: planTfjs({ ...planInput(spec, config, 'frozen'), cachedFeatures: true }),
      keras: null,
      mixed: null,
    });
  }
  return rows;
}

/** The highest measured step peak among the row's steps. */
export function measuredPeak(batches: readonly BatchPoint[], row: PlanRow): number | undefined {
  const peaks = batches.filter(row.steps).flatMap((b) => b.peakBytes ?? []);
  return peaks.length ? maxOf(peaks) : undefined;
}

/** The median step time, for achieved FLOP/s only over steps that did the work the row's FLOPs count. */
export function medianStepMs(batches: readonly BatchPoint[], row: PlanRow): number | undefined {
  const times = batches
    .filter((b) => row.steps(b) && (row.key === 'frozen-cached' || b.technique.featureCache !== 'reading'))
    .map((b) => b.stepMs)
    .sort((a, b) => a - b);
  return times.length ? times[times.length >> 1] : undefined;
}

import { planInput, planTfjs, type Plan, type PlanInput } from '../../core/planner/planner';
import {
  crossingCategory,
  precisionRemedies,
  rankRemedies,
  remediesFor,
  type RankedRemedy,
  type Remedy,
} from '../../core/oom/remedies';
import type { OomDetails } from '../../core/memory/oom';
import type { TrainConfig } from '../../core/settings/trainConfig';
import { selectSpecs } from '../../store/selectors';
import { useLab } from '../ui/useLab';

/** Fixes without the planner's peak, for when the model as it ran is not described yet. */
const unranked = (remedies: readonly Remedy[], config: TrainConfig, limit: number) =>
  remedies.map((remedy): RankedRemedy => ({
    remedy,
    config: { ...config, ...remedy.patch },
    predictedBytes: null,
    limit: remedy.patch.budgetBytes ?? limit,
    fits: null,
  }));

/** A run that ran out of memory, with its fixes in the order the OOM panel and the run bar offer them. */
export interface OomFixes {
  oom: OomDetails;
  /** Best first: ranked by the planner's predicted savings when the model as it ran is described. */
  fixes: RankedRemedy[];
  /** The planner's view of the failing phase, when it can be had. */ input: PlanInput | null;
  failing: Plan | null;
  crossed: ReturnType<typeof crossingCategory> | null;
}

/** The last run's OOM and its fixes, or null when the last run did not run out of memory. */
export function useOomFixes(): OomFixes | null {
  const run = useLab((s) => s.run);
  const config = useLab((s) => s.config);
  const spec = useLab((s) => s.planner.spec);
  const specs = useLab(selectSpecs);
  if (run.status !== 'oom' || !run.oom) return null;
  const oom = run.oom;
  const phase = run.result?.lastPhase ?? null;
  const remedies = [...remediesFor(oom, config, phase, spec), ...precisionRemedies(oom, config, phase)];
  // The planner's view needs the model as it ran; a changed resolution or model waits for a new description.
  const plannable =
    spec !== null && phase !== null && spec.height === config.height && spec.width === config.width;
  const limit = Number.isFinite(oom.limit) ? oom.limit : Number.POSITIVE_INFINITY;
  // Specs at other sizes (a lower-resolution fix) come from the engine; until then that fix says so.
  const ranked = plannable ? rankRemedies(remedies, specs, config, phase, limit) : null;
  const input = plannable ? planInput(spec, config, phase) : null;
  const failing = input ? planTfjs(input) : null;
  const crossed = failing && Number.isFinite(oom.limit) ? crossingCategory(failing, oom.limit) : null;
  return { oom, fixes: ranked ?? unranked(remedies, config, limit), input, failing, crossed };
}

import { oomMessage } from '../../core/memory/oom';
import { planInput, planTfjs } from '../../core/planner/planner';
import {
  crossingCategory,
  precisionRemedies,
  rankRemedies,
  remediesFor,
  type RankedRemedy,
  type Remedy,
} from '../../core/oom/remedies';
import type { TrainConfig } from '../../core/settings/trainConfig';
import { selectSpecs } from '../../store/selectors';
import { HalfPrecisionNote } from './HalfPrecisionNote';
import { OomCrossing } from './OomCrossing';
import { OomNumbers } from './OomNumbers';
import { RemedyItem } from './RemedyItem';
import { KIND_WORDS } from './words';
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

/** What ran out, where, and one-click fixes that continue the run. */
export function OomPanel() {
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
  return (
    <section className="panel oom" aria-labelledby="oom-title" data-testid="oom-panel">
      <h2 id="oom-title">Out of memory: ResourceExhaustedError</h2>
      <pre className="oom-message" data-testid="oom-message">
        {oomMessage(oom)}
      </pre>
      <p>{KIND_WORDS[oom.kind]}</p>
      <OomNumbers oom={oom} />
      {failing && <OomCrossing failing={failing} crossed={crossed} />}
      <p>The model kept its last good weights. Pick a fix; training continues from where it failed:</p>
      <ol className="remedies" data-testid="remedies">
        {(ranked ?? unranked(remedies, config, limit)).map((r) => (
          <RemedyItem key={r.remedy.id} ranked={r} />
        ))}
      </ol>
      {input && <HalfPrecisionNote input={input} />}
    </section>
  );
}

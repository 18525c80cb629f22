import { formatBytes } from '../core/memory';
import type { OomKind } from '../core/oom';
import { oomMessage } from '../core/oom';
import { planInput, planKeras, planTfjs, type Plan } from '../core/planner';
import {
  ALLOCATION_ORDER,
  crossingCategory,
  fixClaim,
  rankRemedies,
  remediesFor,
  type RankedRemedy,
} from '../core/remedies';
import { commands } from '../store/commands';
import { selectSpecs } from '../store/selectors';
import { useLab } from './useLab';

const KIND_WORDS: Record<OomKind, string> = {
  budget:
    'The simulated card is full: this allocation would have pushed live tensors past the limit you set.',
  'device-oom': 'The GPU itself could not allocate the memory (a real out-of-memory error from the driver).',
  'buffer-limit':
    'One single tensor is larger than the GPU allows for one buffer, even though total memory may be fine.',
  'device-lost': 'The GPU device was lost (the GPU process died); the backend has to be started again.',
  'context-lost': 'The WebGL context was lost; the backend has to be started again.',
  'host-oom': 'JavaScript could not allocate the memory (CPU backend or image decoding).',
};

const CATEGORY_WORDS: Record<keyof Plan['categories'], string> = {
  weights: 'weights',
  optimizer: 'Adam slots',
  input: 'input batches',
  gradients: 'weight gradients',
  savedActivations: 'activations saved for backward',
  transient: 'activation gradients and temporaries',
};

/** What ran out, where, and one-click fixes that continue the run. */
export function OomPanel() {
  const run = useLab((s) => s.run);
  const config = useLab((s) => s.config);
  const spec = useLab((s) => s.planner.spec);
  const specs = useLab(selectSpecs);
  if (run.status !== 'oom' || !run.oom) return null;
  const oom = run.oom;
  const phase = run.result?.lastPhase ?? null;
  const remedies = remediesFor(oom, config, phase, spec);
  // The planner's view needs the model as it ran; a changed resolution or model waits for a new description.
  const plannable =
    spec !== null && phase !== null && spec.height === config.height && spec.width === config.width;
  const limit = Number.isFinite(oom.limit) ? oom.limit : Number.POSITIVE_INFINITY;
  // Specs at other sizes (a lower-resolution fix) come from the engine; until then that fix says so.
  const ranked = plannable ? rankRemedies(remedies, specs, config, phase, limit) : null;
  const failing = plannable ? planTfjs(planInput(spec, config, phase)) : null;
  const crossed = failing && Number.isFinite(oom.limit) ? crossingCategory(failing, oom.limit) : null;
  return (
    <section className="panel oom" aria-labelledby="oom-title" data-testid="oom-panel">
      <h2 id="oom-title">Out of memory: ResourceExhaustedError</h2>
      <pre className="oom-message" data-testid="oom-message">
        {oomMessage(oom)}
      </pre>
      <p>{KIND_WORDS[oom.kind]}</p>
      <dl className="numbers">
        <div>
          <dt>Where</dt>
          <dd data-testid="oom-layer">
            {oom.layer ? `${oom.layer} (${oom.layerClass ?? '?'})` : (oom.op ?? 'unknown')} · {oom.phase}
          </dd>
        </div>
        {Number.isFinite(oom.bytesInUse) && (
          <div>
            <dt>In use before it</dt>
            <dd>
              {formatBytes(oom.bytesInUse)} <span className="label-measured">measured · {oom.backend}</span>
            </dd>
          </div>
        )}
        {Number.isFinite(oom.bytesRequested) && (
          <div>
            <dt>Requested</dt>
            <dd>
              {formatBytes(oom.bytesRequested)}{' '}
              <span className="label-measured">measured · {oom.backend}</span>
            </dd>
          </div>
        )}
        {Number.isFinite(oom.limit) && (
          <div>
            <dt>Limit</dt>
            <dd>
              {formatBytes(oom.limit)}{' '}
              <span className="label-setting">
                {oom.kind === 'budget' ? 'your simulated card' : `reported by the ${oom.backend} device`}
              </span>
            </dd>
          </div>
        )}
      </dl>
      {failing && (
        <p data-testid="oom-crossing">
          The planner predicts this step at {formatBytes(failing.peakBytes)} (peak at the {failing.at}){' '}
          <span className="label-predicted">predicted · tfjs model</span>:{' '}
          {ALLOCATION_ORDER.map((k) => `${CATEGORY_WORDS[k]} ${formatBytes(failing.categories[k])}`).join(
            ' + ',
          )}
          .
          {crossed && (
            <>
              {' '}
              Added in that order, <strong>{CATEGORY_WORDS[crossed]}</strong> is what crosses the limit.
            </>
          )}
        </p>
      )}
      <p>The model kept its last good weights. Pick a fix; training continues from where it failed:</p>
      <ol className="remedies" data-testid="remedies">
        {(
          ranked ??
          remedies.map((remedy): RankedRemedy => ({
            remedy,
            config: { ...config, ...remedy.patch },
            predictedBytes: null,
            limit: remedy.patch.budgetBytes ?? limit,
            fits: null,
          }))
        ).map((r) => (
          <RemedyItem key={r.remedy.id} ranked={r} />
        ))}
      </ol>
      {plannable && (
        <p className="hint" data-testid="oom-half-precision">
          Not offered: half precision. tfjs 4.22 has no float16 dtype, so it cannot save memory here. In
          Keras, mixed float16 is the usual fix: this step would need{' '}
          {formatBytes(planKeras(planInput(spec, config, phase), 'mixed_float16').peakBytes)} there, against{' '}
          {formatBytes(planKeras(planInput(spec, config, phase)).peakBytes)} in float32{' '}
          <span className="label-predicted">predicted · Keras/CUDA model</span>.
        </p>
      )}
    </section>
  );
}

/** One fix: the button, why it helps, and the planner's peak for exactly the changed settings. */
function RemedyItem({ ranked: r }: { ranked: RankedRemedy }) {
  const { remedy, predictedBytes, fits, limit } = r;
  const card = Number.isFinite(limit) ? formatBytes(limit) : null;
  return (
    <li data-testid={`ranked-${remedy.id}`} data-fits={fits === null ? 'unknown' : String(fits)}>
      <button
        type="button"
        data-testid={`remedy-${remedy.id}`}
        onClick={() => void commands().applyRemedy(remedy, fixClaim(r))}
      >
        {remedy.title}
      </button>
      <small className="hint">
        {remedy.why}{' '}
        {predictedBytes === null ? (
          <span className="label-predicted" data-testid={`remedy-${remedy.id}-predicted`}>
            not predicted yet: the planner needs the model described at {r.config.height}×{r.config.width}
          </span>
        ) : (
          <span data-testid={`remedy-${remedy.id}-predicted`}>
            Step peak then {formatBytes(predictedBytes)}
            {card &&
              (fits
                ? `, fits the ${card} card`
                : `, over the ${card} card by ${formatBytes(predictedBytes - limit)}`)}{' '}
            <span className="label-predicted">predicted · tfjs model</span>
          </span>
        )}
      </small>
    </li>
  );
}

import { formatBytes } from '../core/memory';
import type { OomKind } from '../core/oom';
import { oomMessage } from '../core/oom';
import { remediesFor } from '../core/remedies';
import { commands } from '../store/commands';
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

/** What ran out, where, and one-click fixes that continue the run. */
export function OomPanel() {
  const run = useLab((s) => s.run);
  const config = useLab((s) => s.config);
  if (run.status !== 'oom' || !run.oom) return null;
  const oom = run.oom;
  const remedies = remediesFor(oom, config, run.result?.lastPhase ?? null);
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
      <p>The model kept its last good weights. Pick a fix; training continues from where it failed:</p>
      <ol className="remedies" data-testid="remedies">
        {remedies.map((r) => (
          <li key={r.id}>
            <button
              type="button"
              data-testid={`remedy-${r.id}`}
              onClick={() => void commands().applyRemedy(r)}
            >
              {r.title}
            </button>
            <small className="hint">
              {r.why} <span className="label-predicted">saving not predicted yet: measured when it runs</span>
            </small>
          </li>
        ))}
      </ol>
    </section>
  );
}

import type { OomDetails } from '../../core/memory/oom';
import { formatBytes } from '../../core/format';

/** Where it failed, what was in use and asked for, and the limit, each with where the number comes from. */
export function OomNumbers({ oom }: { oom: OomDetails }) {
  return (
    <dl className="numbers">
      <div>
        <dt>Where</dt>
        <dd data-testid="oom-layer">
          {oom.phase === 'input'
            ? 'the input batch, before any layer ran'
            : `${oom.layer ? `${oom.layer} (${oom.layerClass ?? '?'})` : (oom.op ?? 'unknown')} · ${oom.phase}`}
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
            {formatBytes(oom.bytesRequested)} <span className="label-measured">measured · {oom.backend}</span>
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
  );
}

import { commands } from '../../store/commands';
import { selectEngineFree } from '../../store/selectors';
import { useLab } from '../ui/useLab';
import { formatBytes } from '../../core/format';

/** Keras' clear_session for the browser: free the model and the backend's pool, with before and after. */
export function ReleaseControl() {
  const release = useLab((s) => s.memory.release);
  // Releasing re-creates the backend, so it waits until no run or sweep holds the engine.
  const busy = useLab((s) => !selectEngineFree(s));
  const r = release.result;
  return (
    <div className="release">
      <div className="row">
        <button
          type="button"
          data-testid="release-all"
          disabled={busy || release.status === 'running'}
          onClick={() => void commands().releaseAll()}
        >
          {release.status === 'running' ? 'Releasing…' : 'Release everything (clear_session)'}
        </button>
        <small className="hint">
          Disposes the model and re-creates the backend: the only way to hand tfjs&apos; pooled buffers back.
          The next run starts from scratch.
        </small>
      </div>
      {release.error && (
        <p className="error-text" role="alert">
          {release.error}
        </p>
      )}
      {r && (
        <p data-testid="release-result">
          Live tensors {formatBytes(r.before.liveBytes)} → {formatBytes(r.after.liveBytes)}
          {r.before.allocatedBytes !== undefined &&
            `, allocated incl. pool ${formatBytes(r.before.allocatedBytes)} → ${formatBytes(r.after.allocatedBytes ?? 0)}`}{' '}
          <span className="label-measured">measured · {r.backend.name}</span>
        </p>
      )}
    </div>
  );
}

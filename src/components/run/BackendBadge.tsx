import { computeKind, peakNote, type ComputeKind } from '../../core/device/adapterKind';
import { isSoftwareDefaults, SOFTWARE_TRAIN_CONFIG } from '../../core/settings/settings';
import { BACKEND_ORDER, type BackendRequest } from '../../core/device/backend';
import { commands } from '../../store/commands';
import { selectBusy } from '../../store/selectors';
import { useLab } from '../ui/useLab';
import './BackendBadge.css';
import { formatBytes } from '../../core/format';

/** Which backend trains, on which adapter, with which limits, and why a faster one was not used. */
export function BackendBadge() {
  const engine = useLab((s) => s.engine);
  const request = useLab((s) => s.backendRequest);
  // Switching re-creates the backend under whatever job holds it: a run or a sweep.
  const busy = useLab(selectBusy);
  const info = engine.backend;
  const kind = computeKind(info);
  const softwareDefaults = useLab((s) => isSoftwareDefaults(s.config));
  return (
    <section className="backend" aria-label="Backend" data-testid="backend-badge">
      <span className={`badge badge-${info?.name ?? engine.status}`} data-testid="backend-name">
        {engine.status === 'starting' ? 'starting…' : engine.status === 'failed' ? 'no backend' : info?.name}
      </span>
      {info && (
        <span className="backend-detail">
          {info.inWorker ? 'in a Web Worker' : 'on the page thread'}
          {info.adapter && ` · adapter ${info.adapter.vendor} / ${info.adapter.architecture}`}
          {info.limits &&
            ` · maxBufferSize ${formatBytes(info.limits.maxBufferSize)} · maxStorageBufferBindingSize ${formatBytes(info.limits.maxStorageBufferBindingSize)}`}
          {info.maxTextureSize !== undefined && ` · max texture ${info.maxTextureSize}px`}
          {info.renderer && ` · renderer ${info.renderer}`}
          {info.f16Textures && <strong data-testid="f16-textures"> · float16 textures</strong>}
          <AdapterNotes kind={kind} softwareDefaults={softwareDefaults} />
        </span>
      )}
      {info && info.skipped.length > 0 && (
        <details className="backend-skipped">
          <summary>Why not faster?</summary>
          <ul>
            {info.skipped.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        </details>
      )}
      {engine.error && <span className="error-text">{engine.error}</span>}
      <label className="backend-select">
        Backend{' '}
        <select
          value={request}
          disabled={busy}
          onChange={(e) => void commands().setBackend(e.target.value as BackendRequest)}
        >
          <option value="auto">auto (fastest that works)</option>
          {BACKEND_ORDER.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}

/** What the adapter means for speed: an emulated GPU is named as one, and a peak FLOP/s is shown only where one is known. */
function AdapterNotes({ kind, softwareDefaults }: { kind: ComputeKind; softwareDefaults: boolean }) {
  const c = SOFTWARE_TRAIN_CONFIG;
  return (
    <>
      {softwareDefaults && kind !== 'gpu' && (
        <strong data-testid="software-defaults">
          {' '}
          · defaults for a machine without a GPU: {c.height}×{c.width} (the sample&apos;s own size) and
          augmentation off, so the feature cache serves every frozen epoch after the first
        </strong>
      )}
      {kind === 'software' && (
        <strong data-testid="software-adapter">
          {' '}
          · software adapter: the GPU is emulated on the CPU, so steps take many times longer than on a GPU
        </strong>
      )}
      <span className="hint" data-testid="peak-note">
        {' '}
        · FLOP/s {peakNote(kind).note}
      </span>
    </>
  );
}

/** Beside an achieved FLOP/s: the device's peak where known, or why there is none (for PlanTable's speed line). */
export function PeakNote() {
  const kind = useLab((s) => computeKind(s.engine.backend));
  const { peakFlops, note } = peakNote(kind);
  return (
    <span className="hint" data-testid="speed-peak">
      {' '}
      · {peakFlops === null ? note : `peak ${(peakFlops / 1e9).toFixed(0)} GFLOP/s`}
    </span>
  );
}

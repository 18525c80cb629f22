import { oomMessage } from '../../core/memory/oom';
import type { ProvokeResult } from '../../core/run/protocol';
import { commands } from '../../store/commands';
import { selectBusy } from '../../store/selectors';
import { useLab } from '../ui/useLab';
import { formatBytes } from '../../core/format';

/** Experiments that show how a real GPU failure looks in the browser, and that the lab survives it. */
export function LessonsPanel() {
  return (
    <section className="panel" aria-labelledby="lessons-title">
      <h2 id="lessons-title">Lessons</h2>
      <BufferLimitLesson />
      <DeviceLossLesson />
    </section>
  );
}

/** One tensor above the largest buffer the GPU allows: caught, reported, and the backend checked after. */
function BufferLimitLesson() {
  const provoke = useLab((s) => s.provoke);
  const backend = useLab((s) => s.engine.backend);
  // Provoking a failure would break a run or a sweep in the middle of a step.
  const busy = useLab(selectBusy);
  const gpu = backend?.name === 'webgpu' || backend?.name === 'webgl';
  return (
    <>
      <p>
        <strong>The second kind of OOM.</strong> A GPU also caps the size of one buffer (WebGPU{' '}
        <code>maxBufferSize</code>
        {backend?.limits ? `, ${formatBytes(backend.limits.maxBufferSize)} here` : ''}). One activation can
        fail on its own while total memory is fine. tfjs does not notice: without error scopes the result
        silently becomes zeros.
      </p>
      <button
        type="button"
        data-testid="provoke-buffer-limit"
        disabled={!gpu || busy || provoke.status === 'running'}
        onClick={() => void commands().provokeBufferLimit()}
      >
        {provoke.status === 'running' ? 'Allocating…' : 'Allocate one tensor just above the limit'}
      </button>
      {!gpu && <small className="hint"> Needs the WebGPU or WebGL backend.</small>}
      {provoke.error && (
        <p className="error-text" role="alert">
          {provoke.error}
        </p>
      )}
      {provoke.result && <ProvokeOutcome result={provoke.result} backendName={backend?.name} />}
    </>
  );
}

/** What the oversized allocation did: the error caught (or none), whether the backend still computes, the pool. */
function ProvokeOutcome({ result, backendName }: { result: ProvokeResult; backendName: string | undefined }) {
  return (
    <div data-testid="provoke-result" aria-live="polite">
      {result.caught ? (
        <>
          <p>Caught, not crashed:</p>
          <pre className="oom-message">{oomMessage(result.caught)}</pre>
        </>
      ) : (
        <p>The backend did not fail: this device accepted the tensor.</p>
      )}
      <p data-testid="provoke-still-works">
        {result.stillWorks
          ? 'The backend still computes correctly afterwards.'
          : 'The backend gives wrong results afterwards: restart it.'}
      </p>
      {result.allocatedBefore !== null && result.allocatedAfter !== null && (
        <p>
          Backend allocation before {formatBytes(result.allocatedBefore)}, after{' '}
          {formatBytes(result.allocatedAfter)}{' '}
          <span className="label-measured">measured · {backendName}</span>
          {result.allocatedAfter > result.allocatedBefore &&
            ': tfjs keeps the failed buffer in its pool and still counts it.'}
        </p>
      )}
    </div>
  );
}

/** Losing the GPU device (or the WebGL context) on purpose, and the fresh backend the lab starts. */
function DeviceLossLesson() {
  const backend = useLab((s) => s.engine.backend);
  // Losing the device would break a run or a sweep in the middle of a step.
  const busy = useLab(selectBusy);
  const lastLoss = useLab((s) => s.engine.lastLoss);
  const engineStatus = useLab((s) => s.engine.status);
  return (
    <>
      <p>
        <strong>A lost device.</strong> When a driver resets or the GPU process dies, WebGPU reports the
        device as lost (WebGL: the context as lost) and every later operation fails. tfjs listens for neither;
        the lab does, and starts a fresh backend. Destroying the device (or losing the WebGL context with
        WEBGL_lose_context) on purpose produces exactly that event.
      </p>
      <button
        type="button"
        data-testid="lose-device"
        disabled={
          (backend?.name !== 'webgpu' && backend?.name !== 'webgl') || busy || engineStatus !== 'ready'
        }
        onClick={() => void commands().loseDevice()}
      >
        {backend?.name === 'webgl'
          ? 'Lose the WebGL context (loseContext())'
          : 'Lose the GPU device (device.destroy())'}
      </button>
      {lastLoss && (
        <p data-testid="device-loss" aria-live="polite">
          Device lost at {new Date(lastLoss.at).toLocaleTimeString()} (reason: {lastLoss.reason}).{' '}
          {engineStatus === 'ready'
            ? `A fresh ${backend?.name ?? ''} backend is running.`
            : 'Starting a fresh backend…'}
        </p>
      )}
    </>
  );
}

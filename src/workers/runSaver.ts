// Saving the run as it trains, so a reload or crash loses nothing that can be kept: at every checkpoint
// (the end of an epoch with another to run) the engine's state and the run's events so far go to
// IndexedDB; after a reload the page offers the saved run, and Resume replays its events (charts, log,
// memory timeline) and continues it at its point. A transport wrapper, so the client stays as it is.
import type {
  EngineEvent,
  EngineParams,
  EngineRequestType,
  EngineResult,
  TrainResult,
} from '../core/run/protocol';
import {
  MAX_SAVED_RUN_BYTES,
  resumeLabel,
  snapshotBytes,
  type SavedRun,
  type SavedRunSummary,
} from '../core/run/resume';
import { clearSavedRun, loadSavedRun, saveRun } from '../browser/runStore';
import { actions, refuse } from '../store/actions';
import { loadedIdentitySliced } from '../store/resumeSelectors';
import { labStore } from '../store/store';
import { errorMessage } from '../core/format';
import type { Transport } from './transport';

/** An engine event with the time it reached the page, as the log shows it. */
interface SavedEvent {
  event: EngineEvent;
  at: number;
}

type TrainRequest = EngineParams<'train'>;

/** The transport, with every training run saved at its checkpoints and a saved run resumed when armed. */
export function withRunSaving(inner: Transport): Transport {
  void offerSavedRun();
  watchDiscard();
  return {
    send<K extends EngineRequestType>(req: EngineParams<K>, onEvent?: (e: EngineEvent) => void) {
      if (req.type !== 'train') return inner.send(req, onEvent);
      // K is 'train' here; the result is a TrainResult.
      return trainSaved(inner, req as TrainRequest, onEvent) as Promise<EngineResult<K>>;
    },
    close: () => inner.close(),
  };
}

/** Shows the saved run, if any, so the user can resume or discard it. */
async function offerSavedRun(): Promise<void> {
  try {
    const run = await loadSavedRun();
    if (!run) return;
    const summary: SavedRunSummary = {
      savedAt: run.savedAt,
      config: run.config,
      data: run.data,
      point: run.point,
      bytes: run.bytes,
    };
    actions.savedRunFound(summary);
  } catch (err) {
    actions.logged('warn', `Could not read the saved run: ${errorMessage(err)}`, Date.now());
  }
}

let watching = false;

/** Deletes the saved copy once the user discards it. */
function watchDiscard(): void {
  if (watching) return;
  watching = true;
  labStore.subscribe((s) => {
    if (s.savedRun.status !== 'discarding') return;
    void clearSavedRun().finally(() => actions.savedRunCleared());
  });
}

/** One run: fresh (the saved run is replaced) or resumed (the armed one continues), saved as it goes. */
async function trainSaved(
  inner: Transport,
  req: TrainRequest,
  onEvent?: (e: EngineEvent) => void,
): Promise<TrainResult> {
  const state = labStore.getState();
  // Hashed while the engine starts; the first checkpoint, an epoch later, waits for it.
  const dataAt = loadedIdentitySliced(state, nextTask);
  // Storage that cannot be read or cleared (a private window, a blocked database) never stops a run.
  const armed = state.savedRun.status === 'armed' ? await loadSavedRun().catch(() => null) : null;
  if (!armed) await clearSavedRun().catch(() => {});
  actions.savedRunCleared();
  const history: SavedEvent[] = armed ? (armed.history as SavedEvent[]) : [];
  // The run's charts and log as they were when it was saved, in one update; the resumed run's clock
  // continues theirs.
  actions.engineEvents(history);
  const offset = armed ? lastTime(history) : 0;
  let skipPhase = !!armed && armed.point.epoch > 0;
  let writes = Promise.resolve();
  let warned = false;
  const forward = (e: EngineEvent) => {
    if (e.kind === 'checkpoint') {
      const run: Omit<SavedRun, 'data'> = {
        version: 1,
        savedAt: Date.now(),
        config: req.config,
        point: e.point,
        bytes: snapshotBytes(e.state),
        state: e.state,
        history: [...history],
      };
      writes = writes.then(() =>
        dataAt
          .then((data) =>
            save({ ...run, data: data ?? { name: state.dataset.name, images: 0, fingerprint: '' } }),
          )
          .catch((err: unknown) => {
            if (!warned) refuse(unsavedMessage(err));
            warned = true;
          }),
      );
      return;
    }
    // A phase resumed mid-way is announced again by the engine; the replayed history already has it.
    if (skipPhase && e.kind === 'phase') {
      skipPhase = false;
      return;
    }
    const shifted = offset > 0 ? shiftTime(e, offset) : e;
    history.push({ event: shifted, at: Date.now() });
    onEvent?.(shifted);
  };
  const resume = armed ? { resume: { point: armed.point, state: armed.state } } : {};
  if (armed) actions.logged('info', `Resuming the saved run from ${resumeLabel(armed.point)}.`, Date.now());
  const result = await inner.send({ ...req, ...resume }, forward);
  await writes;
  // A run that finished needs no resume; one stopped, out of memory or failed keeps its last epoch.
  if (result.outcome === 'completed' || result.outcome === 'early-stopped')
    await clearSavedRun().catch(() => {});
  return result;
}

/** Lets the page's other tasks (input, drawing) run before the next slice of work. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function save(run: SavedRun): Promise<void> {
  if (run.bytes > MAX_SAVED_RUN_BYTES)
    throw new Error(
      `its weights and optimizer state take ${(run.bytes / 2 ** 20).toFixed(0)} MB, over the ${MAX_SAVED_RUN_BYTES / 2 ** 20} MB kept`,
    );
  await saveRun(run);
}

function unsavedMessage(err: unknown): string {
  const why =
    err instanceof DOMException && err.name === 'QuotaExceededError'
      ? 'the storage quota is full'
      : errorMessage(err);
  return `This run is not saved for resuming (${why}); training continues unsaved, and a reload would lose it.`;
}

/** The latest run time in the saved events (ms since the run started). */
function lastTime(history: readonly SavedEvent[]): number {
  let t = 0;
  for (const { event: e } of history) {
    if (e.kind === 'phase' || e.kind === 'batch' || e.kind === 'epoch') t = Math.max(t, e.t);
    if (e.kind === 'memory') for (const m of e.samples) t = Math.max(t, m.t);
  }
  return t;
}

/** The event with its run time moved on by `dt`, so a resumed run's charts continue the saved ones. */
function shiftTime(e: EngineEvent, dt: number): EngineEvent {
  switch (e.kind) {
    case 'phase':
    case 'batch':
    case 'epoch':
      return { ...e, t: e.t + dt };
    case 'memory':
      return { ...e, samples: e.samples.map((m) => ({ ...m, t: m.t + dt })) };
    default:
      return e;
  }
}

/**
 * The history entry of a finished run or sweep, from the store: what the client keeps in IndexedDB
 * (workers/runHistory) and an experiment reads its result from.
 */
import { medianMs, settingsChanges, type HistoryEntry } from '../core/run/history';
import { DEFAULT_SWEEP_PRESETS, type SweepPoint } from '../core/sweep/sweep';
import { plannedPeaks } from './historySelectors';
import { selectMeasuredPeaks, selectPlannerKey } from './selectors';
import type { LabState } from './types';

const ACTIVE = new Set(['running', 'stopping']);
const ENDED = new Set(['completed', 'stopped', 'oom', 'failed']);

/** Whether a run has just ended between two states of the store. */
export const runEnded = (before: LabState, after: LabState): boolean =>
  ACTIVE.has(before.run.status) && ENDED.has(after.run.status) && after.run.config !== null;

/** The history entry of the run that just ended; `previous` is the settings of the run before it. */
export function runEntry(s: LabState, previous: HistoryEntry['settings'] | null, at: number): HistoryEntry {
  const c = s.run.config!;
  // The planner's description is only used when it is for the run's model, size and classes.
  const spec =
    s.planner.spec && s.planner.key === selectPlannerKey({ ...s, config: c }) ? s.planner.spec : null;
  const predicted = spec ? plannedPeaks(spec, c) : [];
  const last = s.run.epochs[s.run.epochs.length - 1];
  const oom = s.run.oom;
  const adapter = s.engine.backend?.adapter;
  return {
    kind: 'run',
    at,
    settings: c,
    changed: settingsChanges(previous, c),
    predicted,
    measured: selectMeasuredPeaks(s),
    outcome: s.run.status,
    oomAt: oom ? `${oom.op ?? 'an op'} in ${oom.layer ?? 'an unknown layer'} (${oom.kind})` : null,
    stepMs: medianMs(s.run.batches.map((b) => b.stepMs)),
    valAccuracy: last && Number.isFinite(last.valAccuracy) ? last.valAccuracy : null,
    backend: s.run.backend,
    adapter: adapter
      ? [adapter.vendor, adapter.architecture, adapter.description].filter(Boolean).join(' ')
      : null,
  };
}

/** Whether a sweep or a largest-batch search has just ended. */
export const sweepEnded = (before: LabState, after: LabState): boolean =>
  before.sweep.status === 'running' && after.sweep.status !== 'running' && after.sweep.config !== null;

/**
 * One history entry per point of the sweep or search that just ended, each with the settings the point
 * ran (the sweep's settings at the point's batch, size and trainable set); `previous` as for runs.
 */
export function sweepEntries(
  s: LabState,
  previous: HistoryEntry['settings'] | null,
  at: number,
): HistoryEntry[] {
  const base = s.sweep.config!;
  const presets = [...s.sweep.grid.presets, ...DEFAULT_SWEEP_PRESETS];
  let before = previous;
  return s.sweep.points.map((p: SweepPoint): HistoryEntry => {
    const preset = presets.find((x) => x.id === p.presetId);
    const phase = preset?.phase ?? 'fine-tune';
    const settings = {
      ...base,
      batchSize: p.batch,
      height: p.size,
      width: p.size,
      fineTune: preset && phase === 'fine-tune' ? preset.fineTune : base.fineTune,
    };
    const entry: HistoryEntry = {
      kind: 'sweep',
      at,
      settings,
      changed: settingsChanges(before, settings),
      predicted: p.predictedBytes === undefined ? [] : [{ phase, peakBytes: p.predictedBytes }],
      measured: p.peakBytes === undefined ? [] : [{ phase, peakBytes: p.peakBytes }],
      outcome: p.status,
      oomAt: p.status === 'oom' ? `${p.oomLayer ?? 'an unknown layer'} (${p.oomKind ?? 'oom'})` : null,
      stepMs: null,
      valAccuracy: null,
      backend: s.engine.backend?.name ?? null,
      adapter: null,
    };
    before = settings;
    return entry;
  });
}

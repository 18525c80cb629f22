import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../core/run/history';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import {
  experimentEnded,
  experimentFailed,
  experimentSideEnded,
  experimentSideStarted,
  experimentStarted,
  historyFailed,
  historyKept,
  historyRead,
  historyRemoved,
  zipLoaded,
  zipRefused,
} from './historyReducers';
import { keptRun } from './historyFixture';
import { initialState } from './initial';

const entry = (id: number): HistoryEntry => keptRun(DEFAULT_TRAIN_CONFIG, { id, at: id, backend: 'cpu' });
const ids = (list: HistoryEntry[]) => list.map((e) => e.id);

describe('run history reducers', () => {
  it('puts the entries read at start-up before those kept while they were read, once each', () => {
    const s = historyRead(historyKept(initialState(), [entry(3)]), [entry(1), entry(2), entry(3)]);
    expect(ids(s.history.entries)).toEqual([1, 2, 3]);
    expect(s.history.status).toBe('ready');
  });

  it('keeps new entries at the end, removes by id and keeps what it holds when a write fails', () => {
    let s = historyKept(historyRead(initialState(), [entry(1)]), [entry(2), entry(3)]);
    s = historyRemoved(s, 2);
    expect(ids(s.history.entries)).toEqual([1, 3]);
    s = historyFailed(s, 'The run could not be kept: quota');
    expect(s.history).toMatchObject({ error: 'The run could not be kept: quota', status: 'ready' });
    expect(ids(s.history.entries)).toEqual([1, 3]);
  });
});

describe('experiment reducers', () => {
  it("follows a card's experiment from start to end and clears its last results and error on a rerun", () => {
    const started = { config: DEFAULT_TRAIN_CONFIG, spec: null };
    let s = experimentFailed(initialState(), 'seed', 'The run did not start.');
    s = experimentSideEnded(s, 'seed', 'before', { entry: entry(1), reused: true });
    s = experimentStarted(s, 'seed', started);
    expect(s.experiments.given.seed).toEqual({});
    expect(s.experiments.errors.seed).toBeUndefined();
    s = experimentSideStarted(s, 'seed', 'after');
    s = experimentSideEnded(s, 'seed', 'after', { entry: entry(2), reused: false });
    expect(s.experiments).toMatchObject({ active: { id: 'seed', side: 'after' }, started });
    expect(s.experiments.given.seed?.after?.entry.id).toBe(2);
    s = experimentEnded(s);
    expect([s.experiments.active, s.experiments.started]).toEqual([null, null]);
    expect(s.experiments.given.seed?.after?.reused).toBe(false);
  });
});

describe('lab zip reducers', () => {
  it('holds the zip loaded last with its dropped bytes, and a refusal clears it', () => {
    const dropped = { bytes: new Uint8Array([1]), label: 'a.zip' };
    let s = zipLoaded(initialState(), { label: 'a.zip', summary: 'Tiny' }, dropped);
    expect(s.labZip).toEqual({ loaded: { label: 'a.zip', summary: 'Tiny' }, error: null, dropped });
    s = zipRefused(s, "'b.zip' is not a lab model zip");
    expect(s.labZip).toEqual({ loaded: null, error: "'b.zip' is not a lab model zip", dropped: null });
  });
});

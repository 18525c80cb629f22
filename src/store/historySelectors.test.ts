import { describe, expect, it } from 'vitest';
import type { ExperimentCard } from '../core/experiments/experiments';
import type { HistoryEntry } from '../core/run/history';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import type { TrainConfig } from '../core/settings/trainConfig';
import { cardResults, selectReusableRun } from './historySelectors';
import { historyKept, historyRead } from './historyReducers';
import { keptRun } from './historyFixture';
import { initialState } from './initial';
import type { LabState } from './types';

const before: TrainConfig = { ...DEFAULT_TRAIN_CONFIG, model: 'tiny', batchSize: 32 };
const after: TrainConfig = { ...before, batchSize: 16 };
const card = {
  id: 'smaller-batch',
  pair: { before, after, beforeLabel: '', afterLabel: '' },
} as ExperimentCard;

const entry = (settings: TrainConfig, over: Partial<HistoryEntry> = {}): HistoryEntry =>
  keptRun(settings, { stepMs: 7, valAccuracy: 0.5, backend: 'webgpu', ...over });

function onWebgpu(entries: HistoryEntry[]): LabState {
  const s = initialState();
  const engine = { ...s.engine, backend: { name: 'webgpu' } as LabState['engine']['backend'] };
  return historyRead({ ...s, engine }, entries);
}

describe('selectReusableRun: the kept run a card takes instead of training again', () => {
  it('takes the latest finished run with exactly the same settings on the engine backend', () => {
    const s = historyKept(onWebgpu([entry(before, { id: 1 })]), [entry(before, { id: 2, outcome: 'oom' })]);
    expect(selectReusableRun(s, before)?.id).toBe(2);
  });

  it('takes a run the history held before the card ran, whoever started it (the card 9 re-run)', () => {
    // A run by hand: the same settings object shape as the card's 'before', kept by id.
    expect(selectReusableRun(onWebgpu([entry({ ...before }, { id: 4 })]), before)?.id).toBe(4);
  });

  it('trains again when a setting, the backend or the outcome differs', () => {
    expect(selectReusableRun(onWebgpu([entry({ ...before, seed: before.seed + 1 })]), before)).toBeNull();
    expect(selectReusableRun(onWebgpu([entry(before, { backend: 'webgl' })]), before)).toBeNull();
    expect(selectReusableRun(onWebgpu([entry(before, { outcome: 'stopped' })]), before)).toBeNull();
    expect(selectReusableRun(onWebgpu([entry(before, { kind: 'sweep' })]), before)).toBeNull();
  });
});

describe('cardResults', () => {
  it("shows the card's last experiment where it has one, else a matching kept run as reused", () => {
    const trained = { entry: entry(after, { stepMs: 3 }), reused: false };
    const out = cardResults(card, [entry(before, { id: 1 }), entry(after, { id: 2 })], 'webgpu', {
      after: trained,
    });
    expect(out.before).toMatchObject({ reused: true, entry: { id: 1 } });
    expect(out.after).toBe(trained);
  });

  it('shows nothing for a side the history does not hold on this backend', () => {
    expect(cardResults(card, [entry(before)], 'webgl')).toEqual({});
  });
});

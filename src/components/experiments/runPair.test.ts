import { beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentPair } from '../../core/experiments/experiments';
import type { HistoryEntry } from '../../core/run/history';
import { DEFAULT_TRAIN_CONFIG } from '../../core/settings/settings';
import type { TrainConfig } from '../../core/settings/trainConfig';
import { actions } from '../../store/actions';
import { provideCommands, type LabCommands } from '../../store/commands';
import { labStore, updateConfig } from '../../store/store';
import { runPair, type Side, type SideResult } from './runPair';

// What runPair decides is tested here: which side trains and which is reused, what it stops after, and
// that the user's settings come back. The engine behind `train` is a stand-in that ends each run the
// way the engine client does (runStarted, then runEnded), with the settings it was started with.
const user: TrainConfig = { ...DEFAULT_TRAIN_CONFIG, model: 'tiny', weights: 'random', batchSize: 16 };
const pair: ExperimentPair = {
  before: user,
  after: { ...user, batchSize: 8 },
  beforeLabel: 'batch 16',
  afterLabel: 'batch 8',
};

let trained: number[] = [];
let outcome: 'completed' | 'stopped' = 'completed';

function engine(): LabCommands {
  const train = async () => {
    const config = labStore.getState().config;
    trained.push(config.batchSize);
    actions.runStarted({
      config,
      plan: { trainCount: 8, validationCount: 2, resumeFrom: null },
      appliedFix: null,
    });
    actions.runEnded({ outcome, phases: ['frozen'], valLoss: 1, valAccuracy: 0.5, lastPhase: 'frozen' });
  };
  return { train } as unknown as LabCommands;
}

const kept = (settings: TrainConfig, over: Partial<HistoryEntry> = {}): HistoryEntry => ({
  kind: 'run',
  at: 0,
  settings,
  changed: [],
  predicted: [],
  measured: [],
  outcome: 'completed',
  oomAt: null,
  stepMs: 5,
  valAccuracy: 0.4,
  backend: null,
  adapter: null,
  ...over,
});

async function collect(history: HistoryEntry[]) {
  const started: Side[] = [];
  const results: [Side, SideResult][] = [];
  await runPair(
    pair,
    history,
    (side) => started.push(side),
    (side, r) => results.push([side, r]),
  );
  return { started, results };
}

beforeEach(() => {
  trained = [];
  outcome = 'completed';
  provideCommands(engine());
  updateConfig({ ...user, seed: 7 });
});

describe('runPair', () => {
  it('trains before, then after, and puts the user settings back', async () => {
    const { started, results } = await collect([]);
    expect(trained).toEqual([16, 8]);
    expect(started).toEqual(['before', 'after']);
    expect(results.map(([s, r]) => [s, r.reused, r.entry.settings.batchSize, r.entry.outcome])).toEqual([
      ['before', false, 16, 'completed'],
      ['after', false, 8, 'completed'],
    ]);
    expect(labStore.getState().config).toEqual({ ...user, seed: 7 });
  });

  it('reuses a kept run with identical settings on the same backend and trains only the other side', async () => {
    const { results } = await collect([kept(pair.before), kept(pair.after, { backend: 'webgpu' })]);
    expect(trained).toEqual([8]);
    expect(results.map(([, r]) => r.reused)).toEqual([true, false]);
    expect(results[0]![1].entry.stepMs).toBe(5);
  });

  it('does not run the after side when before was stopped, and still restores the settings', async () => {
    outcome = 'stopped';
    const { results } = await collect([]);
    expect(trained).toEqual([16]);
    expect(results.map(([, r]) => r.entry.outcome)).toEqual(['stopped']);
    expect(labStore.getState().config.seed).toBe(7);
  });
});

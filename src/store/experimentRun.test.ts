import { beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentCard, ExperimentPair } from '../core/experiments/experiments';
import type { HistoryEntry } from '../core/run/history';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import type { TrainConfig } from '../core/settings/trainConfig';
import { actions } from './actions';
import { provideCommands, type LabCommands } from './commands';
import { runExperiment } from './experimentRun';
import { keptRun } from './historyFixture';
import { initialState } from './initial';
import { labStore, updateConfig } from './store';

// What the workflow decides is tested here: which side trains and which is reused from the store's run
// history, what it stops after, and that the user's settings come back. The engine behind `train` is a
// stand-in that ends each run the way the engine client does (runStarted, then runEnded), with the
// settings it was started with.
const user: TrainConfig = { ...DEFAULT_TRAIN_CONFIG, model: 'tiny', weights: 'random', batchSize: 16 };
const pair: ExperimentPair = {
  before: user,
  after: { ...user, batchSize: 8 },
  beforeLabel: 'batch 16',
  afterLabel: 'batch 8',
};
const card = { id: 'smaller-batch', pair } as ExperimentCard;

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

const kept = (settings: TrainConfig, over: Partial<HistoryEntry> = {}): HistoryEntry =>
  keptRun(settings, { stepMs: 5, valAccuracy: 0.4, ...over });

async function run() {
  const sides: string[] = [];
  const stop = labStore.subscribe((s, before) => {
    if (s.experiments.active && s.experiments.active !== before.experiments.active)
      sides.push(s.experiments.active.side);
  });
  await runExperiment(card, { config: user, spec: null });
  stop();
  return { sides, ...labStore.getState().experiments };
}

beforeEach(() => {
  trained = [];
  outcome = 'completed';
  labStore.setState(initialState(), true);
  provideCommands(engine());
  updateConfig({ ...user, seed: 7 });
});

describe('runExperiment', () => {
  it('trains before, then after, and puts the user settings back', async () => {
    const { sides, given, active, started } = await run();
    expect(trained).toEqual([16, 8]);
    expect(sides).toEqual(['before', 'after']);
    const results = given['smaller-batch']!;
    expect([results.before, results.after].map((r) => [r!.reused, r!.entry.settings.batchSize])).toEqual([
      [false, 16],
      [false, 8],
    ]);
    expect([active, started]).toEqual([null, null]);
    expect(labStore.getState().config).toEqual({ ...user, seed: 7 });
  });

  it('reuses a run the history holds with identical settings on the same backend, trains the other', async () => {
    actions.historyRead([kept(pair.before, { id: 1 }), kept(pair.after, { id: 2, backend: 'webgpu' })]);
    const { given } = await run();
    expect(trained).toEqual([8]);
    const results = given['smaller-batch']!;
    expect([results.before!.reused, results.after!.reused]).toEqual([true, false]);
    expect(results.before!.entry.stepMs).toBe(5);
  });

  it('reuses a run kept after the history was read (trained by hand this session)', async () => {
    actions.historyRead([]);
    actions.historyKept([kept(pair.before, { id: 3, stepMs: 9 })]);
    const { given } = await run();
    expect(trained).toEqual([8]);
    expect(given['smaller-batch']!.before).toMatchObject({ reused: true, entry: { id: 3, stepMs: 9 } });
  });

  it('does not run the after side when before was stopped, and still restores the settings', async () => {
    outcome = 'stopped';
    const { given } = await run();
    expect(trained).toEqual([16]);
    expect(given['smaller-batch']!.before!.entry.outcome).toBe('stopped');
    expect(given['smaller-batch']!.after).toBeUndefined();
    expect(labStore.getState().config.seed).toBe(7);
  });

  it('says on the card why a side did not run', async () => {
    provideCommands({ train: async () => undefined } as unknown as LabCommands);
    const { errors, active } = await run();
    expect(errors['smaller-batch']).toBe('The run did not start.');
    expect(active).toBeNull();
  });
});

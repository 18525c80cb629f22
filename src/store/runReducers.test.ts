import { describe, expect, it } from 'vitest';
import type { EngineEvent, TrainResult } from '../core/run/protocol';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import type { TrainingPhase } from '../core/settings/trainConfig';
import { initialState } from './initial';
import { engineEvent, runEnded, runStarted, runStopping } from './runReducers';
import { selectBusy, selectRunProgress, selectTraining } from './selectors';
import type { LabState } from './types';

// 40 training images at batch 5: 8 batches per epoch; 2 frozen + 1 fine-tune epochs = 24 steps.
const config = { ...DEFAULT_TRAIN_CONFIG, batchSize: 5, frozenEpochs: 2, fineTuneEpochs: 1 };
const plan = { trainCount: 40, validationCount: 10, resumeFrom: null };

function started(): LabState {
  return runStarted(initialState(), { config, plan, appliedFix: null });
}

const phase = (p: TrainingPhase, t: number): EngineEvent => ({
  kind: 'phase',
  phase: p,
  t,
  trainableParams: 10,
  totalParams: 100,
  trainableLayers: 2,
  batchesPerEpoch: 8,
  epochs: p === 'frozen' ? 2 : 1,
});

const batch = (p: TrainingPhase, epoch: number, index: number, t: number): EngineEvent => ({
  kind: 'batch',
  phase: p,
  epoch,
  batch: index,
  batchesPerEpoch: 8,
  loss: 1,
  accuracy: 0.5,
  stepMs: 100,
  breakdown: {
    weights: 0,
    gradients: 0,
    optimizer: 0,
    savedActivations: 0,
    savedByLayer: [],
    largestSaved: null,
    input: 0,
    transient: 0,
  } as never,
  technique: {
    mode: 'taped',
    microBatches: 1,
    microBatchSize: 5,
    accumulatorBytes: 0,
    checkpoint: null,
    featureCache: null,
  } as never,
  lossScale: null,
  t,
});

const epochEnd = (p: TrainingPhase, epoch: number, t: number): EngineEvent => ({
  kind: 'epoch',
  phase: p,
  epoch,
  loss: 1,
  accuracy: 0.5,
  valLoss: 1,
  valAccuracy: 0.5,
  t,
});

/** Applies events in order, 100 ms per step. */
function play(s: LabState, events: EngineEvent[]): LabState {
  return events.reduce((acc, e) => engineEvent(acc, e, 0), s);
}

function frozenSteps(count: number, from = 0): EngineEvent[] {
  return Array.from({ length: count }, (_, i) => {
    const k = from + i;
    return batch('frozen', Math.floor(k / 8), k % 8, (k + 1) * 100);
  });
}

const result = (outcome: TrainResult['outcome'], lastPhase: TrainingPhase): TrainResult => ({
  outcome,
  phases: [],
  valLoss: Number.NaN,
  valAccuracy: Number.NaN,
  lastPhase,
});

describe('run reducers and the progress they show', () => {
  it('counts a running run as busy, and a stopping one too', () => {
    const s = started();
    expect(selectTraining(s) && selectBusy(s)).toBe(true);
    expect(selectBusy(runStopping(s))).toBe(true);
    expect(selectBusy(runEnded(s, result('stopped', 'frozen')))).toBe(false);
  });

  it('keeps the plan after Stop: 15 of 24 steps, where it stopped and why', () => {
    let s = play(started(), [
      phase('frozen', 0),
      ...frozenSteps(8),
      epochEnd('frozen', 0, 1300),
      ...frozenSteps(7, 8),
    ]);
    s = runEnded(s, result('stopped', 'frozen'));
    const p = selectRunProgress(s);
    expect([p.done, p.total]).toEqual([15, 24]);
    expect(p.etaMs).toBeNull();
    expect(p.ended).toBe(
      'Stopped by you after frozen phase, epoch 2, batch 7/8; the model keeps the weights of its last step.',
    );
  });

  it('names the fine-tune step that ran out of memory, not the last frozen one', () => {
    let s = play(started(), [phase('frozen', 0), ...frozenSteps(16), phase('fine-tune', 2000)]);
    s = runEnded(s, {
      ...result('oom', 'fine-tune'),
      oom: { phase: 'backward', layer: 'block3b_project_conv' } as never,
    });
    const p = selectRunProgress(s);
    expect(p.where).toBe('fine-tune phase, epoch 1, batch 1/8');
    expect(p.ended).toContain(
      'Ran out of memory at fine-tune phase, epoch 1, batch 1/8 (backward pass, layer block3b_project_conv)',
    );
    expect([p.done, p.total]).toEqual([16, 24]);
  });

  it('shrinks the plan when EarlyStopping ends a phase early', () => {
    // The frozen phase ends after one epoch; fine-tuning then runs its 8 steps.
    const fine = Array.from({ length: 8 }, (_, i) => batch('fine-tune', 0, i, 2000 + i * 100));
    let s = play(started(), [
      phase('frozen', 0),
      ...frozenSteps(8),
      epochEnd('frozen', 0, 1000),
      phase('fine-tune', 1100),
      ...fine,
      epochEnd('fine-tune', 0, 3000),
    ]);
    expect(selectRunProgress(s).total).toBe(16);
    s = runEnded(s, result('early-stopped', 'fine-tune'));
    expect(selectRunProgress(s).total).toBe(16);
    expect(selectRunProgress(s).ended).toMatch(
      'Ended by EarlyStopping in the fine-tune phase after 1 epoch: val_loss did not improve for 2 epochs.',
    );
  });

  it('includes the validation passes still to run in the time left, once one was timed', () => {
    // Epoch 1: 8 steps ending at 800 ms, validation until 1300 ms (500 ms).
    const s = play(started(), [phase('frozen', 0), ...frozenSteps(8), epochEnd('frozen', 0, 1300)]);
    expect(s.run.epochs[0]!.validationMs).toBe(500);
    // 16 steps left at 100 ms, and two validation passes (frozen epoch 2, fine-tune epoch 1) at 500 ms.
    expect(selectRunProgress(s).etaMs).toBe(16 * 100 + 2 * 500);
  });

  it('estimates an untimed validation pass like its batches of training steps', () => {
    const s = play(started(), [phase('frozen', 0), ...frozenSteps(3)]);
    // 21 steps left; 3 validation passes of 2 batches (10 images at batch 5) at 100 ms each.
    expect(selectRunProgress(s).etaMs).toBe(21 * 100 + 3 * 2 * 100);
  });

  it('plans only the fine-tune phase of a run continued there after a fix', () => {
    const s = runStarted(initialState(), {
      config,
      plan: { ...plan, resumeFrom: 'fine-tune' },
      appliedFix: null,
    });
    expect(selectRunProgress(s).total).toBe(8);
  });

  it('appends sweep points and counts them', () => {
    const s0 = initialState();
    const s = { ...s0, sweep: { ...s0.sweep, status: 'running' as const, progress: { done: 0, total: 2 } } };
    const next = engineEvent(
      s,
      { kind: 'sweep-point', point: { batch: 4, size: 32, presetId: 'all', status: 'skipped' } as never },
      0,
    );
    expect(next.sweep.points).toHaveLength(1);
    expect(next.sweep.progress).toEqual({ done: 1, total: 2 });
    expect(selectBusy(next)).toBe(true);
  });
});

describe('diagnostics', () => {
  const report = (p: TrainingPhase) => ({
    phase: p,
    counts: [
      [1, 0],
      [1, 2],
    ],
    perClass: [],
    total: 4,
    correct: 3,
    misclassified: [],
  });

  it('keeps one report per phase, and a new run starts with none', () => {
    const s = [report('frozen'), report('fine-tune')].reduce(
      (state, r) => engineEvent(state, { kind: 'diagnostics', report: r }, 0),
      started(),
    );
    expect(s.run.diagnostics.map((d) => d.phase)).toEqual(['frozen', 'fine-tune']);
    expect(runStarted(s, { config, plan, appliedFix: null }).run.diagnostics).toEqual([]);
  });
});

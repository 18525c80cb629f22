import { describe, expect, it } from 'vitest';
import {
  largestBatchRace,
  mergeResults,
  readResults,
  resultsFile,
  sortRows,
  type ResultsFile,
} from './classResults';
import { guessSettingsKey, type Guess } from '../run/guess';
import type { HistoryEntry } from '../run/history';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';
import type { TrainConfig } from '../settings/trainConfig';

const MB = 1e6;
const config = (batchSize: number, budgetMB: number | null = 40): TrainConfig => ({
  ...DEFAULT_TRAIN_CONFIG,
  model: 'tiny',
  height: 32,
  width: 32,
  batchSize,
  budgetBytes: budgetMB === null ? null : budgetMB * MB,
});

const run = (settings: TrainConfig, outcome: string, measuredMB: number | null): HistoryEntry => ({
  id: 7,
  kind: 'run',
  at: 1_700_000_000_000,
  settings,
  changed: ['batch 8 → 16'],
  predicted: [{ phase: 'fine-tune', peakBytes: 30 * MB }],
  measured: measuredMB === null ? [] : [{ phase: 'fine-tune', peakBytes: measuredMB * MB }],
  outcome,
  oomAt: outcome === 'oom' ? 'Conv2D in block1a (budget)' : null,
  stepMs: 12,
  valAccuracy: 0.5,
  backend: 'webgl',
  adapter: null,
});

function file(name: string, settings: TrainConfig, runs: HistoryEntry[], guess: Guess | null = null) {
  return resultsFile({
    name,
    exportedAt: new Date(`2026-12-01T1${name.length}:00:00Z`),
    backend: 'webgpu',
    adapter: 'apple metal-3',
    settings,
    guess,
    predicted: [
      { phase: 'frozen', peakBytes: 5 * MB },
      { phase: 'fine-tune', peakBytes: settings.batchSize * 3 * MB },
    ],
    runs,
  });
}

const text = (f: ResultsFile | object) => JSON.stringify(f);

describe('class results', () => {
  it('reads back what "Export my results" writes', () => {
    const f = file('Ada', config(8), [run(config(8), 'completed', 25)]);
    expect(readResults(text(f))).toEqual(f);
    expect(f.runs[0]).not.toHaveProperty('id');
  });

  it('merges the good files and names each bad one with its problem', () => {
    const good = [
      file('Ada', config(8), [run(config(8), 'completed', 25)]),
      file('Bo', config(16), [run(config(16), 'oom', null)]),
      file('Cyd', config(12), []),
    ];
    const badBatch = {
      ...good[0]!,
      name: 'Dee',
      current: { ...good[0]!.current, settings: { ...config(8), batchSize: 0 } },
    };
    const merged = mergeResults([
      ...good.map((f, i) => ({ file: `p${i}.json`, text: text(f) })),
      { file: 'notes.txt', text: 'hello' },
      { file: 'history.json', text: text([run(config(8), 'completed', 25)]) },
      { file: 'noname.json', text: text({ ...good[0]!, name: ' ' }) },
      { file: 'batch.json', text: text(badBatch) },
      { file: 'again.json', text: text(good[0]!) },
    ]);
    expect(merged.names).toEqual(['Ada', 'Bo', 'Cyd']);
    expect(merged.rows.map((r) => `${r.name} ${r.kind}`)).toEqual([
      'Ada plan',
      'Ada run',
      'Bo plan',
      'Bo run',
      'Cyd plan',
    ]);
    const problems = Object.fromEntries(merged.problems.map((p) => [p.file, p.problem]));
    expect(Object.keys(problems)).toEqual([
      'notes.txt',
      'history.json',
      'noname.json',
      'batch.json',
      'again.json',
    ]);
    expect(problems['notes.txt']).toMatch(/^it is not JSON \(/);
    expect(problems['history.json']).toBe(
      'it is a list (the run history export?), not a results file: use "Export my results"',
    );
    expect(readResults('{"format":"x"}')).toBe(
      "it is not a VRAM Lab results file (no format 'vram-lab-results')",
    );
    expect(problems['noname.json']).toBe('name: it has no participant name');
    expect(problems['batch.json']).toBe(
      'current.settings.batchSize: Batch size must be a whole number from 1 to 1024 (got 0).',
    );
    expect(problems['again.json']).toBe('it is the same export as p0.json (Ada, 2026-12-01T13:00:00.000Z)');
  });

  it('shows a guess beside the run of the settings it was made for, and fits as measured or planned', () => {
    const guess: Guess = {
      kind: 'peak',
      phase: 'fine-tune',
      bytes: 20 * MB,
      settings: guessSettingsKey(config(8)),
    };
    const reordered = Object.fromEntries(Object.entries(config(8)).reverse()) as unknown as TrainConfig;
    const f = file('Ada', config(8), [run(reordered, 'completed', 25), run(config(32), 'oom', null)], guess);
    const [plan, same, other] = mergeResults([{ file: 'a.json', text: text(f) }]).rows;
    expect(plan).toMatchObject({
      guess: 'fine-tune 20 MB',
      predictedBytes: 24 * MB,
      fits: true,
      fitsBasis: 'planned',
    });
    expect(same).toMatchObject({
      guess: 'fine-tune 20 MB',
      measuredBytes: 25 * MB,
      fits: true,
      fitsBasis: 'measured',
    });
    expect(other).toMatchObject({ guess: null, measuredBytes: null, fits: false, fitsBasis: 'measured' });
    expect(other!.settingsText).toBe('EfficientNet-Tiny 32×32, batch 32, card 40 MB');
    // A guess kept from other settings is shown nowhere.
    const stale = file('Cyd', config(16), [], guess);
    expect(mergeResults([{ file: 'c.json', text: text(stale) }]).rows[0]!.guess).toBeNull();
    const noCard = mergeResults([{ file: 'b.json', text: text(file('Bo', config(8, null), [])) }]).rows[0];
    expect(noCard).toMatchObject({
      fits: null,
      fitsBasis: null,
      settingsText: 'EfficientNet-Tiny 32×32, batch 8, no card limit',
    });
  });

  it('sorts by any column, rows without a value last in both directions', () => {
    const { rows } = mergeResults([
      { file: 'a', text: text(file('bo', config(8), [run(config(8), 'completed', 25)])) },
      { file: 'b', text: text(file('Ada', config(16), [run(config(16), 'completed', 31)])) },
    ]);
    const measured = (d: 'asc' | 'desc') => sortRows(rows, 'measured', d).map((r) => r.measuredBytes);
    expect(measured('desc')).toEqual([31 * MB, 25 * MB, null, null]);
    expect(measured('asc')).toEqual([25 * MB, 31 * MB, null, null]);
    expect(sortRows(rows, 'name', 'asc').map((r) => `${r.name} ${r.kind}`)).toEqual([
      'Ada plan',
      'Ada run',
      'bo plan',
      'bo run',
    ]);
    expect(rows.map((r) => r.name)).toEqual(['bo', 'bo', 'Ada', 'Ada']);
  });

  it('answers the largest-batch race from measured runs, ties named, else from the planner', () => {
    const measured = mergeResults([
      {
        file: 'a',
        text: text(file('Ada', config(64), [run(config(16), 'completed', 30), run(config(32), 'oom', null)])),
      },
      { file: 'b', text: text(file('Bo', config(8), [run(config(16), 'stopped', 33)])) },
      { file: 'c', text: text(file('Cyd', config(8), [run(config(12), 'completed', 28)])) },
    ]).rows;
    expect(largestBatchRace(measured)).toEqual({
      batch: 16,
      basis: 'measured',
      winners: [
        { name: 'Ada', settingsText: 'EfficientNet-Tiny 32×32, batch 16, card 40 MB' },
        { name: 'Bo', settingsText: 'EfficientNet-Tiny 32×32, batch 16, card 40 MB' },
      ],
    });
    // Without runs the planner decides: 3 MB a sample on a 40 MB card fits batch 12, not 16.
    const planned = mergeResults([
      { file: 'a', text: text(file('Ada', config(12), [])) },
      { file: 'b', text: text(file('Bo', config(16), [])) },
    ]).rows;
    expect(largestBatchRace(planned)).toMatchObject({
      batch: 12,
      basis: 'planned',
      winners: [{ name: 'Ada' }],
    });
    expect(largestBatchRace([])).toBeNull();
  });

  it('reads a file of 200,000 peaks and one of 160,000 runs (a spread into Math.max overflowed the stack on it)', () => {
    const peaks = Array.from({ length: 200_000 }, (_, i) => ({ phase: 'fine-tune' as const, peakBytes: i }));
    const many = { ...run(config(16), 'completed', null), predicted: peaks, measured: peaks };
    const runs = Array.from({ length: 160_000 }, (_, i) => run(config(1 + (i % 20)), 'completed', 30));
    const merged = mergeResults([
      { file: 'peaks.json', text: text(file('Ada', config(16), [many])) },
      { file: 'runs.json', text: text(file('Bo', config(8), runs)) },
    ]);
    expect(merged.problems).toEqual([]);
    const adaRun = merged.rows.find((r) => r.name === 'Ada' && r.measuredBytes !== null);
    expect(adaRun?.measuredBytes).toBe(199_999);
    expect(largestBatchRace(merged.rows)).toMatchObject({ batch: 20, basis: 'measured' });
  });
});

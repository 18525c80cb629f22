import { describe, expect, it } from 'vitest';
import { historyCsv, medianMs, settingsChanges, type HistoryEntry } from './history';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';

const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  kind: 'run',
  at: Date.UTC(2026, 11, 1, 12, 0, 0),
  settings: DEFAULT_TRAIN_CONFIG,
  changed: [],
  predicted: [{ phase: 'frozen', peakBytes: 40e6 }],
  measured: [{ phase: 'frozen', peakBytes: 42e6 }],
  outcome: 'completed',
  oomAt: null,
  stepMs: 120,
  valAccuracy: 0.8,
  backend: 'webgpu',
  adapter: 'SwiftShader, "fast"',
  ...over,
});

describe('run history', () => {
  it('says what changed from the run before, in the link words', () => {
    const after = { ...DEFAULT_TRAIN_CONFIG, batchSize: 16, budgetBytes: 90e6 };
    expect(settingsChanges(DEFAULT_TRAIN_CONFIG, after)).toEqual(['batch 8 → 16', 'card none → 90MB']);
    expect(settingsChanges(null, after)).toEqual([]);
    expect(settingsChanges(after, after)).toEqual([]);
  });

  it('takes the median step time', () => {
    expect(medianMs([30, 10, 20])).toBe(20);
    expect(medianMs([])).toBeNull();
  });

  it('writes one CSV row per run, quoting fields with commas and quotes', () => {
    const csv = historyCsv([
      entry({ id: 1 }),
      entry({ id: 2, changed: ['batch 8 → 16'], outcome: 'oom', oomAt: 'Conv2D in top_conv', stepMs: null }),
    ]);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(
      'id,kind,ended,model,height,width,batch,link,changed,predicted_frozen_bytes,measured_frozen_bytes,predicted_fine_tune_bytes,measured_fine_tune_bytes,outcome,oom_at,step_ms,val_accuracy,backend,adapter',
    );
    expect(lines[1]).toMatch(
      /^1,run,2026-12-01T12:00:00.000Z,mobilenetv2,128,128,8,"model=mobilenetv2&.*",,40000000,42000000,,,completed,,120,0.8,webgpu,"SwiftShader, ""fast"""$/,
    );
    expect(lines[2]).toContain(',batch 8 → 16,');
    expect(lines[2]).toContain(',oom,Conv2D in top_conv,,0.8,');
  });
});

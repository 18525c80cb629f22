/**
 * The run history: one entry per finished run, with what changed from the run before, the planner's and
 * the measured peaks, the outcome and the speed. Pure data and text; IndexedDB keeps the entries
 * (browser/history) and the workshop's history table shows them.
 */
import type { PhasePeak } from './guess';
import type { TrainConfig } from '../settings/trainConfig';
import { writeLink } from '../settings/url';

export interface HistoryEntry {
  /** IndexedDB key; absent before the entry is stored. */ id?: number;
  /** A training run, or one measured step of a sweep or the largest-batch search. */ kind: 'run' | 'sweep';
  /** Date.now() when the run ended. */ at: number;
  settings: TrainConfig;
  /** Settings that differ from the run before, e.g. 'batch 8 → 16'; empty for the first run. */
  changed: string[];
  /** The planner's tfjs peak per phase for these settings; empty when the model was not described. */
  predicted: PhasePeak[];
  /** Highest measured step peak per phase. */ measured: PhasePeak[];
  /** How it ended: completed, stopped, oom or failed (runs); measured, oom or skipped (sweep points). */
  outcome: string;
  /** Where memory ran out, e.g. 'Conv2D in block6a_expand_conv', when it did. */ oomAt: string | null;
  /** Median measured step time, ms; null when no step ran. */ stepMs: number | null;
  /** Last validation accuracy, 0–1; null when no validation epoch finished. */ valAccuracy: number | null;
  backend: string | null;
  /** GPU adapter in words, when the backend is WebGPU. */ adapter: string | null;
}

/** The query string that sets an entry's settings again. */
export const linkQuery = (c: TrainConfig): string =>
  writeLink({ config: c, backend: 'auto', sample: false, view: null, mode: 'explore' });

/** Link parameters of a configuration, as a key → value map (the link's short words). */
function linkWords(c: TrainConfig): Map<string, string> {
  return new Map(
    linkQuery(c)
      .split('&')
      .map((p) => {
        const [k = '', ...v] = p.split('=');
        return [k, decodeURIComponent(v.join('='))] as const;
      }),
  );
}

/** What differs from `before` to `after`, in the link's words, e.g. ['batch 8 → 16', 'card none → 90MB']. */
export function settingsChanges(before: TrainConfig | null, after: TrainConfig): string[] {
  if (!before) return [];
  const a = linkWords(before);
  const b = linkWords(after);
  return [...b].filter(([k, v]) => a.get(k) !== v).map(([k, v]) => `${k} ${a.get(k) ?? '—'} → ${v}`);
}

/** The median of some step times, or null without any. */
export function medianMs(times: readonly number[]): number | null {
  if (times.length === 0) return null;
  const sorted = [...times].sort((x, y) => x - y);
  return sorted[sorted.length >> 1]!;
}

const peakOf = (peaks: readonly PhasePeak[], phase: string) =>
  peaks.find((p) => p.phase === phase)?.peakBytes;

/** The table's columns, for CSV: one row per entry, bytes and ms as plain numbers. */
const CSV_COLUMNS: [string, (e: HistoryEntry) => string | number | null | undefined][] = [
  ['id', (e) => e.id],
  ['kind', (e) => e.kind],
  ['ended', (e) => new Date(e.at).toISOString()],
  ['model', (e) => e.settings.model],
  ['height', (e) => e.settings.height],
  ['width', (e) => e.settings.width],
  ['batch', (e) => e.settings.batchSize],
  ['link', (e) => linkQuery(e.settings)],
  ['changed', (e) => e.changed.join('; ')],
  ['predicted_frozen_bytes', (e) => peakOf(e.predicted, 'frozen')],
  ['measured_frozen_bytes', (e) => peakOf(e.measured, 'frozen')],
  ['predicted_fine_tune_bytes', (e) => peakOf(e.predicted, 'fine-tune')],
  ['measured_fine_tune_bytes', (e) => peakOf(e.measured, 'fine-tune')],
  ['outcome', (e) => e.outcome],
  ['oom_at', (e) => e.oomAt],
  ['step_ms', (e) => e.stepMs],
  ['val_accuracy', (e) => e.valAccuracy],
  ['backend', (e) => e.backend],
  ['adapter', (e) => e.adapter],
];

/** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
function csvField(v: string | number | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The entries as CSV with a header row, one line per entry. */
export function historyCsv(entries: readonly HistoryEntry[]): string {
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const e of entries) lines.push(CSV_COLUMNS.map(([, get]) => csvField(get(e))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * A class table without a server: each participant exports one results file (their name, backend, the
 * current settings with their guess and the planner's prediction, and their run history); the instructor
 * drops many, and they merge into one sortable table and the answer of the "largest batch that fits"
 * race. Pure: validation (zod, the settings' own schema), merging, sorting and the race.
 */
import { z } from 'zod';
import { guessSettingsKey, type Guess, type PhasePeak } from '../run/guess';
import type { HistoryEntry } from '../run/history';
import { catalogEntry } from '../model/models';
import { trainConfigSchema } from '../settings/schema';
import type { TrainConfig } from '../settings/trainConfig';
import { errorMessage } from '../format';
import { append, maxOf } from '../extent';

export const RESULTS_FORMAT = 'vram-lab-results';

const peaks = z.array(z.object({ phase: z.string(), peakBytes: z.number().nonnegative() }));
const guessSchema = z.union([
  z.object({
    kind: z.literal('peak'),
    phase: z.enum(['frozen', 'fine-tune']),
    bytes: z.number().nonnegative(),
    settings: z.string(),
  }),
  z.object({ kind: z.literal('fits'), fits: z.boolean(), settings: z.string() }),
]);
const runSchema = z.object({
  kind: z.enum(['run', 'sweep']),
  at: z.number(),
  settings: trainConfigSchema,
  predicted: peaks,
  measured: peaks,
  outcome: z.string(),
  oomAt: z.string().nullable(),
  stepMs: z.number().nullable(),
  valAccuracy: z.number().nullable(),
  backend: z.string().nullable(),
  adapter: z.string().nullable(),
});

/** One participant's results file, as "Export my results" writes it. */
export const resultsFileSchema = z.object({
  format: z.literal(RESULTS_FORMAT),
  version: z.literal(1, { error: 'it is a results file of another version than 1' }),
  name: z.string().trim().min(1, { error: 'it has no participant name' }),
  exportedAt: z.string(),
  backend: z.string().nullable(),
  adapter: z.string().nullable(),
  /** The settings on screen when exporting, the guess committed for them, the planner's peaks. */
  current: z.object({ settings: trainConfigSchema, guess: guessSchema.nullable(), predicted: peaks }),
  runs: z.array(runSchema),
});

export type ResultsFile = z.infer<typeof resultsFileSchema>;

/** The file "Export my results" writes: the name, the current settings with guess and plan, the runs. */
export function resultsFile(args: {
  name: string;
  exportedAt: Date;
  backend: string | null;
  adapter: string | null;
  settings: TrainConfig;
  guess: Guess | null;
  predicted: readonly PhasePeak[];
  runs: readonly HistoryEntry[];
}): ResultsFile {
  return {
    format: RESULTS_FORMAT,
    version: 1,
    name: args.name.trim(),
    exportedAt: args.exportedAt.toISOString(),
    backend: args.backend,
    adapter: args.adapter,
    current: { settings: args.settings, guess: args.guess, predicted: [...args.predicted] },
    runs: args.runs.map(({ id: _id, changed: _changed, ...run }) => run),
  };
}

/** One row of the class table: a participant's planned settings (with the guess) or one of their runs. */
export interface ClassRow {
  name: string;
  /** The file it came from. */ file: string;
  /** 'plan': the settings on screen, not run; 'run' or 'sweep': measured. */ kind: 'plan' | 'run' | 'sweep';
  backend: string | null;
  adapter: string | null;
  settings: TrainConfig;
  /** 'EfficientNet-Tiny 32×32, batch 8, card 40 MB'. */ settingsText: string;
  /** 'fine-tune 120 MB', 'fits' or 'does not fit'; null when no guess was made for these settings. */
  guess: string | null;
  /** The highest predicted / measured step peak over the phases, bytes; null when there is none. */
  predictedBytes: number | null;
  measuredBytes: number | null;
  /** Whether a step fit: measured for runs, the planner's verdict against the card for plans. */
  fits: boolean | null;
  fitsBasis: 'measured' | 'planned' | null;
}

const MB = 1e6;
const highest = (p: readonly PhasePeak[]) => (p.length > 0 ? maxOf(p.map((x) => x.peakBytes)) : null);

/** The settings as the table shows them: architecture, size, batch, the card. */
export function settingsText(c: TrainConfig): string {
  const card = c.budgetBytes === null ? 'no card limit' : `card ${Math.round(c.budgetBytes / MB)} MB`;
  return `${catalogEntry(c.model).displayName} ${c.height}×${c.width}, batch ${c.batchSize}, ${card}`;
}

const guessText = (g: Guess): string =>
  g.kind === 'peak' ? `${g.phase} ${Math.round(g.bytes / MB)} MB` : g.fits ? 'fits' : 'does not fit';

/** JSON with sorted keys, so two settings compare equal whatever order their fields were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether a guess was committed for exactly these settings (guess.settings is guessSettingsKey's). */
function guessedFor(guess: Guess | null, c: TrainConfig): boolean {
  if (!guess) return false;
  try {
    const made = JSON.parse(guess.settings) as Record<string, unknown>;
    const now = JSON.parse(guessSettingsKey(c)) as Record<string, unknown>;
    // Only the settings the schema kept count: a field it does not know cannot tell two settings apart.
    const kept = Object.fromEntries(Object.keys(now).map((k) => [k, made[k]]));
    return canonical(kept) === canonical(now);
  } catch {
    // A guess key that is not JSON was made for no settings this file holds.
    return false;
  }
}

/** How a run ended, as fits: an OOM did not fit; a run or point that ran did; anything else is unknown. */
const FITS: Record<string, boolean> = { completed: true, stopped: true, measured: true, oom: false };

/** The rows of one participant's file: the planned settings first, then every run. */
export function rowsOf(f: ResultsFile, file: string): ClassRow[] {
  const base = { name: f.name, file };
  const plannedPeak = highest(f.current.predicted);
  const limit = f.current.settings.budgetBytes;
  const plan: ClassRow = {
    ...base,
    kind: 'plan',
    backend: f.backend,
    adapter: f.adapter,
    settings: f.current.settings,
    settingsText: settingsText(f.current.settings),
    guess: guessedFor(f.current.guess, f.current.settings) ? guessText(f.current.guess!) : null,
    predictedBytes: plannedPeak,
    measuredBytes: null,
    fits: plannedPeak === null || limit === null ? null : plannedPeak <= limit,
    fitsBasis: plannedPeak === null || limit === null ? null : 'planned',
  };
  const runs = f.runs.map((r): ClassRow => {
    const fits = FITS[r.outcome] ?? null;
    return {
      ...base,
      kind: r.kind,
      backend: r.backend ?? f.backend,
      adapter: r.adapter ?? f.adapter,
      settings: r.settings,
      settingsText: settingsText(r.settings),
      guess: guessedFor(f.current.guess, r.settings) ? guessText(f.current.guess!) : null,
      predictedBytes: highest(r.predicted),
      measuredBytes: highest(r.measured),
      fits,
      fitsBasis: fits === null ? null : 'measured',
    };
  });
  return [plan, ...runs];
}

/** A file that was skipped, and why. */
export interface FileProblem {
  file: string;
  problem: string;
}

export interface MergedClass {
  rows: ClassRow[];
  /** Participants merged, in the order their files came. */ names: string[];
  problems: FileProblem[];
}

/** Reads one file's text: the parsed results, or the problem in words. */
export function readResults(text: string): ResultsFile | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return `it is not JSON (${errorMessage(err)})`;
  }
  if (Array.isArray(json))
    return 'it is a list (the run history export?), not a results file: use "Export my results"';
  if (typeof json !== 'object' || json === null || (json as { format?: unknown }).format !== RESULTS_FORMAT)
    return `it is not a VRAM Lab results file (no format '${RESULTS_FORMAT}')`;
  const parsed = resultsFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0]!;
  return first.path.length > 0 ? `${first.path.map(String).join('.')}: ${first.message}` : first.message;
}

/** Every readable file's rows, merged; unreadable files and repeated ones are named with why and skipped. */
export function mergeResults(files: readonly { file: string; text: string }[]): MergedClass {
  const rows: ClassRow[] = [];
  const names: string[] = [];
  const problems: FileProblem[] = [];
  const seen = new Map<string, string>();
  for (const { file, text } of files) {
    const read = readResults(text);
    if (typeof read === 'string') {
      problems.push({ file, problem: read });
      continue;
    }
    const key = `${read.name}|${read.exportedAt}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({
        file,
        problem: `it is the same export as ${earlier} (${read.name}, ${read.exportedAt})`,
      });
      continue;
    }
    seen.set(key, file);
    names.push(read.name);
    append(rows, rowsOf(read, file));
  }
  return { rows, names, problems };
}

export type SortKey = 'name' | 'backend' | 'settings' | 'guess' | 'predicted' | 'measured' | 'fits';

const sortValue: Record<SortKey, (r: ClassRow) => string | number | null> = {
  name: (r) => r.name.toLowerCase(),
  backend: (r) => [r.backend, r.adapter].filter(Boolean).join(' ') || null,
  settings: (r) => r.settingsText,
  guess: (r) => r.guess,
  predicted: (r) => r.predictedBytes,
  measured: (r) => r.measuredBytes,
  fits: (r) => (r.fits === null ? null : r.fits ? 1 : 0),
};

/** The rows sorted by one column; rows without a value go last either way; ties keep their order. */
export function sortRows(rows: readonly ClassRow[], key: SortKey, direction: 'asc' | 'desc'): ClassRow[] {
  const sign = direction === 'asc' ? 1 : -1;
  const value = sortValue[key];
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    if (typeof x === 'number' && typeof y === 'number') return sign * (x - y);
    return sign * String(x).localeCompare(String(y));
  });
}

/** The race's answer: the largest batch that fit, who got there and with which settings. */
export interface RaceResult {
  batch: number;
  /** Measured runs decide; without any, the planner's verdicts on the planned settings do. */
  basis: 'measured' | 'planned';
  winners: { name: string; settingsText: string }[];
}

/** The largest batch that fits: among measured runs that fit, else among plans the planner says fit. */
export function largestBatchRace(rows: readonly ClassRow[]): RaceResult | null {
  for (const basis of ['measured', 'planned'] as const) {
    const fitting = rows.filter((r) => r.fits === true && r.fitsBasis === basis);
    if (fitting.length === 0) continue;
    const batch = maxOf(fitting.map((r) => r.settings.batchSize));
    const winners = fitting
      .filter((r) => r.settings.batchSize === batch)
      .map((r) => ({ name: r.name, settingsText: r.settingsText }))
      .filter(
        (w, i, all) => all.findIndex((o) => o.name === w.name && o.settingsText === w.settingsText) === i,
      );
    return { batch, basis, winners };
  }
  return null;
}

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { predictionError } from '../src/core/planner/planner';
import { formatBytes } from '../src/core/format';
import { planKerasGrid, type KerasConfiguration } from '../interop/node/kerasGrid';

/** One configuration of the Keras grid: planKeras' prediction and TensorFlow's measured peak. */
export interface KerasRow {
  c: KerasConfiguration;
  /** Peak bytes TensorFlow's BFC allocator counted over one step; null when not measured. */ measured:
    number | null;
  /** Why there is no measurement. */ status: string;
}

const PYTHON = 'interop/.venv/bin/python';

/**
 * Plans the grid here and measures it in one Python process (interop/keras_memory.py): TensorFlow 2.21
 * and Keras 3 on CPU, the peak of each step from its own allocator. Nothing is kept between runs.
 */
export function kerasRows(budgetS = 480): KerasRow[] {
  const grid = planKerasGrid();
  const work = mkdtempSync(join(tmpdir(), 'keras-bench-'));
  const configurations = join(work, 'configurations.json');
  const measured = join(work, 'measured.json');
  writeFileSync(configurations, JSON.stringify(grid));
  const done = spawnSync(
    PYTHON,
    ['interop/keras_memory.py', configurations, measured, `--budget-s=${budgetS}`],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: (budgetS + 300) * 1000,
    },
  );
  if (done.status !== 0)
    throw new Error(
      `interop/keras_memory.py failed (status ${done.status}); the interop venv is needed: npm run test:interop -- --install-only`,
    );
  const answer = JSON.parse(readFileSync(measured, 'utf8')) as {
    results: { status: string; peak_bytes?: number }[];
  };
  return grid.map((c, i) => {
    const r = answer.results[i];
    return { c, measured: r?.peak_bytes ?? null, status: r?.status ?? 'missing' };
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The signed errors of the measured rows, in percent of the measurement. */
export function kerasErrors(rows: KerasRow[]): number[] {
  return rows.flatMap((r) => (r.measured === null ? [] : [predictionError(r.c.predictedBytes, r.measured)]));
}

/** The summary line: median and largest |error|, the largest underestimate, and how many were measured. */
export function kerasSummary(rows: KerasRow[]): string {
  const errors = kerasErrors(rows);
  const abs = errors.map(Math.abs);
  const under = Math.max(0, ...errors.map((e) => -e));
  return `keras: median |error| ${median(abs).toFixed(1)}%, max ${Math.max(0, ...abs).toFixed(1)}%, worst under ${under.toFixed(1)}% over ${errors.length} configurations`;
}

/** A table per family (every configuration, tuned or held out), then the summaries. */
export function kerasTable(rows: KerasRow[]): string[] {
  const lines = [
    '| family | size | precision | set | batch | planKeras | TensorFlow (CPU, BFC) | error | used for |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const { c, measured, status } of rows) {
    const error = measured === null ? status : `${predictionError(c.predictedBytes, measured).toFixed(1)}%`;
    lines.push(
      `| ${c.family} | ${c.height}×${c.width} | ${c.precision} | ${c.set} | ${c.batch} | ${formatBytes(c.predictedBytes)} | ${measured === null ? '—' : formatBytes(measured)} | ${error} | ${c.tuning ? 'tuning' : 'held out'} |`,
    );
  }
  const families = [...new Set(rows.map((r) => r.c.family))];
  lines.push('');
  for (const f of families)
    lines.push(kerasSummary(rows.filter((r) => r.c.family === f)).replace('keras', f));
  lines.push(`held out — ${kerasSummary(rows.filter((r) => !r.c.tuning))}`);
  lines.push(kerasSummary(rows));
  const missing = rows.filter((r) => r.measured === null);
  if (missing.length > 0)
    lines.push(`${missing.length} of ${rows.length} configurations not measured: ${missing[0]!.status}`);
  return lines;
}

import type { SweepRow } from '../../core/sweep/sweep';
import { maxOf, minOf } from '../../core/extent';

/** Values wider apart than this share a log axis: on a linear one the small ones lie on the floor. */
export const LOG_SPAN = 20;

export type ByteAxis = { log: false } | { log: true; domain: [number, number]; ticks: number[] };

/**
 * Every byte value the chart draws: the rows' peaks and the simulated card, finite ones only (a card
 * typed as 1e308 MB is Infinity bytes, which the settings refuse; the axis must still end).
 */
export function byteValues(rows: readonly SweepRow[], budgetBytes: number | null): number[] {
  return rows
    .flatMap((r) => [r.measured, r.predicted, r.keras, r.kerasMixed])
    .concat(budgetBytes ?? undefined)
    .filter((v): v is number => v !== undefined && Number.isFinite(v) && v > 0);
}

/**
 * The byte axis: linear from 0 when the values are of one size; otherwise logarithmic over whole
 * decades (ticks at 1, 2 and 5 when few decades are shown), so a 16 GB card under an 800 GB curve and
 * the batches that fit below it stay visible.
 */
export function byteAxis(rows: readonly SweepRow[], budgetBytes: number | null): ByteAxis {
  const values = byteValues(rows, budgetBytes);
  const lo = minOf(values);
  const hi = maxOf(values);
  if (values.length === 0 || hi / lo <= LOG_SPAN) return { log: false as const };
  const from = Math.floor(Math.log10(lo));
  const to = Math.ceil(Math.log10(hi));
  const steps = to - from <= 3 ? [1, 2, 5] : [1];
  const ticks: number[] = [];
  for (let e = from; e <= to; e++)
    for (const m of steps) if (m * 10 ** e <= 10 ** to) ticks.push(m * 10 ** e);
  return { log: true as const, domain: [10 ** from, 10 ** to] as [number, number], ticks };
}

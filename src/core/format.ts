/** One formatter for the page: `toLocaleString` builds a new one on every call, thousands of times a render. */
const THOUSANDS = new Intl.NumberFormat('en-US');

/** A count with thousands separators: 1,234,567. */
export const count = (n: number): string => THOUSANDS.format(n);

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/**
 * A non-negative quantity in decimal steps of 1000 with three significant digits. The unit is chosen
 * after rounding, so 999,999 reads "1.00 M…", never "1000 K…".
 */
function scaled(magnitude: number, units: readonly string[]): { text: string; unit: string } {
  let value = magnitude;
  let unit = 0;
  const rounded = () => (unit === 0 ? Math.round(value) : Number(value.toPrecision(3)));
  while (unit < units.length - 1 && rounded() >= 1000) {
    value /= 1000;
    unit++;
  }
  const r = rounded();
  return { text: r.toFixed(unit === 0 || r >= 100 ? 0 : r >= 10 ? 1 : 2), unit: units[unit]! };
}

/** Bytes in decimal units with three significant digits, e.g. 3.21 MB (1 MB = 10^6 B, as GPU vendors count). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
  const { text, unit } = scaled(Math.abs(bytes), UNITS);
  return `${bytes < 0 ? '-' : ''}${text} ${unit}`;
}

const FLOP_UNITS = ['FLOP', 'kFLOP', 'MFLOP', 'GFLOP', 'TFLOP', 'PFLOP'];

/** Floating-point operations in decimal units with three significant digits, e.g. 2.13 TFLOP. */
export function formatFlops(flops: number): string {
  if (!Number.isFinite(flops)) return '—';
  const { text, unit } = scaled(Math.abs(flops), FLOP_UNITS);
  return `${flops < 0 ? '-' : ''}${text} ${unit}`;
}

/** A rate of floating-point operations, e.g. 41.2 GFLOP/s. */
export function formatFlopRate(flopsPerSecond: number): string {
  return `${formatFlops(flopsPerSecond)}/s`;
}

/** A duration as m:ss or h:mm:ss. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** What went wrong, as a person reads it: an Error's message, or anything else thrown as text. */
export function errorMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

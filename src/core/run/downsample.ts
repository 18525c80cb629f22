/**
 * Reduces a series to at most `max` points for drawing, keeping in each bucket the point with the
 * largest `value` so peaks survive (a memory chart must never hide its maximum).
 */
export function downsampleMax<T>(points: readonly T[], max: number, value: (p: T) => number): T[] {
  if (points.length <= max || max < 1) return [...points];
  const size = points.length / max;
  const out: T[] = [];
  for (let b = 0; b < max; b++) {
    const start = Math.floor(b * size);
    const end = Math.min(points.length, Math.floor((b + 1) * size));
    let best = points[start]!;
    for (let i = start + 1; i < end; i++) if (value(points[i]!) > value(best)) best = points[i]!;
    out.push(best);
  }
  return out;
}

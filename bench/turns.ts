// Timing sides of a bench row in turns, so that a change in a shared machine's load falls on all alike.

/** One timed step: wall time, and in Node the process's CPU time (which other processes' load barely moves). */
export interface StepTime {
  wallMs: number;
  cpuMs: number | null;
}

const cpuNow = (): number | null => {
  if (typeof process === 'undefined' || typeof process.cpuUsage !== 'function') return null;
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Steps every side once per round and returns each round's step times. Round 0 is the warm-up. The
 * order rotates from round to round (a, b, c; then b, c, a; ...), so no side always runs first or always pays for the garbage its predecessor left.
 */
export async function timeRounds<K extends string>(
  sides: Record<K, () => Promise<void>>,
  rounds: number,
): Promise<Record<K, StepTime>[]> {
  const keys = Object.keys(sides) as K[];
  const out: Record<K, StepTime>[] = [];
  for (let r = 0; r <= rounds; r++) {
    const round = {} as Record<K, StepTime>;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(i + r) % keys.length]!;
      const cpu0 = cpuNow();
      const start = performance.now();
      await sides[key]();
      const wallMs = performance.now() - start;
      const cpu1 = cpuNow();
      round[key] = { wallMs, cpuMs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0 };
    }
    if (r > 0) out.push(round);
  }
  return out;
}

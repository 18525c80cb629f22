import { describe, expect, it } from 'vitest';
import { handOver, MAX_PER_MESSAGE, type CheckItem, type CheckRequest } from './decodeCheck';

const items = (n: number): CheckItem[] =>
  Array.from({ length: n }, (_, i) => ({
    fileIndex: i,
    path: `a/${i}.png`,
    source: { kind: 'file', file: new File([new Uint8Array(i % 7)], `${i}.png`) },
  }));

/** The messages the page posts, as the worker would receive them. */
function sink() {
  const sent: CheckRequest[] = [];
  return { sent, worker: { postMessage: (m: CheckRequest) => sent.push(m) } as Pick<Worker, 'postMessage'> };
}

describe('handing the decode check its files', () => {
  it('sends files whose sizes are known in messages of at most MAX_PER_MESSAGE, in order, then the end', async () => {
    const all = items(2 * MAX_PER_MESSAGE + 345);
    const { sent, worker } = sink();
    await handOver(worker, all);
    const checks = sent.filter((m): m is Extract<CheckRequest, { type: 'check' }> => m.type === 'check');
    expect(checks.length).toBeGreaterThanOrEqual(3);
    for (const m of checks) expect(m.items.length).toBeLessThanOrEqual(MAX_PER_MESSAGE);
    expect(checks.flatMap((m) => m.items.map((c) => c.fileIndex))).toEqual(all.map((c) => c.fileIndex));
    expect(sent.at(-1)).toEqual({ type: 'end' });
  });

  it('sends nothing more once aborted', async () => {
    const controller = new AbortController();
    const { sent, worker } = sink();
    controller.abort(new DOMException('Cancelled.', 'AbortError'));
    await handOver(worker, items(10), controller.signal);
    expect(sent).toEqual([]);
  });

  it('ends at once when there is nothing to check', async () => {
    const { sent, worker } = sink();
    await handOver(worker, []);
    expect(sent).toEqual([{ type: 'end' }]);
  });
});

import { openBitmap } from './decode';

/** How many images are decoded at once while checking a folder (the browser decodes off-thread). */
const CONCURRENCY = 4;

/**
 * Tries to decode every candidate once so broken files are reported before training, not in the
 * middle of an epoch. Returns the reason for each index that failed. An aborted `signal` stops the check
 * after the images being decoded (a newer data load replaced this one) and rejects with its reason.
 */
export async function findUndecodable(
  candidates: readonly { fileIndex: number; path: string; read: () => Promise<Blob> }[],
  onProgress: (done: number) => void,
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const failures = new Map<number, string>();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < candidates.length && !signal?.aborted) {
      const c = candidates[next++]!;
      try {
        (await openBitmap(await c.read(), c.path)).close();
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        failures.set(c.fileIndex, message.replace(`Cannot decode "${c.path}": `, 'cannot decode: '));
      }
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  signal?.throwIfAborted();
  return failures;
}

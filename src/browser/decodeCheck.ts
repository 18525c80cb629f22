// The decode check of a loaded folder, in its own worker: decoding 20,000 images on the page costs
// it about 3 ms of script per image (reading each file's header and size, then createImageBitmap),
// where handing a file to the worker costs about a third of that. The files go over in slices of a few
// milliseconds so no task of the page's is long.
import type { ImageSource } from '../core/run/protocol';

/** One image to check. */
export interface CheckItem {
  fileIndex: number;
  path: string;
  source: ImageSource;
}

/** Page → worker: more images to check, or the end of the list. */
export type CheckRequest = { type: 'check'; items: CheckItem[] } | { type: 'end' };

/** Worker → page: images checked so far and the failures among the latest ones; or all done. */
export type CheckReply = { type: 'progress'; done: number; failures: [number, string][] } | { type: 'done' };

/** Page time spent per task handing files over, in ms: well under a long task (50 ms). */
const SLICE_MS = 20;
/**
 * Most files in one message. Once the files know their sizes (a dropped folder's do) the clock above
 * lets every file through at once, and postMessage then copied 20,000 of them in one task: 34 ms of
 * its 50 ms of CPU (a Chrome trace of bench/listing.ts). A thousand take about 2 ms.
 */
export const MAX_PER_MESSAGE = 1000;

/**
 * Tries to decode every candidate once so broken files are reported before training, not in the
 * middle of an epoch. Returns the reason for each index that failed. An aborted `signal` stops the check
 * at once (a newer data load replaced this one, or the user cancelled) and rejects with its reason.
 */
export function findUndecodable(
  candidates: readonly CheckItem[],
  onProgress: (done: number) => void,
  signal?: AbortSignal,
): Promise<Map<number, string>> {
  const worker = new Worker(new URL('../workers/decodeCheck.worker.ts', import.meta.url), { type: 'module' });
  const failures = new Map<number, string>();
  return new Promise<Map<number, string>>((resolve, reject) => {
    const stop = () => {
      worker.terminate();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.onerror = (e) => {
      worker.terminate();
      signal?.removeEventListener('abort', stop);
      reject(new Error(`The image check stopped: ${e.message || 'its worker failed to start'}`));
    };
    worker.onmessage = (e: MessageEvent<CheckReply>) => {
      if (e.data.type === 'done') {
        worker.terminate();
        signal?.removeEventListener('abort', stop);
        resolve(failures);
        return;
      }
      for (const [index, reason] of e.data.failures) failures.set(index, reason);
      onProgress(e.data.done);
    };
    void handOver(worker, candidates, signal);
  });
}

/**
 * Hands the candidates over in slices of SLICE_MS and at most MAX_PER_MESSAGE files. A chosen folder's File does not know its size yet,
 * and learning it is a synchronous call to the browser (about 0.3–1 ms each on a busy machine) that
 * postMessage would make for every file of a chunk at once; asking here, file by file against the
 * clock, keeps each task short, and the File keeps the answer.
 */
export async function handOver(
  worker: Pick<Worker, 'postMessage'>,
  candidates: readonly CheckItem[],
  signal?: AbortSignal,
): Promise<void> {
  let i = 0;
  while (i < candidates.length) {
    if (signal?.aborted) return;
    const from = i;
    const start = performance.now();
    while (i < candidates.length && i - from < MAX_PER_MESSAGE && performance.now() - start < SLICE_MS)
      sizeOf(candidates[i++]!.source);
    worker.postMessage({ type: 'check', items: candidates.slice(from, i) } satisfies CheckRequest);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  worker.postMessage({ type: 'end' } satisfies CheckRequest);
}

function sizeOf(source: ImageSource): number {
  return source.kind === 'file' ? source.file.size : 0;
}

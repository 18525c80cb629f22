// Sorting a listed folder into classes (core/data/scan, or a CSV manifest) in a worker: on the page, 20,000
// paths were one task of 90–140 ms. Handing them over and taking the classes back costs the page a few
// milliseconds of structured cloning.
import type { FoundFile, ScanResult } from '../core/data/scan';

/** Page → worker: the listed files, the folders walked, and the text of each possible manifest in order. */
export interface ScanRequest {
  found: readonly FoundFile[];
  folders: readonly string[];
  manifests: { index: number; text: string }[];
}

/** Worker → page: the classes, from the first manifest that names path and label columns, else folders. */
export type ScanReply = { type: 'scanned'; scan: ScanResult } | { type: 'error'; message: string };

/** Scans in a worker; rejects with the signal's reason when it is aborted first. */
export function scanOffPage(request: ScanRequest, signal: AbortSignal): Promise<ScanResult> {
  return new Promise<ScanResult>((resolve, reject) => {
    signal.throwIfAborted();
    const worker = new Worker(new URL('../workers/scan.worker.ts', import.meta.url), { type: 'module' });
    const end = () => {
      worker.terminate();
      signal.removeEventListener('abort', stop);
    };
    const stop = () => {
      end();
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.onerror = (e) => {
      end();
      reject(
        new Error(
          `The folder could not be sorted into classes: ${e.message || 'its worker failed to start'}`,
        ),
      );
    };
    worker.onmessage = (e: MessageEvent<ScanReply>) => {
      end();
      if (e.data.type === 'scanned') resolve(e.data.scan);
      else reject(new Error(e.data.message));
    };
    worker.postMessage(request);
  });
}

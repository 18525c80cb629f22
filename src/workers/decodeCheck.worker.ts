// The decode check's worker: opens each image once with the browser's decoder, several at a time
// (createImageBitmap decodes off this thread too), and reports progress about ten times a second.
import type { CheckItem, CheckReply, CheckRequest } from '../browser/decodeCheck';
import { openBitmap, readBlob } from '../browser/decode';
import { errorMessage } from '../core/format';
import { append } from '../core/extent';

/** Images being decoded at once: enough to keep the browser's decoder threads and file reads busy. */
const CONCURRENCY = 16;
const REPORT_EVERY_MS = 100;

const queue: CheckItem[] = [];
/** The next item to check (the queue is read, not shifted: shifting 20,000 items is quadratic). */
let next = 0;
let ended = false;
let running = 0;
let done = 0;
let failures: [number, string][] = [];
let reportedAt = 0;

const post = (reply: CheckReply) => self.postMessage(reply);

function report(force: boolean): void {
  const now = performance.now();
  if (!force && now - reportedAt < REPORT_EVERY_MS) return;
  reportedAt = now;
  post({ type: 'progress', done, failures });
  failures = [];
}

async function check(item: CheckItem): Promise<void> {
  try {
    (await openBitmap(await readBlob(item.source, item.path), item.path)).close();
  } catch (err) {
    const message = errorMessage(err);
    failures.push([item.fileIndex, message.replace(`Cannot decode "${item.path}": `, 'cannot decode: ')]);
  }
  done++;
}

async function drain(): Promise<void> {
  running++;
  while (next < queue.length) {
    await check(queue[next++]!);
    report(false);
  }
  running--;
  if (ended && running === 0) {
    report(true);
    post({ type: 'done' });
  }
}

self.onmessage = (e: MessageEvent<CheckRequest>) => {
  if (e.data.type === 'end') ended = true;
  else append(queue, e.data.items);
  while (running < CONCURRENCY && (next < queue.length || (ended && running === 0))) void drain();
};

// Bench row: listing a 20,000-file folder (4 classes of tiny PNGs) in headless Chromium through the
// folder input, as a user's chosen folder arrives, and the longest main-thread task meanwhile
// (PerformanceObserver 'longtask'). Run alone with `npx tsx bench/listing.ts`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { createServer } from 'vite';
import { findChromium } from '../e2e/chromium';
import { drawShapeImage, encodePng, SHAPE_KINDS } from '../scripts/shapes';
import { engineReady } from './engineReady';

export interface ListingRow {
  files: number;
  /** Change event → the class table's classes in the store, ms. */ listedMs: number;
  /** Change event → decode check done (the data set ready to train), ms. */ readyMs: number;
  /** Longest task that started after the change event, until the check ended, ms. */ longestTaskMs: number;
  /** Longest task that started while listing (change event → classes listed), ms. */ listingTaskMs: number;
  /** Longest task that started while the check ran (listed → ready), ms. */ checkTaskMs: number;
  /** The task that delivered the change event: the browser's own file-list work plus the lab's handler. */
  changeTaskMs: number;
}

const CLASSES = ['a', 'b', 'c', 'd'];

/** root/set/<class>/img_NNNNN.png, `files` in all, one tiny PNG per class repeated. */
function makeFolder(files: number): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'vram-lab-listing-'));
  const dir = join(root, 'set');
  const pngs = CLASSES.map((_, k) => encodePng(drawShapeImage(SHAPE_KINDS[k % 3]!, 8, 100 + k)));
  for (const c of CLASSES) mkdirSync(join(dir, c), { recursive: true });
  for (let i = 0; i < files; i++)
    writeFileSync(join(dir, CLASSES[i % 4]!, `img_${String(i).padStart(5, '0')}.png`), pngs[i % 4]!);
  return { root, dir };
}

/** Records long tasks and the change event's time from the page's start. */
function observe(): void {
  const w = window as unknown as { __longTasks: [number, number][]; __changeAt: number };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  document.addEventListener('change', () => (w.__changeAt = performance.now()), true);
}

/** Stamps, in the page, when the classes were first listed and when the data set became ready. */
async function watchStore(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Dataset = { status: string; scan: { classes: unknown[] } | null };
    const w = window as unknown as {
      __lab: { store: { subscribe(f: (s: { dataset: Dataset }) => void): void } };
      __listedAt?: number;
      __readyAt?: number;
    };
    w.__lab.store.subscribe((s) => {
      if (w.__listedAt === undefined && s.dataset.scan?.classes.length === 4)
        w.__listedAt = performance.now();
      if (w.__readyAt === undefined && s.dataset.status === 'ready') w.__readyAt = performance.now();
    });
  });
}

async function measure(page: Page, dir: string, files: number): Promise<ListingRow> {
  await page.getByTestId('folder-input').setInputFiles(dir);
  await page.waitForFunction(
    () => (window as unknown as { __readyAt?: number }).__readyAt !== undefined,
    null,
    {
      timeout: 600_000,
      polling: 500,
    },
  );
  const t = await page.evaluate(() => {
    const w = window as unknown as {
      __longTasks: [number, number][];
      __changeAt: number;
      __listedAt: number;
      __readyAt: number;
    };
    return { tasks: w.__longTasks, change: w.__changeAt, listed: w.__listedAt, ready: w.__readyAt };
  });
  const longest = (from: number, to: number) =>
    Math.max(0, ...t.tasks.filter(([start]) => start > from && start < to).map(([, d]) => d));
  const changeTask = t.tasks.find(([start, d]) => start <= t.change && t.change <= start + d);
  return {
    files,
    listedMs: t.listed - t.change,
    readyMs: t.ready - t.change,
    longestTaskMs: longest(t.change, t.ready),
    listingTaskMs: longest(t.change, t.listed),
    checkTaskMs: longest(t.listed, t.ready),
    changeTaskMs: changeTask?.[1] ?? 0,
  };
}

/** Serves the app (random port), lists a generated folder of `files` images, and measures it. */
export async function listingRow(files = 20_000): Promise<ListingRow> {
  const { root, dir } = makeFolder(files);
  const server = await createServer({
    root: process.cwd(),
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    logLevel: 'error',
  });
  await server.listen();
  const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    await page.addInitScript(observe);
    await page.goto(server.resolvedUrls?.local[0] ?? '', { timeout: 120_000 });
    await engineReady(page);
    await watchStore(page);
    return await measure(page, dir, files);
  } finally {
    await browser.close();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export function listingTable(r: ListingRow): string[] {
  const s = (t: number) => `${(t / 1000).toFixed(2)} s`;
  const ms = (t: number) => `${Math.round(t)} ms`;
  return [
    '| files | classes listed | check done (ready) | longest task: listing | checking | in all | change-event task |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${r.files} | ${s(r.listedMs)} | ${s(r.readyMs)} | ${ms(r.listingTaskMs)} | ${ms(r.checkTaskMs)} | ${ms(r.longestTaskMs)} | ${ms(r.changeTaskMs)} |`,
    '',
    "Times from the input's change event. The change-event task includes the browser building the file",
    'list of the chosen folder before the lab sees it.',
  ];
}

if (process.argv[1]?.endsWith('listing.ts')) {
  const files = Number(process.argv[2] ?? 20_000);
  listingRow(files).then(
    (r) => console.log(listingTable(r).join('\n')),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

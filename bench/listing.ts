// Bench rows: listing a 20,000-file folder (4 classes of tiny PNGs) in headless Chromium on the
// production build, and the longest main-thread task meanwhile (PerformanceObserver 'longtask'), two
// ways: through the folder input, as a chosen folder arrives there, and as a real directory dropped
// on the drop zone (CDP Input.dispatchDragEvent with the folder's path, read from disk by the browser;
// the lab lists its entries by name and opens the files afterwards), with each long task's main-thread
// CPU time from a Chrome trace. The directory picker cannot be driven by a test: Playwright's
// file-chooser interception aborts it. Run alone with `npx tsx bench/listing.ts [files]`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import { findChromium } from '../e2e/chromium';
import { drawShapeImage, encodePng, SHAPE_KINDS } from '../scripts/shapes';
import { engineReady } from './engineReady';
import { cpuOf, startTrace, traceEvents, tracedTasks } from './longTasks';

/** How the folder reaches the lab. */
export type ListingWay = 'folder input' | 'drop';

export interface ListingRow {
  way: ListingWay;
  files: number;
  /** The user's action (files set on the input, or the drop) → the classes in the store, ms. */ listedMs: number;
  /** The action → files opened and the decode check done (ready to train), ms. */ readyMs: number;
  /** Longest task that started after the action, until the check ended, ms. */ longestTaskMs: number;
  /** Longest task that started while listing (action → classes listed), ms. */ listingTaskMs: number;
  /** Longest task that started while files were opened and checked (listed → ready), ms. */ checkTaskMs: number;
  /**
   * The most main-thread CPU time of a long task in each phase (Chrome trace), ms: the page's and the
   * browser's own work on the page thread; the rest of a task's length was spent waiting for a core.
   */
  listingCpuMs: number;
  checkCpuMs: number;
  /**
   * The task that delivered the change or drop event: for the input, the browser building the whole
   * FileList before any page code runs, plus the lab's handler.
   */
  deliveryTaskMs: number;
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

/** Records long tasks and the change or drop event's time from the page's start. */
function observe(): void {
  const w = window as unknown as { __longTasks: [number, number][]; __eventAt: number };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  for (const type of ['change', 'drop'])
    document.addEventListener(type, () => (w.__eventAt = performance.now()), true);
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

/**
 * Waits for the page to be idle before the folder arrives: the model described (the planner's first
 * render mounts its charts) and no long task for a second, so the rows time the listing alone.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const w = window as unknown as {
        __lab: { store: { getState(): { planner: { status: string } } } };
        __longTasks: [number, number][];
      };
      const last = w.__longTasks.at(-1);
      const quietSince = last ? last[0] + last[1] : 0;
      return w.__lab.store.getState().planner.status === 'ready' && performance.now() - quietSince > 1000;
    },
    null,
    { timeout: 120_000, polling: 250 },
  );
}

/** Drops the real directory `dir` on the drop zone, as the OS would: the browser reads it from disk. */
async function dropFolder(page: Page, dir: string): Promise<void> {
  const box = await page.getByTestId('dropzone').boundingBox();
  if (!box) throw new Error('The drop zone is not on the page.');
  const cdp = await page.context().newCDPSession(page);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
}

async function measure(page: Page, way: ListingWay, dir: string, files: number): Promise<ListingRow> {
  await startTrace(page);
  await page.evaluate(
    () => ((window as unknown as { __actAt: number }).__actAt = performance.mark('act').startTime),
  );
  if (way === 'drop') await dropFolder(page, dir);
  else await page.getByTestId('folder-input').setInputFiles(dir);
  await page.waitForFunction(
    () => (window as unknown as { __readyAt?: number }).__readyAt !== undefined,
    null,
    { timeout: 600_000, polling: 500 },
  );
  const trace = await page.context().browser()!.stopTracing();
  const t = await page.evaluate(() => {
    const w = window as unknown as {
      __longTasks: [number, number][];
      __actAt: number;
      __eventAt: number;
      __listedAt: number;
      __readyAt: number;
    };
    const { __longTasks: tasks, __actAt: act, __eventAt: event, __listedAt: listed, __readyAt: ready } = w;
    return { tasks, act, event, listed, ready };
  });
  const traced = tracedTasks(traceEvents(trace), 'act', t.act);
  const during = (from: number, to: number) => t.tasks.filter(([start, d]) => start + d > from && start < to);
  const longest = (from: number, to: number) => Math.max(0, ...during(from, to).map(([, d]) => d));
  const mostCpu = (from: number, to: number) =>
    Math.max(0, ...during(from, to).map((task) => cpuOf(traced, task)));
  const delivery = t.tasks.find(([start, d]) => start <= t.event && t.event <= start + d);
  return {
    way,
    files,
    listedMs: t.listed - t.act,
    readyMs: t.ready - t.act,
    longestTaskMs: longest(t.act, t.ready),
    listingTaskMs: longest(t.act, t.listed),
    checkTaskMs: longest(t.listed, t.ready),
    listingCpuMs: mostCpu(t.act, t.listed),
    checkCpuMs: mostCpu(t.listed, t.ready),
    deliveryTaskMs: delivery?.[1] ?? 0,
  };
}

/**
 * Builds the app as the e2e tests do (production, with the test handle), serves it, and lists a
 * generated folder of `files` images each way on a fresh page.
 */
export async function listingRow(files = 20_000): Promise<ListingRow[]> {
  const { root, dir } = makeFolder(files);
  const outDir = join(root, 'dist');
  await build({ root: process.cwd(), mode: 'e2e', logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server = await preview({
    root: process.cwd(),
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
    logLevel: 'error',
  });
  const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
  const rows: ListingRow[] = [];
  try {
    for (const way of ['folder input', 'drop'] as const) {
      const page = await (await browser.newContext()).newPage();
      await page.addInitScript(observe);
      await page.goto(server.resolvedUrls?.local[0] ?? '', { timeout: 120_000 });
      await engineReady(page);
      await settled(page);
      await watchStore(page);
      rows.push(await measure(page, way, dir, files));
      await page.context().close();
    }
    return rows;
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    rmSync(root, { recursive: true, force: true });
  }
}

export function listingTable(rows: readonly ListingRow[]): string[] {
  const s = (t: number) => `${(t / 1000).toFixed(2)} s`;
  const ms = (t: number) => `${Math.round(t)} ms`;
  return [
    '| folder | files | classes listed | ready (opened, checked) | longest task: listing | after listing | in all | delivery task | most CPU in a task: listing | after listing |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.way} | ${r.files} | ${s(r.listedMs)} | ${s(r.readyMs)} | ${ms(r.listingTaskMs)} | ${ms(r.checkTaskMs)} | ${ms(r.longestTaskMs)} | ${ms(r.deliveryTaskMs)} | ${ms(r.listingCpuMs)} | ${ms(r.checkCpuMs)} |`,
    ),
    '',
    "Times from the user's action (files set on the folder input, or the folder dropped). The delivery",
    'task delivered the change or drop event: for the folder input it is the browser building the whole',
    'file list before any page code runs, which no page can spread; a drop is listed by name and its',
    'files are opened a few at a time. CPU: the main-thread CPU time of those tasks (Chrome trace); the',
    "rest of a task's length was spent waiting for a core.",
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

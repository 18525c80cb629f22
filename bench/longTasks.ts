// Bench row: how long the page's main thread blocks while the lab works (issue 13 item 5, issue 12
// item 4). The production build (with the e2e test handle) in headless Chromium: a Tiny 32 px run of
// 1+1 epochs on the built-in sample, then a generated folder of 1,000 images chosen through the folder
// input. Every task the browser reports to PerformanceObserver('longtask') is kept with the phase it
// started in. While the run trains a Chrome trace ('toplevel') gives each of those tasks its main-thread
// CPU time: on a 2-core machine whose software GPU (SwiftShader, its main thread at raised priority)
// takes both cores, a task's length is mostly waiting for a core, and its CPU time is the page's own
// work. Run alone with `npx tsx bench/longTasks.ts [files] [backend: webgpu (default), auto, …]`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { build, preview } from 'vite';
import { findChromium } from '../e2e/chromium';
import { drawShapeImage, encodePng, SHAPE_KINDS } from '../scripts/shapes';

/** Long tasks of one phase of the visit. */
export interface LongTaskPhase {
  phase: string;
  /** How long the phase lasted, ms. */ ms: number;
  /** Tasks over 50 ms (the browser reports no shorter ones). */ over50: number;
  over100: number;
  longestMs: number;
  /** The most main-thread CPU time of those tasks, ms; null where the phase was not traced. */
  longestCpuMs: number | null;
  /** Tasks with over 50 ms of CPU time; null where the phase was not traced. */
  over50Cpu: number | null;
}

export interface LongTaskRow {
  backend: string;
  inWorker: boolean;
  phases: LongTaskPhase[];
}

/** A page-side recorder: every long task and the stamps the bench sets by name. */
function observe(): void {
  const w = window as unknown as { __longTasks: [number, number][]; __marks: Record<string, number> };
  w.__longTasks = [];
  w.__marks = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  // The chosen folder's change event: its task includes the browser building the file list.
  document.addEventListener('change', () => (w.__marks.change = performance.now()), true);
}

/** root/<class>/img_NNNN.png, `files` in all over three classes. */
function makeFolder(files: number): string {
  const root = mkdtempSync(join(tmpdir(), 'vram-lab-longtasks-'));
  const pngs = SHAPE_KINDS.map((k, i) => encodePng(drawShapeImage(k, 32, 200 + i)));
  for (const k of SHAPE_KINDS) mkdirSync(join(root, 'set', k), { recursive: true });
  for (let i = 0; i < files; i++) {
    const k = i % SHAPE_KINDS.length;
    writeFileSync(join(root, 'set', SHAPE_KINDS[k]!, `img_${String(i).padStart(4, '0')}.png`), pngs[k]!);
  }
  return root;
}

type Lab = { store: { getState(): { engine: { backend: { name: string; inWorker: boolean } | null } } } };

/** Polls a condition on the store in the page, e.g. `s.run.status === 'completed'`. */
async function until(page: Page, body: string, timeout = 600_000): Promise<void> {
  // An expression, not a function: the condition is written by this file.
  await page.waitForFunction(`(() => { const s = window.__lab.store.getState(); return ${body}; })()`, null, {
    timeout,
    polling: 100,
  });
}

/** Stamps `name` now, in the page's clock, and as a user-timing mark the trace sees. */
async function mark(page: Page, name: string): Promise<void> {
  await page.evaluate((n) => {
    (window as unknown as { __marks: Record<string, number> }).__marks[n] = performance.mark(n).startTime;
  }, name);
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * Main-thread tasks of the traced page, in its clock: [start ms, CPU ms, wall ms]. The page's main
 * thread is the one its user-timing mark `name` was recorded on, and `at` (the mark's time in the page)
 * gives the offset between the two clocks.
 */
export function tracedTasks(
  events: readonly TraceEvent[],
  name: string,
  at: number | undefined,
): [number, number, number][] {
  const stamp = events.find((e) => (e.ph === 'I' || e.ph === 'R') && e.name === name && at !== undefined);
  if (!stamp || at === undefined) return [];
  const offsetMs = stamp.ts / 1000 - at;
  return events
    .filter(
      (e) =>
        e.name === 'ThreadControllerImpl::RunTask' &&
        e.ph === 'X' &&
        e.pid === stamp.pid &&
        e.tid === stamp.tid,
    )
    .map((e) => [e.ts / 1000 - offsetMs, (e.tdur ?? 0) / 1000, (e.dur ?? 0) / 1000]);
}

/**
 * A long task's CPU time: that of the traced task starting within 1 ms of it whose length is nearest
 * its own (a short task may start in the same millisecond); its whole length where none does.
 */
export function cpuOf(
  traced: readonly [number, number, number][],
  [start, d]: readonly [number, number],
): number {
  let best: [number, number, number] | undefined;
  for (const t of traced)
    if (Math.abs(t[0] - start) < 1 && (!best || Math.abs(t[2] - d) < Math.abs(best[2] - d))) best = t;
  return best?.[1] ?? d;
}

/** Parses a Chrome trace as Browser.stopTracing returns it. */
export const traceEvents = (trace: Buffer) =>
  (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;

/** Starts a Chrome trace of the page's main-thread tasks and user-timing marks. */
export async function startTrace(page: Page): Promise<void> {
  await page
    .context()
    .browser()!
    .startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
}

/** Tiny 32 px, 1+1 epochs on the built-in sample, as the e2e journeys train; stamps the first step. */
async function trainSample(page: Page): Promise<Buffer> {
  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await until(page, "s.dataset.status === 'ready'");
  await page.getByTestId('model-select').selectOption('tiny');
  for (const [id, v] of [
    ['height', '32'],
    ['width', '32'],
    ['batch-size', '16'],
    ['frozen-epochs', '1'],
    ['fine-tune-epochs', '1'],
  ] as const)
    await page.getByTestId(id).fill(v);
  await startTrace(page);
  await mark(page, 'train');
  await page.getByTestId('train').click();
  await until(page, 's.run.batches.length > 0');
  await mark(page, 'firstStep');
  await until(page, "['completed', 'stopped', 'oom', 'failed'].includes(s.run.status)");
  await mark(page, 'trained');
  return page.context().browser()!.stopTracing();
}

async function dropFolder(page: Page, dir: string): Promise<void> {
  await mark(page, 'folder');
  await page.getByTestId('folder-input').setInputFiles(dir);
  await until(page, "s.dataset.status === 'ready' && s.dataset.name !== 'Built-in sample'");
  await until(page, "s.preview.status !== 'loading'");
  await mark(page, 'listed');
}

async function phases(page: Page, trace: Buffer): Promise<LongTaskPhase[]> {
  const { tasks, marks } = await page.evaluate(() => {
    const w = window as unknown as { __longTasks: [number, number][]; __marks: Record<string, number> };
    return { tasks: w.__longTasks, marks: w.__marks };
  });
  const m = marks as Record<'train' | 'firstStep' | 'trained' | 'folder' | 'change' | 'listed', number>;
  const changeTask = tasks.find(([start, d]) => start <= m.change && m.change <= start + d);
  const traced = tracedTasks(traceEvents(trace), 'train', m.train);
  const phase = (name: string, from: number, to: number, without?: [number, number]): LongTaskPhase => {
    const inside = tasks.filter((t) => t !== without && t[0] >= from && t[0] < to);
    const cpu = from >= m.train && to <= m.trained ? inside.map((t) => cpuOf(traced, t)) : null;
    return {
      phase: name,
      ms: to - from,
      over50: inside.length,
      over100: inside.filter(([, d]) => d > 100).length,
      longestMs: Math.max(0, ...inside.map(([, d]) => d)),
      longestCpuMs: cpu && Math.max(0, ...cpu),
      over50Cpu: cpu && cpu.filter((c) => c > 50).length,
    };
  };
  return [
    phase('training: Train → first step (includes the first compile)', m.train, m.firstStep),
    phase('training: first step → run ended', m.firstStep, m.trained),
    phase('folder chosen → listed, checked, preview shown', m.folder, m.listed),
    phase('the same, without the change-event task', m.folder, m.listed, changeTask),
    {
      phase: 'the change-event task alone (the browser lists the chosen folder)',
      ms: changeTask?.[1] ?? 0,
      over50: changeTask ? 1 : 0,
      over100: (changeTask?.[1] ?? 0) > 100 ? 1 : 0,
      longestMs: changeTask?.[1] ?? 0,
      longestCpuMs: null,
      over50Cpu: null,
    },
  ];
}

/**
 * Saved settings choosing `backend`, as if the user had picked it. The row measures the page while the
 * engine trains in its worker, as the e2e journeys do (playwright.config starts them on webgpu): on a
 * software WebGPU adapter auto picks WebGL, which on this machine starts on the page thread.
 */
function backendChosen(origin: string, backend: string) {
  const value = JSON.stringify({ state: { backendRequest: backend }, version: 2 });
  return { cookies: [], origins: [{ origin, localStorage: [{ name: 'vram-lab-settings', value }] }] };
}

/** Builds the app into a temporary folder, serves it, and measures one visit. */
export async function longTaskRow(files = 1000, backend = 'webgpu'): Promise<LongTaskRow> {
  const outDir = mkdtempSync(join(tmpdir(), 'vram-lab-longtasks-build-'));
  const folder = makeFolder(files);
  await build({ mode: 'e2e', logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server = await preview({ preview: { port: 0, host: '127.0.0.1' }, build: { outDir } });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-background-networking'],
  });
  try {
    const url = server.resolvedUrls?.local[0] ?? '';
    // bypassCSP: the polled conditions are expressions, which the page's policy (no eval) would refuse.
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      bypassCSP: true,
      storageState: backendChosen(new URL(url).origin, backend),
    });
    const page = await context.newPage();
    await page.addInitScript(observe);
    await page.goto(url, { timeout: 120_000 });
    await until(page, "s.engine.status === 'ready'", 120_000);
    const engine = await page.evaluate(
      () => (window as unknown as { __lab: Lab }).__lab.store.getState().engine.backend,
    );
    const trace = await trainSample(page);
    await dropFolder(page, join(folder, 'set'));
    return {
      backend: engine?.name ?? '?',
      inWorker: engine?.inWorker ?? false,
      phases: await phases(page, trace),
    };
  } finally {
    await browser.close();
    server.httpServer.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}

export function longTaskTable(r: LongTaskRow): string[] {
  const ms = (t: number) => `${Math.round(t)} ms`;
  return [
    `Engine on ${r.backend}, ${r.inWorker ? 'in a Web Worker' : 'on the page thread'}; production build.`,
    '',
    "CPU: the main-thread CPU time of those tasks (Chrome trace), the page's own work; the rest of a",
    "task's length was spent waiting for a core. Not traced: –.",
    '',
    '| phase | lasted | tasks > 50 ms | tasks > 100 ms | longest task | most CPU in a task | tasks with > 50 ms CPU |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.phases.map(
      (p) =>
        `| ${p.phase} | ${(p.ms / 1000).toFixed(1)} s | ${p.over50} | ${p.over100} | ${ms(p.longestMs)} | ` +
        `${p.longestCpuMs === null ? '–' : ms(p.longestCpuMs)} | ${p.over50Cpu ?? '–'} |`,
    ),
  ];
}

if (process.argv[1]?.endsWith('longTasks.ts')) {
  longTaskRow(Number(process.argv[2] ?? 1000), process.argv[3]).then(
    (r) => {
      console.log(longTaskTable(r).join('\n'));
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

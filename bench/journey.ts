// Bench row (issue 16 item 1): the newcomer's default journey in headless Chromium, as a user does it:
// open the lab, "Use built-in sample", Train with the default settings, until the fine-tune phase ends.
// WebGPU runs on SwiftShader where there is no GPU. Run alone with
// `npx tsx bench/journey.ts [limit s] [settings link query]`.
import { chromium, type Page } from '@playwright/test';
import { createServer } from 'vite';
import { findChromium } from '../e2e/chromium';
import { engineReady } from './engineReady';

export interface JourneyRow {
  backend: string;
  adapter: string;
  /** Settings the run used, as its link words (model, size, batch, epochs). */ settings: string;
  /** "Use built-in sample" clicked → Train enabled (listed and checked), s. */ sampleS: number;
  /** Train clicked → first step's batch event (model built, weights loaded, first programs compiled), s. */ firstStepS: number;
  /** Train clicked → run ended, s; the limit when it did not end in time. */ trainS: number;
  /** Phase → seconds from its start to the next phase (or the end), and of those its validation passes. */
  phases: { phase: string; s: number; validationS: number }[];
  /** Median step time per phase, ms. */ stepMs: { phase: string; ms: number }[];
  /** Validation accuracy after each epoch. */ valAccuracy: number[];
  classes: number;
  status: string;
  /** Steps done and planned, for a projection when the limit stopped the row. */ steps: number;
  plannedSteps: number;
  /** Where the run's time went, s (see breakdown()). */ parts: JourneyParts;
}

/** Where Train → end went, from the run's own clock (ms since the engine started the run). */
export interface JourneyParts {
  /** Engine start → first phase event: model built, weights loaded. */ prepareS: number;
  /** Per epoch: its steps (the first apart: it compiles each new shape), validation, and the gap after it. */
  epochs: { phase: string; firstStepS: number; stepsS: number; validationS: number; afterS: number }[];
}

interface RunView {
  status: string;
  backend: string | null;
  batches: { phase: string; t: number; stepMs: number; batchesPerEpoch: number }[];
  epochs: { phase: string; step: number; valAccuracy: number; validationMs: number }[];
  phases: { phase: string; t: number; batchesPerEpoch: number; epochs: number }[];
}

async function view(page: Page) {
  return page.evaluate(() => {
    const s = (
      window as unknown as {
        __lab: {
          store: {
            getState(): {
              run: unknown;
              engine: {
                backend: {
                  adapter?: { vendor: string; architecture: string };
                  renderer?: string;
                  inWorker: boolean;
                } | null;
              };
              dataset: { status: string; scan: { classes: unknown[] } | null };
              config: Record<string, unknown>;
            };
          };
        };
      }
    ).__lab.store.getState();
    return JSON.parse(
      JSON.stringify({
        run: s.run,
        adapter: s.engine.backend?.adapter ?? null,
        renderer: s.engine.backend?.renderer ?? null,
        inWorker: s.engine.backend?.inWorker ?? false,
        dataset: s.dataset,
        config: s.config,
      }),
    ) as {
      run: RunView;
      adapter: { vendor: string; architecture: string } | null;
      renderer: string | null;
      inWorker: boolean;
      dataset: { status: string; scan: { classes: unknown[] } | null };
      config: Record<string, unknown>;
    };
  });
}

/**
 * The run's clock split up: each epoch's steps, its validation pass, and what ran between it and the
 * next step (the end-of-epoch save snapshot, the phase's diagnostics and recompile, the next data set).
 */
function breakdown(run: RunView): JourneyParts {
  const epochs = run.epochs.map((e, i) => {
    const from = run.epochs[i - 1]?.step ?? 0;
    const steps = run.batches.slice(from, e.step);
    const end = (steps[steps.length - 1]?.t ?? 0) + e.validationMs;
    const next = run.batches[e.step];
    return {
      phase: e.phase,
      firstStepS: (steps[0]?.stepMs ?? 0) / 1000,
      stepsS: steps.reduce((n, b) => n + b.stepMs, 0) / 1000,
      validationS: e.validationMs / 1000,
      afterS: next ? (next.t - next.stepMs - end) / 1000 : 0,
    };
  });
  return { prepareS: (run.phases[0]?.t ?? 0) / 1000, epochs };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

/** What the run's store says once it ended (or the limit passed). */
function summarise(
  run: RunView,
  trainS: number,
): Omit<JourneyRow, 'adapter' | 'settings' | 'sampleS' | 'classes'> {
  // The last phase ends with its last step plus the validation pass after it (epochs carry no time).
  const lastT = run.batches.length
    ? run.batches[run.batches.length - 1]!.t + (run.epochs[run.epochs.length - 1]?.validationMs ?? 0)
    : 0;
  const phases = run.phases.map((p, i) => ({
    phase: p.phase,
    s: ((run.phases[i + 1]?.t ?? lastT) - p.t) / 1000,
    validationS: run.epochs.filter((e) => e.phase === p.phase).reduce((n, e) => n + e.validationMs, 0) / 1000,
  }));
  const names = [...new Set(run.batches.map((b) => b.phase))];
  return {
    backend: run.backend ?? '?',
    firstStepS: run.batches.length ? (run.batches[0]!.t - (run.phases[0]?.t ?? 0)) / 1000 : Number.NaN,
    trainS,
    phases,
    stepMs: names.map((phase) => ({
      phase,
      ms: median(run.batches.filter((b) => b.phase === phase).map((b) => b.stepMs)),
    })),
    valAccuracy: run.epochs.map((e) => e.valAccuracy),
    status: run.status,
    steps: run.batches.length,
    plannedSteps: run.phases.reduce((n, p) => n + p.batchesPerEpoch * p.epochs, 0),
    parts: breakdown(run),
  };
}

async function journey(page: Page, limitMs: number): Promise<JourneyRow> {
  await engineReady(page);
  const t0 = Date.now();
  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await page.waitForFunction(
    () =>
      (
        window as unknown as { __lab: { store: { getState(): { dataset: { status: string } } } } }
      ).__lab.store.getState().dataset.status === 'ready',
    null,
    { timeout: 120_000, polling: 250 },
  );
  const sampleS = (Date.now() - t0) / 1000;
  const t1 = Date.now();
  await page.getByTestId('train').click();
  let v = await view(page);
  while (Date.now() - t1 < limitMs) {
    v = await view(page);
    if (/^(completed|stopped|oom|failed)$/.test(v.run.status)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const trainS = (Date.now() - t1) / 1000;
  const c = v.config;
  return {
    ...summarise(v.run, trainS),
    adapter: `${v.adapter ? `${v.adapter.vendor} / ${v.adapter.architecture}` : (v.renderer ?? '—')}${v.inWorker ? ', in a Web Worker' : ', on the page thread'}`,
    settings: `${String(c['model'])} ${String(c['height'])}×${String(c['width'])}, batch ${String(c['batchSize'])}, ${String(c['frozenEpochs'])}+${String(c['fineTuneEpochs'])} epochs`,
    sampleS,
    classes: v.dataset.scan?.classes.length ?? 0,
  };
}

/**
 * Serves the app (random port, dev build with the store handle), runs the journey, and times it.
 * `query` is a settings link (core/settings/url) for measuring a candidate default; none for the defaults.
 */
export async function journeyRow(limitS = 900, query = ''): Promise<JourneyRow> {
  const server = await createServer({
    root: process.cwd(),
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
    logLevel: 'error',
  });
  await server.listen();
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    page.on('pageerror', (err) => console.error(`[journey page] ${err.message}`));
    await page.goto(`${server.resolvedUrls?.local[0] ?? ''}${query ? `?${query}` : ''}`, {
      timeout: 120_000,
    });
    return await journey(page, limitS * 1000);
  } finally {
    await browser.close();
    await server.close();
  }
}

export function journeyTable(r: JourneyRow): string[] {
  const ended = /^(completed|stopped|oom|failed)$/.test(r.status);
  const projected = ended ? r.trainS : (r.trainS * r.plannedSteps) / Math.max(1, r.steps);
  const total = r.sampleS + projected;
  const last = r.valAccuracy[r.valAccuracy.length - 1];
  const chance = r.classes ? 1 / r.classes : Number.NaN;
  const pass = ended && total <= 180 && last !== undefined && last > chance + 0.2;
  return [
    `${r.backend} on ${r.adapter}, default settings: ${r.settings}; run ${r.status} (${r.steps} of ${r.plannedSteps} steps)`,
    `  sample ready ${r.sampleS.toFixed(1)} s · Train → first step ${r.firstStepS.toFixed(1)} s · Train → end ${r.trainS.toFixed(0)} s${ended ? '' : ` (limit; projected ${projected.toFixed(0)} s)`}`,
    `  phases: ${r.phases.map((p) => `${p.phase} ${p.s.toFixed(0)} s (validation ${p.validationS.toFixed(0)} s)`).join(', ')} · median step: ${r.stepMs.map((s) => `${s.phase} ${s.ms.toFixed(0)} ms`).join(', ')}`,
    `  run clock: model ready ${r.parts.prepareS.toFixed(1)} s · ${r.parts.epochs.map((e, i) => `epoch ${i + 1} (${e.phase}): steps ${e.stepsS.toFixed(1)} s (first ${e.firstStepS.toFixed(1)} s), validation ${e.validationS.toFixed(1)} s, then ${e.afterS.toFixed(1)} s`).join(' · ')}`,
    `  validation accuracy per epoch: ${r.valAccuracy.map((a) => a.toFixed(3)).join(', ') || '—'} (chance ${chance.toFixed(3)})`,
    `  journey ${total.toFixed(0)} s (target ≤ 180 s, accuracy clearly above chance) ${pass ? 'PASS' : 'FAIL'}`,
  ];
}

if (process.argv[1]?.endsWith('journey.ts')) {
  journeyRow(Number(process.argv[2] ?? 900), process.argv[3] ?? '').then(
    (r) => console.log(journeyTable(r).join('\n')),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}

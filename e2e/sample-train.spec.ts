// The built-in sample journey: one Tiny run of a frozen and a fine-tune epoch on WebGPU, with the
// fine-tune set chosen block by block in the layer explorer. Every check of the run shares it (one
// page, serial): live memory and the planner, the layer choice trained exactly, the diagnostics and
// exports, the visit's network and policy record, and last clear_session (which releases the model).
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Download, type Page } from '@playwright/test';
import * as tf from '@tensorflow/tfjs';
import { unzipSync } from 'fflate';
// The lab's two own layer classes (Keras' Normalization, and BatchNormalization that stays in inference
// mode when frozen): whoever reloads the model in tfjs registers them, as these imports do.
import '../src/ml/models/layers';
import '../src/ml/models/normalization';
import {
  goTo,
  openLab,
  seriousViolations,
  snapshot,
  useTinySettings,
  waitForRunEnd,
  type LabSnapshot,
} from './lab';

test.describe.configure({ mode: 'serial' });

let page: Page;
let s: LabSnapshot;
/** Trainable parameters the explorer showed for the chosen blocks, before the run. */
let chosenParams = 0;
const offOrigin: string[] = [];
const policyViolations: string[] = [];

/** Records what a CSP would report: console lines from the page and the training worker. */
function watchPolicy(p: Page, origin: string): void {
  // The context sees the page's and the worker's requests alike; data: and blob: stay local.
  p.context().on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin)
      offOrigin.push(request.url());
  });
  const refused = /Content Security Policy|Refused to/i;
  p.on('console', (m) => {
    if (refused.test(m.text())) policyViolations.push(m.text());
  });
  p.on('worker', (w) =>
    w.on('console', (m) => {
      if (refused.test(m.text())) policyViolations.push(`worker: ${m.text()}`);
    }),
  );
}

test.beforeAll(async ({ browser, baseURL }) => {
  test.setTimeout(10 * 60_000);
  // axe needs a page of an explicit context (browser.newPage's own context is refused).
  page = await (await browser.newContext()).newPage();
  watchPolicy(page, new URL(baseURL!).origin);
  // A blocked eval that the code catches (a library probing for eval) logs nothing, but still fires
  // securitypolicyviolation: collect those too.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  await openLab(page);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await expect(page.getByTestId('backend-badge')).toContainText('swiftshader');
  await expect(page.getByTestId('backend-badge')).toContainText('maxBufferSize');

  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await expect(page.getByTestId('class-table')).toContainText('circles');
  await expect(page.getByTestId('class-table')).toContainText('24');
  await expect(page.getByTestId('preview-grid').locator('canvas')).toHaveCount(8);
  await expect(page.getByTestId('weights-nsfwjs')).toBeChecked();

  await useTinySettings(page, {
    size: 32,
    batchSize: 16,
    frozenEpochs: 1,
    fineTuneEpochs: 1,
    unfreezeLastN: 0,
  });
  await goTo(page, 'model');
  // The packaged weights are a MobileNetV2: choosing another architecture says it starts from random weights.
  await expect(page.getByTestId('weights-note')).toContainText('random initialisation');
  await chooseEveryBlock(page);

  await page.getByTestId('train').click();
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect(page.getByRole('progressbar', { name: 'Training' })).toBeVisible();
  // A participant looks round the views while it trains: the run goes on, and the timeline keeps
  // sampling in every view (its rate is checked below).
  for (const view of ['data', 'memory', 'results', 'experiments', 'workshop', 'model'] as const) {
    await goTo(page, view);
    await expect(page.getByTestId('run-status')).toHaveText(/running|completed/);
  }
  expect(await waitForRunEnd(page)).toBe('completed');
  s = await snapshot(page);
  // The checks look at the run where a participant watches it.
  await goTo(page, 'train');
});

test.afterAll(async () => {
  await page.context().close();
});

/** Head only, then every block ticked one at a time; each tick adds parameters the explorer counts. */
async function chooseEveryBlock(p: Page): Promise<void> {
  const explorer = p.getByTestId('layer-explorer');
  await expect(explorer).toContainText('Output shapes are for an input of 32 × 32');
  const count = async () =>
    Number(await p.getByTestId('explorer-trainable-params').getAttribute('data-count'));
  await explorer.getByRole('button', { name: 'Head only' }).click();
  let before = await count();
  expect(before).toBeGreaterThan(0);
  const boxes = explorer.getByRole('checkbox', { name: /^train block / });
  const n = await boxes.count();
  expect(n).toBeGreaterThan(3);
  const headOnly = before;
  // A block of weightless layers (or the head, already trainable) adds nothing; none takes any away.
  for (let i = 0; i < n; i++) {
    await boxes.nth(i).check();
    const after = await count();
    expect(after).toBeGreaterThanOrEqual(before);
    before = after;
  }
  expect(before).toBeGreaterThan(2 * headOnly);
  // Opening a block lists its layers with shapes at the current resolution, each toggled on its own.
  await explorer.getByTestId('block-top').getByRole('button').first().click();
  const topConv = explorer.getByRole('checkbox', { name: 'train top_conv' });
  await topConv.uncheck();
  expect(await count()).toBeLessThan(before);
  await topConv.check();
  expect(await count()).toBe(before);
  await expect(p.getByTestId('explorer-choice')).toContainText('chosen layers');
  chosenParams = before;
}

test('built-in sample: frozen epoch then fine-tune epoch on WebGPU, with live memory and the planner beside it', async () => {
  expect(await seriousViolations(page), 'axe after a run, charts drawn').toEqual([]);
  // The run's headline: its validation accuracy and measured peak, on screen at the top of the view.
  const headline = page.getByTestId('run-headline');
  await expect(page.getByTestId('run-headline-accuracy')).toContainText(
    `${(100 * s.run.epochs.at(-1)!.valAccuracy).toFixed(1)}%`,
  );
  // Both are measurements of this run, on the backend it ran on.
  await expect(headline).toContainText(/^Last run measured · webgpu: val accuracy/);
  const peaks = s.run.phases.map((p) => p.phase).join('|');
  await expect(page.getByTestId('run-headline-peak')).toContainText(new RegExp(`peak (${peaks}) \\d`));
  await expect(headline).toBeInViewport({ ratio: 1 });
  expect(s.run.backend).toBe('webgpu');
  expect(s.run.phases.map((p) => p.phase)).toEqual(['frozen', 'fine-tune']);
  expect(s.run.phases[1]!.trainableParams).toBeGreaterThan(s.run.phases[0]!.trainableParams);
  expect(s.run.epochs.map((e) => e.phase)).toEqual(['frozen', 'fine-tune']);
  expect(s.run.batches.every((b) => Number.isFinite(b.loss))).toBe(true);

  await expect(page.getByTestId('loss-chart')).not.toHaveAttribute('data-points', '0');
  await expect(page.getByTestId('accuracy-chart').locator('.chart-line')).toHaveCount(3);
  await expect(page.getByTestId('loss-chart').locator('.chart-line-curve').first()).toBeVisible();
  await expect(page.getByTestId('memory-timeline').locator('.chart-line-curve').first()).toBeVisible();
  await expect(page.getByTestId('memory-numbers')).toContainText('measured · webgpu');

  // Sampled at least 4 times a second while training ran.
  const samples = s.memory.samples;
  const start = s.run.phases[0]!.t;
  const end = samples[samples.length - 1]!.t;
  const during = samples.filter((x) => x.t >= start);
  expect(during.length / ((end - start) / 1000)).toBeGreaterThanOrEqual(4);
  for (const label of ['frozen phase', 'fine-tune phase', 'epoch 1']) {
    expect(s.memory.markers.map((m) => m.label)).toContain(label);
  }

  // Unfreezing the backbone keeps its activations, gradients and Adam slots: the line rises.
  const bytes = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-bytes'));
  const frozenPeak = await bytes('peak-frozen');
  const finePeak = await bytes('peak-fine-tune');
  expect(frozenPeak).toBeGreaterThan(0);
  expect(finePeak).toBeGreaterThan(frozenPeak * 1.2);
  // The per-step peak read at every kernel tells the same story, and no timeline point exceeds it.
  const frozenStep = await bytes('step-peak-frozen');
  const fineStep = await bytes('step-peak-fine-tune');
  expect(fineStep).toBeGreaterThan(frozenStep * 1.2);
  expect(finePeak).toBeLessThanOrEqual(fineStep);
  // Where it went: the tape keeps the backbone's activations, and every weight gets a gradient and two Adam slots.
  expect(await bytes('breakdown-savedActivations-fine-tune')).toBeGreaterThan(
    4 * (await bytes('breakdown-savedActivations-frozen')),
  );
  expect(await bytes('breakdown-optimizer-fine-tune')).toBeGreaterThan(
    await bytes('breakdown-optimizer-frozen'),
  );
  expect(await bytes('breakdown-gradients-fine-tune')).toBeGreaterThan(
    await bytes('breakdown-gradients-frozen'),
  );

  // The planner predicted both phases before the run; now each shows the measured step peak and the error.
  for (const phase of ['frozen', 'fine-tune']) {
    await expect(page.getByTestId(`planner-${phase}-predicted`)).toContainText(/\d B|[KMG]B/);
    const error = await page.getByTestId(`planner-${phase}-error`).textContent();
    expect(Math.abs(Number.parseFloat(error ?? 'NaN'))).toBeLessThan(25);
  }
});

test('layer explorer: fine-tuning trains exactly the blocks chosen', () => {
  expect(s.config.fineTune.kind).toBe('layers');
  expect(s.run.phases.find((p) => p.phase === 'fine-tune')?.trainableParams).toBe(chosenParams);
});

/** The diagnostics as the store holds them (thumbnails left out). */
interface Results {
  validationCount: number;
  lastValAccuracy: number;
  reports: { phase: string; counts: number[][]; total: number; correct: number; misclassified: unknown[] }[];
}

async function results(p: Page): Promise<Results> {
  return p.evaluate(() => {
    type Run = {
      plan: { validationCount: number };
      epochs: { valAccuracy: number }[];
      diagnostics: {
        phase: string;
        counts: number[][];
        total: number;
        correct: number;
        misclassified: unknown[];
      }[];
    };
    const { run } = (
      window as unknown as { __lab: { store: { getState(): { run: Run } } } }
    ).__lab.store.getState();
    return {
      validationCount: run.plan.validationCount,
      lastValAccuracy: run.epochs[run.epochs.length - 1]!.valAccuracy,
      reports: run.diagnostics.map((d) => ({ ...d, misclassified: d.misclassified.map(() => null) })),
    };
  });
}

test('diagnostics: each phase scores every validation image, and a matrix cell filters the gallery', async () => {
  await goTo(page, 'results');
  await expect.poll(async () => (await results(page)).reports.length).toBe(2);
  const r = await results(page);
  expect(r.reports.map((d) => d.phase)).toEqual(['frozen', 'fine-tune']);
  for (const d of r.reports) {
    expect(d.total).toBe(r.validationCount);
    expect(d.counts.flat().reduce((a, b) => a + b, 0)).toBe(r.validationCount);
    expect(d.total - d.correct).toBe(d.misclassified.length);
  }
  const last = r.reports[1]!;
  expect(last.correct / last.total).toBeCloseTo(r.lastValAccuracy, 5);

  const matrix = page.getByTestId('confusion-matrix');
  const shown = await matrix
    .locator('button[data-count]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  expect(shown).toEqual(last.counts.flat());
  const offDiagonal = last.counts
    .flatMap((row, t) => row.map((c, p) => ({ t, p, c })))
    .find((x) => x.t !== x.p && x.c > 0);
  if (offDiagonal) {
    const cell = page.getByTestId(`cell-${offDiagonal.t}-${offDiagonal.p}`);
    await cell.focus();
    await page.keyboard.press('Enter');
    await expect(cell).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('misclassified')).toHaveAttribute('data-count', String(offDiagonal.c));
  }
  expect(await seriousViolations(page), 'axe with the results panel').toEqual([]);
});

const resultsPanel = (p: Page) => p.getByRole('region', { name: 'Results and exports' });

/** Clicks a download button and returns the saved file's path (under its suggested name) and bytes. */
async function download(p: Page, name: string | RegExp) {
  const dir = join(tmpdir(), `vram-lab-results-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  await goTo(p, 'results');
  const waiting = p.waitForEvent('download');
  await resultsPanel(p).getByRole('button', { name }).click();
  const file = await waiting;
  const path = join(dir, file.suggestedFilename());
  await file.saveAs(path);
  return { path, name: file.suggestedFilename(), bytes: readFileSync(path) };
}

test('the tfjs zip reloads with tf.loadLayersModel and predicts what the lab predicted', async () => {
  const zip = await download(page, 'Model: tfjs Layers (.zip)');
  const files = unzipSync(new Uint8Array(zip.bytes));
  const modelJson = JSON.parse(new TextDecoder().decode(files['model.json'])) as tf.io.ModelJSON;
  const check = JSON.parse(new TextDecoder().decode(files['check.json'])) as {
    input: { shape: number[]; fill: number };
    output: number[];
  };
  await tf.setBackend('cpu');
  const model = await tf.loadLayersModel(
    tf.io.fromMemory({
      modelTopology: modelJson.modelTopology,
      weightSpecs: modelJson.weightsManifest[0]!.weights,
      weightData: files['weights.bin']!.slice().buffer,
    }),
  );
  expect(check.input.shape).toEqual([1, 32, 32, 3]);
  const input = tf.fill(check.input.shape, check.input.fill);
  const predicted = Array.from(await (model.predict(input) as tf.Tensor).data());
  expect(predicted).toHaveLength(3);
  predicted.forEach((p, i) => expect(p).toBeCloseTo(check.output[i]!, 3));
  tf.dispose(input);
  model.dispose();
});

test('the memory timeline CSV has one row per sample the store held', async () => {
  const before = (await snapshot(page)).memory.samples.length;
  const csv = await download(page, 'Memory timeline (CSV)');
  const after = (await snapshot(page)).memory.samples.length;
  const rows = csv.bytes.toString('utf8').trimEnd().split('\r\n');
  expect(rows[0]).toBe('t_ms,live_bytes,num_tensors,gpu_bytes,allocated_bytes');
  expect(rows.length - 1).toBeGreaterThanOrEqual(before);
  expect(rows.length - 1).toBeLessThanOrEqual(after);
});

test('every chart on the page saves as a PNG of its drawing, at twice its size', async () => {
  // The charts of every view, those not shown now (the memory column is not beside the results) too.
  await goTo(page, 'results');
  const drawn = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('figure.chart')].flatMap((f) => {
      const svg = f.querySelector<SVGSVGElement>('svg.chart-svg');
      return svg ? [{ name: `${f.dataset.testid}.png`, width: svg.width.baseVal.value }] : [];
    }),
  );
  expect(drawn.map((d) => d.name)).toEqual(
    expect.arrayContaining(['memory-timeline.png', 'planner-curve-chart.png', 'loss-chart.png']),
  );
  expect(drawn.every((d) => d.width > 100)).toBe(true);
  const saved: { name: string; bytes: Buffer }[] = [];
  const onDownload = (d: Download) =>
    void d.path().then((path) => saved.push({ name: d.suggestedFilename(), bytes: readFileSync(path) }));
  page.on('download', onDownload);
  await resultsPanel(page).getByRole('button', { name: 'Charts (PNG)' }).click();
  await expect(
    resultsPanel(page).getByRole('group', { name: 'Measurements' }).getByRole('status'),
  ).toHaveText(`Saved ${drawn.length} charts.`);
  await expect.poll(() => saved.length).toBe(drawn.length);
  page.off('download', onDownload);
  for (const { name, width } of drawn) {
    const png = saved.find((f) => f.name === name)?.bytes;
    expect(png, name).toBeDefined();
    expect(png!.subarray(1, 4).toString('latin1'), name).toBe('PNG');
    // IHDR: the width in pixels, twice the drawing's CSS width.
    expect(png!.readUInt32BE(16), name).toBe(Math.max(1, Math.round(width * 2)));
    // Lines, ticks and labels: far more than a blank canvas of that size compresses to.
    expect(png!.length, name).toBeGreaterThan(5000);
  }
});

test('the Keras script names the architecture, size, batch, the chosen layers and the remedies', async () => {
  await goTo(page, 'results');
  await resultsPanel(page)
    .getByLabel(/mixed_float16/)
    .check();
  await resultsPanel(page)
    .getByLabel(/memory growth/)
    .check();
  const script = (await download(page, 'Keras script (.py)')).bytes.toString('utf8');
  expect(script).toContain('keras.applications.EfficientNetB0(');
  expect(script).toContain('EfficientNet-Tiny');
  expect(script).toContain('input_shape=(32, 32, 3)');
  expect(script).toContain('parser.add_argument("--batch", type=int, default=16');
  const chosen = s.config.fineTune.names ?? [];
  expect(script).toContain(`${chosen.length} chosen layers`);
  const start = script.indexOf('UNFROZEN = [');
  const unfrozen = (script.slice(start, script.indexOf(']', start)).match(/"[^"]+"/g) ?? []).map((n) =>
    n.slice(1, -1),
  );
  expect(unfrozen.length).toBeGreaterThan(0);
  expect(unfrozen.every((n) => chosen.includes(n))).toBe(true);
  expect(script).toContain('set_global_policy("mixed_float16")');
  expect(script).toContain('set_memory_growth(gpu, True)');
});

test('the Keras .h5 weights load back into the lab with nothing missing and nothing mismatched', async () => {
  const h5 = await download(page, 'Weights: Keras .h5');
  expect(h5.name).toMatch(/\.h5$/);
  await goTo(page, 'model');
  await page.getByTestId('weights-file').check();
  await page.getByTestId('weights-input').setInputFiles(h5.path);
  await expect(page.getByTestId('weights-loaded')).toContainText(h5.name);
  await expect(page.getByTestId('weights-missing')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('weights-mismatches')).toHaveAttribute('data-count', '0');
});

test('the visit (sample, explorer, a WebGPU run, exports) made no request off the origin and broke no policy', async () => {
  expect(offOrigin).toEqual([]);
  expect(policyViolations).toEqual([]);
  expect(
    await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
  ).toEqual([]);
});

test('one trainable set: a number in the shortcut, then All in the explorer; every consumer reads All', async () => {
  const explorer = page.getByTestId('layer-explorer');
  const count = async () =>
    Number(await page.getByTestId('explorer-trainable-params').getAttribute('data-count'));
  await goTo(page, 'train');
  await page.getByTestId('unfreeze-last-n').fill('2');
  const lastTwo = await count();
  await goTo(page, 'model');
  await explorer.getByRole('button', { name: 'All' }).click();
  await expect(page.getByTestId('explorer-rule')).toContainText('all layers');
  await expect(page.getByTestId('explorer-choice')).toContainText('all layers');
  await expect(page.getByTestId('unfreeze-last-n')).toHaveValue('');
  expect(await count()).toBeGreaterThan(lastTwo);
  expect((await snapshot(page)).config.fineTune).toEqual({ kind: 'all' });
});

test('clear_session: the model and the pool go back; the backend is re-created and still works', async () => {
  await page.getByTestId('release-all').click();
  await expect(page.getByTestId('release-result')).toContainText(
    /allocated incl\. pool \d[\d.]* [KMG]B → 0 B/,
  );
  await expect(page.getByTestId('release-result')).toContainText(/Live tensors \d[\d.]* [KMG]?B → 0 B/);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
});

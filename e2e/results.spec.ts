import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as tf from '@tensorflow/tfjs';
import { unzipSync } from 'fflate';
// The lab's two own layer classes (Keras' Normalization, and BatchNormalization that stays in inference
// mode when frozen): whoever reloads the model in tfjs registers them, as these imports do.
import '../src/ml/models/layers';
import '../src/ml/models/normalization';
import { loadSample, openLab, seriousViolations, snapshot, useTinySettings, waitForRunEnd } from './lab';

/** The diagnostics and run plan as the store holds them (thumbnails left out). */
interface Results {
  validationCount: number;
  lastValAccuracy: number;
  reports: { phase: string; counts: number[][]; total: number; correct: number; misclassified: unknown[] }[];
}

async function results(page: Page): Promise<Results> {
  return page.evaluate(() => {
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

const resultsPanel = (page: Page) => page.getByRole('region', { name: 'Results and exports' });

/** Clicks a download button and returns the saved file's path (under its suggested name) and bytes. */
async function download(page: Page, name: string | RegExp, dir: string) {
  const waiting = page.waitForEvent('download');
  await resultsPanel(page).getByRole('button', { name }).click();
  const file = await waiting;
  const path = join(dir, file.suggestedFilename());
  await file.saveAs(path);
  return { path, name: file.suggestedFilename(), bytes: readFileSync(path) };
}

test('after a Tiny run: diagnostics match validation, and the model, measurements and Keras script leave the lab', async ({
  page,
}) => {
  const dir = join(tmpdir(), `vram-lab-results-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, {
    size: 32,
    batchSize: 16,
    frozenEpochs: 1,
    fineTuneEpochs: 1,
    unfreezeLastN: 10,
  });
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');

  // One report per phase; each scores every validation image, and the last agrees with the last val_accuracy.
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

  // The matrix on the page shows the same counts, and a cell filters the gallery to its images.
  const matrix = page.getByTestId('confusion-matrix');
  const cells = matrix.locator('button[data-count]');
  const shown = await cells.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
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

  // The tfjs zip reloads with tf.loadLayersModel and predicts what the lab predicted (check.json).
  const zip = await download(page, 'Model: tfjs Layers (.zip)', dir);
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

  // The memory timeline CSV has one row per sample the store held when it was saved.
  const before = (await snapshot(page)).memory.samples.length;
  const csv = await download(page, 'Memory timeline (CSV)', dir);
  const after = (await snapshot(page)).memory.samples.length;
  const rows = csv.bytes.toString('utf8').trimEnd().split('\r\n');
  expect(rows[0]).toBe('t_ms,live_bytes,num_tensors,gpu_bytes,allocated_bytes');
  expect(rows.length - 1).toBeGreaterThanOrEqual(before);
  expect(rows.length - 1).toBeLessThanOrEqual(after);

  // The Keras script names the architecture, size, batch, unfrozen set and the remedies chosen.
  await resultsPanel(page)
    .getByLabel(/mixed_float16/)
    .check();
  await resultsPanel(page)
    .getByLabel(/memory growth/)
    .check();
  const script = (await download(page, 'Keras script (.py)', dir)).bytes.toString('utf8');
  expect(script).toContain('keras.applications.EfficientNetB0(');
  expect(script).toContain('EfficientNet-Tiny');
  expect(script).toContain('input_shape=(32, 32, 3)');
  expect(script).toContain('parser.add_argument("--batch", type=int, default=16');
  expect(script).toContain('last 10 layers');
  const unfrozen = script.slice(
    script.indexOf('UNFROZEN = ['),
    script.indexOf(']', script.indexOf('UNFROZEN = [')),
  );
  expect(unfrozen.match(/"[^"]+"/g)).toHaveLength(10);
  expect(script).toContain('set_global_policy("mixed_float16")');
  expect(script).toContain('set_memory_growth(gpu, True)');

  // The Keras .h5 weights load back into the lab with nothing missing and nothing mismatched.
  const h5 = await download(page, 'Weights: Keras .h5', dir);
  expect(h5.name).toMatch(/\.h5$/);
  await page.getByTestId('weights-file').check();
  await page.getByTestId('weights-input').setInputFiles(h5.path);
  await expect(page.getByTestId('weights-loaded')).toContainText(h5.name);
  await expect(page.getByTestId('weights-missing')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('weights-mismatches')).toHaveAttribute('data-count', '0');
  tf.dispose(input);
  model.dispose();
});

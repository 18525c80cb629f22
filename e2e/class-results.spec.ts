// The class table from three participants' exported results files (and one broken file), and a lab
// model zip loaded back as the starting weights, kept in the browser, reloaded and deleted. Nothing
// trains: the results files carry the planner's numbers and the committed guess.
import { readFileSync, writeFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { expect, test, type Page } from '@playwright/test';
import { zipModel } from '../src/browser/exports';
import { buildClassifier } from '../src/ml/models/registry';
import { tfjsLayersFiles } from '../src/ml/weights/export';
import { withLabNotes } from '../src/ml/weights/zipModel';
import { goTo, loadSample, openLab, seriousViolations } from './lab';

const storeConfig = (page: Page) =>
  page.evaluate(() => {
    const lab = (window as unknown as { __lab: { store: { getState(): { config: unknown } } } }).__lab;
    return lab.store.getState().config as { model: string; height: number; width: number; weights: string };
  });

/** Opens the lab with a link, as a participant would, and waits for the planner's numbers. */
async function openWithLink(page: Page, query: string): Promise<void> {
  await page.goto(`/?${query}`);
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const s = (
            window as unknown as {
              __lab: { store: { getState(): { engine: { status: string }; planner: { status: string } } } };
            }
          ).__lab.store.getState();
          return `${s.engine.status} ${s.planner.status}`;
        }),
      { timeout: 60_000 },
    )
    .toBe('ready ready');
}

/** The participant's "Export my results" download, saved under `path`. */
async function exportResults(page: Page, name: string, path: string): Promise<void> {
  await goTo(page, 'workshop');
  await page.getByTestId('results-name').fill(name);
  const download = page.waitForEvent('download');
  await page.getByTestId('results-export').click();
  await (await download).saveAs(path);
}

test('a class table from three exported results files and one broken file', async ({ page }, info) => {
  test.setTimeout(120_000);
  page.on('pageerror', (err) => console.log(`[pageerror] ${err.message}`));
  const base = 'model=tiny&weights=random&size=32x32&card=40MB';
  const people = [
    { name: 'Ada', batch: 4 },
    { name: 'Bo', batch: 64 },
    { name: 'Cyd', batch: 8 },
  ];
  const files: string[] = [];
  for (const p of people) {
    await openWithLink(page, `${base}&batch=${p.batch}${p.name === 'Ada' ? '&mode=predict' : ''}`);
    if (p.name === 'Ada') {
      // The guess is asked where the planner's numbers would be.
      await goTo(page, 'memory');
      await page.getByTestId('guess-kind-peak').check();
      await page.getByTestId('guess-mb').fill('50');
      await page.getByTestId('guess-commit').click();
    }
    const path = info.outputPath(`${p.name}.json`);
    await exportResults(page, p.name, path);
    files.push(path);
  }
  const ada = JSON.parse(readFileSync(files[0]!, 'utf8')) as { current: { settings: { batchSize: number } } };
  expect(ada.current.settings.batchSize).toBe(4);
  const broken = info.outputPath('broken.json');
  writeFileSync(broken, '{"format": "vram-lab-results", ');

  await page.getByTestId('class-input').setInputFiles([...files, broken]);
  const rows = page.getByTestId('class-results-row');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('class-problems')).toContainText('broken.json: it is not JSON');
  await expect(page.locator('[data-testid="class-results-row"][data-name="Ada"]')).toContainText('50 MB');

  // The race's answer is the largest batch among the settings the planner says fit the 40 MB card.
  const table = await rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
  );
  const fitting = people.filter((p) => table.find((r) => r[0] === p.name)?.[6] === 'yes (planned)');
  expect(fitting.length).toBeGreaterThan(0);
  const winner = fitting.reduce((a, b) => (b.batch > a.batch ? b : a));
  await expect(page.getByTestId('class-race')).toContainText(
    `Largest batch that fits: ${winner.batch}, by ${winner.name}`,
  );

  // Sorting by keyboard: Enter on a header sorts by it, again the other way.
  const byName = page.getByTestId('sort-name');
  await byName.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.locator('th', { has: byName })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first()).toHaveAttribute('data-name', 'Cyd');
  await page.getByTestId('sort-predicted').click();
  const predicted = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[4]!.textContent ?? ''));
  expect(predicted.map((t) => table.find((r) => r[4] === t)?.[0])).toEqual(
    [...people].sort((a, b) => a.batch - b.batch).map((p) => p.name),
  );
  expect(await seriousViolations(page)).toEqual([]);
});

/** A Tiny model at 32×40 for the sample's three classes, zipped by the lab's own export code. */
async function writeLabZip(path: string): Promise<void> {
  await tf.setBackend('cpu');
  const { model } = buildClassifier({
    id: 'tiny',
    height: 32,
    width: 40,
    includePreprocessing: true,
    numClasses: 3,
    seed: 5,
  });
  try {
    const notes = {
      name: 'shapes',
      savedAt: '2026-12-01T16:00:00.000Z',
      classes: ['circles', 'squares', 'triangles'],
      valAccuracy: 0.9,
    };
    writeFileSync(path, withLabNotes(zipModel(await tfjsLayersFiles(model)), notes, 'zip'));
  } finally {
    model.dispose();
  }
}

async function expectWeightsMatch(page: Page): Promise<void> {
  await expect(page.getByTestId('weights-mismatches')).toHaveAttribute('data-count', '0', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('weights-missing')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('weights-report-error')).toHaveCount(0);
}

test('a lab model zip loads back, is kept in the browser, survives a reload and is deleted', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const zip = info.outputPath('shapes-tfjs.zip');
  await writeLabZip(zip);
  await openLab(page);
  await loadSample(page);
  await goTo(page, 'model');
  await page.getByTestId('weights-file').check();

  await page.getByTestId('weights-input').setInputFiles({
    name: 'broken.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from('not a zip at all'),
  });
  await expect(page.getByTestId('zip-error')).toContainText('broken.zip is not a readable zip');

  await page.getByTestId('weights-input').setInputFiles(zip);
  await expect(page.getByTestId('zip-loaded')).toContainText(
    'EfficientNet-Tiny at 32×40, 3 classes (circles, squares, triangles)',
  );
  expect(await storeConfig(page)).toMatchObject({ model: 'tiny', height: 32, width: 40, weights: 'file' });
  await expect(page.getByTestId('weights-loaded')).toContainText('shapes-tfjs.zip');
  await expectWeightsMatch(page);

  await page.getByTestId('zip-keep').click();
  await expect(page.getByTestId('saved-model')).toHaveCount(1);
  await expect(page.getByTestId('saved-model')).toContainText('shapes');
  expect(await seriousViolations(page)).toEqual([]);

  // A fresh page of the same browser: the saved model is still listed, read from IndexedDB.
  await openLab(page);
  await loadSample(page);
  await goTo(page, 'model');
  await page.getByTestId('weights-file').check();
  await page.getByTestId('saved-model-load').click();
  await expect(page.getByTestId('zip-loaded')).toContainText('3 classes (circles, squares, triangles)');
  await expectWeightsMatch(page);
  await page.getByTestId('saved-model-delete').click();
  await expect(page.getByTestId('saved-model')).toHaveCount(0);
});

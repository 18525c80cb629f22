// A link sets the lab: settings made in one browser travel by "Copy link" to a fresh one with the same
// planner numbers; bad values are named and ignored; predict mode hides the planner until a guess; the
// run is kept in the history across a reload.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { goTo, openLab, snapshot, useTinySettings, waitForRunEnd, storeValue } from './lab';

/** The planner's predicted peak per phase as shown (the first line of each cell). */
async function plannerPeaks(page: Page): Promise<string[]> {
  const cells = page.locator('[data-testid$="-predicted"][data-testid^="planner-"]');
  await expect(cells.first()).toBeVisible();
  return (await cells.allTextContents()).map((t) => t.split('at the')[0]!.trim());
}

async function settingsOf(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    const lab = (window as unknown as { __lab: { store: { getState(): Record<string, unknown> } } }).__lab;
    const s = lab.store.getState();
    return JSON.parse(JSON.stringify({ config: s.config, backend: s.backendRequest })) as unknown;
  });
}

test('a copied link gives a fresh browser the same settings and planner numbers', async ({
  page,
  browser,
}) => {
  await openLab(page);
  await useTinySettings(page, {
    size: 40,
    batchSize: 6,
    frozenEpochs: 2,
    fineTuneEpochs: 1,
    unfreezeLastN: 12,
  });
  // The link names the view it was copied on, so the other browser opens where this one is.
  await goTo(page, 'memory');
  await page.getByTestId('copy-link').click();
  const url = await page.getByTestId('copy-link-field').inputValue();
  expect(url).toContain('model=tiny');
  expect(url).toContain('size=40x40');
  expect(url).toContain('view=memory');
  const peaks = await plannerPeaks(page);
  expect(peaks.length).toBeGreaterThanOrEqual(2);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  other.on('pageerror', (err) => console.log(`[pageerror] ${err.message}`));
  await other.goto(url);
  await expect.poll(async () => (await snapshot(other)).engine.status, { timeout: 60_000 }).toBe('ready');
  await expect(other.getByTestId('view-tab-memory')).toHaveAttribute('aria-selected', 'true');
  expect(await settingsOf(other)).toEqual(await settingsOf(page));
  expect(await plannerPeaks(other)).toEqual(peaks);
  await expect(other.getByTestId('link-notice')).toContainText('This link set model');
  await expect(other.getByTestId('link-ignored')).toHaveCount(0);
  await fresh.close();
});

test('a link with bad values names each one and applies only the good ones', async ({ page }) => {
  page.on('pageerror', (err) => console.log(`[pageerror] ${err.message}`));
  await page.goto('/?model=tiny&weights=random&batch=0&size=64x9999&foo=1&card=12XB');
  await expect.poll(async () => storeValue(page, 'engine.status'), { timeout: 60_000 }).toBe('ready');
  const ignored = page.getByTestId('link-ignored');
  await expect(ignored).toContainText('batch=0: Batch size must be a whole number from 1 to 1024 (got 0).');
  await expect(ignored).toContainText(
    'size=64x9999: Input width must be a whole number from 8 to 2048 (got 9999).',
  );
  await expect(ignored).toContainText('foo=1: the lab has no such setting.');
  await expect(ignored).toContainText('card=12XB: card must be none or a size in MB or GB');
  const s = (await settingsOf(page)) as { config: { model: string; batchSize: number; height: number } };
  // The good values apply; a bad one changes nothing, not even the half of `size` that was valid.
  expect(s.config.model).toBe('tiny');
  expect(s.config.batchSize).toBe(8);
  expect(s.config.height).toBe(128);
  await expect(page.getByTestId('model-select')).toHaveValue('tiny');
});

test('predict, then run: the planner stays hidden until a guess, then guess, planner and run side by side', async ({
  page,
}) => {
  page.on('pageerror', (err) => console.log(`[pageerror] ${err.message}`));
  await page.goto(
    '/?model=tiny&weights=random&size=32x32&batch=16&epochs=1+1&train=last:1000&aug=off&sample=1&mode=predict',
  );
  // sample=1 loads the built-in sample once the engine is ready.
  await expect(page.getByTestId('class-table')).toContainText('triangles', { timeout: 60_000 });
  await goTo(page, 'memory');
  await expect(page.getByTestId('predict-guess')).toBeVisible();
  await expect(page.getByTestId('planner-frozen-predicted')).toHaveCount(0);
  await expect(page.getByTestId('verdict')).toHaveCount(0);
  await expect(page.getByTestId('peak-readout')).toContainText('hidden until you commit a guess');

  await page.getByTestId('guess-phase').selectOption('fine-tune');
  await page.getByTestId('guess-mb').fill('5');
  await page.getByTestId('guess-commit').click();
  await expect(page.getByTestId('planner-fine-tune-predicted')).toBeVisible();
  await expect(page.getByTestId('guess-guess-value')).toHaveText('5.00 MB');
  await expect(page.getByTestId('guess-measured-value')).toHaveText('—');
  const planned = (await plannerPeaks(page)).at(-1)!;
  await expect(page.getByTestId('guess-planner-value')).toHaveText(planned);

  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  await expect(page.getByTestId('guess-measured-value')).not.toHaveText('—');
  await expect(page.getByTestId('guess-guess-error')).toHaveText(/^[+-]\d+\.\d%$/);
  await expect(page.getByTestId('guess-planner-error')).toHaveText(/^[+-]\d+\.\d%$/);
  // The planner's error in the guess table is the planner table's error for the same phase.
  await expect(page.getByTestId('guess-planner-error')).toHaveText(
    (await page.getByTestId('planner-fine-tune-error').textContent())!,
  );

  // Changing a setting asks for a new guess before the planner shows its numbers again.
  await goTo(page, 'model');
  await page.getByTestId('batch-size').fill('8');
  await expect(page.getByTestId('predict-guess')).toBeVisible();
  await expect(page.getByTestId('planner-fine-tune-predicted')).toHaveCount(0);

  // The run is kept in the history, which survives a reload and exports as CSV.
  await goTo(page, 'results');
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('history-row')).toHaveCount(1);
  await expect(page.getByTestId('history-row')).toContainText('completed');
  const download = page.waitForEvent('download');
  await page.getByTestId('history-csv').click();
  const csv = readFileSync((await (await download).path())!, 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain(',tiny,32,32,16,');
  expect(csv[1]).toContain(',completed,');
});

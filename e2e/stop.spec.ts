import { expect, test } from '@playwright/test';
import { loadSample, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

test('Stop during training leaves the page usable and a second run works', async ({ page }) => {
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { batchSize: 8, frozenEpochs: 5, fineTuneEpochs: 5 });
  await page.getByTestId('train').click();
  await expect
    .poll(async () => (await snapshot(page)).run.batches.length, { timeout: 120_000 })
    .toBeGreaterThanOrEqual(2);
  await page.getByTestId('stop').click();
  expect(await waitForRunEnd(page, 60_000)).toBe('stopped');
  const stopped = await snapshot(page);
  expect(stopped.run.batches.length).toBeLessThan(10);
  await expect(page.getByTestId('log')).toContainText('stopped by the user');

  // Usable: settings unlocked, preview refreshes, a second shorter run completes.
  await expect(page.getByTestId('batch-size')).toBeEnabled();
  await page.getByTestId('refresh-preview').click();
  await expect(page.getByTestId('preview-grid').locator('canvas')).toHaveCount(8);
  await useTinySettings(page, { batchSize: 16, frozenEpochs: 1, fineTuneEpochs: 0 });
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  const second = await snapshot(page);
  expect(second.run.epochs).toHaveLength(1);
  expect(second.run.error).toBeNull();
});

import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, snapshot, useTinySettings, waitForRunEnd, storeValue } from './lab';

test('Stop during training leaves the page usable and a second run works', async ({ page }) => {
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { batchSize: 8, frozenEpochs: 5, fineTuneEpochs: 5 });
  await page.getByTestId('train').click();
  await expect
    .poll(async () => storeValue(page, 'run.batches.length'), { timeout: 120_000 })
    .toBeGreaterThanOrEqual(2);
  await page.getByTestId('stop').click();
  expect(await waitForRunEnd(page, 60_000)).toBe('stopped');
  const stopped = await snapshot(page);
  expect(stopped.run.batches.length).toBeLessThan(10);
  await expect(page.getByTestId('log')).toContainText('stopped by the user');
  // Progress tells the truth: the plan of 10 epochs is kept, no time is left to count down, and a line
  // says where the run stopped and why.
  const planned = 10 * stopped.run.phases[0]!.batchesPerEpoch;
  const count = page.getByTestId('progress-count');
  await expect(count).toContainText(`${stopped.run.batches.length} / ${planned}`);
  await expect(count).not.toContainText('left');
  await expect(page.getByTestId('run-ended')).toContainText('Stopped by you after frozen phase, epoch 1');

  // Usable: settings unlocked, preview refreshes, a second shorter run completes.
  await expect(page.getByTestId('batch-size')).toBeEnabled();
  await goTo(page, 'data');
  await page.getByTestId('refresh-preview').click();
  await expect(page.getByTestId('preview-grid').locator('canvas')).toHaveCount(8);
  await useTinySettings(page, { batchSize: 16, frozenEpochs: 1, fineTuneEpochs: 0 });
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  const second = await snapshot(page);
  expect(second.run.epochs).toHaveLength(1);
  expect(second.run.error).toBeNull();
});

import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { makeLabelledFolder } from './fixtures';
import { goTo, openLab, snapshot, useTinySettings, waitForRunEnd, storeValue } from './lab';

// Thousands of tiny images: enough that the folder's decode check is still running when the next
// command comes. 2,400 were not always: on a quiet CI machine their check ended before the sample's
// click was taken (the page is busy while the browser delivers the file list).
const big = makeLabelledFolder(join('.e2e-fixtures', 'race'), {
  classes: ['alpha', 'beta', 'gamma', 'delta'],
  perClass: 1500,
  size: 16,
  extras: false,
});

test('the newest data load wins, and no data set is replaced under a running job', async ({ page }) => {
  test.setTimeout(8 * 60_000);
  await openLab(page);

  // A big folder starts loading; the built-in sample is pressed before its check ends.
  await page.getByTestId('folder-input').setInputFiles(big.dir);
  await expect.poll(async () => storeValue(page, 'dataset.status')).toBe('scanning');
  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await expect
    .poll(
      async () => (await snapshot(page)).log.some((l) => l.message.includes('a newer data set replaced it')),
      {
        timeout: 120_000,
      },
    )
    .toBe(true);
  await expect.poll(async () => storeValue(page, 'dataset.status'), { timeout: 60_000 }).toBe('ready');
  let s = await snapshot(page);
  expect(s.dataset.scan?.classes.map((c) => c.name)).toEqual(['circles', 'squares', 'triangles']);
  await expect(page.getByTestId('class-table')).not.toContainText('alpha');

  // While a run trains, a folder is refused with a message; the run goes on with the sample.
  // Long enough that it is still training when the folder comes (EarlyStopping kept out of the way).
  await useTinySettings(page, { frozenEpochs: 30, fineTuneEpochs: 0 });
  await goTo(page, 'train');
  await page.getByLabel('EarlyStopping patience').fill('100');
  await page.getByTestId('train').click();
  await expect
    .poll(async () => storeValue(page, 'run.batches.length'), { timeout: 120_000 })
    .toBeGreaterThan(0);
  await page.getByTestId('folder-input').setInputFiles(big.dir);
  await expect(page.getByTestId('notice')).toContainText('not possible while a training run is going on');
  s = await snapshot(page);
  expect(s.dataset.scan?.classes).toHaveLength(3);
  await page.getByTestId('stop').click();
  expect(await waitForRunEnd(page)).toBe('stopped');
  expect((await snapshot(page)).dataset.scan?.classes).toHaveLength(3);
});

import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { FIXTURE_FOLDER_NAME, makeLabelledFolder, writeHugePng, writeOversizedPngHeader } from './fixtures';
import { goTo, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

// A 10000×10000 photo as one float32 tensor would be 1.2 GB, far above the 500 MB card: it must be
// decoded and resized on the host, so its run measures what a run of small photos measures.
const HUGE = 10_000;
const CARD_MB = 500;

/** Drops a folder, trains one frozen epoch on the simulated card, and returns the run's highest measured step peak. */
async function trainPeak(page: Page, dir: string, images: number): Promise<number> {
  await goTo(page, 'data');
  await page.getByTestId('folder-input').setInputFiles(dir);
  await expect(page.getByTestId('dataset-summary')).toContainText(`${images} images in 3 classes`, {
    timeout: 120_000,
  });
  await useTinySettings(page, { size: 32, batchSize: 6, frozenEpochs: 1, fineTuneEpochs: 0 });
  // No prefetching, so no batch is being made while a step is measured, however slowly a photo decodes.
  await goTo(page, 'train');
  await page.getByTestId('prefetch').fill('0');
  await goTo(page, 'memory');
  await page.getByTestId('budget-select').selectOption('custom');
  await page.getByTestId('budget-mb').fill(String(CARD_MB));
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  const peaks = (await snapshot(page)).run.batches.flatMap((b) => b.peakBytes ?? []);
  expect(peaks.length).toBeGreaterThan(0);
  return Math.max(...peaks);
}

test('a 10000×10000 photo among small ones trains on a 500 MB card with the peak of small photos; a photo past the decoding limit is skipped by name', async ({
  page,
}) => {
  test.setTimeout(720_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  const small = makeLabelledFolder(join('.e2e-fixtures', 'big-photo-small'), { perClass: 6, extras: false });
  const big = makeLabelledFolder(join('.e2e-fixtures', 'big-photo-big'), { perClass: 6, extras: false });
  writeHugePng(join(big.dir, 'circles', 'huge_photo.png'), HUGE, HUGE);
  writeOversizedPngHeader(join(big.dir, 'squares', 'panorama.png'), 30_000, 30_000);

  await openLab(page);
  const smallPeak = await trainPeak(page, small.dir, 18);
  const bigPeak = await trainPeak(page, big.dir, 19);

  await goTo(page, 'data');
  const skipped = page.getByTestId('skipped-files');
  await expect(
    skipped.getByRole('listitem').filter({ hasText: `${FIXTURE_FOLDER_NAME}/squares/panorama.png` }),
  ).toContainText('30000×30000 pixels (900 megapixels) is more than the lab decodes');
  await expect(page.getByTestId('class-table').getByRole('row', { name: 'circles 7' })).toBeVisible();
  // The same batch shapes: the same step peak, within rounding of the measurement; the full photo
  // as a tensor would have added 1.2 GB.
  expect(Math.abs(bigPeak - smallPeak)).toBeLessThanOrEqual(smallPeak * 0.01);
  expect(bigPeak).toBeLessThan(CARD_MB * 1e6);
  const s = await snapshot(page);
  expect(s.run.error).toBeNull();
  expect(pageErrors).toEqual([]);
});

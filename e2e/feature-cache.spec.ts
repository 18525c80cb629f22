import { expect, test } from '@playwright/test';
import { loadSample, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

test('feature cache: with augmentation off, the frozen phase runs the backbone in its first epoch only', async ({
  page,
}) => {
  // On SwiftShader the lab's defaults turn augmentation off; a link keeps it on, as on a GPU.
  await openLab(page, '?aug=flip,bright:0.5,contrast:0.5:1.5');
  await loadSample(page);
  await useTinySettings(page, { size: 32, batchSize: 16, frozenEpochs: 3, fineTuneEpochs: 0 });
  const status = page.getByTestId('technique-cache-status');
  await expect(status).toContainText('Not used: augmentation is on');
  await page.getByTestId('augment-off').click();
  await expect(status).toContainText('On: the first frozen epoch stores the features');
  await expect(page.getByTestId('planner-frozen-cached-predicted')).toBeVisible();
  // Before anything runs, the planner draws its peak against batch size with the current settings.
  const curve = page.getByTestId('planner-batch-curve');
  await expect(curve).toContainText('Peak vs batch size · frozen phase');
  await expect(curve.locator('.recharts-line')).toHaveCount(3);

  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');

  const s = await snapshot(page);
  const frozen = s.run.batches.filter((b) => b.phase === 'frozen');
  expect(frozen.length).toBeGreaterThan(3);
  for (const b of frozen) expect(b.technique.featureCache).toBe(b.epoch === 0 ? 'filling' : 'reading');
  expect(frozen.every((b) => Number.isFinite(b.loss))).toBe(true);
  expect(s.run.epochs.every((e) => Number.isFinite(e.valLoss))).toBe(true);
  expect(
    s.log.some((l) =>
      /^Feature cache: stored the frozen backbone's .* features of \d+ training and \d+ validation images/.test(
        l.message,
      ),
    ),
  ).toBe(true);

  // Steps on cached features hold features instead of images and run no backbone: a lower peak.
  const peak = (cache: string) =>
    Math.max(...frozen.filter((b) => b.technique.featureCache === cache).map((b) => b.peakBytes ?? Infinity));
  expect(peak('reading')).toBeLessThan(peak('filling'));
  await expect(page.getByTestId('planner-frozen-cached-measured')).not.toHaveText('—');
  await expect(page.getByTestId('planner-frozen-cached-error')).toHaveText(/^[+-]\d+\.\d%$/);
  await expect(page.getByTestId('step-technique')).toContainText('head only, on cached features');
  await expect(page.getByTestId('cache-pair')).toContainText('steps on cached features');
});

import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, snapshot, waitForRunEnd } from './lab';

// One MobileNetV2 run serves three journeys: the packaged weights with the network blocked, the
// feature cache of the frozen phase, and the workshop preset learning the sample.
test('the workshop preset: packaged MobileNetV2 weights with the network blocked, the frozen phase on cached features, then fine-tuned, learns the sample on WebGPU', async ({
  page,
}) => {
  test.setTimeout(12 * 60_000);
  // Everything but the lab's own server is refused: the weights must come from the build.
  await page
    .context()
    .route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
    );
  // On SwiftShader the lab's defaults turn augmentation off; a link keeps it on, as on a GPU.
  await openLab(page, '?aug=flip,bright:0.5,contrast:0.5:1.5');
  await loadSample(page);
  await goTo(page, 'model');
  const cache = page.getByTestId('technique-cache-status');
  await expect(cache).toContainText('Not used: augmentation is on');

  await page.getByTestId('workshop-preset').click();
  await expect(page.getByTestId('model-select')).toHaveValue('mobilenetv2');
  await expect(page.getByTestId('height')).toHaveValue('64');
  await expect(page.getByTestId('weights-nsfwjs')).toBeChecked();
  await expect(cache).toContainText('On: the first frozen epoch stores the features');
  await expect(page.getByTestId('planner-frozen-cached-predicted')).toBeVisible();
  // Before anything runs, the planner draws its peak against batch size with the current settings.
  const curve = page.getByTestId('planner-batch-curve');
  await expect(curve).toContainText('Peak vs batch size · fine-tune phase');
  await expect(curve.locator('.chart-line')).toHaveCount(3);

  await expect(page.getByTestId('weights-report')).toContainText('nsfwjs MobileNetV2');
  await expect(page.getByTestId('weights-missing')).toHaveAttribute('data-count', '2');
  await expect(page.getByTestId('weights-mismatches')).toHaveAttribute('data-count', '0');
  await page.getByTestId('weights-provenance').locator('summary').click();
  await expect(page.getByTestId('weights-provenance')).toContainText('nsfwjs 4.4.0 (MIT');

  await page.getByTestId('train').click();
  // Frozen epochs after the first train the head alone; the step view says so while they run.
  await expect(page.getByTestId('step-technique')).toContainText('head only, on cached features', {
    timeout: 480_000,
  });
  expect(await waitForRunEnd(page, 660_000)).toBe('completed');
  const s = await snapshot(page);
  expect(s.run.backend).toBe('webgpu');
  expect(s.run.phases.map((p) => p.phase)).toEqual(['frozen', 'fine-tune']);
  expect(s.run.batches.every((b) => Number.isFinite(b.loss))).toBe(true);
  await expect(page.getByTestId('log')).toContainText(
    /nsfwjs MobileNetV2 gives [\d,]+ of the model's [\d,]+ parameters \(\d+\.\d%\); the other [\d,]+ \(2 layer\(s\): head_dense, predictions\)/,
  );

  const frozen = s.run.batches.filter((b) => b.phase === 'frozen');
  expect(new Set(frozen.map((b) => b.epoch)).size).toBe(5);
  for (const b of frozen) expect(b.technique.featureCache).toBe(b.epoch === 0 ? 'filling' : 'reading');
  expect(
    s.log.some((l) =>
      /^Feature cache: stored the frozen backbone's .* features of \d+ training and \d+ validation images/.test(
        l.message,
      ),
    ),
  ).toBe(true);
  // Steps on cached features hold features instead of images and run no backbone: a lower peak.
  const peak = (state: string) =>
    Math.max(...frozen.filter((b) => b.technique.featureCache === state).map((b) => b.peakBytes ?? Infinity));
  expect(peak('reading')).toBeLessThan(peak('filling'));
  await expect(page.getByTestId('planner-frozen-cached-measured')).not.toHaveText('—');
  await expect(page.getByTestId('planner-frozen-cached-error')).toHaveText(/^[+-]\d+\.\d%$/);
  await expect(page.getByTestId('cache-pair')).toContainText('steps on cached features');

  // Three classes: chance is 33%; the preset clearly beats it.
  expect(s.run.epochs.at(-1)!.valAccuracy).toBeGreaterThanOrEqual(0.7);
  await expect(page.getByTestId('run-ended')).toContainText('Completed');
});

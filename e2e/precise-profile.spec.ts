import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

test('precise mode profiles every step with tf.profile, and agrees with the always-on step peak', async ({
  page,
}) => {
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { size: 32, batchSize: 16, frozenEpochs: 1, fineTuneEpochs: 0 });
  // No prefetching: tf.profile counts every tensor made while the step runs, the pipeline's too.
  await goTo(page, 'train');
  await page.getByTestId('prefetch').fill('0');
  await goTo(page, 'memory');
  await page.getByTestId('precise-profile').check();

  // tf.profile hides a kernel's exception, so it cannot run beside the simulated card.
  await page.getByTestId('budget-select').selectOption('4');
  await expect(page.getByTestId('settings-problems')).toContainText('Precise profiling cannot run');
  await expect(page.getByTestId('train')).toBeDisabled();
  await page.getByTestId('budget-select').selectOption('none');
  await expect(page.getByTestId('settings-problems')).toHaveCount(0);

  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  const s = await snapshot(page);
  expect(s.run.batches.length).toBeGreaterThan(0);
  for (const b of s.run.batches) {
    expect(b.profile?.peakBytes).toBe(b.peakBytes);
    expect(b.profile?.kernelCount).toBeGreaterThan(100);
  }
  // The first step creates Adam's slots; every later step leaves nothing behind.
  expect(s.run.batches[0]?.profile?.newTensors).toBeGreaterThan(0);
  for (const b of s.run.batches.slice(1)) expect(b.profile?.newTensors).toBe(0);
  const view = page.getByTestId('step-profile');
  await expect(view).toContainText('measured · webgpu · tf.profile');
  await expect(page.getByTestId('profile-peak')).toHaveText(
    (await page.getByTestId('profile-hook-peak').textContent()) ?? '',
  );
  await expect(view.locator('ol').first().locator('li')).toHaveCount(5);
});

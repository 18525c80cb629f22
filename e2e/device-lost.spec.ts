import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, trainOneEpochOnWebGPU } from './lab';

test('a lost WebGPU device is noticed, the backend is re-created, and training works again', async ({
  page,
}) => {
  await openLab(page);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await goTo(page, 'workshop');
  await page.getByTestId('lose-device').click();
  await expect(page.getByTestId('device-loss')).toContainText('reason: destroyed');
  await expect(page.getByTestId('device-loss')).toContainText('A fresh webgpu backend is running.');
  await expect(page.getByTestId('log')).toContainText('GPU device lost (destroyed');

  await trainOneEpochOnWebGPU(page);
});

test('a lost WebGL context is noticed and the backend is re-created', async ({ page }) => {
  await openLab(page);
  await page.getByRole('combobox', { name: 'Backend' }).selectOption('webgl');
  await expect(page.getByTestId('backend-name')).toHaveText('webgl');
  await goTo(page, 'workshop');
  await page.getByTestId('lose-device').click();
  await expect(page.getByTestId('device-loss')).toContainText('reason: webgl-context-lost');
  await expect(page.getByTestId('device-loss')).toContainText('A fresh webgl backend is running.');
  await expect(page.getByTestId('log')).toContainText('WebGL context lost');
  // The fresh context computes: the preview grid runs the real pipeline on it.
  await loadSample(page);
  await expect(page.getByTestId('preview-grid').locator('canvas')).toHaveCount(8);
});

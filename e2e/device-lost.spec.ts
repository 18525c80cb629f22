import { expect, test } from '@playwright/test';
import { openLab, trainOneEpochOnWebGPU } from './lab';

test('a lost WebGPU device is noticed, the backend is re-created, and training works again', async ({
  page,
}) => {
  await openLab(page);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await page.getByTestId('lose-device').click();
  await expect(page.getByTestId('device-loss')).toContainText('reason: destroyed');
  await expect(page.getByTestId('device-loss')).toContainText('A fresh webgpu backend is running.');
  await expect(page.getByTestId('log')).toContainText('GPU device lost (destroyed');

  await trainOneEpochOnWebGPU(page);
});

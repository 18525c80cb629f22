import { expect, test } from '@playwright/test';
import { openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

test('a lost WebGPU device is noticed, the backend is re-created, and training works again', async ({
  page,
}) => {
  await openLab(page);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await page.getByTestId('lose-device').click();
  await expect(page.getByTestId('device-loss')).toContainText('reason: destroyed');
  await expect(page.getByTestId('device-loss')).toContainText('A fresh webgpu backend is running.');
  await expect(page.getByTestId('log')).toContainText('GPU device lost (destroyed');

  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await expect(page.getByTestId('class-table')).toContainText('circles');
  await useTinySettings(page, { frozenEpochs: 1, fineTuneEpochs: 0 });
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  expect((await snapshot(page)).run.backend).toBe('webgpu');
});

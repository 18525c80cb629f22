import { expect, test } from '@playwright/test';
import { goTo, openLab, trainOneEpochOnWebGPU } from './lab';

test('a real WebGPU failure (one tensor above maxBufferSize) is caught, explained, and the lab keeps working', async ({
  page,
}) => {
  await openLab(page);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await goTo(page, 'workshop');
  await page.getByTestId('provoke-buffer-limit').click();
  const result = page.getByTestId('provoke-result');
  await expect(result).toContainText(
    /OOM when allocating tensor with shape\[\d+\] and type float32 on webgpu \(one tensor above maxBufferSize/,
    { timeout: 120_000 },
  );
  await expect(result).toContainText(/Cause: .*(max buffer size|maxBufferSize)/i);
  await expect(page.getByTestId('provoke-still-works')).toHaveText(
    'The backend still computes correctly afterwards.',
  );

  // And training still works on the same backend.
  await trainOneEpochOnWebGPU(page);
});

import { expect, test } from '@playwright/test';
import { loadSample, openLab, snapshot, waitForRunEnd } from './lab';

test('the workshop preset learns the built-in sample on WebGPU, frozen then fine-tuned', async ({ page }) => {
  test.setTimeout(12 * 60_000);
  await openLab(page);
  await loadSample(page);
  await page.getByTestId('workshop-preset').click();
  await expect(page.getByTestId('model-select')).toHaveValue('mobilenetv2');
  await expect(page.getByTestId('height')).toHaveValue('64');
  await expect(page.getByTestId('technique-cache-status')).toContainText('On: the first frozen epoch');
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page, 660_000)).toBe('completed');
  const s = await snapshot(page);
  expect(s.run.backend).toBe('webgpu');
  expect(s.run.phases.map((p) => p.phase)).toEqual(['frozen', 'fine-tune']);
  const last = s.run.epochs.at(-1)!;
  // Three classes: chance is 33%; the preset clearly beats it.
  expect(last.valAccuracy).toBeGreaterThanOrEqual(0.7);
  await expect(page.getByTestId('run-ended')).toContainText('Completed');
});

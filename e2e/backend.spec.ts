import { expect, test } from '@playwright/test';
import { openLab, storeValue } from './lab';

test('the user can force a backend; the badge and the reasons follow', async ({ page }) => {
  await openLab(page);
  const select = page.getByRole('combobox', { name: 'Backend' });
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');

  await select.selectOption('cpu');
  await expect(page.getByTestId('backend-name')).toHaveText('cpu');
  await expect.poll(async () => storeValue(page, 'engine.backend.name')).toBe('cpu');

  await select.selectOption('webgl');
  await expect(page.getByTestId('backend-name')).toHaveText('webgl');
  await expect(page.getByTestId('backend-badge')).toContainText('max texture');

  // The choice survives a reload.
  await page.reload();
  await expect(page.getByTestId('backend-name')).toHaveText('webgl');
  await select.selectOption('auto');
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
});

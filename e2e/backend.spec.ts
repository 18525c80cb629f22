import { expect, test } from '@playwright/test';
import { openLab, storeValue } from './lab';

// A first visit: nothing saved, so the backend request is auto (the other journeys start on webgpu).
test.use({ storageState: { cookies: [], origins: [] } });

test('auto puts WebGL before a software WebGPU and says why; the user can force a backend; the badge follows', async ({
  page,
}) => {
  await openLab(page);
  const select = page.getByRole('combobox', { name: 'Backend' });
  await expect(select).toHaveValue('auto');
  // This machine has no GPU: WebGPU's adapter is SwiftShader, so auto starts WebGL and names the reason.
  await expect(page.getByTestId('backend-name')).toHaveText('webgl');
  const badge = page.getByTestId('backend-badge');
  // WebGL in the training worker: the page's thread would find the same software WebGPU adapter.
  await expect(badge).toContainText('in a Web Worker');
  expect(await storeValue(page, 'engine.backend.inWorker')).toBe(true);
  await badge.getByText('Why not faster?').click();
  await expect(badge).toContainText(/webgpu: tried after webgl, because its adapter \(google \/ swiftshader/);
  // WebGL's own renderer string shows it is emulated too: the software notes and defaults follow.
  await expect(badge).toContainText(/renderer .*SwiftShader/);
  await expect(page.getByTestId('software-adapter')).toBeVisible();
  await expect(page.getByTestId('software-defaults')).toBeVisible();
  await expect(page.getByTestId('height')).toHaveValue('64');

  await select.selectOption('cpu');
  await expect(page.getByTestId('backend-name')).toHaveText('cpu');
  await expect.poll(async () => storeValue(page, 'engine.backend.name')).toBe('cpu');

  await select.selectOption('webgpu');
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await expect(badge).toContainText('adapter google / swiftshader');
  await expect.poll(async () => storeValue<string[]>(page, 'engine.backend.skipped')).toEqual([]);

  // The choice survives a reload.
  await page.reload();
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await select.selectOption('auto');
  await expect(page.getByTestId('backend-name')).toHaveText('webgl');
  await expect(badge).toContainText('max texture');
});

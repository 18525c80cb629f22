import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, useTinySettings } from './lab';

// Issue 31, item 5: a user editing 1+0 to 0+1 frozen-first passes through 0+0. That once threw in a
// render (the smaller-batch card planned the heaviest of no phases) and React unmounted the whole page.
test('both epoch fields at 0 keep the page alive and say what Train waits for', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { frozenEpochs: 1, fineTuneEpochs: 0 });
  await expect(page.getByTestId('train')).toBeEnabled();

  await goTo(page, 'train');
  await page.getByTestId('frozen-epochs').fill('0');
  await expect(page.getByRole('heading', { name: 'VRAM Lab' })).toBeVisible();
  await expect(page.getByTestId('settings-phases')).toBeVisible();
  await expect(page.getByTestId('train')).toBeDisabled();
  await expect(page.getByTestId('train-blocker')).toContainText(/epoch/i);
  // Every view still draws with no phase to plan, the experiments (whose card once threw) among them.
  for (const view of ['experiments', 'memory', 'model', 'results', 'workshop'] as const) {
    await goTo(page, view);
    await expect(page.getByRole('heading', { name: 'VRAM Lab' })).toBeVisible();
  }
  await expect(page.getByTestId('run-bar')).toBeVisible();

  await goTo(page, 'train');
  await page.getByTestId('fine-tune-epochs').fill('1');
  await expect(page.getByTestId('train')).toBeEnabled();
  await goTo(page, 'experiments');
  await expect(page.locator('#experiments-title')).toBeVisible();
  expect(errors).toEqual([]);
});

import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, storeValue } from './lab';

// Inputs that blanked or froze the page (issue 41): each now leaves every view drawn and names the problem.
test('a cleared or overflowing seed and a 1e308 MB card name the problem; every view stays drawn and the page answers', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await openLab(page);
  await loadSample(page);
  const problems = page.getByTestId('settings-problems');
  const splitHint = page.getByText(/\d+ train \/ \d+ validation images/);
  await expect(splitHint).toBeVisible();

  const seed = page.getByRole('spinbutton', { name: 'Seed' });
  for (const typed of ['', '-1e400']) {
    await seed.fill(typed);
    await expect(problems).toContainText(/seed/i);
    await expect(page.getByTestId('class-table')).toContainText('circles');
    await expect(page.getByTestId('panel-failed')).toHaveCount(0);
  }
  await seed.fill('7');
  await expect(splitHint).toBeVisible();
  await expect(problems).toHaveCount(0);

  await goTo(page, 'memory');
  await page.getByTestId('budget-select').selectOption('custom');
  await page.getByTestId('budget-mb').fill('1e308');
  await expect(problems).toContainText(/card/i);
  // The page still answers: every view draws, the batch curve included, with no panel failed.
  for (const view of ['memory', 'model', 'train', 'experiments', 'data'] as const) {
    await goTo(page, view);
    await expect(page.getByTestId('panel-failed')).toHaveCount(0);
  }
  await goTo(page, 'memory');
  await page.getByTestId('budget-mb').fill('90');
  await expect(problems).toHaveCount(0);
  expect(await storeValue(page, 'config.budgetBytes')).toBe(90e6);
  expect(errors).toEqual([]);
});

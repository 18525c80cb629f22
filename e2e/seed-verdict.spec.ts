import { expect, test } from '@playwright/test';
import { goTo, openLab } from './lab';

// The seed case, planned only: EfficientNetV2-L cannot be trained in e2e, but the planner can say
// before anything runs that it will not fit, where it crosses the card, and which batch would.
test('the seed case gets a verdict: does not fit a 16 GB card, crosses at a named layer, and batch 1 fits', async ({
  page,
}) => {
  test.setTimeout(900_000);
  await openLab(page);
  await goTo(page, 'model');
  await page.getByTestId('model-select').selectOption('v2-l');
  await page.getByTestId('height').fill('300');
  await page.getByTestId('width').fill('500');
  await page.getByTestId('batch-size').fill('28');
  await goTo(page, 'memory');
  await page.getByTestId('budget-select').selectOption('16');
  // A stale number in the shortcut field, then "All" in the explorer: the explorer's set is planned.
  await goTo(page, 'train');
  await page.getByTestId('fine-tune-epochs').fill('1');
  await page.getByTestId('unfreeze-last-n').fill('20');
  await goTo(page, 'model');
  const explorer = page.getByTestId('layer-explorer');
  await expect(explorer).toContainText('Output shapes are for an input of 300 × 500', { timeout: 300_000 });
  await explorer.getByRole('button', { name: 'All', exact: true }).click();

  const headline = page.getByTestId('verdict-headline');
  await expect(headline).toContainText('EfficientNetV2-L at 300×500, batch 28, all layers', {
    timeout: 120_000,
  });
  await expect(headline).toContainText('does not fit a 16.0 GB card in any column');
  for (const column of ['tfjs', 'keras-fp32', 'keras-fp16']) {
    const row = page.getByTestId(`verdict-${column}`);
    await expect(row).toHaveAttribute('data-fits', 'false');
    await expect(row).toContainText(/needs [\d.]+ GB \([\d.]+× the card, [\d.]+ GB over\)/);
  }
  await expect(page.getByTestId('verdict-crossing')).toContainText(
    /The forward pass crosses 16\.0 GB at \w+ in tfjs here \(layer \d+ of \d+\)/,
  );
  await expect(page.getByTestId('verdict-largest')).toContainText(
    /Largest batch that fits: \d+ in tfjs here, \d+ in Keras\/CUDA float32, \d+ in Keras mixed float16\./,
  );
  // The card line and the region that fits stay visible under a curve that runs far above the card.
  await expect(page.getByTestId('planner-curve-chart')).toHaveAttribute('data-scale', 'log');
  await expect(page.getByTestId('planner-curve-chart-log-note')).toContainText('Log axis');

  await page.getByTestId('batch-size').fill('1');
  await expect(headline).toContainText(
    'EfficientNetV2-L at 300×500, batch 1, all layers: fits a 16.0 GB card',
  );
  await expect(page.getByTestId('verdict-tfjs')).toHaveAttribute('data-fits', 'true');
  await expect(page.getByTestId('verdict-crossing')).toHaveText('No column crosses the card.');
});

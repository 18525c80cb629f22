import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { goTo, loadSample, openCard, openLab, snapshot, useTinySettings } from './lab';

/** Serious and critical axe violations inside the experiments view (the whole page is layout.spec's). */
async function seriousInView(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include('[data-testid="experiments"]').analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// The cheapest card that trains both sides for real: halving the batch, on one frozen epoch of the tiny
// model at 32 px (two short runs, no fine-tune phase).
test('an experiment card runs before and after on the sample, shows both measured beside the planner, keeps them and reuses them', async ({
  page,
}) => {
  test.setTimeout(720_000);
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { size: 32, batchSize: 16, frozenEpochs: 1, fineTuneEpochs: 0 });

  await openCard(page, 'smaller-batch');
  const card = page.getByTestId('experiment-smaller-batch');
  // The arithmetic on the current settings: 16 × 32×32×3 × 4 bytes, and half of it.
  await expect(card.getByTestId('experiment-smaller-batch-arithmetic')).toContainText(
    'Input batch: 16 × 32×32×3 × 4 bytes = 197 KB → 98.3 KB.',
  );
  const table = card.getByTestId('experiment-smaller-batch-table');
  await expect(table).toContainText('Before: batch 16. After: batch 8.');
  // The planner's prediction for both sides before anything runs.
  await expect(table.getByRole('row', { name: /frozen step peak predicted/ })).toContainText(
    /(KB|MB).*(KB|MB)/,
  );
  await expect(page.getByTestId('experiment-mixed-precision-tfjs')).toContainText(
    'float16 storage, float32 math — tfjs has no float16 arithmetic',
  );
  expect(await seriousInView(page), 'axe with the experiments view').toEqual([]);

  // Keyboard: the card's one button, from focus and Enter.
  const button = card.getByTestId('experiment-smaller-batch-run');
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(button).toBeDisabled();
  for (const side of ['before', 'after']) {
    await expect(card.getByTestId(`experiment-smaller-batch-${side}-outcome`)).toHaveText('completed', {
      timeout: 300_000,
    });
    await expect(card.getByTestId(`experiment-smaller-batch-${side}-frozen-measured`)).toContainText(
      /[\d.]+ (KB|MB) \((webgpu|webgl|cpu)\)/,
    );
    await expect(card.getByTestId(`experiment-smaller-batch-${side}-step`)).toContainText(/\d+ ms/);
    await expect(card.getByTestId(`experiment-smaller-batch-${side}-accuracy`)).toContainText(/\d+\.\d%/);
  }
  await expect(button).toBeEnabled();
  // The runs trained 16 and 8 images per step; the user's settings are back.
  await expect(page.getByTestId('batch-size')).toHaveValue('16');
  expect((await snapshot(page)).config.batchSize).toBe(16);
  // Both runs are in the run history.
  await goTo(page, 'results');
  await expect(page.getByTestId('history-table').locator('tbody tr')).toHaveCount(2);
  await goTo(page, 'experiments');

  // Again: both sides come from the history, nothing trains.
  await button.click();
  await expect(card.getByTestId('experiment-smaller-batch-before-step')).toContainText('from the history');
  await expect(card.getByTestId('experiment-smaller-batch-after-step')).toContainText('from the history');
  await expect(button).toBeEnabled();
  await expect(page.getByTestId('history-table').locator('tbody tr')).toHaveCount(2);
  expect(await seriousInView(page), 'axe with results shown').toEqual([]);
});

import { expect, test } from '@playwright/test';
import { loadSample, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

test('layer explorer: choosing blocks changes the trainable count, and fine-tuning trains exactly them', async ({
  page,
}) => {
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { size: 32, frozenEpochs: 1, fineTuneEpochs: 1, unfreezeLastN: 0 });
  const explorer = page.getByTestId('layer-explorer');
  await expect(explorer).toContainText('Output shapes are for an input of 32 × 32');
  const count = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-count'));

  await explorer.getByRole('button', { name: 'Head only' }).click();
  const headOnly = await count('explorer-trainable-params');
  expect(headOnly).toBeGreaterThan(0);

  await explorer.getByRole('checkbox', { name: 'train block block7a' }).check();
  await expect(page.getByTestId('explorer-trainable-params')).not.toHaveAttribute(
    'data-count',
    String(headOnly),
  );
  const withBlock7 = await count('explorer-trainable-params');
  expect(withBlock7).toBeGreaterThan(headOnly);
  await expect(page.getByTestId('explorer-choice')).toContainText('chosen layers');

  // Opening a block lists its layers with shapes at the current resolution, each toggled on its own.
  await explorer.getByTestId('block-top').getByRole('button').first().click();
  await explorer.getByRole('checkbox', { name: 'train top_conv' }).check();
  const withTop = await count('explorer-trainable-params');
  expect(withTop).toBeGreaterThan(withBlock7);

  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  const s = await snapshot(page);
  const fineTune = s.run.phases.find((p) => p.phase === 'fine-tune');
  expect(fineTune?.trainableParams).toBe(withTop);

  // One trainable set: a number typed in the settings' shortcut, then "All" in the explorer. The
  // explorer's choice is the set, and the planner plans it (every consumer reads the same rule).
  await page.getByTestId('unfreeze-last-n').fill('2');
  const lastTwo = await count('explorer-trainable-params');
  await explorer.getByRole('button', { name: 'All' }).click();
  await expect(page.getByTestId('explorer-rule')).toContainText('all layers');
  await expect(page.getByTestId('explorer-choice')).toContainText('all layers');
  await expect(page.getByTestId('unfreeze-last-n')).toHaveValue('');
  const all = await count('explorer-trainable-params');
  expect(all).toBeGreaterThan(lastTwo);
  expect((await snapshot(page)).config.fineTune).toEqual({ kind: 'all' });
});

import { expect, test, type Page } from '@playwright/test';
import {
  goTo,
  loadSample,
  openLab,
  seriousViolations,
  snapshot,
  useTinySettings,
  waitForRunEnd,
} from './lab';

// 32 px keeps SwiftShader's steps short; the card sits between the frozen and the fine-tune peaks.
const SIZE = 32;
const CARD_MB = 40;

/** Puts back the settings that run out of memory in the first fine-tune step, after a fix changed one. */
async function restoreFailingSettings(page: Page, applied: string): Promise<void> {
  await goTo(page, applied === 'bigger-card' ? 'memory' : 'model');
  if (applied === 'halve-batch') await page.getByTestId('batch-size').fill('16');
  if (applied === 'accumulate') await page.getByTestId('technique-accumulation').fill('1');
  if (applied === 'checkpoint') await page.getByTestId('technique-checkpointing').selectOption('off');
  if (applied === 'bigger-card') await page.getByTestId('budget-mb').fill(String(CARD_MB));
  if (applied === 'fewer-layers')
    await page.getByTestId('layer-explorer').getByRole('button', { name: 'All', exact: true }).click();
  if (applied === 'lower-resolution') {
    await page.getByTestId('height').fill(String(SIZE));
    await page.getByTestId('width').fill(String(SIZE));
  }
}

/** The fixes the panel marks as fitting, in its order. */
async function fittingFixes(page: Page): Promise<string[]> {
  const items = page.locator('[data-testid^="ranked-"][data-fits="true"]');
  const ids = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
  return ids.map((id) => id.replace(/^ranked-/, ''));
}

/** The card a fix runs under: twice the card for the bigger card, the card otherwise. */
const cardAfter = (fix: string) => (fix === 'bigger-card' ? 2 : 1) * CARD_MB * 1e6;

test('a simulated card runs out during fine-tuning; the panel names the layer, and every fix marked "fits" fits when run', async ({
  page,
}) => {
  test.setTimeout(900_000);
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, {
    size: SIZE,
    batchSize: 16,
    frozenEpochs: 1,
    fineTuneEpochs: 1,
    unfreezeLastN: 1000,
  });
  await goTo(page, 'memory');
  await page.getByTestId('budget-select').selectOption('custom');
  await page.getByTestId('budget-mb').fill(String(CARD_MB));

  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('oom');
  const failed = await snapshot(page);
  expect(failed.run.epochs.map((e) => e.phase)).toEqual(['frozen']);

  // The OOM brings the train view and its panel, wherever the participant was.
  const panel = page.getByTestId('oom-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toBeFocused();
  await expect(page.getByTestId('view-tab-train')).toHaveAttribute('aria-selected', 'true');
  const message = page.getByTestId('oom-message');
  // TensorFlow's wording, the sizes in the MB the card was typed in.
  await expect(message).toContainText(
    /^(OOM when allocating tensor with shape\[16(,\d+)*\] and type float32|Out of memory) on webgpu \(simulated 40\.0 MB card: /,
  );
  await expect(message).not.toContainText('MiB');
  const inUse = /card: ([\d.]+) (KB|MB) in use/.exec((await message.textContent()) ?? '');
  expect(inUse).not.toBeNull();
  expect(Number(inUse![1]) * (inUse![2] === 'MB' ? 1e6 : 1e3)).toBeLessThanOrEqual(CARD_MB * 1e6);
  await expect(message).toContainText(
    /Detected at layer '(stem|block|top|normalization|rescaling)\w*' \(\w+\), (forward|backward) pass/,
  );
  await expect(page.getByTestId('run-status')).toHaveText('oom');
  await expect(page.getByTestId('oom-half-precision')).toContainText('tfjs 4.22 has no float16 dtype');
  expect(await seriousViolations(page), 'axe with the OOM panel open').toEqual([]);

  // Three different fixes in turn, each from a fresh out-of-memory run; one run per fix.
  const applied: string[] = [];
  for (let round = 0; round < 3; round++) {
    const fix = (await fittingFixes(page)).find((id) => !applied.includes(id));
    expect(fix, `round ${round + 1}: a fix marked "fits" not tried yet`).toBeDefined();
    applied.push(fix!);
    await expect(page.getByTestId(`remedy-${fix}-predicted`)).toContainText('fits the');
    await page.getByTestId(`remedy-${fix}`).click();
    expect(await waitForRunEnd(page), `${fix} ran out of memory`).toBe('completed');
    const resumed = await snapshot(page);
    expect(resumed.run.phases.map((p) => p.phase)).toEqual(['fine-tune']);
    const peaks = resumed.run.batches
      .filter((b) => b.phase === 'fine-tune')
      .flatMap((b) => b.peakBytes ?? []);
    expect(peaks.length).toBeGreaterThan(0);
    expect(Math.max(...peaks), `${fix}: measured fine-tune peak`).toBeLessThanOrEqual(cardAfter(fix!));
    await expect(page.getByTestId('fix-outcome')).toHaveAttribute('data-kept', 'true');
    await expect(page.getByTestId('fix-outcome-claim')).toContainText('claimed: fits');
    if (round === 0)
      await expect(page.getByTestId('log')).toContainText(
        'Continuing EfficientNet-Tiny from its last good weights',
      );
    if (round === 2) break;
    // Back to the failing settings: fine-tune straight away, and run out again.
    await restoreFailingSettings(page, fix!);
    await goTo(page, 'train');
    await page.getByTestId('frozen-epochs').fill('0');
    await page.getByTestId('train').click();
    expect(await waitForRunEnd(page)).toBe('oom');
    await expect(panel).toBeVisible();
  }
  expect(new Set(applied).size).toBe(3);
});

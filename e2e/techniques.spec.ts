import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

test('memory-saving techniques: a plain run, then accumulation and checkpointing, compared before/after', async ({
  page,
}) => {
  // Two runs of both phases on SwiftShader.
  test.setTimeout(900_000);
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, {
    size: 32,
    batchSize: 16,
    frozenEpochs: 1,
    fineTuneEpochs: 1,
    unfreezeLastN: 1000,
  });
  await goTo(page, 'model');
  await page.getByTestId('technique-outside-tape').uncheck();
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  await expect(page.getByTestId('step-technique')).toContainText('fully taped');

  // Every technique on: the frozen phase runs its backbone outside the tape, fine-tuning accumulates
  // two micro-batches and recomputes each block in the backward pass.
  await page.getByTestId('technique-outside-tape').check();
  await page.getByTestId('technique-accumulation').fill('2');
  await page.getByTestId('technique-checkpointing').selectOption('blocks');
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');

  const s = await snapshot(page);
  const frozen = s.run.batches.filter((b) => b.phase === 'frozen');
  const fine = s.run.batches.filter((b) => b.phase === 'fine-tune');
  expect(frozen.every((b) => b.technique.mode === 'outside-tape')).toBe(true);
  expect(fine.every((b) => b.technique.mode === 'checkpointed')).toBe(true);
  // Full batches split in two; an epoch's last, smaller batch may have too few images to split.
  expect(fine.filter((b) => b.technique.microBatches === 2).length).toBeGreaterThan(fine.length / 2);
  expect(fine.every((b) => Number.isFinite(b.loss))).toBe(true);
  await expect(page.getByTestId('step-technique')).toContainText('checkpointed');

  // The before/after pair: both phases need less memory than the plain run did.
  const ratio = async (phase: string) =>
    Number.parseFloat((await page.getByTestId(`comparison-${phase}-ratio`).textContent()) ?? 'NaN');
  expect(await ratio('frozen')).toBeLessThan(0.8);
  expect(await ratio('fine-tune')).toBeLessThan(0.8);
});

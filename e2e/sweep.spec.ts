import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, snapshot, useTinySettings, waitForRunEnd, storeValue } from './lab';

test('a sweep measures each point or marks it OOM on the chart, and the largest batch that fits is found', async ({
  page,
}) => {
  // Each sweep point releases everything, so SwiftShader compiles every shader again: slow by design.
  test.setTimeout(900_000);
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { size: 32, frozenEpochs: 1, fineTuneEpochs: 1, unfreezeLastN: 1000 });
  await goTo(page, 'memory');
  await page.getByTestId('budget-select').selectOption('custom');
  await page.getByTestId('budget-mb').fill('40');

  await goTo(page, 'experiments');
  await page.getByTestId('sweep-batches').fill('2, 32');
  await page.getByTestId('sweep-sizes').fill('32');
  // The precision axis, measured: the fine-tune preset also runs with float16 storage.
  await page.getByTestId('sweep-precision-float16').check();
  await expect(page.getByTestId('sweep-precision-float32')).toBeChecked();
  await page.getByTestId('sweep-run').click();
  await expect
    .poll(async () => storeValue(page, 'sweep.status'), { timeout: 480_000, intervals: [1000] })
    .toBe('done');

  const points = (await snapshot(page)).sweep.points;
  expect(points).toHaveLength(6);
  const measured = points.filter((p) => p.status === 'measured');
  expect(measured.length).toBeGreaterThan(0);
  for (const p of measured) {
    expect(p.peakBytes).toBeGreaterThan(0);
    expect(Math.abs((p.predictedBytes! - p.peakBytes!) / p.peakBytes!)).toBeLessThan(0.1);
    // The precision axis, predicted: Keras in mixed float16 needs less than in float32.
    expect(p.kerasMixedBytes).toBeLessThan(p.kerasBytes!);
  }
  expect(points.some((p) => p.status === 'oom' && p.presetId === 'all')).toBe(true);
  // float16 storage is checkpointed with packed boundaries: never above the float32 step it replaces.
  const at2 = (id: string) => points.find((p) => p.presetId === id && p.batch === 2)!;
  expect(at2('all@f16').status).toBe('measured');
  expect(at2('all@f16').peakBytes!).toBeLessThanOrEqual(at2('all').peakBytes!);
  await expect(page.getByTestId('sweep-chart').first()).not.toHaveAttribute('data-oom-markers', '0');
  await expect(page.getByTestId('sweep-row')).toHaveCount(6);
  await expect(page.getByTestId('sweep-chart').first()).toContainText('Keras/CUDA mixed float16 · predicted');
  await expect(page.getByTestId('sweep-precision-note')).toContainText('no float16 dtype');
  await expect(page.getByTestId('sweep-precision-note')).toContainText(
    'float16 storage, float32 math — tfjs has no float16 arithmetic',
  );

  await page.getByTestId('sweep-find-largest').click();
  await expect
    .poll(async () => storeValue(page, 'sweep.largest.status'), { timeout: 300_000, intervals: [1000] })
    .toBe('done');
  const largest = (await snapshot(page)).sweep.largest;
  expect(largest.batch).not.toBeNull();
  // The search is consistent: its answer fit, the next batch up did not.
  expect(largest.tried.find((t) => t.batch === largest.batch)?.fits).toBe(true);
  expect(largest.tried.find((t) => t.batch === largest.batch! + 1)?.fits).toBe(false);
  await expect(page.getByTestId('sweep-largest-result')).toHaveAttribute(
    'data-largest',
    String(largest.batch),
  );
  // The search started from the planner and confirmed it in a few measured steps; the answer and the
  // next batch up each show the planner's prediction and the measurement.
  expect(largest.predicted).not.toBeNull();
  expect(largest.tried.length).toBeLessThanOrEqual(4);
  await expect(page.getByTestId(`sweep-largest-batch-${largest.batch}`)).toContainText(
    /predicted .* measured/,
  );
  await expect(page.getByTestId(`sweep-largest-batch-${largest.batch! + 1}`)).toContainText(
    'ran out of memory',
  );

  // The answer trains under the card; the next batch up does not.
  await goTo(page, 'train');
  await page.getByTestId('frozen-epochs').fill('0');
  await goTo(page, 'model');
  await page.getByTestId('batch-size').fill(String(largest.batch));
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  await page.getByTestId('batch-size').fill(String(largest.batch! + 1));
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('oom');
});

import { expect, test } from '@playwright/test';
import { graphModelFixture } from '../src/ml/models/graphModelFixture';
import { goTo, loadSample, openLab, snapshot, waitForRunEnd, storeValue } from './lab';

// A tfjs GraphModel as tensorflowjs_converter writes it (GraphDef JSON and one shard), made here in Node
// from the lab's own fixture: conv 3x3 -> relu -> mean, a 4-value feature vector per 32x32 image.
const SIZE = 32;

test('a dropped graph model serves the frozen phase only, planned and trained as a frozen backbone', async ({
  page,
}) => {
  // Each sweep point releases everything, so SwiftShader compiles every shader again.
  test.setTimeout(600_000);
  const { modelJson, weightData, shard } = graphModelFixture(SIZE);
  await openLab(page);
  await loadSample(page);
  await goTo(page, 'model');
  await page.getByTestId('weights-file').check();
  await page.getByTestId('weights-input').setInputFiles([
    { name: 'model.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(modelJson)) },
    { name: shard, mimeType: 'application/octet-stream', buffer: Buffer.from(weightData) },
  ]);
  await expect(page.getByTestId('weights-loaded')).toContainText('model.json (tfjs GraphModel)');
  await expect(page.getByTestId('weights-loaded')).toContainText('frozen inference graph');

  // Loading it chooses it: the graph's input size, fixed, and no fine-tune phase, with the reason.
  await expect(page.getByTestId('weights-graph')).toBeChecked();
  await expect(page.getByTestId('graph-note')).toContainText(`a frozen backbone at ${SIZE}×${SIZE}`);
  for (const id of ['height', 'width']) {
    await expect(page.getByTestId(id)).toHaveValue(String(SIZE));
    await expect(page.getByTestId(id)).toBeDisabled();
  }
  await expect(page.getByTestId('fine-tune-epochs')).toHaveValue('0');
  await expect(page.getByTestId('fine-tune-epochs')).toBeDisabled();
  await expect(page.getByTestId('graph-frozen-only')).toContainText('no layers or variables to unfreeze');
  await page.getByTestId('batch-size').fill('16');
  await goTo(page, 'train');
  await page.getByTestId('frozen-epochs').fill('1');

  // The planner predicts the frozen phase (graph outside the tape, head trained) and nothing else.
  const frozenPredicted = page.getByTestId('planner-frozen-predicted');
  await expect(frozenPredicted).toBeVisible({ timeout: 60_000 });
  await expect(frozenPredicted).toContainText(/\d/);
  await expect(page.locator('[data-testid^="planner-fine-tune"]')).toHaveCount(0);

  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  const s = await snapshot(page);
  expect(s.run.phases.map((p) => p.phase)).toEqual(['frozen']);
  expect(s.run.epochs.map((e) => e.phase)).toEqual(['frozen']);
  expect(s.run.batches.every((b) => b.phase === 'frozen' && Number.isFinite(b.loss))).toBe(true);
  await expect(page.getByTestId('log')).toContainText('Frozen phase only');
  await expect(page.getByTestId('log')).toContainText('no layers or variables to unfreeze');
  // The measured frozen step stands beside the prediction.
  await expect(page.getByTestId('planner-frozen-measured')).not.toHaveText('—');

  // Keras exports do not apply to a graph model's run, and the panel says so instead of offering them.
  await goTo(page, 'results');
  await expect(page.getByTestId('graph-exports-note')).toContainText('Keras .h5 weights do not apply');
  await expect(page.getByRole('button', { name: 'Weights: Keras .h5' })).toHaveCount(0);
  await expect(page.getByTestId('graph-script-note')).toContainText('No Keras script for a graph model');
  await expect(page.getByRole('button', { name: 'Keras script (.py)' })).toHaveCount(0);

  // The sweep measures what the run trains: the graph outside the tape and the head, frozen phase only,
  // at the graph's own size; what cannot apply is disabled, with the reason.
  await goTo(page, 'experiments');
  await expect(page.getByTestId('sweep-graph-note')).toContainText(
    `frozen phase only, at the graph's ${SIZE}×${SIZE} input`,
  );
  await expect(page.getByTestId('sweep-graph-note')).toContainText('no layers or variables to unfreeze');
  await expect(page.getByTestId('sweep-sizes')).toHaveValue(String(SIZE));
  await expect(page.getByTestId('sweep-sizes')).toBeDisabled();
  await expect(page.getByTestId('sweep-preset-head')).toBeChecked();
  await expect(page.getByTestId('sweep-preset-all')).toBeDisabled();
  await expect(page.getByTestId('sweep-precision-float16')).toBeDisabled();
  await page.getByTestId('sweep-batches').fill('2, 4');
  await page.getByTestId('sweep-run').click();
  await expect
    .poll(async () => storeValue(page, 'sweep.status'), { timeout: 300_000, intervals: [1000] })
    .toBe('done');
  // The store's points carry their size too (the snapshot type names only what other specs read).
  const points = (await snapshot(page)).sweep.points as ((typeof s.sweep.points)[number] & {
    size: number;
  })[];
  expect(points.map((p) => [p.batch, p.size, p.presetId, p.status])).toEqual([
    [2, SIZE, 'head', 'measured'],
    [4, SIZE, 'head', 'measured'],
  ]);
  expect(points.every((p) => p.peakBytes! > 0 && p.predictedBytes! > 0)).toBe(true);

  // Every sweep point re-created the backend: the graph is read again and a run trains on it.
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  expect((await snapshot(page)).run.phases.map((p) => p.phase)).toEqual(['frozen']);
});

import { expect, test } from '@playwright/test';
import { openLab, seriousViolations, snapshot, useTinySettings, waitForRunEnd } from './lab';

test('built-in sample: frozen epoch then fine-tune epoch on WebGPU, with live memory', async ({ page }) => {
  await openLab(page);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
  await expect(page.getByTestId('backend-badge')).toContainText('swiftshader');
  await expect(page.getByTestId('backend-badge')).toContainText('maxBufferSize');

  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await expect(page.getByTestId('class-table')).toContainText('circles');
  await expect(page.getByTestId('class-table')).toContainText('24');
  await expect(page.getByTestId('preview-grid').locator('canvas')).toHaveCount(8);
  await expect(page.getByTestId('weights-nsfwjs')).toBeChecked();

  await useTinySettings(page, { frozenEpochs: 1, fineTuneEpochs: 1, unfreezeLastN: 1000 });
  // The packaged weights are a MobileNetV2: choosing another architecture says it starts from random weights.
  await expect(page.getByTestId('weights-note')).toContainText('random initialisation');
  await page.getByTestId('train').click();
  await expect(page.getByTestId('run-status')).toHaveText('running');
  await expect(page.getByRole('progressbar', { name: 'Training' })).toBeVisible();
  expect(await waitForRunEnd(page)).toBe('completed');
  expect(await seriousViolations(page), 'axe after a run, charts drawn').toEqual([]);

  const s = await snapshot(page);
  expect(s.run.backend).toBe('webgpu');
  expect(s.run.phases.map((p) => p.phase)).toEqual(['frozen', 'fine-tune']);
  expect(s.run.phases[1]!.trainableParams).toBeGreaterThan(s.run.phases[0]!.trainableParams);
  expect(s.run.epochs.map((e) => e.phase)).toEqual(['frozen', 'fine-tune']);
  expect(s.run.batches.every((b) => Number.isFinite(b.loss))).toBe(true);

  await expect(page.getByTestId('loss-chart')).not.toHaveAttribute('data-points', '0');
  await expect(page.getByTestId('accuracy-chart').locator('.recharts-line')).toHaveCount(3);
  await expect(page.getByTestId('loss-chart').locator('.recharts-line-curve').first()).toBeVisible();
  await expect(page.getByTestId('memory-timeline').locator('.recharts-line-curve').first()).toBeVisible();
  await expect(page.getByTestId('memory-numbers')).toContainText('measured · webgpu');

  // Sampled at least 4 times a second while training ran.
  const samples = s.memory.samples;
  const start = s.run.phases[0]!.t;
  const end = samples[samples.length - 1]!.t;
  const during = samples.filter((x) => x.t >= start);
  expect(during.length / ((end - start) / 1000)).toBeGreaterThanOrEqual(4);
  for (const label of ['frozen phase', 'fine-tune phase', 'epoch 1']) {
    expect(s.memory.markers.map((m) => m.label)).toContain(label);
  }

  // Unfreezing the backbone keeps its activations, gradients and Adam slots: the line rises.
  const frozenPeak = Number(await page.getByTestId('peak-frozen').getAttribute('data-bytes'));
  const finePeak = Number(await page.getByTestId('peak-fine-tune').getAttribute('data-bytes'));
  expect(frozenPeak).toBeGreaterThan(0);
  expect(finePeak).toBeGreaterThan(frozenPeak * 1.2);
  // The per-step peak read at every kernel tells the same story, and no timeline point exceeds it.
  const frozenStep = Number(await page.getByTestId('step-peak-frozen').getAttribute('data-bytes'));
  const fineStep = Number(await page.getByTestId('step-peak-fine-tune').getAttribute('data-bytes'));
  expect(fineStep).toBeGreaterThan(frozenStep * 1.2);
  expect(finePeak).toBeLessThanOrEqual(fineStep);
  // Where it went: the tape keeps the backbone's activations, and every weight gets a gradient and two Adam slots.
  const bytes = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-bytes'));
  expect(await bytes('breakdown-savedActivations-fine-tune')).toBeGreaterThan(
    4 * (await bytes('breakdown-savedActivations-frozen')),
  );
  expect(await bytes('breakdown-optimizer-fine-tune')).toBeGreaterThan(
    await bytes('breakdown-optimizer-frozen'),
  );
  expect(await bytes('breakdown-gradients-fine-tune')).toBeGreaterThan(
    await bytes('breakdown-gradients-frozen'),
  );

  // The planner predicted both phases before the run; now each shows the measured step peak and the error.
  for (const phase of ['frozen', 'fine-tune']) {
    await expect(page.getByTestId(`planner-${phase}-predicted`)).toContainText(/\d B|[KMG]B/);
    const error = await page.getByTestId(`planner-${phase}-error`).textContent();
    expect(Math.abs(Number.parseFloat(error ?? 'NaN'))).toBeLessThan(25);
  }

  // clear_session: the model and tfjs' pool go back; the backend is re-created and still works.
  await page.getByTestId('release-all').click();
  await expect(page.getByTestId('release-result')).toContainText(
    /allocated incl\. pool \d[\d.]* [KMG]B → 0 B/,
  );
  await expect(page.getByTestId('release-result')).toContainText(/Live tensors \d[\d.]* [KMG]?B → 0 B/);
  await expect(page.getByTestId('backend-name')).toHaveText('webgpu');
});

import { expect, test, type Page } from '@playwright/test';
import { goTo, loadSample, openLab, snapshot, useTinySettings, waitForRunEnd, storeValue } from './lab';

/** The point of the run saved in this browser's IndexedDB, or null when none is saved. */
async function savedPoint(page: Page): Promise<{ phase: string; epoch: number } | null> {
  return page.evaluate(
    () =>
      new Promise<{ phase: string; epoch: number } | null>((resolve) => {
        const open = indexedDB.open('vram-lab-saved-run');
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction('runs').objectStore('runs').get('current');
          get.onsuccess = () => {
            const run = get.result as { point: { phase: string; epoch: number } } | undefined;
            resolve(run ? { phase: run.point.phase, epoch: run.point.epoch } : null);
            db.close();
          };
        };
      }),
  );
}

async function savedRunStatus(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      (
        window as unknown as { __lab: { store: { getState(): { savedRun: { status: string } } } } }
      ).__lab.store.getState().savedRun.status,
  );
}

test('a reload during epoch 2 loses nothing: the saved run resumes and each epoch runs once', async ({
  page,
}) => {
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { batchSize: 4, frozenEpochs: 2, fineTuneEpochs: 0 });
  // Without the feature cache epoch 2 runs the backbone as epoch 1 did: it lasts long enough for the
  // reload to land inside it (on cached features it can end, and save, before the reload).
  await goTo(page, 'model');
  await page.getByTestId('technique-cache-features').uncheck();
  await page.getByTestId('train').click();

  // Reload at batch 3 of epoch 2 or later (at batch 4 an epoch has about 15 steps), once epoch 1's save
  // has committed: it is written after the epoch ends, and on a busy machine that can take a few steps.
  await expect
    .poll(
      async () => {
        const batches = await storeValue<{ epoch: number }[]>(page, 'run.batches');
        return batches.filter((b) => b.epoch === 1).length >= 3 && (await savedPoint(page)) !== null;
      },
      { timeout: 180_000, intervals: [250] },
    )
    .toBe(true);
  const before = await snapshot(page);
  await page.reload();
  await expect.poll(async () => storeValue(page, 'engine.status'), { timeout: 60_000 }).toBe('ready');
  // The reload keeps the view it was on.
  await expect(page.getByTestId('view-tab-model')).toHaveAttribute('aria-selected', 'true');
  // What was saved is the end of epoch 1: the run continues at epoch 2 of the frozen phase.
  expect(await savedPoint(page)).toEqual({ phase: 'frozen', epoch: 1 });
  const perEpoch = before.run.phases[0]!.batchesPerEpoch;
  const epoch1 = before.run.batches.filter((b) => b.epoch === 0).map((b) => b.loss);
  expect(epoch1).toHaveLength(perEpoch);
  expect(before.run.epochs).toHaveLength(1);

  // The page says a run was cut off and offers to resume it; without its data it says what to do.
  const notice = page.getByTestId('resume-notice');
  await expect(notice).toContainText('A run was cut off');
  await expect(notice).toContainText('“Built-in sample”');
  const resume = page.getByTestId('resume-run');
  await expect(resume).toHaveText('Resume run from epoch 2 of the frozen phase');
  await resume.click();
  await expect(page.getByTestId('notice')).toContainText('Load the data the run trained on first');
  expect((await snapshot(page)).run.status).toBe('idle');

  await loadSample(page);
  await expect.poll(async () => storeValue(page, 'dataset.status')).toBe('ready');
  await resume.click();
  expect(await waitForRunEnd(page)).toBe('completed');

  // Epoch 1 came back as it was; epoch 2 ran once, in full; the step count runs on without a gap.
  const after = await snapshot(page);
  expect(after.run.epochs.map((e) => e.phase)).toEqual(['frozen', 'frozen']);
  expect(after.run.epochs[0]).toEqual(before.run.epochs[0]);
  expect(after.run.phases.map((p) => p.phase)).toEqual(['frozen']);
  const batches = after.run.batches as unknown as { epoch: number; loss: number; step: number }[];
  expect(batches.filter((b) => b.epoch === 0).map((b) => b.loss)).toEqual(epoch1);
  expect(batches.filter((b) => b.epoch === 1)).toHaveLength(perEpoch);
  expect(batches.map((b) => b.step)).toEqual(batches.map((_, i) => i + 1));
  await expect(page.getByTestId('loss-chart')).toHaveAttribute('data-points', String(2 * perEpoch));
  await expect(page.getByTestId('log')).toContainText(
    'Resuming the saved run from epoch 2 of the frozen phase',
  );
  // The memory timeline continues the saved one: the resumed samples come after it.
  const times = after.memory.samples.map((m) => m.t);
  expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);

  // A finished run needs no resume: the notice is gone and nothing is saved.
  await expect(notice).toHaveCount(0);
  expect(await savedRunStatus(page)).toBe('none');
  expect(await savedPoint(page)).toBeNull();
});

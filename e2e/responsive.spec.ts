import { expect, test, type Page } from '@playwright/test';
import { loadSample, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

/**
 * Longest main-thread task allowed while a run trains. The target is 100 ms (issue 12 item 4), not met
 * yet; this is the guard against going back. On this loaded 2-core machine SwiftShader's threads, the
 * engine's worker and the page share the cores and stretch the page's tasks: before step and memory
 * events were batched, the charts throttled and the experiment cards taken off the hot path, the longest
 * task here was 1.0–1.6 s (bench/longTasks.ts, and this spec with two workers); after, 0.2–0.3 s
 * (9 tasks over 100 ms in 15 s). 400 ms fails the old page by a wide margin and leaves room for load.
 */
const LONGEST_TASK_MS = 400;

/**
 * How long the page is watched once the first step has run (the shaders compiled in the worker); batch
 * 8 gives the 1+1 epoch run enough steps to still be training at the end of it.
 */
const WATCH_MS = 15_000;

/** Starts recording every long task the page's main thread reports from now on. */
async function recordLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

const longTasks = (page: Page) =>
  page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);

test('the page stays responsive and keyboard-operable while a run trains', async ({ page }) => {
  test.setTimeout(150_000);
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { batchSize: 8, frozenEpochs: 1, fineTuneEpochs: 1 });
  await page.getByTestId('train').click();
  await expect
    .poll(async () => (await snapshot(page)).run.batches.length, { timeout: 90_000 })
    .toBeGreaterThan(0);

  await recordLongTasks(page);
  await page.waitForTimeout(WATCH_MS);
  const watched = await snapshot(page);
  expect(watched.run.status, 'still training at the end of the watch').toBe('running');
  const tasks = await longTasks(page);
  const longest = Math.max(0, ...tasks);
  console.log(
    `long tasks while training (${WATCH_MS / 1000} s): ${tasks.length} over 50 ms, ` +
      `${tasks.filter((d) => d > 100).length} over 100 ms, longest ${Math.round(longest)} ms`,
  );
  expect(longest, `longest main-thread task while training`).toBeLessThanOrEqual(LONGEST_TASK_MS);

  // From the keyboard, mid-run: the skip link (the first Tab stop, as e2e/layout proves), then the run
  // bar's Stop (Train is disabled while running). The mouse clicked Train, so focus starts from the link.
  const skip = page.getByRole('link', { name: 'Skip to the run controls' });
  await skip.focus();
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('stop')).toBeFocused();
  await page.keyboard.press('Enter');
  // The page answers the key at once, even though the step in flight finishes first.
  await expect(page.getByTestId('run-status')).toHaveText(/stopping|stopped/, { timeout: 2_000 });
  expect(await waitForRunEnd(page, 60_000)).toBe('stopped');
});

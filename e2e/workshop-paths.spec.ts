// The first minutes of a workshop, as a participant meets them: the first click works, a link opened
// after another leaves a live page, and every control can be chosen from any state.
import { expect, test } from '@playwright/test';
import { goTo, openLab, storeValue, waitForRunEnd } from './lab';

test('the built-in sample, pressed before the engine is ready, still loads', async ({ page }) => {
  page.on('pageerror', (err) => console.log(`[pageerror] ${err.message}`));
  await page.goto('/');
  // Within the first second: the engine is still starting.
  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await expect(page.getByTestId('class-table')).toContainText('triangles', { timeout: 60_000 });
  await expect.poll(async () => storeValue(page, 'dataset.status'), { timeout: 60_000 }).toBe('ready');
  await expect(page.getByTestId('train')).toBeEnabled();
});

test('a custom card size can be chosen while a preset card is selected', async ({ page }) => {
  await openLab(page, '?card=16GB');
  await goTo(page, 'memory');
  const select = page.getByTestId('budget-select');
  await expect(select).toHaveValue('16');
  await select.selectOption('custom');
  await expect(select).toHaveValue('custom');
  await page.getByTestId('budget-mb').fill('90');
  await expect(select).toHaveValue('custom');
  await expect.poll(async () => storeValue(page, 'config.budgetBytes')).toBe(90e6);
});

/** The lesson plan's links (README, "In a workshop"), in the order an instructor hands them out. */
const LINKS = {
  preset:
    '?sample=1&model=mobilenetv2&weights=nsfwjs&size=64x64&batch=8&epochs=5+1&lr=0.001,0.0001&train=last:20&aug=off&tech=outside,cache',
  predict: '?sample=1&model=tiny&size=32x32&batch=16&epochs=1+1&train=all&card=40MB&mode=predict',
  race: '?sample=1&model=tiny&size=32x32&epochs=0+1&train=all&card=40MB&view=sweep',
  seed: '?model=v2-l&weights=random&size=300x500&batch=28&train=all&card=16GB&view=planner',
  experiments:
    '?sample=1&model=tiny&weights=random&size=32x32&batch=16&epochs=1+1&train=all&view=experiments',
};

test('the workshop links, opened one after another in one browser, each leave a live page', async ({
  page,
}) => {
  test.setTimeout(10 * 60_000);
  await openLab(page, LINKS.preset);
  await expect(page.getByTestId('class-table')).toContainText('triangles', { timeout: 60_000 });
  await expect(page.getByTestId('train')).toBeEnabled();

  // Link 2 over link 1's saved pretrained MobileNetV2: the tiny model, a guess asked before Train.
  await openLab(page, LINKS.predict);
  await expect(page.getByTestId('class-table')).toContainText('triangles', { timeout: 60_000 });
  await expect(page.getByTestId('model-select')).toHaveValue('tiny');
  await expect(page.getByTestId('settings-problems')).toHaveCount(0);
  // The guess is asked where the planner's numbers stand.
  await goTo(page, 'memory');
  await expect(page.getByTestId('predict-guess')).toBeVisible();
  await expect(page.getByTestId('train')).toBeDisabled();
  await expect(page.getByTestId('train-blocker')).toContainText('Commit a guess');
  await page.getByTestId('guess-phase').selectOption('fine-tune');
  await page.getByTestId('guess-mb').fill('30');
  await page.getByTestId('guess-commit').click();
  await expect(page.getByTestId('train')).toBeEnabled();
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('oom');
  // The failure comes to the participant: the train view, its panel in view and focused, the layer and
  // first fix named.
  await expect(page.getByTestId('view-tab-train')).toHaveAttribute('aria-selected', 'true');
  const oomPanel = page.getByTestId('oom-panel');
  await expect(oomPanel).toBeInViewport({ timeout: 1_000 });
  await expect(oomPanel).toBeFocused();
  await expect(page.getByTestId('run-bar-oom')).toContainText(/Out of memory (at|during) .+ · try /);
  // The lesson's measurement is recorded though the phase ran out: the guess table compares.
  // The phase never finished a step: the measurement is what its failing step held, a lower bound.
  await expect(page.getByTestId('guess-measured-value')).toHaveText(/^at least \d/);
  await expect(page.getByTestId('guess-guess-error')).toHaveText(/^[+-]\d+\.\d% or lower$/);

  // Applying the top fix brings the participant back to the run it continues.
  await page.getByTestId('remedies').getByRole('button').first().click();
  await expect(page.getByTestId('run-panel')).toBeInViewport({ timeout: 1_000 });
  await expect(page.getByTestId('run-panel')).toBeFocused();
  await expect(page.getByTestId('oom-panel')).toHaveCount(0);
  // The next link needs the engine free: stop the continued run unless it has already ended.
  const stop = page.getByTestId('stop');
  if (await stop.isEnabled()) await stop.click({ timeout: 5_000 }).catch(() => undefined);
  await waitForRunEnd(page);

  // Each link opens the view it names, with the panel it names in view.
  for (const [link, heading] of [
    [LINKS.race, '#sweep-title'],
    [LINKS.experiments, '#experiments-title'],
  ] as const) {
    await openLab(page, link);
    await expect(page.getByTestId('class-table')).toContainText('triangles', { timeout: 60_000 });
    await expect(page.getByTestId('settings-problems')).toHaveCount(0);
    await expect(page.getByTestId('train')).toBeEnabled();
    await expect(page.getByTestId('view-tab-experiments')).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator(heading)).toBeInViewport();
  }
  await openLab(page, LINKS.seed);
  await expect(page.getByTestId('view-tab-memory')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#planner-title')).toBeInViewport();
  await expect(page.getByTestId('model-select')).toHaveValue('v2-l');
  await expect(page.getByTestId('settings-problems')).toHaveCount(0);
  await expect(page.getByTestId('verdict')).toBeVisible();
});

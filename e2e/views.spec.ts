import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab, seriousViolations, storeValue, type View } from './lab';

const VIEWS: View[] = ['data', 'model', 'memory', 'train', 'results', 'experiments', 'workshop'];
const LABELS: Record<View, string> = {
  data: 'Data',
  model: 'Model',
  memory: 'Memory',
  train: 'Train',
  results: 'Results',
  experiments: 'Experiments',
  workshop: 'Workshop',
};
/** Three screens at 1440×900: the most a view may ask a person to scroll through. */
const MAX_VIEW_HEIGHT = 2700;

test('the views: the landing view says what to do first; each view is in the address and the title, at most three screens tall, with nothing serious for axe; back, forward, reload and the keyboard move between them', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page);

  // A first visit lands on Data, where the first step is, and shows it above the fold.
  await expect(page).toHaveURL(/#\/data$/);
  await expect(page).toHaveTitle('Data · VRAM Lab');
  await expect(page.getByTestId('view-tab-data')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No data yet. Try the built-in sample first.')).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Use built-in sample' })).toBeInViewport({ ratio: 1 });
  await expect(page.getByRole('button', { name: 'Choose folder…' })).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('train')).toBeInViewport({ ratio: 1 });

  await loadSample(page);
  const heights: Partial<Record<View, number>> = {};
  for (const view of VIEWS) {
    await goTo(page, view);
    await expect(page).toHaveURL(new RegExp(`#/${view}$`));
    await expect(page).toHaveTitle(`${LABELS[view]} · VRAM Lab`);
    // Only the view shown is drawn; the run bar is on every one.
    for (const other of VIEWS.filter((v) => v !== view))
      await expect(page.getByTestId(`view-${other}`)).toBeHidden();
    await expect(page.getByTestId('train')).toBeVisible();
    expect(await seriousViolations(page), `axe on the ${view} view`).toEqual([]);
    heights[view] = await page.evaluate(() => document.documentElement.scrollHeight);
  }
  console.log(`view heights at 1440×900 with the sample: ${JSON.stringify(heights)}`);
  for (const view of VIEWS)
    expect(heights[view], `the ${view} view's height`).toBeLessThanOrEqual(MAX_VIEW_HEIGHT);

  // Tables fit their pane beside the controls and on the memory view at 1440 and 1024; at 768 the
  // memory column stacks under the controls.
  for (const width of [1440, 1024, 768]) {
    await page.setViewportSize({ width, height: 900 });
    for (const view of ['model', 'memory', 'train'] as const) {
      await goTo(page, view);
      const overflowing = await page.evaluate(() =>
        [...document.querySelectorAll('table')]
          .filter((t) => t.checkVisibility())
          .filter((t) => t.getBoundingClientRect().right > t.closest('.panel')!.getBoundingClientRect().right)
          .map((t) => t.className),
      );
      expect(overflowing, `tables wider than their panel on ${view} at ${width} px`).toEqual([]);
    }
    const work = await page.locator('.layout .work').boundingBox();
    const side = await page.locator('.layout .side').boundingBox();
    if (width === 768) expect(side!.y, 'the memory column under the controls').toBeGreaterThan(work!.y);
    else expect(side!.x, 'the memory column beside the controls').toBeGreaterThan(work!.x + work!.width);
  }
  await page.setViewportSize({ width: 1440, height: 900 });

  // Back and forward walk the views shown, one entry each; a reload keeps the view.
  await page.goBack();
  await expect(page.getByTestId('view-tab-memory')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveTitle('Memory · VRAM Lab');
  await page.goBack();
  await expect(page.getByTestId('view-model')).toBeVisible();
  await page.goForward();
  await expect(page.getByTestId('view-memory')).toBeVisible();
  expect(await storeValue(page, 'nav.view')).toBe('memory');
  await page.reload();
  await expect.poll(() => storeValue(page, 'engine.status'), { timeout: 60_000 }).toBe('ready');
  await expect(page.getByTestId('view-memory')).toBeVisible();
  await expect(page).toHaveTitle('Memory · VRAM Lab');

  // The keyboard: the selected tab is the one Tab reaches; arrows move, Enter shows.
  await page.getByTestId('view-tab-memory').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('view-tab-model')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('view-model')).toBeVisible();
  await expect(page).toHaveURL(/#\/model$/);
  await page.keyboard.press('Home');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('view-data')).toBeVisible();

  // A hash typed by hand shows its view; one naming no view leaves the page as it was.
  await page.evaluate(() => (location.hash = '#/memory'));
  await expect(page.getByTestId('view-memory')).toBeVisible();
  await page.evaluate(() => (location.hash = '#/nowhere'));
  await expect(page.getByTestId('view-memory')).toBeVisible();
});

/** Every panel a link's view= can name (core/settings/views LINK_TARGETS), with its view and heading. */
const PANEL_LINKS: [string, View, string][] = [
  ['preview', 'data', 'preview-title'],
  ['layers', 'model', 'layers-title'],
  ['card', 'memory', 'card-settings-title'],
  ['planner', 'memory', 'planner-title'],
  ['run', 'train', 'run-title'],
  ['metrics', 'train', 'metrics-title'],
  ['log', 'train', 'log-title'],
  ['history', 'results', 'history-title'],
  ['sweep', 'experiments', 'sweep-title'],
  ['experiments', 'experiments', 'experiments-title'],
  ['lessons', 'workshop', 'lessons-title'],
  ['class-results', 'workshop', 'class-results-title'],
];

test('a link’s view= opens its view, and a link to a panel inside one brings that panel’s heading into view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, '?view=train');
  await expect(page.getByTestId('view-train')).toBeVisible();
  await expect(page).toHaveURL(/\?view=train#\/train$/);
  for (const [target, view, heading] of PANEL_LINKS) {
    await openLab(page, `?view=${target}`);
    await expect(page.getByTestId(`view-${view}`), `view=${target}`).toBeVisible();
    await expect(page.locator(`#${heading}`), `view=${target}`).toBeInViewport();
  }
});

test('the model view stays within three screens for the seed’s EfficientNetV2-L (84 blocks in the explorer)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, '?sample=1&model=v2-l&weights=random&view=model');
  await expect(page.getByTestId('layer-explorer').locator('[data-testid^="block-"]')).toHaveCount(84, {
    timeout: 120_000,
  });
  await page.getByRole('button', { name: 'Dismiss' }).click();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height, 'the model view with V2-L').toBeLessThanOrEqual(MAX_VIEW_HEIGHT);
  // The explorer scrolls within its box: its last block is reached there, and Space still toggles it.
  const last = page.getByRole('checkbox', { name: 'train block top' });
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
  expect(await seriousViolations(page), 'axe on the model view with V2-L').toEqual([]);
});

import { expect, test, type Locator } from '@playwright/test';
import { goTo, loadSample, openLab, seriousViolations, useTinySettings } from './lab';

/** Whether the element's box lies within the viewport (what the user sees without scrolling). */
async function inViewport(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
  });
}

test('cause and effect on one screen: toggling a block moves the predicted peak in view; the run bar is in reach; no overlap at three widths; axe finds nothing serious', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { size: 32, unfreezeLastN: 0 });
  expect(await seriousViolations(page), 'axe on the first view').toEqual([]);
  await goTo(page, 'model');

  // Toggle a block in the explorer, scrolled into view; the predicted fine-tune peak stays on screen.
  const explorer = page.getByTestId('layer-explorer');
  await explorer.getByRole('button', { name: 'Head only' }).click();
  const readout = page.getByTestId('peak-readout-fine-tune');
  const before = await readout.textContent();
  const block = explorer.getByRole('checkbox', { name: 'train block block7a' });
  await block.scrollIntoViewIfNeeded();
  await block.check();
  await expect(readout).not.toHaveText(before ?? '');
  expect(await inViewport(block), 'the block toggled').toBe(true);
  expect(await inViewport(readout), 'the predicted fine-tune peak').toBe(true);
  const plannerCell = page.getByTestId('planner-fine-tune-predicted');
  await expect(plannerCell).toHaveText(/MB|KB/);
  expect(await inViewport(plannerCell), "the planner's fine-tune row").toBe(true);

  // Keyboard: the explorer's arrow keys move between rows, Right opens a block, Space toggles.
  await block.focus();
  await page.keyboard.press('ArrowRight');
  await expect(explorer.getByTestId('block-block7a').getByRole('button').first()).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(explorer.getByTestId('block-block7a').getByRole('button').first()).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await page.keyboard.press('ArrowDown');
  const firstLayer = explorer.getByTestId('block-block7a').locator('tr').nth(1).getByRole('checkbox');
  await expect(firstLayer).toBeFocused();
  const wasChecked = await firstLayer.isChecked();
  await page.keyboard.press('Space');
  await expect(firstLayer).toBeChecked({ checked: !wasChecked });
  expect(await seriousViolations(page), 'axe with a block open').toEqual([]);

  // From the top of a freshly opened page (data loaded without touching the page), Train is at most 6
  // Tab presses away (the skip link, the backend, the view tabs as one stop, the mode, Copy link, Train),
  // and the skip link gets there in 2.
  const fresh = await page.context().newPage();
  await fresh.setViewportSize({ width: 1440, height: 900 });
  await openLab(fresh);
  await fresh.evaluate(() => window.__lab!.commands.useSample());
  await expect(fresh.getByTestId('train')).toBeEnabled();
  await fresh.keyboard.press('Tab');
  await expect(fresh.getByRole('link', { name: 'Skip to the run controls' })).toBeFocused();
  await fresh.keyboard.press('Enter');
  await fresh.keyboard.press('Tab');
  await expect(fresh.getByTestId('train')).toBeFocused();
  await fresh.reload();
  await openLab(fresh);
  await fresh.evaluate(() => window.__lab!.commands.useSample());
  await expect(fresh.getByTestId('train')).toBeEnabled();
  const focusedTrain = () => fresh.getByTestId('train').evaluate((el) => el === document.activeElement);
  let presses = 0;
  while (presses < 6 && !(await focusedTrain())) {
    await fresh.keyboard.press('Tab');
    presses++;
  }
  expect(await focusedTrain(), 'Train within 6 Tab presses').toBe(true);
  await fresh.close();

  // At each width: no horizontal scroll, the main controls do not overlap, the run bar is on screen.
  const controls = ['train', 'stop', 'run-status', 'model-select', 'batch-size', 'height', 'layer-explorer'];
  for (const width of [1440, 1024, 768]) {
    await page.setViewportSize({ width, height: 900 });
    // Measured at the top: content scrolled under the pinned run bar is meant to pass beneath it.
    await page.evaluate(() => window.scrollTo(0, 0));
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `horizontal scroll at ${width} px`).toBeLessThanOrEqual(0);
    const boxes = await Promise.all(
      controls.map(async (id) => [id, await page.getByTestId(id).boundingBox()] as const),
    );
    for (const [i, [a, boxA]] of boxes.entries())
      for (const [b, boxB] of boxes.slice(i + 1)) {
        const overlap =
          boxA !== null &&
          boxB !== null &&
          boxA.x < boxB.x + boxB.width &&
          boxB.x < boxA.x + boxA.width &&
          boxA.y < boxB.y + boxB.height &&
          boxB.y < boxA.y + boxA.height;
        expect(overlap, `${a} and ${b} overlap at ${width} px`).toBe(false);
      }
    await explorer.scrollIntoViewIfNeeded();
    expect(await inViewport(page.getByTestId('train')), `the run bar at ${width} px`).toBe(true);
  }

  // Dark mode follows the system, and stays free of serious contrast problems.
  await page.emulateMedia({ colorScheme: 'dark' });
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe('rgb(255, 255, 255)');
  expect(await seriousViolations(page), 'axe in dark mode').toEqual([]);
});

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { addSystemFiles, makeLabelledFolder, makeManifestFolder } from './fixtures';
import { drawShapeImage, encodePng, SHAPE_KINDS } from '../scripts/shapes';
import { openLab, snapshot, storeValue, useTinySettings, waitForRunEnd } from './lab';

/** root/many/<class>/img_N.png, `perClass` copies of one tiny PNG per class: quick to write. */
function makeManyFiles(root: string, classes: readonly string[], perClass: number): string {
  const dir = join(root, 'many');
  rmSync(dir, { recursive: true, force: true });
  classes.forEach((name, k) => {
    mkdirSync(join(dir, name), { recursive: true });
    const png = encodePng(drawShapeImage(SHAPE_KINDS[k % SHAPE_KINDS.length]!, 8, 100 + k));
    for (let i = 0; i < perClass; i++) writeFileSync(join(dir, name, `img_${i}.png`), png);
  });
  return dir;
}

/** Drops the real directory `dir` on the drop zone as the OS would: the browser reads it from disk. */
async function dropDirectory(page: Page, dir: string): Promise<void> {
  const box = await page.getByTestId('dropzone').boundingBox();
  if (!box) throw new Error('The drop zone is not on the page.');
  const cdp = await page.context().newCDPSession(page);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  // An absolute path: the browser takes a relative one for a file it cannot find.
  const data = { items: [], files: [resolve(dir)], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const)
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data });
}

test('a dropped folder: classes counted, bad files listed with reasons, training runs', async ({ page }) => {
  const fixture = makeLabelledFolder(join('.e2e-fixtures', 'drop'), { perClass: 6, nested: true });
  await openLab(page);
  await page.getByTestId('folder-input').setInputFiles(fixture.dir);

  const table = page.getByTestId('class-table');
  for (const name of fixture.classes)
    await expect(table.getByRole('row', { name: `${name} 6` })).toBeVisible();
  const skipped = page.getByTestId('skipped-files');
  await expect(skipped).toContainText('Skipped files (2)');
  await expect(
    skipped.getByRole('listitem').filter({ hasText: 'shapes-fixture/circles/notes.txt' }),
  ).toContainText('not an image (.txt)');
  await expect(
    skipped.getByRole('listitem').filter({ hasText: 'shapes-fixture/squares/broken.jpg' }),
  ).toContainText('cannot decode');
  await expect(page.getByTestId('dataset-summary')).toContainText('18 images in 3 classes, 2 files skipped');

  await useTinySettings(page, { batchSize: 8, frozenEpochs: 1, fineTuneEpochs: 0 });
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  const s = await snapshot(page);
  expect(s.run.epochs).toHaveLength(1);
  expect(s.run.batches.length).toBeGreaterThanOrEqual(2);
});

test('a folder with one class explains why it cannot train, and the lab keeps working', async ({ page }) => {
  const fixture = makeLabelledFolder(join('.e2e-fixtures', 'one-class'), {
    classes: ['circles'],
    perClass: 3,
    extras: false,
  });
  await openLab(page);
  await page.getByTestId('folder-input').setInputFiles(fixture.dir);
  await expect(page.getByRole('alert').filter({ hasText: 'Only one class ("circles")' })).toBeVisible();
  await expect(page.getByTestId('train')).toBeDisabled();
  await page.getByRole('button', { name: 'Use built-in sample' }).click();
  await expect(page.getByTestId('train')).toBeEnabled();
});

test('system files are ignored in one quiet line, and a class folder without images is named', async ({
  page,
}) => {
  const fixture = makeLabelledFolder(join('.e2e-fixtures', 'junk'), { perClass: 4 });
  const junk = addSystemFiles(fixture);
  await openLab(page);
  await page.getByTestId('folder-input').setInputFiles(fixture.dir);

  await expect(page.getByTestId('ignored-files')).toContainText(`ignored ${junk.ignored} system files`);
  const table = page.getByTestId('class-table');
  for (const name of fixture.classes)
    await expect(table.getByRole('row', { name: `${name} 4` })).toBeVisible();
  await expect(table).not.toContainText('__MACOSX');
  await expect(table).not.toContainText(junk.emptyClass);
  await expect(
    page.getByRole('alert').filter({ hasText: `Class folder "${junk.emptyClass}" is empty` }),
  ).toBeVisible();
  const skipped = page.getByTestId('skipped-files');
  await expect(skipped).toContainText('Skipped files (2)');
  for (const name of ['.DS_Store', 'Thumbs.db', 'desktop.ini', '.hidden.png', '__MACOSX', '@eaDir'])
    await expect(skipped).not.toContainText(name);
  await expect(page.getByTestId('dataset-summary')).toContainText('12 images in 3 classes, 2 files skipped');
  await expect(page.getByTestId('train')).toBeEnabled();
});

test('a CSV manifest (path,label) labels a flat folder, naming each bad row', async ({ page }) => {
  const fixture = makeManifestFolder(join('.e2e-fixtures', 'manifest'));
  await openLab(page);
  await page.getByTestId('folder-input').setInputFiles(fixture.dir);

  const table = page.getByTestId('class-table');
  for (const [name, count] of Object.entries(fixture.counts))
    await expect(table.getByRole('row', { name: `${name} ${count}` })).toBeVisible();
  await expect(page.getByTestId('dataset-summary')).toContainText('Labels from manifest-fixture/labels.csv');
  const skipped = page.getByTestId('skipped-files');
  for (const [row, what] of Object.entries(fixture.badRows))
    await expect(
      skipped.getByRole('listitem').filter({ hasText: `manifest-fixture/labels.csv row ${row}` }),
    ).toContainText(what);
  await expect(skipped).toContainText(`Skipped files (${Object.keys(fixture.badRows).length})`);
  await expect(page.getByTestId('train')).toBeEnabled();
});

test('a folder dropped from disk is listed by name, its files opened with a count, and Cancel stops it', async ({
  page,
}) => {
  const small = makeLabelledFolder(join('.e2e-fixtures', 'dropped'), { perClass: 4, nested: true });
  // Thousands of files: opening them one by one takes seconds, long enough to see the count and cancel.
  const big = makeManyFiles(join('.e2e-fixtures', 'dropped-big'), ['alpha', 'beta', 'gamma', 'delta'], 1500);
  await openLab(page);

  await dropDirectory(page, small.dir);
  const table = page.getByTestId('class-table');
  for (const name of small.classes) await expect(table.getByRole('row', { name: `${name} 4` })).toBeVisible();
  await expect(page.getByTestId('skipped-files')).toContainText('Skipped files (2)');
  await expect.poll(async () => storeValue(page, 'dataset.status')).toBe('ready');
  await expect(page.getByTestId('train')).toBeEnabled();

  await dropDirectory(page, big);
  // The classes show before the files are opened.
  await expect(table.getByRole('row', { name: 'alpha 1500' })).toBeVisible();
  await expect.poll(async () => storeValue(page, 'dataset.progress.phase')).toBe('opening');
  await expect(page.getByTestId('progress-count')).toContainText(/\d+ \/ 6000/);
  await page.getByTestId('cancel-dataset').click();
  await expect.poll(async () => storeValue(page, 'dataset.status')).toBe('empty');
  await expect
    .poll(async () => (await snapshot(page)).log.some((l) => l.message.includes('was not loaded: cancelled')))
    .toBe(true);
});

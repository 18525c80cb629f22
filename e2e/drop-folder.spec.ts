import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { makeLabelledFolder } from './fixtures';
import { openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

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

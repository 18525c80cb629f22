import { expect, test } from '@playwright/test';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goTo, loadSample, openLab, useTinySettings, waitForRunEnd } from './lab';
import { writeTinyH5 } from './weightsFixture';

test('a Keras .h5 file loads by layer name with a match report; a mismatched one names the layer', async ({
  page,
}) => {
  const dir = join(tmpdir(), `vram-lab-weights-${process.pid}`);
  const good = await writeTinyH5(dir, 'tiny_3_classes.h5', 32, 3);
  const mismatched = await writeTinyH5(dir, 'tiny_4_classes.h5', 32, 4);

  await openLab(page);
  await loadSample(page);
  await useTinySettings(page, { size: 32, frozenEpochs: 1, fineTuneEpochs: 0 });
  await goTo(page, 'model');
  await page.getByTestId('weights-file').check();
  await expect(page.getByTestId('weights-drop')).toContainText('No file loaded');

  await page.getByTestId('weights-input').setInputFiles(mismatched);
  await expect(page.getByTestId('weights-loaded')).toContainText('tiny_4_classes.h5 (Keras HDF5');
  await expect(page.getByTestId('weights-mismatches')).toHaveAttribute('data-count', '2');
  await expect(page.getByTestId('weights-report-error')).toContainText(
    'predictions/kernel: model expects [128, 3], stored [128, 4]',
  );

  await page.getByTestId('weights-input').setInputFiles(good);
  await expect(page.getByTestId('weights-loaded')).toContainText('tiny_3_classes.h5');
  await expect(page.getByTestId('weights-mismatches')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('weights-missing')).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('weights-report')).toContainText(
    /tiny_3_classes\.h5 gives [\d,]+ of the model's [\d,]+ parameters \(100\.0%\); none stays at its random initialisation\./,
  );
  await expect(page.getByTestId('weights-report-error')).toHaveCount(0);

  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page)).toBe('completed');
  await expect(page.getByTestId('log')).toContainText(
    /tiny_3_classes\.h5 gives [\d,]+ of the model's [\d,]+ parameters/,
  );
});

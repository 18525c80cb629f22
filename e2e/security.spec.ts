import { expect, test } from '@playwright/test';
import { loadSample, openLab, snapshot, useTinySettings, waitForRunEnd } from './lab';

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

test('a visit that loads the sample and trains a short run makes no request off the origin and breaks no policy', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL!).origin;
  const offOrigin: string[] = [];
  // The context sees the page's and the training worker's requests alike; data: and blob: stay local.
  page.context().on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin)
      offOrigin.push(request.url());
  });
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  page.on('worker', (w) =>
    w.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(`worker: ${m.text()}`);
    }),
  );

  // A blocked eval that the code catches (a library probing for eval) logs nothing, but still fires
  // securitypolicyviolation: collect those too.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __cspViolations: seen });
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  await openLab(page);
  // The CPU backend keeps this visit well under two minutes (SwiftShader compiles WebGPU shaders for
  // over a minute on a busy machine); what is fetched is the same on every backend.
  await page.getByRole('combobox', { name: 'Backend' }).selectOption('cpu');
  await expect.poll(async () => (await snapshot(page)).engine.backend?.name).toBe('cpu');
  await loadSample(page);
  await useTinySettings(page, { size: 16, batchSize: 16, frozenEpochs: 1, fineTuneEpochs: 0 });
  await page.getByTestId('train').click();
  expect(await waitForRunEnd(page, 90_000)).toBe('completed');
  expect((await snapshot(page)).run.batches.length).toBeGreaterThan(0);
  expect(offOrigin).toEqual([]);
  expect(violations).toEqual([]);
  expect(
    await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
  ).toEqual([]);
});

test('a file:// weights URL is refused with a message, and never fetched', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith('file:')) fetched.push(request.url());
  });
  await openLab(page);
  await page.getByTestId('weights-file').check();
  await page.getByTestId('weights-url').fill('file:///etc/passwd');
  await page.getByRole('button', { name: 'Load' }).click();
  await expect(page.getByTestId('weights-error')).toContainText(
    'file:///etc/passwd: only http(s) addresses are fetched, not file:. For a file on this computer, drop it here instead.',
  );
  expect(fetched).toEqual([]);
});

import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

/**
 * Playwright's own Chromium when it was installed (`npx playwright install chromium`), else the
 * system one (Debian: `apt-get install -y chromium`). Fails with instructions when neither exists.
 */
export function findChromium(): string {
  const fromEnv = process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  let bundled = '';
  try {
    bundled = chromium.executablePath();
  } catch {
    bundled = '';
  }
  if (bundled && existsSync(bundled)) return bundled;
  for (const path of [
    '/usr/bin/chromium',
    '/usr/lib/chromium/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ]) {
    if (existsSync(path)) return path;
  }
  throw new Error(
    'No Chromium found for the e2e tests. Install one: `sudo apt-get install -y chromium` (Debian/Ubuntu), ' +
      'or `npx playwright install chromium`, or set PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH.',
  );
}

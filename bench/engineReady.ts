// Shared by the bench rows that drive the lab's page in Chromium.
import type { Page } from '@playwright/test';

/** Waits until the lab's engine has picked a backend (window.__lab, present in e2e and dev builds). */
export async function engineReady(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (
        window as unknown as { __lab?: { store: { getState(): { engine: { status: string } } } } }
      ).__lab?.store.getState().engine.status === 'ready',
    null,
    { timeout: 120_000, polling: 500 },
  );
}

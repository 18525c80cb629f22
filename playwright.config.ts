import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/chromium';

// Overridable so that a second checkout or a helper can run one spec beside the default build.
const port = Number(process.env.E2E_PORT ?? 4173);
const outDir = process.env.E2E_OUTDIR ?? 'dist';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  // SwiftShader WebGPU is slow (seconds per batch); a journey trains a tiny model for a few batches.
  timeout: 6 * 60_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: findChromium(),
      args: [
        '--no-sandbox',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--enable-unsafe-webgpu',
      ],
    },
  },
  webServer: {
    // The production build with the test handle compiled in (see src/testHandle.ts).
    command: `npx vite build --mode e2e --outDir ${outDir} --emptyOutDir && npx vite preview --outDir ${outDir} --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 180_000,
  },
});

import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/chromium';

// Overridable so that a second checkout or a helper can run one spec beside the default build.
const port = Number(process.env.E2E_PORT ?? 4173);
const outDir = process.env.E2E_OUTDIR ?? 'dist';
const LONG = /(workshop-preset|budget-oom|sweep|techniques)\.spec\.ts/;

/**
 * Every journey starts with the backend set to webgpu, as if the user had chosen it: the lab's main
 * path, whose memory model, error scopes and device loss the journeys check. Left on auto, this
 * machine's software adapter would put WebGL first (core/device/backend); backend.spec checks auto itself.
 */
const webgpuChosen = {
  cookies: [],
  origins: [
    {
      origin: `http://127.0.0.1:${port}`,
      localStorage: [
        {
          name: 'vram-lab-settings',
          value: JSON.stringify({ state: { backendRequest: 'webgpu' }, version: 2 }),
        },
      ],
    },
  ],
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  // SwiftShader WebGPU is slow (seconds per batch); a journey trains a tiny model for a few batches,
  // and two journeys share the two cores (every timeout leaves room for that).
  timeout: 10 * 60_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  // Two spec files at a time: SwiftShader keeps about one core busy per browser, so two workers finish
  // the suite in about 0.6 of the time on two cores. A spec that measures the page's own timing runs
  // alone afterwards (project 'alone'), where no other browser competes for the cores.
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    storageState: webgpuChosen,
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
  // The longest journeys (several runs each, 5–8 min) start first, so that the two workers end
  // together instead of one running a long spec alone at the end (longest first).
  projects: [
    { name: 'long', testMatch: LONG },
    { name: 'journeys', testIgnore: [LONG, /responsive\.spec\.ts/] },
    { name: 'alone', testMatch: /responsive\.spec\.ts/, dependencies: ['long', 'journeys'] },
  ],
  webServer: {
    // The production build with the test handle compiled in (window.__lab, see src/main.tsx).
    command: `npx vite build --mode e2e --outDir ${outDir} --emptyOutDir && npx vite preview --outDir ${outDir} --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: false,
    timeout: 180_000,
  },
});

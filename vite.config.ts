import { availableParallelism } from 'node:os';
import { defineConfig, type Plugin } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { metaContentSecurityPolicy, netlifyHeaders, SECURITY_HEADERS } from './deploy/headers.ts';

/**
 * Puts the security policy into every production build: a CSP `<meta>` tag in index.html (for hosts
 * that cannot set headers) and a `_headers` file (Netlify, Cloudflare Pages). Not in `vite dev`, whose
 * hot reload injects inline scripts.
 */
function securityPolicy(): Plugin {
  return {
    name: 'vram-lab-security-policy',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: metaContentSecurityPolicy() },
        injectTo: 'head-prepend',
      },
    ],
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: netlifyHeaders() });
    },
  };
}

export default defineConfig({
  plugins: [react(), securityPolicy()],
  // Relative asset URLs so the production build also works from a sub-path or file server.
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    // The test handle (window.__lab) is compiled in only for `--mode e2e` and dev (see src/main.tsx).
    // Source maps publish the whole source next to the app: only when asked for (VRAM_LAB_SOURCEMAP=1).
    sourcemap: process.env.VRAM_LAB_SOURCEMAP === '1',
    // tfjs with its WebGPU backend is about 4 MB, and h5wasm (a lazily loaded chunk, for .h5 weights) 4.7 MB.
    chunkSizeWarningLimit: 5120,
  },
  // `vite preview` serves the build as a deployment would (see deploy/).
  preview: { headers: { ...SECURITY_HEADERS } },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'deploy/**/*.test.ts'],
    // Component tests (*.test.tsx) choose happy-dom per file (`@vitest-environment`); the rest run in Node.
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
    // Vitest's default in run mode is one worker fewer than the cores: one worker on a 2-core machine,
    // leaving a core idle for the whole unit suite (its files are independent processes).
    maxWorkers: availableParallelism(),
  },
});

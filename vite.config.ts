import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  // Relative asset URLs so the production build also works from a sub-path or file server.
  base: './',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    // The test handle (window.__lab) is compiled in only for `--mode e2e` and dev (see src/main.tsx).
    sourcemap: true,
    // tfjs with its WebGPU backend is about 4 MB, and h5wasm (a lazily loaded chunk, for .h5 weights) 4.7 MB.
    chunkSizeWarningLimit: 5120,
  },
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    pool: 'forks',
  },
});

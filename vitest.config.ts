import { defineConfig } from 'vitest/config';

// Time limits here only catch hangs: tests wait for conditions, never for fixed speeds, and a
// loaded machine (CI beside other work) can be several times slower than an idle one.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup/preload-lazy-modules.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

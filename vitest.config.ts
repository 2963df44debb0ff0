import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Time limits here only catch hangs: tests wait for conditions, never for fixed speeds, and a
// loaded machine (CI beside other work) can be several times slower than an idle one.
//
// Many test files spend much of their time waiting on child processes, sockets, timers and
// fsync, so three run at once even on 2 cores (vitest's default there is one). The files below
// assert how long a server takes to answer beside a heavy query (a main-thread freeze is the bug
// they catch); they run one at a time with no other test file beside them, so another file's
// work cannot take their core (`npm test` runs them first, beside only its low-priority static
// checks: scripts/run-tests.mjs; a plain `vitest run` runs them after the others).
const ALONE = [
  'test/server/cancellation.test.ts',
  'test/server/main-thread-freeze.test.ts',
  'test/server/attack-matrix.test.ts',
  'test/server/tcp.test.ts',
  'test/server/tx-cancel.test.ts',
  'test/server/tx-router-queue.test.ts',
  'test/server/tx-worker-reads.test.ts',
  'test/engine/limits.test.ts',
  'test/fulltext/query-bounds.test.ts',
];

export default defineConfig({
  test: {
    // A worker process runs file after file in one module graph instead of a fresh process per
    // file: loading the engine's modules (the setup file) then happens once per worker, not
    // 200 times, which was a third of the suite's CPU. Test files therefore leave no global
    // state behind (handlers they add to `process` are removed, env changes stay local).
    isolate: false,
    setupFiles: ['test/setup/preload-lazy-modules.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ALONE,
          maxWorkers: Number(process.env.GRAPHDB_TEST_WORKERS) || Math.max(3, availableParallelism() - 1),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});

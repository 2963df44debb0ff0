import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

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

/** Seconds each long file took in a full run (scripts/update-test-durations.mjs writes it). */
const KNOWN_SECONDS = JSON.parse(readFileSync(new URL('./test/file-durations.json', import.meta.url), 'utf8')) as Record<string, number>;

/**
 * Starts the longest files first, so the last minutes are not one long file running alone. vitest
 * does so from its own cache of the last run's durations; a fresh clone has none, and vitest then
 * starts the largest files first, which are not the slowest ones (a one-test crash or browser
 * file is short). Files it has no duration for take the one in test/file-durations.json.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification): number => {
      const path = relative(root, f.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${path}`);
      return cached !== undefined ? cached.duration / 1000 : (KNOWN_SECONDS[path] ?? 0);
    };
    const order = await super.sort(files); // projects in their group order, and ties as vitest orders them
    const rank = new Map(order.map((f, i) => [f, i]));
    return order.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || seconds(b) - seconds(a) || rank.get(a)! - rank.get(b)!);
  }
}

export default defineConfig({
  test: {
    // A worker process runs file after file in one module graph instead of a fresh process per
    // file: loading the engine's modules (the setup file) then happens once per worker, not
    // 200 times, which was a third of the suite's CPU. Test files therefore leave no global
    // state behind (handlers they add to `process` are removed, env changes stay local).
    isolate: false,
    setupFiles: ['test/setup/preload-lazy-modules.ts'],
    sequence: { sequencer: LongestFirst },
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

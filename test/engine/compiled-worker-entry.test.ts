/**
 * Which worker module a pool started from the TypeScript sources runs: the compiled one only
 * while the last build is newer than every source (worker-pool.ts compiledWorkerEntry), so a
 * test never runs a query worker older than the code it tests.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledWorkerEntry } from '../../src/engine/workers/worker-pool.js';

const root = mkdtempSync(join(tmpdir(), 'graphdb-worker-entry-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(path: string, at: number): string {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, at, at);
  return full;
}

describe('the compiled query worker for a run from the sources', () => {
  const built = join(root, 'dist', 'src', 'engine', 'workers', 'query-worker.js');

  it('is used when the build is newer than every source, and not once a source is edited after it', () => {
    file('src/engine/database.ts', 1000);
    file('runtime/graph/context.ts', 1000);
    expect(compiledWorkerEntry(root)).toBeUndefined(); // never built
    file('dist/src/engine/workers/query-worker.js', 2000);
    file('dist/tsconfig.tsbuildinfo', 2000);
    expect(compiledWorkerEntry(root)).toBe(pathToFileURL(built).href);
    file('runtime/graph/context.ts', 3000); // edited after the build, deep in another source directory
    expect(compiledWorkerEntry(root)).toBeUndefined();
    file('dist/tsconfig.tsbuildinfo', 4000); // built again
    expect(compiledWorkerEntry(root)).toBe(pathToFileURL(built).href);
    file('test/engine/some.test.ts', 5000); // a test is not worker code
    expect(compiledWorkerEntry(root)).toBe(pathToFileURL(built).href);
  });
});

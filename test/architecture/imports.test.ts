/**
 * The module graph flows one way: no source module imports (even for types only) a module
 * that imports it back, directly or through others. Checked by reading every import and
 * re-export of the engine's TypeScript sources.
 */

import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycles, sourceFiles } from './moduleGraph.js';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const SOURCE_DIRS = ['src', 'codegen', 'runtime', 'functions', 'procedures'];

describe('module graph', () => {
  it('has no import cycles', () => {
    const files = SOURCE_DIRS.flatMap((d) => sourceFiles(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(100);
    const cycles = findCycles(files).map((c) => c.map((f) => relative(ROOT, f)).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('detects a cycle when there is one', () => {
    // The check itself must be able to fail: two fixture modules that import each other.
    const a = join(ROOT, 'test/architecture/fixtures/a.ts');
    const b = join(ROOT, 'test/architecture/fixtures/b.ts');
    expect(findCycles([a, b]).length).toBe(1);
  });
});

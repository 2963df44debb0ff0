/**
 * The grammar's V8 code cache (src/code-cache.ts) through the built binary: written by the
 * first process, used unchanged by the next, replaced when V8 rejects it, and a directory that
 * cannot hold it costs nothing but the cache.
 */

import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeCacheDirs } from '../../src/code-cache.js';
import { runCli } from './run-cli.js';

const dirs: string[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-code-cache-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Runs a query that needs the grammar with the cache in `dir`; checks its answer. */
function query(dir: string): void {
  const r = runCli(['query', 'UNWIND [1, 2] AS x RETURN sum(x) AS s', '--json'], '', { GRAPHDB_CACHE_DIR: dir });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stderr).toBe('');
  expect(JSON.parse(r.stdout).rows).toEqual([{ s: '3' }]);
}

function cacheFiles(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.startsWith('parser-bundle-cjs-') && name.endsWith('.cache'));
}

describe('the grammar code cache', () => {
  it('is written by the first process and used, not rewritten, by the next', () => {
    const dir = freshDir();
    query(dir);
    const [file, ...others] = cacheFiles(dir);
    expect(others).toEqual([]);
    expect(file).toContain(`node${process.versions.node}`);
    const written = statSync(join(dir, file));
    expect(written.size).toBeGreaterThan(100_000);
    query(dir);
    const after = statSync(join(dir, file));
    // A rejected cache would have been replaced (a rename: another inode).
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('that V8 rejects (damaged) is ignored and replaced by a good one', () => {
    const dir = freshDir();
    query(dir);
    const [file] = cacheFiles(dir);
    writeFileSync(join(dir, file), Buffer.alloc(4096, 7));
    query(dir);
    const replaced = statSync(join(dir, file));
    expect(replaced.size).toBeGreaterThan(100_000);
    query(dir);
    expect(statSync(join(dir, file)).ino).toBe(replaced.ino);
  });

  it('in a directory that cannot be made leaves the query working and silent', () => {
    const parent = freshDir();
    const notADirectory = join(parent, 'file');
    writeFileSync(notADirectory, 'x');
    query(join(notADirectory, 'cache'));
  });

  it('is neither written nor read in a directory others may write (V8 would run what it holds)', () => {
    const dir = freshDir();
    chmodSync(dir, 0o777);
    query(dir);
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('lives in $GRAPHDB_CACHE_DIR, else $XDG_CACHE_HOME/graphdb or ~/.cache/graphdb, then the temporary directory', () => {
    expect(codeCacheDirs({ GRAPHDB_CACHE_DIR: '/c' })).toEqual(['/c']);
    const xdg = codeCacheDirs({ XDG_CACHE_HOME: '/x' });
    expect(xdg[0]).toBe(join('/x', 'graphdb'));
    expect(xdg[1].startsWith(tmpdir())).toBe(true);
    expect(codeCacheDirs({})[0]).toMatch(/[/\\]\.cache[/\\]graphdb$/);
  });
});

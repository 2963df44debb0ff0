/**
 * Loads a CommonJS bundle that the build writes (the grammar: scripts/build-parser-bundle.mjs)
 * through a V8 code cache kept per user, so that every process after the first skips most of
 * compiling it. Node 20 has no `module.enableCompileCache()`, so the bundle is compiled with
 * `vm.Script` and its `cachedData`. The cache lives in `$GRAPHDB_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/graphdb` (`~/.cache/graphdb`), else a directory under `os.tmpdir()`; its
 * file is named by the bundle's content hash and the Node and V8 versions, and is written once,
 * when a process that found none (or one V8 rejected) exits, so that it also holds the
 * functions that process compiled. Only a directory and file of this user that no one else can
 * write are used. A cache that cannot be read, written or used is only a slower start: every
 * failure falls back to compiling. Other start-up answers worth keeping between processes (the
 * ONNX provider probe, procedures/algo/compute.ts) use the same directories.
 */

import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** The first line of a bundle the build wrote: the hash of the rest, so that a start need not hash a megabyte. */
const HASH_LINE = /^\/\/ bundle-hash ([0-9a-f]{16,64})\n/;

/** Where caches are looked for and written, in order: the user's cache directory, then the temporary one. */
export function codeCacheDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.GRAPHDB_CACHE_DIR !== undefined && env.GRAPHDB_CACHE_DIR !== '') return [env.GRAPHDB_CACHE_DIR];
  const dirs: string[] = [];
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== '') dirs.push(join(xdg, 'graphdb'));
  else {
    try {
      dirs.push(join(homedir(), '.cache', 'graphdb'));
    } catch {
      // No home directory (a service account): the temporary directory only.
    }
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  dirs.push(join(tmpdir(), `graphdb-cache-${uid}`));
  return dirs;
}

/** The cache file's name for `source` (a bundle of `file`) under this Node and V8. */
export function codeCacheName(file: string, source: string): string {
  const hash = HASH_LINE.exec(source)?.[1] ?? createHash('sha256').update(source).digest('hex');
  return `${basename(file).replace(/\W+/g, '-')}-${hash.slice(0, 16)}-node${process.versions.node}-v8-${process.versions.v8.replace(/\W+/g, '-')}.cache`;
}

/**
 * Whether `path` is this user's and nobody else may write it: V8 runs what a cache holds, so a
 * cache in a directory another user could have made (the shared temporary one) is not used.
 */
function ownedPrivately(path: string): boolean {
  if (typeof process.getuid !== 'function') return true; // Windows: the user's own profile directories
  const s = lstatSync(path);
  return s.uid === process.getuid() && (s.mode & 0o022) === 0 && !s.isSymbolicLink();
}

/** A file of this user's cache directories by name (the first found that only this user can write), if any. */
export function readUserCache(name: string): Buffer | undefined {
  for (const dir of codeCacheDirs()) {
    try {
      const file = join(dir, name);
      if (ownedPrivately(dir) && ownedPrivately(file)) return readFileSync(file);
    } catch {
      // Not there (or not readable): the next directory.
    }
  }
  return undefined;
}

/** Writes a cache file into the first directory that takes it; a rename makes it whole or absent for a reader. */
export function writeUserCache(name: string, data: Buffer): void {
  for (const dir of codeCacheDirs()) {
    const temporary = join(dir, `${name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!ownedPrivately(dir)) continue;
      writeFileSync(temporary, data, { mode: 0o600 });
      renameSync(temporary, join(dir, name));
      return;
    } catch {
      // A read-only or full directory: the next one, or no cache at all.
    }
  }
}

/** Runs the CommonJS bundle `file` (an absolute path) and returns its exports. */
export function loadCachedBundle<T>(file: string): T {
  const source = readFileSync(file, 'utf8');
  const name = codeCacheName(file, source);
  const cached = readUserCache(name);
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapper, { filename: file, cachedData: cached });
  if (cached === undefined || script.cachedDataRejected === true) {
    // After this process's own work, so that the cache also holds what it compiled lazily.
    process.once('exit', () => {
      try {
        writeUserCache(name, script.createCachedData());
      } catch {
        // A cache is an optimisation only.
      }
    });
  }
  const module = { exports: {} as T };
  (script.runInThisContext() as (exports: T, require: NodeJS.Require, module: { exports: T }, filename: string, dirname: string) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return module.exports;
}

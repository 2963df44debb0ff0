/**
 * Modules the engine loads on first use rather than at start-up (the query parser, the
 * algorithm and APOC procedure families): a process that never needs them never pays for
 * them. The first use is inside synchronous code (parsing, a procedure call), so the built
 * JavaScript loads them through require(), which Node 20.19+ lets load an ES module.
 *
 * A lazy module may name a CommonJS bundle of itself that the build writes (the grammar's:
 * scripts/build-parser-bundle.mjs); where it exists, it loads through a V8 code cache
 * (src/code-cache.ts) instead.
 *
 * Runners that execute the TypeScript sources through loader hooks (vitest, tsx in a worker)
 * are invisible to require(); their entry points call `preloadLazyModules()` first, which loads
 * every lazy module with import() instead.
 */

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadCachedBundle } from './code-cache.js';
import { InternalError } from './errors.js';

const every: LazyModule<unknown>[] = [];

export class LazyModule<T> {
  private value: T | undefined;
  private loading: Promise<T> | undefined;

  /**
   * `base` is the importing module's `import.meta.url` and `specifier` the module relative to
   * it; `load` imports the same module (a literal `import()`, so bundlers and loaders see it).
   * `bundle`, relative to `base` too, names a CommonJS bundle of the module that the build may
   * have written: where it exists, get() runs it through a V8 code cache (src/code-cache.ts)
   * instead of requiring the module's many files.
   */
  constructor(
    private readonly base: string,
    private readonly specifier: string,
    private readonly load: () => Promise<T>,
    private readonly bundle?: string,
  ) {
    every.push(this as LazyModule<unknown>);
    // Run from the TypeScript sources (tsx, vitest), require() would make a second copy of the
    // module and of the error classes it throws: start its import() now, so that a script that
    // awaits anything before its first query uses the one copy.
    if (base.endsWith('.ts')) this.preload().catch(() => undefined);
  }

  /** The module, loading it now if nothing has yet. */
  get(): T {
    if (this.value === undefined) {
      try {
        const bundle = this.bundleFile();
        this.value = bundle !== undefined ? loadCachedBundle<T>(bundle) : (createRequire(this.base)(this.specifier) as T);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        // A broken installation, a Node older than 20.19, or a loader require() cannot follow.
        throw new InternalError(`graphdb could not load its module ${this.specifier} (${why}); it needs Node 20.19 or later, and under a loader that require() cannot follow, preloadLazyModules() first`, err);
      }
    }
    return this.value;
  }

  /** The built bundle's path, where there is one (never from the TypeScript sources). */
  private bundleFile(): string | undefined {
    if (this.bundle === undefined || !this.base.startsWith('file:') || this.base.endsWith('.ts')) return undefined;
    const file = fileURLToPath(new URL(this.bundle, this.base));
    return existsSync(file) ? file : undefined;
  }

  /** Whether the module has loaded (by get() or preload()). */
  get loaded(): boolean {
    return this.value !== undefined;
  }

  async preload(): Promise<T> {
    this.loading ??= this.load().then(
      (v) => (this.value ??= v),
      (err: unknown) => {
        this.loading = undefined; // a later call tries again
        throw err;
      },
    );
    return this.loading;
  }
}

/** Loads every lazy module declared so far through import(). */
export async function preloadLazyModules(): Promise<void> {
  for (const m of every) await m.preload();
}

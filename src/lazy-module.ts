/**
 * Modules the engine loads on first use rather than at start-up (the query parser, the
 * algorithm and APOC procedure families): a process that never needs them never pays for
 * them. The first use is inside synchronous code (parsing, a procedure call), so the built
 * JavaScript loads them through require(), which Node 20.19+ lets load an ES module.
 *
 * Runners that execute the TypeScript sources through loader hooks (vitest, tsx in a worker)
 * are invisible to require(); their entry points call `preloadLazyModules()` first, which loads
 * every lazy module with import() instead.
 */

import { createRequire } from 'node:module';
import { InternalError } from './errors.js';

const every: LazyModule<unknown>[] = [];

export class LazyModule<T> {
  private value: T | undefined;
  private loading: Promise<T> | undefined;

  /**
   * `base` is the importing module's `import.meta.url` and `specifier` the module relative to
   * it; `load` imports the same module (a literal `import()`, so bundlers and loaders see it).
   */
  constructor(
    private readonly base: string,
    private readonly specifier: string,
    private readonly load: () => Promise<T>,
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
        this.value = createRequire(this.base)(this.specifier) as T;
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        // A broken installation, a Node older than 20.19, or a loader require() cannot follow.
        throw new InternalError(`graphdb could not load its module ${this.specifier} (${why}); it needs Node 20.19 or later, and under a loader that require() cannot follow, preloadLazyModules() first`, err);
      }
    }
    return this.value;
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

/**
 * The browser build's src/lazy-module.ts (scripts/browser-bundle-options.mjs swaps it in): a
 * page has no synchronous require(), so every lazy module starts loading through its import()
 * as soon as it is declared, and the browser entries await `preloadLazyModules()` before they
 * open a database. A use before that (which the entries never make) gets a clear error.
 */
import { InternalError } from '../../errors.js';

const every: LazyModule<unknown>[] = [];

export class LazyModule<T> {
  private value: T | undefined;
  private loading: Promise<T> | undefined;
  private failure: unknown;

  constructor(
    _base: string,
    private readonly specifier: string,
    private readonly load: () => Promise<T>,
    _bundle?: string, // a page has no code cache: the module itself loads
  ) {
    every.push(this as LazyModule<unknown>);
    // Started now, so that it is usually in by the first use; a failure is kept for get() to report.
    this.preload().catch((err: unknown) => {
      this.failure = err;
    });
  }

  get(): T {
    if (this.value !== undefined) return this.value;
    const why = this.failure === undefined ? 'it is still loading: await preloadLazyModules() before opening a database' : this.failure instanceof Error ? this.failure.message : String(this.failure);
    throw new InternalError(`graphdb could not load its module ${this.specifier} in this page (${why})`, this.failure);
  }

  get loaded(): boolean {
    return this.value !== undefined;
  }

  async preload(): Promise<T> {
    this.loading ??= this.load().then((v) => (this.value = v));
    return this.loading;
  }
}

/** Waits for every lazy module declared so far. */
export async function preloadLazyModules(): Promise<void> {
  for (const m of every) await m.preload();
}

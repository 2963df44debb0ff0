/**
 * An auto-commit result the Bolt door streams (`QueryExecutor.stream`): its pages arrive
 * while the query runs on a worker, wait here until PULLs take them, and each page taken lets
 * the worker run one page further. So a PULL of a million rows never holds more than a few
 * pages. `stop` cancels the query (DISCARD of the rest, RESET, a closed connection).
 */

import type { Value } from '../../../runtime/values.js';
import type { QueryExecutor, QueryOptions, QueryParams, QueryResult, StreamingRead } from '../../engine/types.js';

export class LiveRows {
  columns: string[] | undefined;
  private readonly pages: Value[][][] = [];
  private ended = false;
  private error: unknown;
  private final: QueryResult | undefined;
  private wake: (() => void) | undefined;
  private readonly read: StreamingRead;

  constructor(
    stream: NonNullable<QueryExecutor['stream']>,
    text: string,
    params: QueryParams | undefined,
    options: QueryOptions,
    private readonly controller: AbortController,
  ) {
    this.read = stream(text, params, { ...options, signal: controller.signal }, (columns, rows) => {
      this.columns ??= columns;
      this.pages.push(rows);
      this.notify();
    });
    this.read.result.then(
      (r) => {
        this.final = r;
        this.ended = true;
        this.notify();
      },
      (err: unknown) => {
        this.error = err;
        this.ended = true;
        this.notify();
      },
    );
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private waitForNews(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  /**
   * Waits for the first page or the end: the whole result when no page came (a small result,
   * or one the executor ran whole), undefined when pages are streaming; throws its error.
   */
  async opened(): Promise<QueryResult | undefined> {
    while (this.pages.length === 0 && !this.ended) await this.waitForNews();
    if (this.pages.length > 0) return undefined;
    if (this.error !== undefined) throw this.error;
    return this.final;
  }

  /** The next rows in order, undefined once all have been given; throws the query's error. */
  async next(): Promise<Value[][] | undefined> {
    for (;;) {
      const page = this.pages.shift();
      if (page !== undefined) {
        this.read.taken();
        return page;
      }
      if (this.ended) {
        if (this.error !== undefined) throw this.error;
        const rest = this.final?.records ?? [];
        if (this.final !== undefined) this.final.records = [];
        return rest.length > 0 ? rest : undefined;
      }
      await this.waitForNews();
    }
  }

  /** Cancels the query; its pages are dropped. */
  stop(): void {
    this.pages.length = 0;
    this.controller.abort();
    // The result promise settles with a cancellation nobody waits for.
    this.read.result.catch(() => undefined);
  }
}

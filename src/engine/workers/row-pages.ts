/**
 * A streamed read's pages on a query worker (`QueryExecutor.stream`): the query's rows go to
 * a `PageSink` as they are made; each full page is checked (`result-bounds.ts`), its cells
 * given back to the query's memory budget, and posted to the main thread at once. The worker
 * then runs on only while fewer than `window` pages wait there untaken: the consumer counts
 * the pages it has taken in a shared word (`credit`), and the worker sleeps on that word,
 * waking every CHECK_MS to honour the query's deadline and cancellation. So a result of any
 * size holds at most `window` + 1 pages in memory, and a client that stops reading holds its
 * query (and its worker) until it reads on, discards, or the query's time limit passes.
 */

import { type Governor, release } from '../../../runtime/governor.js';
import type { RowSink } from '../../../runtime/graph/context.js';
import type { Value } from '../../../runtime/values.js';
import { checkResultShape } from '../result-bounds.js';

/** How often a worker waiting for its consumer checks its deadline and cancellation. */
const CHECK_MS = 50;

/** What the pool asks of a streamed read: page size, pages that may wait untaken, and the taken-pages word. */
export interface StreamRequest {
  pageRows: number;
  window: number;
  /** One Int32 word: pages the consumer has taken so far. */
  credit: SharedArrayBuffer;
}

export class PageSink implements RowSink {
  columns: string[] = [];
  private rows: Value[][] = [];
  private sent = 0;
  private governor: Governor | undefined;
  private readonly credit: Int32Array;

  constructor(
    private readonly request: StreamRequest,
    private readonly maxCells: number,
    /** Posts one page (rows already checked). */
    private readonly post: (columns: string[], rows: Value[][]) => void,
  ) {
    this.credit = new Int32Array(request.credit);
  }

  open(g: Governor): void {
    this.governor = g;
  }

  push(row: Value[]): number {
    const n = this.rows.push(row);
    if (n >= this.request.pageRows) this.flush();
    return this.sent * this.request.pageRows + this.rows.length;
  }

  rest(): Value[][] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }

  /** Whether any page went out (the result then holds only the rows after the last one). */
  get paged(): boolean {
    return this.sent > 0;
  }

  private flush(): void {
    const page = this.rest();
    checkResultShape(page, this.maxCells);
    if (this.governor !== undefined) release(this.governor, page, 0);
    this.post(this.columns, page);
    this.sent++;
    for (;;) {
      const taken = Atomics.load(this.credit, 0);
      if (this.sent - taken < this.request.window) return;
      Atomics.wait(this.credit, 0, taken, CHECK_MS);
      this.governor?.checkDeadline();
    }
  }
}

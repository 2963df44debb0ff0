/**
 * The interface a streamed read's rows go through (its own module so that the engine's option
 * types can name it without importing the execution context and, through it, the store).
 */
import type { Governor } from '../governor.js';
import type { Value } from '../values.js';

/**
 * Where a streamed read's result rows go as they are made, instead of an array the query
 * returns whole (a query worker's pages to a Bolt client, src/engine/workers/row-pages.ts).
 * `push` takes a row already counted against the governor and answers the rows so far.
 */
export interface RowSink {
  /** The result's column names (set by the database before the query runs). */
  columns: string[];
  /** Called once as the query starts, with its governor (deadline and cancel checks, held cells). */
  open(g: Governor): void;
  push(row: Value[]): number;
  /** The rows pushed and not yet handed on, once the query has ended. */
  rest(): Value[][];
}

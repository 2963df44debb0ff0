/**
 * The per-execution context generated code receives as `ctx`: the deadline budget, the
 * function context (statement time, random numbers) and the procedure context.
 */

import { QueryTimeoutError } from '../../src/errors.js';
import type { FunctionContext } from '../../functions/types.js';
import type { Graph } from '../../src/store/graph.js';
import type { Schema } from '../../src/store/schema.js';
import type { CsvOptions } from './csv.js';

export class ExecContext {
  /** Loop iterations left before the next deadline check. */
  budget = 4096;
  /** Rows per operator, filled only by PROFILE builds of a query. */
  rows: number[] = [];
  readonly fn: FunctionContext;
  private readonly deadline: number;

  constructor(
    readonly graph: Graph,
    readonly schema: Schema,
    private readonly timeoutMs: number,
    readonly csv: CsvOptions = {},
  ) {
    const statementTime = Date.now();
    this.fn = { statementTime, random: Math.random };
    this.deadline = timeoutMs > 0 ? performance.now() + timeoutMs : Number.POSITIVE_INFINITY;
  }

  checkDeadline(): void {
    if (performance.now() > this.deadline) throw new QueryTimeoutError(this.timeoutMs);
  }
}

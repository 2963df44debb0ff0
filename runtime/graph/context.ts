/**
 * The per-execution context generated code receives as `ctx`: the query's governor
 * (deadline budget and memory budget, runtime/governor.ts), the function context
 * (statement time, random numbers) and the procedure context.
 */

import type { EmbeddingProvider, FunctionContext } from '../../functions/types.js';
import type { Graph } from '../../src/store/graph.js';
import type { Schema } from '../../src/store/schema.js';
import { Governor, type MemoryLimits } from '../governor.js';
import type { Value } from '../values.js';
import type { CsvOptions } from './csv.js';
import type { ProcedureHost } from '../../procedures/host.js';
import type { ProcedureAccess } from '../../procedures/registry.js';
import type { RowSink } from './row-sink.js';

export type { RowSink } from './row-sink.js';

export class ExecContext extends Governor {
  /** Rows per operator, filled only by PROFILE builds of a query. */
  rows: number[] = [];
  readonly fn: FunctionContext;
  /** The database around this execution, for procedures that need more than the graph (set by `Database`). */
  host: ProcedureHost | undefined;
  /** What the caller may do (QueryOptions.allow); undefined: everything. Nested queries share it, so no procedure is out of its reach by being called from another. */
  allow: ReadonlySet<ProcedureAccess> | undefined;
  /** The result's sink, taken by the outermost query function only (a nested query of a procedure shares this context, not its rows). */
  sink: RowSink | undefined;

  /** What the query function collects its rows in: the sink once, else a fresh array. */
  resultBuffer(): Value[][] | RowSink {
    const sink = this.sink;
    if (sink === undefined) return [];
    this.sink = undefined;
    sink.open(this);
    return sink;
  }

  constructor(
    readonly graph: Graph,
    readonly schema: Schema,
    timeoutMs: number,
    readonly csv: CsvOptions = {},
    embedding?: EmbeddingProvider,
    limits?: Readonly<MemoryLimits>,
    startedAt = performance.now(),
  ) {
    super(timeoutMs, limits, startedAt);
    const statementTime = Date.now();
    this.fn = { statementTime, random: Math.random, embedding, csvPosition: { file: null, line: null } };
  }
}

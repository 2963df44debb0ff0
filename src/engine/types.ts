/**
 * Types of the public `Database` facade: results, options, statistics. Kept apart from the
 * implementation so that access layers and tools depend on the shape, not the engine.
 */

import type { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import type { Value } from '../../runtime/values.js';
import type { CancelToken, MemoryLimits } from '../../runtime/governor.js';
import type { RowSink } from '../../runtime/graph/row-sink.js';
import type { SyncOptions } from '../sync/options.js';
import type { ProcedureAccess } from '../../procedures/access.js';

/** Counters of what a query changed, in the spirit of Neo4j's query statistics. */
export interface QueryStats {
  nodesCreated: number;
  nodesDeleted: number;
  relationshipsCreated: number;
  relationshipsDeleted: number;
  labelsAdded: number;
  labelsRemoved: number;
  propertiesSet: number;
}

export interface QueryResult {
  /** Column names in order (`n.name`, or the alias). */
  columns: string[];
  /** One array per row, cells in column order: the engine's native values. */
  records: Value[][];
  stats: QueryStats;
  /** True when the query changed the graph (or the schema). */
  mutated: boolean;
  /** Wall time of compile + execution, in milliseconds. */
  elapsedMs: number;
  /** PROFILE run with `QueryOptions.profileRows`: the plan with rows per operator, as the one-cell answer would hold it. */
  profile?: string;
}

/** Parameters as a caller gives them: plain JS values are converted to Cypher values. */
export type QueryParams = Record<string, unknown> | Map<string, unknown>;

export interface QueryOptions {
  /** Stop the query with a QueryTimeoutError after this many milliseconds (default: the database's limit). */
  timeoutMs?: number;
  /** Reject the query with an error if it would change the graph. */
  readOnly?: boolean;
  /**
   * What the caller may do (src/server/authorization.ts): a procedure needing anything else,
   * or a schema command without 'admin', is refused with FORBIDDEN where it is invoked,
   * however the query reaches it. Undefined: everything (embedded use, the CLI).
   */
  allow?: readonly ProcedureAccess[];
  /** Lets another thread stop the query (query workers, src/engine/workers); its deadline checks read it. */
  cancel?: CancelToken;
  /**
   * Stops the query when aborted (a cancel request, a client that went away). A query on a
   * query worker stops at its next deadline check; one on the calling thread can only be
   * stopped before it starts, since it holds the thread until it ends.
   */
  signal?: AbortSignal;
  /** Most rows a read's result may have (a door's limit): past it the read stops with LIMIT_EXCEEDED (ResourceLimitError). */
  maxRows?: number;
  /**
   * A read's rows go here as they are made, and the result holds only those the sink had not
   * handed on (`RowSink.rest`); ignored by writes, PROFILE, and a UNION that dedupes at its end.
   */
  sink?: RowSink;
  /** PROFILE answers the query's own rows and puts the profiled plan in `QueryResult.profile` (the Bolt door; otherwise the plan is the answer). */
  profileRows?: boolean;
}

/** A read whose rows come in pages while it runs (`QueryExecutor.stream`). */
export interface StreamingRead {
  /** Settles when the query has ended: its columns and the rows after the last page (all of them when it sent no page). */
  result: Promise<QueryResult>;
  /** The consumer is done with one more page: the query may run one page further. */
  taken(): void;
}

/** Gets each page of a streamed read, in order, before its `result` settles. */
export type PageHandler = (columns: string[], rows: Value[][]) => void;

/** What the network doors run queries through: a Database, or a QueryRouter sending reads to query workers. */
export interface QueryExecutor {
  execute(query: string, params?: QueryParams, options?: QueryOptions): Promise<QueryResult>;
  /**
   * Runs `query` handing its rows over in pages as they are made, the producer held back while
   * pages wait to be taken (bounded memory for a large result). Where the executor cannot (a
   * write, the main thread), `result` holds every row and no page comes.
   */
  stream?(query: string, params: QueryParams | undefined, options: QueryOptions, onPage: PageHandler): StreamingRead;
}

/** Counts the SPEC's stats() method reports. */
export interface EngineStats {
  nodes: number;
  relationships: number;
  labels: number;
  relationshipTypes: number;
  propertyKeys: number;
  /** Memory in bytes: the graph's own (estimated, see src/store/memory.ts) and the whole process's. */
  memory: EngineMemory;
}

export interface EngineMemory {
  /** The in-memory graph: property columns plus entities, adjacency and indexes. */
  storeBytes: number;
  /** The part of `storeBytes` in property columns. */
  propertyBytes: number;
  /** The process's JavaScript heap in use (everything in the process, not only this database). */
  heapUsedBytes: number;
  /** The process's resident set size. */
  rssBytes: number;
}

export interface DatabaseOptions {
  /** Default time limit of a query in milliseconds; 0 means none. */
  queryTimeoutMs?: number;
  /** How many compiled queries to keep (LRU). */
  planCacheSize?: number;
  /** Directory LOAD CSV may read from (shorthand for `fileAccess: FileAccessPolicy.confined(dir)`). */
  csvImportRoot?: string;
  /** Which local files queries may read (LOAD CSV, file procedures); default: any (embedded use). Servers pass `none` or `confined`. */
  fileAccess?: FileAccessPolicy;
  /** Sync between instances (src/sync): `true`, or options such as the peer id. */
  sync?: boolean | SyncOptions;
  /** A sentence-transformers ONNX export directory: the default embedder of genai.vector.encode (else the built-in hashing embedder). */
  embeddingModel?: string;
  /**
   * Per-query memory limits; a query beyond them fails with MEMORY_LIMIT. Defaults
   * (runtime/governor.ts): lists of 10M elements, strings of 32 Mi characters, 40M cells
   * held in result rows and sort/aggregation/distinct/eager/collect buffers.
   */
  memoryLimits?: Partial<MemoryLimits>;
  /** With a data directory: start empty even when its store files vanished after acknowledged writes (`--force-empty`). */
  forceEmpty?: boolean;
  /** Explicit transactions (docs/TRANSACTIONS.md): default idle limit in ms before one is rolled back (default 60 000; 0: none, `--tx-timeout`). */
  transactionTimeoutMs?: number;
  /** Explicit transactions open at once (default 1000); one more is refused with LIMIT_EXCEEDED. */
  maxOpenTransactions?: number;
  /** Change records one explicit transaction may hold (default 1 000 000); one more fails it with LIMIT_EXCEEDED. */
  maxTransactionChanges?: number;
}

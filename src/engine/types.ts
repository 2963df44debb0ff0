/**
 * Types of the public `Database` facade: results, options, statistics. Kept apart from the
 * implementation so that access layers and tools depend on the shape, not the engine.
 */

import type { Value } from '../../runtime/values.js';

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
}

/** Parameters as a caller gives them: plain JS values are converted to Cypher values. */
export type QueryParams = Record<string, unknown> | Map<string, unknown>;

export interface QueryOptions {
  /** Stop the query with a QueryTimeoutError after this many milliseconds (default: the database's limit). */
  timeoutMs?: number;
  /** Reject the query with an error if it would change the graph. */
  readOnly?: boolean;
}

/** Counts the SPEC's stats() method reports. */
export interface EngineStats {
  nodes: number;
  relationships: number;
  labels: number;
  relationshipTypes: number;
  propertyKeys: number;
}

export interface DatabaseOptions {
  /** Default time limit of a query in milliseconds; 0 means none. */
  queryTimeoutMs?: number;
  /** How many compiled queries to keep (LRU). */
  planCacheSize?: number;
  /** Directory LOAD CSV may read from; undefined allows any local file (embedded use). Servers should set it. */
  csvImportRoot?: string;
}

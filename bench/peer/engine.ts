/**
 * The contract every engine adapter fulfils inside its worker process: load a dataset from
 * its CSV files through the engine's fastest documented bulk path, run a query workload and
 * return plain rows (values in column order), and run a graph algorithm, returning one value
 * per vertex keyed by the dataset's own vertex id, or `null` when the engine has no such
 * algorithm. Adapters convert engine-specific values (bigint, boxed floats, …) to plain JS.
 */

import type { DatasetMeta } from './data.js';
import type { AlgoName, Params, QueryWorkload } from './workloads.js';

/** A row of an answer: plain JS values in column order. */
export type Row = unknown[];

/** An algorithm prepared to run: `run` is the timed part, `values` converts its result (untimed). */
export interface AlgoRun {
  run: () => Promise<unknown> | unknown;
  values: (raw: unknown) => Map<number, number>;
}

export interface Engine {
  /** Loads the dataset in `dir` (CSV files described by `meta`). */
  load(meta: DatasetMeta, dir: string): Promise<void>;
  /** Runs one query; throws on an engine error. */
  query(w: QueryWorkload, params: Params): Promise<Row[]>;
  /** The engine's own implementation of `algo`, or null when it has none. */
  algorithm(algo: AlgoName, source: number): AlgoRun | null;
  close(): Promise<void>;
}

/** Converts a bigint that fits a double to a number (engines disagree on INT64's JS type). */
export function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

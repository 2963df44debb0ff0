/**
 * The catalogue of `CALL`-able procedures. Each procedure declares its signature (typed
 * inputs and outputs), whether it reads or writes, and an implementation that yields
 * output rows. Built-in procedures register themselves into a fresh registry per database;
 * embedders (and the TCK runner) may register their own.
 */

import type { Value } from '../runtime/values.js';
import { formatValue } from '../runtime/format.js';
import type { Graph } from '../src/store/graph.js';
import type { Schema } from '../src/store/schema.js';
import { ProcedureError } from '../src/errors.js';

/** Cypher type names used in signatures: `INTEGER?`, `STRING?`, `NUMBER?`, `ANY?`, `LIST? OF STRING?`, … */
export interface ProcedureField {
  name: string;
  type: string;
  /** For inputs: the value used when a call leaves this (trailing) argument out. */
  default?: Value;
}

/** How many leading inputs a call must pass: those before the first one with a default. */
export function requiredInputs(def: Pick<ProcedureDef, 'inputs'>): number {
  const i = def.inputs.findIndex((f) => f.default !== undefined);
  return i < 0 ? def.inputs.length : i;
}

export interface ProcedureContext {
  graph: Graph;
  /** Throws QueryTimeoutError when the calling query is past its time limit; long loops call it now and then. */
  checkDeadline(): void;
  /** Indexes and constraints (db.indexes, db.awaitIndex, apoc.meta.*); absent only in unit tests of single procedures. */
  schema?: Schema;
  /** The database around the call (nested Cypher, caches, configuration, files); absent only in unit tests. */
  host?: ProcedureHost;
  /**
   * For procedures with `acceptsRowFilter`: the query's `YIELD … WHERE` predicate over an
   * output row; the procedure yields only rows it accepts (and may search further to fill
   * its quota). `filterSelectivity` is the planner's estimate of the fraction that passes.
   */
  rowFilter?: (row: Value[]) => boolean;
  filterSelectivity?: number;
}

/**
 * Neo4j's procedure modes. WRITE and SCHEMA procedures make the calling query a write (run
 * in a transaction, refused by read-only calls); READ and DBMS ones do not touch the graph.
 */
export type ProcedureMode = 'read' | 'write' | 'schema' | 'dbms';

import type { ProcedureAccess } from './access.js';

export { ALL_ACCESS, type ProcedureAccess } from './access.js';

/**
 * What calling `def` needs: its own `access`, else what its mode implies. A `dbms` or `schema`
 * procedure counts as administration unless it says otherwise, so a new one is closed to
 * anonymous callers until someone decides it is harmless.
 */
export function procedureAccess(def: Pick<ProcedureDef, 'mode' | 'access'>): ProcedureAccess {
  if (def.access !== undefined) return def.access;
  return def.mode === 'read' ? 'read' : def.mode === 'write' ? 'write' : 'admin';
}

/** Whether calling `def` makes the query a write. */
export function procedureWrites(def: Pick<ProcedureDef, 'mode'>): boolean {
  return def.mode === 'write' || def.mode === 'schema';
}

/** Neo4j's signature text: `db.labels() :: (label :: STRING)`; with `defaults`, optional inputs show `= value`. */
export function procedureSignature(def: Pick<ProcedureDef, 'name' | 'inputs' | 'outputs'>, defaults = false): string {
  const input = (f: ProcedureField) => `${f.name} :: ${f.type}${defaults && f.default !== undefined ? ` = ${defaultText(f.default)}` : ''}`;
  return `${def.name}(${def.inputs.map(input).join(', ')}) :: (${def.outputs.map((o) => `${o.name} :: ${o.type}`).join(', ')})`;
}

function defaultText(v: Value): string {
  return typeof v === 'number' && Number.isNaN(v) ? 'NaN' : formatValue(v);
}

/** A procedure argument as the planner sees it: a literal's value, or undefined for anything else. */
export type PlanArgument = null | boolean | bigint | number | string | undefined;

export interface ProcedureDef {
  /** Full name, e.g. `db.labels`; matched exactly (procedure names are case-sensitive). */
  name: string;
  inputs: ProcedureField[];
  outputs: ProcedureField[];
  mode: ProcedureMode;
  /** What it does, when its mode does not say it (see `procedureAccess`): file writers, administration, harmless `dbms` reads. */
  access?: ProcedureAccess;
  description: string;
  /** The procedure applies `YIELD … WHERE` itself (`ProcedureContext.rowFilter`), e.g. filtered top-k search. */
  acceptsRowFilter?: boolean;
  /**
   * With `acceptsRowFilter`, for the planner's estimate and EXPLAIN; `args` are the literal
   * arguments (undefined where not a literal). `rowFilterSubject`: which output the filter's
   * entities come from and their label (type). `describeRowFilter`: how a filter of that
   * selectivity will be applied.
   */
  rowFilterSubject?(args: PlanArgument[]): { output: string; entity: 'node' | 'relationship'; label: string } | undefined;
  describeRowFilter?(args: PlanArgument[], selectivity: number): string | undefined;
  /** Yields rows; each row holds one value per output, in `outputs` order. Inputs arrive already type-checked. */
  invoke(ctx: ProcedureContext, args: Value[]): Iterable<Value[]>;
}

/**
 * What a catalogue lists of a procedure without its code: enough for SHOW PROCEDURES, the
 * planner's checks and completion (lazy-families.ts registers these before loading the code).
 */
export type ProcedureSignature = Pick<ProcedureDef, 'name' | 'inputs' | 'outputs' | 'mode' | 'access' | 'description' | 'acceptsRowFilter'>;

export class ProcedureRegistry {
  private readonly byName = new Map<string, ProcedureDef>();
  private readonly sources: (() => readonly ProcedureDef[])[] = [];
  private sourced: Map<string, ProcedureDef> | undefined;

  register(def: ProcedureDef): void {
    this.byName.set(def.name, def);
  }

  /**
   * Procedures that join the catalogue on its first lookup of a name not registered, or its
   * first listing: `load` gives them (lazy-families.ts, src/engine/retrieval.ts), so that a
   * process that never looks up a procedure never loads their signatures. One registered by
   * name wins over one of these.
   */
  registerSource(load: () => readonly ProcedureDef[]): void {
    this.sources.push(load);
    this.sourced = undefined;
  }

  get(name: string): ProcedureDef | undefined {
    return this.byName.get(name) ?? this.fromSources().get(name);
  }

  /** Like `get`, but a missing procedure is a ProcedureError naming it. */
  require(name: string): ProcedureDef {
    const def = this.get(name);
    if (!def) throw new ProcedureError(`There is no procedure with the name \`${name}\` registered`, 'ProcedureNotFound');
    return def;
  }

  list(): ProcedureDef[] {
    const all = new Map(this.fromSources());
    for (const [name, def] of this.byName) all.set(name, def);
    return [...all.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  private fromSources(): Map<string, ProcedureDef> {
    if (this.sourced === undefined) {
      this.sourced = new Map();
      for (const load of this.sources) for (const def of load()) this.sourced.set(def.name, def);
    }
    return this.sourced;
  }
}

// ---- The procedure host: what procedures may ask of the database that runs them, beyond
// the graph (kept here, beside the registry it names, so the two need no import cycle).

export interface NestedResult {
  columns: string[];
  records: Value[][];
}

export interface ProcedureHost {
  /** The registry the calling query was planned against (dbms.procedures). */
  readonly procedures: ProcedureRegistry;
  /**
   * Runs `query` inside the calling query: same transaction, same deadline. When
   * `allowWrites` is false a query that would write is refused (READ procedures).
   */
  runNested(query: string, params: Map<string, Value>, allowWrites: boolean): NestedResult;
  /** The text of a file under the file-access policy LOAD CSV obeys (URLs with a scheme other than file: are refused). */
  readText(url: string, what: string): string;
  /** Writes a new file under the same policy (confined to the import directory with no link on the way, refused when file access is off); an existing regular file only with `overwrite`. */
  writeText(url: string, what: string, text: string, overwrite: boolean): void;
  /** Empties the compiled-query cache; returns how many entries it held. */
  clearQueryCaches(): number;
  /** Folds the write-ahead log into the store (with a data directory); the message says what happened. */
  checkpoint(): { success: boolean; message: string };
  /** Metadata attached to the running transaction with tx.setMetaData. */
  txMetadata: Map<string, Value>;
  /** Identity and settings, for db.info / dbms.* */
  info(): { id: string; name: string; creationDate: string; version: string; dataDir: string | null };
  /** Settings as (name, description, value, dynamic) rows, for dbms.listConfig / clientConfig. */
  config(): { name: string; description: string; value: string; dynamic: boolean }[];
}

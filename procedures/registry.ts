/**
 * The catalogue of `CALL`-able procedures. Each procedure declares its signature (typed
 * inputs and outputs), whether it reads or writes, and an implementation that yields
 * output rows. Built-in procedures register themselves into a fresh registry per database;
 * embedders (and the TCK runner) may register their own.
 */

import type { Value } from '../runtime/values.js';
import type { Graph } from '../src/store/graph.js';
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
}

export interface ProcedureDef {
  /** Full name, e.g. `db.labels`; matched exactly (procedure names are case-sensitive). */
  name: string;
  inputs: ProcedureField[];
  outputs: ProcedureField[];
  mode: 'read' | 'write';
  description: string;
  /** Yields rows; each row holds one value per output, in `outputs` order. Inputs arrive already type-checked. */
  invoke(ctx: ProcedureContext, args: Value[]): Iterable<Value[]>;
}

export class ProcedureRegistry {
  private readonly byName = new Map<string, ProcedureDef>();

  register(def: ProcedureDef): void {
    this.byName.set(def.name, def);
  }

  get(name: string): ProcedureDef | undefined {
    return this.byName.get(name);
  }

  /** Like `get`, but a missing procedure is a ProcedureError naming it. */
  require(name: string): ProcedureDef {
    const def = this.byName.get(name);
    if (!def) throw new ProcedureError(`There is no procedure with the name \`${name}\` registered`, 'ProcedureNotFound');
    return def;
  }

  list(): ProcedureDef[] {
    return [...this.byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}

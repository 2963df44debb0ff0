/**
 * Small helpers every procedure module shares: a compact way to declare a procedure, the
 * host lookup, and argument readers whose errors name the procedure and the argument
 * (`apoc.path.expand: argument \`maxLevel\` must be …`).
 */

import { ArgumentError, ProcedureError, ValueTypeError } from '../src/errors.js';
import { Node, Rel } from '../src/store/entities.js';
import type { Value } from '../runtime/values.js';
import { describe } from '../runtime/types.js';
import type { ProcedureAccess, ProcedureContext, ProcedureDef, ProcedureField, ProcedureMode } from './registry.js';
import type { ProcedureHost } from './host.js';

/** `field('label', 'STRING')`, or with a default: `field('config', 'MAP', new Map())`. */
export function field(name: string, type: string, defaultValue?: Value): ProcedureField {
  return defaultValue === undefined ? { name, type } : { name, type, default: defaultValue };
}

export function procedure(
  name: string,
  mode: ProcedureMode,
  description: string,
  inputs: ProcedureField[],
  outputs: ProcedureField[],
  invoke: ProcedureDef['invoke'],
): ProcedureDef {
  return { name, mode, description, inputs, outputs, invoke };
}

/** `def` declaring what it does where its mode does not say it (registry.ts `procedureAccess`). */
export function withAccess(access: ProcedureAccess, def: ProcedureDef): ProcedureDef {
  return { ...def, access };
}

/** The host, which every database provides (only hand-made contexts in unit tests lack it). */
export function hostOf(ctx: ProcedureContext, proc: string): ProcedureHost {
  if (ctx.host === undefined) throw new ProcedureError(`${proc} needs a database around it`, 'NoDatabase', 'runtime');
  return ctx.host;
}

/** The type error for argument `arg` of `proc`. */
export function badArgument(proc: string, arg: string, v: Value, expected: string): ValueTypeError {
  return new ValueTypeError(`${proc}: argument \`${arg}\` must be ${expected}, got ${describe(v)}`, 'InvalidArgumentType');
}

/** A value out of range for argument `arg` of `proc`. */
export function invalidArgument(proc: string, arg: string, why: string): ArgumentError {
  return new ArgumentError(`${proc}: argument \`${arg}\` ${why}`, 'InvalidArgumentValue');
}

export function mapOrEmpty(v: Value, proc: string, arg: string): Map<string, Value> {
  if (v === null) return new Map();
  if (v instanceof Map) return v;
  throw badArgument(proc, arg, v, 'a map');
}

export function stringList(v: Value, proc: string, arg: string): string[] {
  if (v === null) return [];
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badArgument(proc, arg, v, 'a list of strings');
  return v as string[];
}

export function requiredString(v: Value, proc: string, arg: string): string {
  if (typeof v !== 'string') throw badArgument(proc, arg, v, 'a string');
  return v;
}

export function integerOr(v: Value, fallback: number, proc: string, arg: string): number {
  if (v === null || v === undefined) return fallback;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  throw badArgument(proc, arg, v, 'an integer');
}

/** A key of a config map: the value, or `fallback` when absent or null. */
export function option<T extends Value>(cfg: Map<string, Value>, key: string, fallback: T): Value {
  const v = cfg.get(key);
  return v === undefined || v === null ? fallback : v;
}

/** APOC accepts an entity, a list of them, an id or a list of ids wherever it takes "nodes" or "rels". */
function entitiesOf<E extends Node | Rel>(v: Value, find: (id: number) => E | undefined, isEntity: (x: Value) => x is E, what: string, proc: string, arg: string): E[] {
  const one = (x: Value): E => {
    if (isEntity(x)) return x;
    if (typeof x === 'number' && Number.isInteger(x)) {
      const e = find(x);
      if (e && !e.deleted) return e;
      throw invalidArgument(proc, arg, `names ${what} ${x}, which does not exist`);
    }
    throw badArgument(proc, arg, x, `a ${what}, a ${what} id or a list of them`);
  };
  if (v === null) return [];
  return Array.isArray(v) ? v.filter((x) => x !== null).map(one) : [one(v)];
}

export function nodesOf(v: Value, ctx: ProcedureContext, proc: string, arg: string): Node[] {
  return entitiesOf(v, (id) => ctx.graph.node(id), (x): x is Node => x instanceof Node, 'node', proc, arg);
}

export function relsOf(v: Value, ctx: ProcedureContext, proc: string, arg: string): Rel[] {
  return entitiesOf(v, (id) => ctx.graph.rel(id), (x): x is Rel => x instanceof Rel, 'relationship', proc, arg);
}

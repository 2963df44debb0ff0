/**
 * Generated-code support that is neither arithmetic nor pattern matching: parameters,
 * SKIP/LIMIT counts, list comprehensions, quantifiers, reduce, map projections, UNION
 * de-duplication and procedure calls (with argument type checks and coercion).
 */

import { AccessDeniedError, ParameterMissingError, QuerySyntaxError, ProcedureError, ValueTypeError } from '../../src/errors.js';
import { Node, Rel } from '../../src/store/entities.js';
import { FloatBox, type Value } from '../values.js';
import { describe } from '../types.js';
import { rowKey } from '../groupkey.js';
import { procedureAccess, requiredInputs, type ProcedureAccess, type ProcedureDef } from '../../procedures/registry.js';
import type { ExecContext } from './context.js';
import { step } from '../governor.js';

export function param(P: Map<string, Value>, name: string): Value {
  const v = P.get(name);
  if (v === undefined) throw new ParameterMissingError(name);
  return v;
}

/** The row count of SKIP or LIMIT: a non-negative integer (openCypher reports bad values as syntax errors). */
export function countValue(v: Value, what: string): number {
  if (typeof v === 'number' && Number.isInteger(v)) {
    if (v < 0) throw new QuerySyntaxError(`${what} needs a non-negative integer, got ${v}`, undefined, 'NegativeIntegerArgument', 'runtime');
    return v;
  }
  if (typeof v === 'bigint') {
    if (v < 0n) throw new QuerySyntaxError(`${what} needs a non-negative integer, got ${v}`, undefined, 'NegativeIntegerArgument', 'runtime');
    return Number.MAX_SAFE_INTEGER;
  }
  throw new QuerySyntaxError(`${what} needs an integer, got ${describe(v)}`, undefined, 'InvalidArgumentType', 'runtime');
}

function listSource(v: Value, what: string): Value[] | null {
  if (v === null) return null;
  if (Array.isArray(v)) return v;
  throw new ValueTypeError(`${what} needs a list, got ${describe(v)}`, 'InvalidArgumentType');
}

export function listComprehension(
  source: Value,
  where: ((x: Value) => Value) | null,
  projection: ((x: Value) => Value) | null,
): Value {
  const list = listSource(source, 'A list comprehension');
  if (list === null) return null;
  const out: Value[] = [];
  for (const x of list) {
    step();
    if (where !== null && where(x) !== true) continue;
    out.push(projection === null ? x : projection(x));
  }
  return out;
}

/** all / any / none / single with three-valued logic. */
export function quantifier(kind: Value, source: Value, pred: (x: Value) => Value): Value {
  const list = listSource(source, `${String(kind)}()`);
  if (list === null) return null;
  let trues = 0;
  let nulls = 0;
  for (const x of list) {
    step();
    const r = pred(x);
    if (r === true) trues++;
    else if (r === null) nulls++;
    else if (r !== false) throw new ValueTypeError(`${String(kind)}() predicate must be boolean, got ${describe(r)}`, 'InvalidArgumentType');
  }
  const falses = list.length - trues - nulls;
  switch (kind) {
    case 'all':
      return falses > 0 ? false : nulls > 0 ? null : true;
    case 'any':
      return trues > 0 ? true : nulls > 0 ? null : false;
    case 'none':
      return trues > 0 ? false : nulls > 0 ? null : true;
    default:
      if (trues > 1) return false;
      if (nulls > 0) return null;
      return trues === 1;
  }
}

export function reduce(init: Value, source: Value, fold: (acc: Value, x: Value) => Value): Value {
  const list = listSource(source, 'reduce()');
  if (list === null) return null;
  let acc = init;
  for (const x of list) {
    step();
    acc = fold(acc, x);
  }
  return acc;
}

interface ProjectionSpec {
  kind: 'prop' | 'all' | 'value';
  key: string;
}

export function mapProjection(object: Value, spec: ProjectionSpec[], values: Value[]): Value {
  if (object === null) return null;
  let props: Map<string, Value>;
  if (object instanceof Node || object instanceof Rel) props = object.propertyMap();
  else if (object instanceof Map) props = object;
  else throw new ValueTypeError(`Map projection needs a node, relationship or map, got ${describe(object)}`, 'InvalidArgumentType');
  const out = new Map<string, Value>();
  spec.forEach((s, i) => {
    if (s.kind === 'all') for (const [k, v] of props) out.set(k, v);
    else if (s.kind === 'prop') out.set(s.key, props.get(s.key) ?? null);
    else out.set(s.key, values[i]);
  });
  return out;
}

/** UNION without ALL: drops duplicate rows in place, keeping first occurrences. */
export function distinctRows(rows: Value[][]): void {
  const seen = new Set<unknown>();
  let w = 0;
  for (const row of rows) {
    const k = rowKey(row);
    if (seen.has(k)) continue;
    seen.add(k);
    rows[w++] = row;
  }
  rows.length = w;
}

/** Declared input types, normalised once per field (`coerceArgument` runs on every call). */
const inputTypes = new WeakMap<ProcedureDef['inputs'][number], string>();

function inputType(input: ProcedureDef['inputs'][number]): string {
  let t = inputTypes.get(input);
  if (t === undefined) inputTypes.set(input, (t = input.type.replace(/\?$/, '').trim().toUpperCase()));
  return t;
}

function fail(proc: ProcedureDef, input: ProcedureDef['inputs'][number], v: Value): ValueTypeError {
  return new ValueTypeError(`Procedure ${proc.name}: argument \`${input.name}\` must be ${input.type}, got ${describe(v)}`, 'InvalidArgumentType');
}

function coerceArgument(proc: ProcedureDef, index: number, v: Value): Value {
  const input = proc.inputs[index];
  const t = inputType(input);
  if (v === null || t === 'ANY') return v;
  switch (t) {
    case 'ANY':
      return v;
    case 'STRING':
      if (typeof v !== 'string') throw fail(proc, input, v);
      return v;
    case 'INTEGER':
      if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return v;
      // As Neo4j coerces a number to an INTEGER argument, truncating: a JavaScript driver sends every JS number as a float (LangChain's `k`).
      if (v instanceof FloatBox) return v.value;
      if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
      throw fail(proc, input, v);
    case 'FLOAT':
      if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? new FloatBox(Number(v)) : Number(v);
      if (v instanceof FloatBox) return v;
      throw fail(proc, input, v);
    case 'NUMBER':
      if (typeof v === 'number' || typeof v === 'bigint' || v instanceof FloatBox) return v;
      throw fail(proc, input, v);
    case 'BOOLEAN':
      if (typeof v !== 'boolean') throw fail(proc, input, v);
      return v;
    case 'NODE':
      if (!(v instanceof Node)) throw fail(proc, input, v);
      return v;
    case 'RELATIONSHIP':
      if (!(v instanceof Rel)) throw fail(proc, input, v);
      return v;
    default:
      if (t.startsWith('LIST') && !Array.isArray(v)) throw fail(proc, input, v);
      return v;
  }
}

const ACCESS_WORDS: Readonly<Record<ProcedureAccess, string>> = {
  read: 'reads the graph',
  write: 'changes the graph',
  files: 'writes files',
  admin: 'administers the server',
};

/** Refuses a call of `proc` beyond what the caller was granted. */
function checkAccess(proc: ProcedureDef, allow: ReadonlySet<ProcedureAccess>): void {
  const needed = procedureAccess(proc);
  if (allow.has(needed)) return;
  throw new AccessDeniedError(
    `${proc.name} ${ACCESS_WORDS[needed]}, which this caller may not do: ` +
      (needed === 'admin' ? 'administration needs the server\'s key (or, on a server without one, a client on the same machine that is not a web page)' : 'send it with POST (not GET), from a client that is not a web page, or with the server\'s key'),
  );
}

export function callProcedure(
  proc: ProcedureDef,
  ctx: ExecContext,
  args: Value[],
  rowFilter?: (row: Value[]) => boolean,
  filterSelectivity?: number,
): Iterable<Value[]> {
  if (args.length < requiredInputs(proc) || args.length > proc.inputs.length) {
    throw new ProcedureError(
      `Procedure ${proc.name} takes ${proc.inputs.length} argument(s), got ${args.length}`,
      'InvalidNumberOfArguments',
      'runtime',
    );
  }
  if (ctx.allow !== undefined) checkAccess(proc, ctx.allow);
  // Trailing arguments left out take their declared defaults.
  const full = proc.inputs.map((input, i) => (i < args.length ? args[i] : (input.default ?? null)));
  const coerced = full.map((a, i) => coerceArgument(proc, i, a));
  return proc.invoke({ graph: ctx.graph, schema: ctx.schema, host: ctx.host, checkDeadline: () => ctx.checkDeadline(), rowFilter, filterSelectivity }, coerced);
}

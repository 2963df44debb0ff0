/**
 * The little static type system of the semantic checker. A type is only ever narrower than
 * `any` when the query text proves it (a literal, a pattern variable, a variable projected
 * from one of those), so a type error raised from it is certain, never a guess. Also holds
 * the argument counts of well-known built-in functions.
 */

export type StaticType =
  | { t: 'any' }
  | { t: 'null' }
  | { t: 'boolean' }
  | { t: 'integer' }
  | { t: 'float' }
  | { t: 'string' }
  | { t: 'map' }
  | { t: 'node' }
  | { t: 'relationship' }
  | { t: 'path' }
  | { t: 'list'; of: StaticType };

export type TypeTag = StaticType['t'];

export const ANY: StaticType = { t: 'any' };
export const NULL: StaticType = { t: 'null' };
export const BOOLEAN: StaticType = { t: 'boolean' };
export const INTEGER: StaticType = { t: 'integer' };
export const FLOAT: StaticType = { t: 'float' };
export const STRING: StaticType = { t: 'string' };
export const MAP: StaticType = { t: 'map' };
export const NODE: StaticType = { t: 'node' };
export const RELATIONSHIP: StaticType = { t: 'relationship' };
export const PATH: StaticType = { t: 'path' };

export function listOf(of: StaticType): StaticType {
  return { t: 'list', of };
}

/** The type of an element of a value of type `t` when it is iterated (UNWIND, `x IN list`). */
export function elementType(t: StaticType): StaticType {
  if (t.t === 'list') return t.of;
  return ANY;
}

/** The common type of several values: themselves when they agree, `any` otherwise; nulls fit any type. */
export function unify(types: StaticType[]): StaticType {
  const nonNull = types.filter((t) => t.t !== 'null');
  if (nonNull.length === 0) return types.length > 0 ? NULL : ANY;
  const first = nonNull[0]!;
  for (const t of nonNull) {
    if (t.t !== first.t) return ANY;
  }
  if (first.t === 'list') {
    return listOf(unify(nonNull.map((t) => (t.t === 'list' ? t.of : ANY))));
  }
  return first;
}

/** True when a value of type `t` is certainly one of the named kinds (never for `any` or `null`). */
export function isOneOf(t: StaticType, tags: readonly TypeTag[]): boolean {
  return tags.includes(t.t);
}

/** How a type reads in an error message. */
export function typeName(t: StaticType): string {
  switch (t.t) {
    case 'any':
      return 'Any';
    case 'null':
      return 'Null';
    case 'boolean':
      return 'Boolean';
    case 'integer':
      return 'Integer';
    case 'float':
      return 'Float';
    case 'string':
      return 'String';
    case 'map':
      return 'Map';
    case 'node':
      return 'Node';
    case 'relationship':
      return 'Relationship';
    case 'path':
      return 'Path';
    case 'list':
      return `List<${typeName(t.of)}>`;
  }
}

/**
 * Whether a value of static type `t` may be passed where a procedure declares `declared`
 * (an openCypher type name such as `INTEGER?`, `NUMBER?`, `STRING`, `ANY?`). Unknown
 * declarations and unknown value types are accepted.
 */
export function acceptsDeclared(declared: string, t: StaticType): boolean {
  if (t.t === 'any' || t.t === 'null') return true;
  const name = declared.replace(/\?$/, '').trim().toUpperCase();
  switch (name) {
    case 'INTEGER':
    case 'INT':
      return t.t === 'integer';
    case 'FLOAT':
      return t.t === 'float' || t.t === 'integer';
    case 'NUMBER':
      return t.t === 'float' || t.t === 'integer';
    case 'STRING':
      return t.t === 'string';
    case 'BOOLEAN':
      return t.t === 'boolean';
    case 'MAP':
      return t.t === 'map' || t.t === 'node' || t.t === 'relationship';
    case 'NODE':
      return t.t === 'node';
    case 'RELATIONSHIP':
      return t.t === 'relationship';
    case 'PATH':
      return t.t === 'path';
    default:
      if (name.startsWith('LIST')) return t.t === 'list';
      return true;
  }
}

/**
 * Argument counts of well-known built-in functions (lower-cased, no namespace). Functions
 * missing here are not counted: the function registry may know them.
 */
export const BUILTIN_ARITY: ReadonlyMap<string, { min: number; max: number }> = new Map(
  (
    [
      // aggregates
      ['count', 1, 1],
      ['sum', 1, 1],
      ['avg', 1, 1],
      ['min', 1, 1],
      ['max', 1, 1],
      ['collect', 1, 1],
      ['stdev', 1, 1],
      ['stdevp', 1, 1],
      ['percentilecont', 2, 2],
      ['percentiledisc', 2, 2],
      // graph and lists
      ['labels', 1, 1],
      ['type', 1, 1],
      ['id', 1, 1],
      ['elementid', 1, 1],
      ['properties', 1, 1],
      ['keys', 1, 1],
      ['startnode', 1, 1],
      ['endnode', 1, 1],
      ['nodes', 1, 1],
      ['relationships', 1, 1],
      ['length', 1, 1],
      ['size', 1, 1],
      ['head', 1, 1],
      ['last', 1, 1],
      ['tail', 1, 1],
      ['reverse', 1, 1],
      ['range', 2, 3],
      ['coalesce', 1, Infinity],
      ['exists', 1, 1],
      // strings
      ['toupper', 1, 1],
      ['tolower', 1, 1],
      ['trim', 1, 2],
      ['ltrim', 1, 2],
      ['rtrim', 1, 2],
      ['substring', 2, 3],
      ['left', 2, 2],
      ['right', 2, 2],
      ['replace', 3, 3],
      ['split', 2, 2],
      ['tostring', 1, 1],
      ['tointeger', 1, 1],
      ['tofloat', 1, 1],
      ['toboolean', 1, 1],
      // numbers
      ['abs', 1, 1],
      ['ceil', 1, 1],
      ['floor', 1, 1],
      ['round', 1, 3],
      ['sign', 1, 1],
      ['sqrt', 1, 1],
      ['exp', 1, 1],
      ['log', 1, 1],
      ['log10', 1, 1],
      ['sin', 1, 1],
      ['cos', 1, 1],
      ['tan', 1, 1],
      ['asin', 1, 1],
      ['acos', 1, 1],
      ['atan', 1, 1],
      ['atan2', 2, 2],
      ['cot', 1, 1],
      ['degrees', 1, 1],
      ['radians', 1, 1],
      ['haversin', 1, 1],
      ['rand', 0, 0],
      ['pi', 0, 0],
      ['e', 0, 0],
      ['timestamp', 0, 0],
      ['randomuuid', 0, 0],
    ] as const
  ).map(([name, min, max]) => [name, { min, max }]),
);

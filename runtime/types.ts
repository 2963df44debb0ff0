/**
 * Classifying runtime values: which Cypher type a JavaScript value stands for, and the
 * small type guards the rest of runtime/ and functions/ share. Kept free of semantics so
 * every other module can import it without cycles.
 */

import { Node, Rel } from '../src/store/entities.js';
import { FloatBox, Path, type ExtendedValue, type Value } from './values.js';

/** True for values implementing `ExtendedValue` (temporal, spatial). */
export function isExtendedValue(v: unknown): v is ExtendedValue {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { cypherType?: unknown }).cypherType === 'string' &&
    typeof (v as { toCypherString?: unknown }).toCypherString === 'function'
  );
}

export function isCypherMap(v: Value): v is Map<string, Value> {
  return v instanceof Map;
}

/** The Cypher type name of a value, for error messages and `valueType()`-style output. */
export function typeName(v: Value): string {
  if (v === null) return 'NULL';
  switch (typeof v) {
    case 'boolean':
      return 'BOOLEAN';
    case 'string':
      return 'STRING';
    case 'bigint':
      return 'INTEGER';
    case 'number':
      return Number.isInteger(v) ? 'INTEGER' : 'FLOAT';
    default:
      break;
  }
  if (v instanceof FloatBox) return 'FLOAT';
  if (Array.isArray(v)) return 'LIST';
  if (v instanceof Map) return 'MAP';
  if (v instanceof Node) return 'NODE';
  if (v instanceof Rel) return 'RELATIONSHIP';
  if (v instanceof Path) return 'PATH';
  if (v instanceof Float32Array) return 'VECTOR';
  if (isExtendedValue(v)) return v.cypherType;
  return 'ANY';
}

/** A short description of a value for error messages: its type and, for scalars, the value. */
export function describe(v: Value): string {
  const t = typeName(v);
  if (v === null) return 'null';
  if (typeof v === 'string') return `${t} '${v.length > 40 ? v.slice(0, 40) + '…' : v}'`;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return `${t} ${String(v)}`;
  if (v instanceof FloatBox) return `${t} ${v.value.toFixed(1)}`;
  return t;
}

/**
 * The Cypher value model in JavaScript, shared by the store, generated code, functions and
 * every access layer.
 *
 * | Cypher      | JavaScript                                                              |
 * |-------------|-------------------------------------------------------------------------|
 * | NULL        | `null` (never `undefined`)                                              |
 * | BOOLEAN     | `boolean`                                                               |
 * | INTEGER     | a `number` for which `Number.isInteger` holds, or a `bigint` outside ±2^53 |
 * | FLOAT       | a `number` that is not an integer (incl. NaN, ±Infinity), or a `FloatBox` for integral values (`1.0`, `-0.0`) |
 * | STRING      | `string`                                                                |
 * | LIST        | `Value[]`                                                               |
 * | MAP         | `Map<string, Value>`                                                    |
 * | NODE / RELATIONSHIP | the store's `Node` / `Rel` objects                              |
 * | PATH        | `Path`                                                                  |
 * | VECTOR      | `Float32Array`                                                          |
 * | temporal, point | classes implementing `ExtendedValue` (see runtime/temporal, runtime/spatial) |
 *
 * Integers are kept within the signed 64-bit range; leaving it is an ArithmeticError.
 */

// The value types are defined with the store's entities (Node, Rel, Path and Value refer to one
// another) and the leaf scalars; this module is where the rest of the engine imports them from.
export { FloatBox, type ExtendedValue } from './scalars.js';
export { Path, type CypherMap, type Value } from '../src/store/entities.js';
import { FloatBox } from './scalars.js';

export const MAX_INT64 = 9223372036854775807n;
export const MIN_INT64 = -9223372036854775808n;

/** An integer value from a bigint: a number when it fits exactly, else the bigint (range-checked by the caller). */
export function intFromBigInt(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

/** A float value from a JS number: integral values are boxed so they stay floats. */
export function makeFloat(v: number): number | FloatBox {
  return Number.isInteger(v) ? new FloatBox(v) : v;
}

export function isInteger(v: unknown): v is number | bigint {
  return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
}

export function isFloat(v: unknown): v is number | FloatBox {
  return (typeof v === 'number' && !Number.isInteger(v)) || v instanceof FloatBox;
}

export function isNumber(v: unknown): v is number | bigint | FloatBox {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof FloatBox;
}

/** The JS number of any numeric value (bigints lose precision beyond 2^53, as floats do). */
export function toJsNumber(v: number | bigint | FloatBox): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return v.value;
}

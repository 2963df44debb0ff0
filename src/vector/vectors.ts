/**
 * Reading vectors out of Cypher values. Two strictnesses: `requireVector` for what a user
 * passes on purpose (a query vector, a property set through a procedure), which fails with
 * a typed error naming the problem; `indexableVector` for property values met while
 * indexing, which are skipped silently when they are not vectors of the index's size (as
 * Neo4j leaves such entities out of a vector index).
 */

import { FloatBox, type Value } from '../../runtime/values.js';
import { describe } from '../../runtime/types.js';
import { ArgumentError, ValueTypeError } from '../errors.js';
import { PropertyColumn } from '../store/columns/property-column.js';
import type { Node, Rel } from '../store/entities.js';

/**
 * Largest squared length a vector may have: the index and its scores work in float32, where
 * a longer vector's dot products and distances overflow to Infinity and its scores become
 * NaN. (Each element being finite in float32 is not enough: 1e30 is, its square is not.)
 */
const MAX_SQUARED_LENGTH = 3.4028234663852886e38;

/** Whether `v`'s squared length stays within float32's range. */
function withinRange(v: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  return sum <= MAX_SQUARED_LENGTH;
}

function tooLarge(what: string): ValueTypeError {
  return new ValueTypeError(`${what} is too large: its squared length exceeds the float32 range (about 3.4e38) that vector scores are computed in`, 'InvalidVectorValue');
}

/** One element as a finite number, or undefined. */
function element(v: Value): number | undefined {
  let x: number;
  if (typeof v === 'number') x = v;
  else if (v instanceof FloatBox) x = v.value;
  else if (typeof v === 'bigint') x = Number(v);
  else return undefined;
  return Number.isFinite(x) ? x : undefined;
}

/** The value as a vector when it is a list of finite numbers (or a VECTOR) of `dimensions` elements, else null. */
export function indexableVector(value: Value | undefined, dimensions: number): Float32Array | null {
  if (value instanceof Float32Array) {
    if (value.length !== dimensions) return null;
    for (let i = 0; i < value.length; i++) if (!Number.isFinite(value[i])) return null;
    return withinRange(value) ? value : null;
  }
  if (!Array.isArray(value) || value.length !== dimensions) return null;
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) {
    const x = element(value[i]);
    if (x === undefined) return null;
    out[i] = x;
  }
  // A float64 element beyond float32's range became Infinity above, which withinRange refuses too.
  return withinRange(out) ? out : null;
}

/**
 * `indexableVector` of an entity's property, read straight from the column's packed list
 * when the store keeps it packed (`store/columns/float-lists.ts`): a float32 list comes back
 * as a view of the store's memory, without building the JS array a property read makes.
 * The result is read-only and is not to be kept (the index copies what it keeps).
 */
export function storedVector(entity: Node | Rel, key: string, dimensions: number): Float32Array | null {
  const column = entity.store.column(key);
  const lists = column instanceof PropertyColumn ? column.lists : undefined;
  if (lists === undefined || !lists.has(entity.id)) return indexableVector(entity.prop(key), dimensions);
  if (lists.length(entity.id) !== dimensions) return null;
  const v = lists.float32(entity.id);
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return null;
  return withinRange(v) ? v : null;
}

/**
 * The value as a vector, or a typed error: ValueTypeError `InvalidVectorValue` for a value
 * that is not a list of numbers (NaN and infinities included), ArgumentError
 * `VectorDimensionMismatch` when `dimensions` is given and the length differs.
 */
export function requireVector(value: Value, what: string, dimensions?: number): Float32Array {
  let out: Float32Array;
  if (value instanceof Float32Array) {
    out = value;
  } else if (Array.isArray(value)) {
    out = new Float32Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const x = element(value[i]);
      if (x === undefined) {
        throw new ValueTypeError(`${what} must be a list of finite numbers, but element ${i} is ${describeElement(value[i])}`, 'InvalidVectorValue');
      }
      out[i] = x;
    }
  } else {
    throw new ValueTypeError(`${what} must be a list of numbers, got ${describe(value)}`, 'InvalidVectorValue');
  }
  for (let i = 0; i < out.length; i++) {
    if (!Number.isFinite(out[i])) {
      // Finite as given, but not as the float32 the index keeps.
      if (Array.isArray(value)) throw tooLarge(what);
      throw new ValueTypeError(`${what} must be a list of finite numbers, but element ${i} is ${out[i]}`, 'InvalidVectorValue');
    }
  }
  if (!withinRange(out)) throw tooLarge(what);
  if (out.length === 0) throw new ArgumentError(`${what} must not be empty`, 'VectorDimensionMismatch');
  if (dimensions !== undefined && out.length !== dimensions) {
    throw new ArgumentError(`${what} has ${out.length} dimensions, but the index expects ${dimensions}`, 'VectorDimensionMismatch');
  }
  return out;
}

/** A checked query vector: the caller's list itself when it holds only finite JS numbers, else a Float32Array. */
export type QueryVector = number[] | Float32Array;

/**
 * `requireVector` for a query vector handed straight to hnswlib, which reads plain arrays:
 * a list of finite JS numbers of the right length — what a client's parameter becomes — is
 * returned as it is, sparing a Float32Array and a copy back into an array per query.
 */
export function requireQueryVector(value: Value, what: string, dimensions: number): QueryVector {
  if (Array.isArray(value) && value.length === dimensions && dimensions > 0) {
    let plain = true;
    for (let i = 0; i < value.length && plain; i++) {
      const x = value[i];
      plain = typeof x === 'number' && Number.isFinite(x);
    }
    if (plain && withinRange(Float32Array.from(value as number[]))) return value as number[];
  }
  return requireVector(value, what, dimensions);
}

function describeElement(v: Value): string {
  const n = typeof v === 'number' ? v : v instanceof FloatBox ? v.value : undefined;
  return n !== undefined ? String(n) : `a ${describe(v)}`;
}

/** A vector as the list of floats a property holds. */
export function vectorToList(v: Float32Array): Value[] {
  return Array.from(v, (x) => (Number.isInteger(x) ? new FloatBox(x) : x));
}

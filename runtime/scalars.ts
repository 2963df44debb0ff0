/**
 * The leaf types of the value model (runtime/values.ts): the boxed integral float and the
 * interface of temporal and spatial values. They import nothing, so the store's entities can
 * use them without depending on the runtime.
 */

/** An integral-valued float such as `1.0`; non-integral floats are plain numbers. */
export class FloatBox {
  constructor(readonly value: number) {}
}

/**
 * Values beyond the core model (temporal, spatial) implement this so that comparison,
 * equality, hashing and printing stay generic.
 */
export interface ExtendedValue {
  /** Cypher type name, e.g. `DATE`, `POINT`. */
  readonly cypherType: string;
  /** Cypher literal-like text form, as the TCK prints it. */
  toCypherString(): string;
  /** Equality with another value of the same `cypherType`; null when incomparable (e.g. different CRS). */
  equalsValue(other: ExtendedValue): boolean | null;
  /** Ordering within the same `cypherType`; undefined when the two cannot be ordered. */
  compareValue(other: ExtendedValue): number | undefined;
  /** A string key that is equal for equal values (grouping, DISTINCT). */
  hashKey(): string;
}

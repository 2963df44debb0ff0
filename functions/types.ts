/**
 * The shape of a built-in function as the registry and the code generator see it, the
 * per-query context some functions read, and the argument checks every implementation
 * module shares (so that errors read the same everywhere).
 */

import { ArgumentError, ValueTypeError } from '../src/errors.js';
import { FloatBox, type Value } from '../runtime/values.js';
import { describe } from '../runtime/types.js';

/** What a query fixes once per execution: functions that read it are marked `needsContext`. */
export interface FunctionContext {
  /** Milliseconds since the epoch, the same for the whole statement (`timestamp()`). */
  statementTime: number;
  /** A uniform random number in [0, 1) (`rand()`). */
  random(): number;
  /** The database's embedders (`genai.vector.encode`), when the database has any. */
  embedding?: EmbeddingProvider;
  /** Where LOAD CSV is reading, set for each row it produces (`linenumber()`, `file()`). */
  readonly csvPosition?: CsvPosition;
}

/** The file and 1-based line of the row LOAD CSV produced last; nulls outside LOAD CSV. */
export interface CsvPosition {
  file: string | null;
  line: number | null;
}

/** What `genai.vector.encode` needs from the database (implemented by src/embed/embedder.ts). */
export interface EmbeddingProvider {
  encode(texts: readonly string[], provider: string | null, config: ReadonlyMap<string, unknown> | null): Float32Array[];
}

interface FunctionInfo {
  /** Canonical name as documented (`toUpper`, `apoc.x.y` style names keep their dots). */
  name: string;
  minArgs: number;
  maxArgs: number;
  /** One line for SHOW FUNCTIONS and capability listings. */
  description: string;
  /** Grouping for listings: `numeric`, `string`, `list`, `graph`, `conversion`, `scalar`. */
  category: string;
  /** Signature text for listings when the generic `name(arg1 :: ANY, …) :: ANY` would say too little. */
  signature?: string;
}

/** A function of its arguments only: generated code calls `impl(...args)`. */
export interface PureFunctionDef extends FunctionInfo {
  needsContext: false;
  impl: (...args: Value[]) => Value;
}

/** A function that reads the per-query context: generated code calls `impl(ctx, ...args)`. */
export interface ContextFunctionDef extends FunctionInfo {
  needsContext: true;
  impl: (ctx: FunctionContext, ...args: Value[]) => Value;
}

export type FunctionDef = PureFunctionDef | ContextFunctionDef;

// ---------------------------------------------------------------------------------------
// Argument checks

/** The error for an argument of the wrong type (the TCK's `InvalidArgumentValue` TypeError). */
export function badArg(fn: string, v: Value, expected: string): ValueTypeError {
  return new ValueTypeError(`${fn}() expects ${expected}, got ${describe(v)}`, 'InvalidArgumentValue');
}

/** Any number as a JS number (for float-valued math). */
export function numArg(fn: string, v: Value): number {
  if (typeof v === 'number') return v;
  if (v instanceof FloatBox) return v.value;
  if (typeof v === 'bigint') return Number(v);
  throw badArg(fn, v, 'a number');
}

/** An integer argument as a JS number (bigints clamp to ±2^53, which is out of range for any use here). */
export function intArg(fn: string, v: Value): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint') return v > 0n ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
  throw badArg(fn, v, 'an integer');
}

/** A non-negative integer argument (lengths, counts). */
export function countArg(fn: string, v: Value): number {
  const n = intArg(fn, v);
  if (n < 0) throw new ArgumentError(`${fn}() expects a non-negative integer, got ${n}`, 'NegativeIntegerArgument');
  return n;
}

export function strArg(fn: string, v: Value): string {
  if (typeof v === 'string') return v;
  throw badArg(fn, v, 'a string');
}

export function listArg(fn: string, v: Value): Value[] {
  if (Array.isArray(v)) return v;
  throw badArg(fn, v, 'a list');
}

/** A float result: integral values boxed. */
export function fl(x: number): number | FloatBox {
  return Number.isInteger(x) ? new FloatBox(x) : x;
}

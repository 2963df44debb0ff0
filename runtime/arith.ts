/**
 * Cypher arithmetic: `+ - * / % ^` and unary minus with openCypher semantics.
 *
 * - INTEGER op INTEGER stays an exact INTEGER; a result outside signed 64 bits is an
 *   ArithmeticError (`IntegerOverflow`). Results beyond ±2^53 are computed with bigint.
 * - Any FLOAT operand makes the result a FLOAT (integral results are boxed, see values.ts).
 * - Integer `/` truncates toward zero; integer `/ 0` and `% 0` raise `DivisionByZero`;
 *   float division by zero gives ±Infinity or NaN. `^` is always a FLOAT.
 * - `+` also concatenates strings (a string with a number or boolean concatenates its text
 *   form) and lists (`list + list`, `list + x`, `x + list`).
 * - null propagates; other combinations raise ValueTypeError `InvalidArgumentType`.
 *
 * Extension hook: a value implementing `ExtendedValue` (temporal, duration) may also
 * implement `ArithmeticOperand`; it is asked first whenever one operand is extended.
 *
 * The common number cases are handled inline with `typeof` checks and no allocation.
 */

import { checkListSize, checkStringLength, work } from './governor.js';
import { ArithmeticError, ValueTypeError } from '../src/errors.js';
import { FloatBox, MAX_INT64, MIN_INT64, intFromBigInt, type Value } from './values.js';
import { describe, isExtendedValue } from './types.js';
import { formatFloat } from './numfmt.js';

export type ArithOp = '+' | '-' | '*' | '/' | '%' | '^';

/**
 * Optional arithmetic for extended values (e.g. `date + duration`). `selfOnLeft` tells
 * whether this value is the left operand. Return undefined when the combination is not
 * supported; the caller then raises the usual type error.
 */
export interface ArithmeticOperand {
  arith(op: ArithOp, other: Value, selfOnLeft: boolean): Value | undefined;
  /** Unary minus; undefined when unsupported. */
  negate?(): Value | undefined;
}

function hasArith(v: Value): v is Value & ArithmeticOperand {
  return isExtendedValue(v) && typeof (v as unknown as { arith?: unknown }).arith === 'function';
}

/** A float result: integral values boxed. */
function fl(x: number): number | FloatBox {
  return Number.isInteger(x) ? new FloatBox(x) : x;
}

/** An integer result from a bigint, range-checked. */
function checkedBig(r: bigint, what: string): number | bigint {
  if (r > MAX_INT64 || r < MIN_INT64) throw new ArithmeticError(`Integer overflow in ${what}`, 'IntegerOverflow');
  return intFromBigInt(r);
}

/** 0: integer number, 1: bigint, 2: float, -1: not a number. */
function numKind(v: Value): number {
  if (typeof v === 'number') return Number.isInteger(v) ? 0 : 2;
  if (typeof v === 'bigint') return 1;
  if (v instanceof FloatBox) return 2;
  return -1;
}

function asFloat(v: number | bigint | FloatBox): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v.value;
}

function typeError(op: string, a: Value, b: Value): ValueTypeError {
  return new ValueTypeError(`Cannot apply '${op}' to ${describe(a)} and ${describe(b)}`, 'InvalidArgumentType');
}

/** Text of a scalar for string concatenation (`'a' + 1.0` is `'a1.0'`). */
function concatText(v: Value): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : formatFloat(v);
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof FloatBox) return formatFloat(v.value);
  return undefined;
}

/** Generic path for two numbers of any kinds (ints, bigints, floats). */
function numeric(op: ArithOp, a: number | bigint | FloatBox, b: number | bigint | FloatBox): Value {
  const ka = numKind(a);
  const kb = numKind(b);
  if (ka === 2 || kb === 2 || op === '^') {
    const x = asFloat(a);
    const y = asFloat(b);
    switch (op) {
      case '+':
        return fl(x + y);
      case '-':
        return fl(x - y);
      case '*':
        return fl(x * y);
      case '/':
        return fl(x / y);
      case '%':
        return fl(x % y);
      case '^':
        return fl(Math.pow(x, y));
    }
  }
  // Both integers, at least one of them a bigint (or the number fast path overflowed).
  const x = BigInt(a as number | bigint);
  const y = BigInt(b as number | bigint);
  switch (op) {
    case '+':
      return checkedBig(x + y, 'addition');
    case '-':
      return checkedBig(x - y, 'subtraction');
    case '*':
      return checkedBig(x * y, 'multiplication');
    case '/':
      if (y === 0n) throw new ArithmeticError('Division by zero', 'DivisionByZero');
      return checkedBig(x / y, 'division');
    case '%':
      if (y === 0n) throw new ArithmeticError('Division by zero', 'DivisionByZero');
      return checkedBig(x % y, 'modulo');
  }
}

function slow(op: ArithOp, a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (numKind(a) >= 0 && numKind(b) >= 0) return numeric(op, a as number, b as number);
  if (hasArith(a)) {
    const r = a.arith(op, b, true);
    if (r !== undefined) return r;
  }
  if (hasArith(b)) {
    const r = b.arith(op, a, false);
    if (r !== undefined) return r;
  }
  if (op === '+') {
    const aList = Array.isArray(a);
    const bList = Array.isArray(b);
    if (aList || bList) {
      const n = (aList ? (a as Value[]).length : 1) + (bList ? (b as Value[]).length : 1);
      checkListSize(n, 'List concatenation');
      work(n);
      if (aList && bList) return (a as Value[]).concat(b as Value[]);
      return aList ? [...(a as Value[]), b] : [a, ...(b as Value[])];
    }
    if (typeof a === 'string' || typeof b === 'string') {
      const x = concatText(a);
      const y = concatText(b);
      if (x !== undefined && y !== undefined) return concatStrings(x, y);
    }
  }
  throw typeError(op, a, b);
}

/** String `+`, within the query's string length limit. */
function concatStrings(a: string, b: string): string {
  checkStringLength(a.length + b.length, 'String concatenation');
  return a + b;
}

export function add(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (Number.isInteger(a) && Number.isInteger(b)) {
      if (Number.isSafeInteger(r)) return r;
      return numeric('+', a, b);
    }
    return Number.isInteger(r) ? new FloatBox(r) : r;
  }
  if (typeof a === 'string' && typeof b === 'string') return concatStrings(a, b);
  return slow('+', a, b);
}

export function sub(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (Number.isInteger(a) && Number.isInteger(b)) {
      if (Number.isSafeInteger(r)) return r;
      return numeric('-', a, b);
    }
    return Number.isInteger(r) ? new FloatBox(r) : r;
  }
  return slow('-', a, b);
}

export function mul(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (Number.isInteger(a) && Number.isInteger(b)) {
      // A safe rounded product implies the exact product was safe; `+ 0` folds -0 to 0.
      if (Number.isSafeInteger(r)) return r + 0;
      return numeric('*', a, b);
    }
    return Number.isInteger(r) ? new FloatBox(r) : r;
  }
  return slow('*', a, b);
}

export function div(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isInteger(a) && Number.isInteger(b)) {
      if (b === 0) throw new ArithmeticError('Division by zero', 'DivisionByZero');
      // `a % b` is exact for safe integers, so this quotient is exact and truncated.
      return (a - (a % b)) / b + 0;
    }
    const r = a / b;
    return Number.isInteger(r) ? new FloatBox(r) : r;
  }
  return slow('/', a, b);
}

export function mod(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Number.isInteger(a) && Number.isInteger(b)) {
      if (b === 0) throw new ArithmeticError('Division by zero', 'DivisionByZero');
      return (a % b) + 0;
    }
    const r = a % b;
    return Number.isInteger(r) ? new FloatBox(r) : r;
  }
  return slow('%', a, b);
}

export function pow(a: Value, b: Value): Value {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = Math.pow(a, b);
    return Number.isInteger(r) ? new FloatBox(r) : r;
  }
  return slow('^', a, b);
}

export function neg(a: Value): Value {
  if (typeof a === 'number') {
    if (Number.isInteger(a)) return 0 - a;
    return -a;
  }
  if (a === null) return null;
  if (a instanceof FloatBox) return new FloatBox(-a.value);
  if (typeof a === 'bigint') return checkedBig(-a, 'negation');
  if (hasArith(a) && a.negate) {
    const r = a.negate();
    if (r !== undefined) return r;
  }
  throw new ValueTypeError(`Cannot negate ${describe(a)}`, 'InvalidArgumentType');
}

/** Unary plus: numbers (and extended values) pass through; anything else is a type error. */
export function pos(a: Value): Value {
  if (a === null || typeof a === 'number' || typeof a === 'bigint' || a instanceof FloatBox || isExtendedValue(a)) return a;
  throw new ValueTypeError(`Cannot apply unary '+' to ${describe(a)}`, 'InvalidArgumentType');
}

/**
 * Type conversion functions: toBoolean, toInteger, toFloat, toString, their `…OrNull`
 * forms (null instead of an error for unconvertible types) and the list forms
 * (toBooleanList, toIntegerList, toFloatList, toStringList — element-wise, unconvertible
 * elements become null). Strings that do not parse convert to null.
 */

import { ArgumentError } from '../src/errors.js';
import { FloatBox, MAX_INT64, MIN_INT64, intFromBigInt, type Value } from '../runtime/values.js';
import { formatFloat } from '../runtime/numfmt.js';
import { isExtendedValue } from '../runtime/types.js';
import { pure } from './define.js';
import { badArg, fl, type FunctionDef } from './types.js';

/** Marks "this type cannot be converted" for the strict/OrNull split. */
const NO = Symbol('unconvertible');
type Conv = Value | typeof NO;

const INT_TEXT = /^[+-]?\d+$/;
const FLOAT_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function parseFloatText(s: string): number | null {
  const t = s.trim();
  if (FLOAT_TEXT.test(t)) return Number(t);
  if (t === 'NaN') return NaN;
  if (t === 'Infinity' || t === '+Infinity') return Infinity;
  if (t === '-Infinity') return -Infinity;
  return null;
}

function intFromFloat(x: number): Value {
  if (!Number.isFinite(x)) throw new ArgumentError(`Cannot convert ${formatFloat(x)} to an integer`, 'NumberOutOfRange');
  const t = Math.trunc(x) + 0;
  if (Number.isSafeInteger(t)) return t;
  const b = BigInt(t);
  if (b > MAX_INT64 || b < MIN_INT64) throw new ArgumentError(`${formatFloat(x)} is outside the integer range`, 'NumberOutOfRange');
  return b;
}

function toBooleanConv(v: Value): Conv {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    return t === 'true' ? true : t === 'false' ? false : null;
  }
  if (typeof v === 'number' && Number.isInteger(v)) return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  return NO;
}

function toIntegerConv(v: Value): Conv {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? v : intFromFloat(v);
  if (typeof v === 'bigint') return v;
  if (v instanceof FloatBox) return intFromFloat(v.value);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const t = v.trim();
    if (INT_TEXT.test(t)) {
      const b = BigInt(t);
      return b > MAX_INT64 || b < MIN_INT64 ? null : intFromBigInt(b);
    }
    const f = parseFloatText(t);
    if (f === null || !Number.isFinite(f)) return null;
    try {
      return intFromFloat(f);
    } catch {
      return null;
    }
  }
  return NO;
}

function toFloatConv(v: Value): Conv {
  if (v === null) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? new FloatBox(v) : v;
  if (v instanceof FloatBox) return v;
  if (typeof v === 'bigint') return fl(Number(v));
  if (typeof v === 'string') {
    const f = parseFloatText(v);
    return f === null ? null : fl(f);
  }
  return NO;
}

/** Text of an extended value for toString(): its own `toStringValue()` if present, else its printed form unquoted. */
function extendedText(v: Value): string | undefined {
  if (!isExtendedValue(v)) return undefined;
  const own = (v as { toStringValue?: unknown }).toStringValue;
  if (typeof own === 'function') return String((own as () => unknown).call(v));
  const s = v.toCypherString();
  return s.length >= 2 && s.startsWith("'") && s.endsWith("'") ? s.slice(1, -1) : s;
}

function toStringConv(v: Value): Conv {
  if (v === null || typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : formatFloat(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof FloatBox) return formatFloat(v.value);
  return extendedText(v) ?? NO;
}

function strict(name: string, conv: (v: Value) => Conv, expected: string): (...args: Value[]) => Value {
  return (v = null) => {
    const r = conv(v);
    if (r === NO) throw badArg(name, v, expected);
    return r;
  };
}

function orNull(conv: (v: Value) => Conv): (...args: Value[]) => Value {
  return (v = null) => {
    try {
      const r = conv(v);
      return r === NO ? null : r;
    } catch {
      return null;
    }
  };
}

function listForm(name: string, conv: (v: Value) => Conv): (...args: Value[]) => Value {
  const each = orNull(conv);
  return (v = null) => {
    if (v === null) return null;
    if (!Array.isArray(v)) throw badArg(name, v, 'a list');
    return v.map((x) => each(x));
  };
}

/** `toString()` semantics for other modules (e.g. string building). Throws for unconvertible types. */
export const toCypherString = strict('toString', toStringConv, 'a number, boolean, string or temporal value');

export const convertFunctions: FunctionDef[] = [
  pure('toBoolean', 'conversion', [1, 1], 'A boolean from a boolean, string or integer', strict('toBoolean', toBooleanConv, 'a boolean, string or integer')),
  pure('toBooleanOrNull', 'conversion', [1, 1], 'toBoolean(), or null when not convertible', orNull(toBooleanConv)),
  pure('toInteger', 'conversion', [1, 1], 'An integer from a number, boolean or string', strict('toInteger', toIntegerConv, 'a number, boolean or string')),
  pure('toIntegerOrNull', 'conversion', [1, 1], 'toInteger(), or null when not convertible', orNull(toIntegerConv)),
  pure('toFloat', 'conversion', [1, 1], 'A float from a number or string', strict('toFloat', toFloatConv, 'a number or string')),
  pure('toFloatOrNull', 'conversion', [1, 1], 'toFloat(), or null when not convertible', orNull(toFloatConv)),
  pure('toString', 'conversion', [1, 1], 'A string from a number, boolean, string or temporal value', toCypherString),
  pure('toStringOrNull', 'conversion', [1, 1], 'toString(), or null when not convertible', orNull(toStringConv)),
  pure('toBooleanList', 'conversion', [1, 1], 'A list converted element-wise with toBooleanOrNull()', listForm('toBooleanList', toBooleanConv)),
  pure('toIntegerList', 'conversion', [1, 1], 'A list converted element-wise with toIntegerOrNull()', listForm('toIntegerList', toIntegerConv)),
  pure('toFloatList', 'conversion', [1, 1], 'A list converted element-wise with toFloatOrNull()', listForm('toFloatList', toFloatConv)),
  pure('toStringList', 'conversion', [1, 1], 'A list converted element-wise with toStringOrNull()', listForm('toStringList', toStringConv)),
];

/**
 * List functions (and the list/string generic ones): head, last, tail, size, range,
 * reverse, isEmpty, coalesce.
 */

import { ArgumentError } from '../src/errors.js';
import { checkListSize, work } from '../runtime/governor.js';
import { intFromBigInt, type Value } from '../runtime/values.js';
import { nullSafe1, pure } from './define.js';
import { codePointLength } from './string.js';
import { badArg, type FunctionDef } from './types.js';

function size(v: Value): Value {
  if (Array.isArray(v)) return v.length;
  if (typeof v === 'string') return codePointLength(v);
  throw badArg('size', v, 'a list or a string');
}

/** How many elements range() makes between two checks of the query's deadline (a power of two). */
const RANGE_CHUNK = 1 << 16;

function rangeArg(v: Value, what: string): number | bigint {
  if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return v;
  throw new ArgumentError(`range() expects an integer ${what}`, 'InvalidArgumentType');
}

/**
 * What range(start, end[, step]) counts through, without making the list: `count` integers from
 * `start` by `step`, or — for integers past 2^53, kept as BigInts — the made `list`; count 0
 * when an argument is null (UNWIND then yields no row). Errors as range() raises them.
 */
export interface RangeSpan {
  start: number;
  step: number;
  count: number;
  list: Value[] | null;
}

export function rangeSpan(a: Value, b: Value, c: Value = 1): RangeSpan {
  if (a === null || b === null || c === null) return { start: 0, step: 1, count: 0, list: null };
  const start = rangeArg(a, 'start');
  const end = rangeArg(b, 'end');
  const step = rangeArg(c, 'step');
  // eslint-disable-next-line eqeqeq -- 0 or 0n
  if (step == 0) throw new ArgumentError('range() step must not be zero', 'NumberOutOfRange');
  if (typeof start === 'number' && typeof end === 'number' && typeof step === 'number') {
    const count = Math.max(0, Math.floor((end - start) / step) + 1);
    if (count > 0) checkListSize(count, 'range()');
    return { start, step, count, list: null };
  }
  const list = bigRange(BigInt(start), BigInt(end), BigInt(step));
  return { start: 0, step: 1, count: list.length, list };
}

function range(...args: Value[]): Value {
  const [a = null, b = null, c = 1] = args;
  if (a === null || b === null || c === null) return null;
  const span = rangeSpan(a, b, c);
  if (span.list !== null) return span.list;
  const { start, step, count } = span;
  // Filled a chunk at a time, each charged before it is made: a list of millions takes tens
  // of milliseconds to fill, which the query's deadline (a main-thread slice) must be able to cut.
  const out = new Array<Value>(count);
  for (let i = 0, x = start; i < count; ) {
    const upTo = Math.min(count, i + RANGE_CHUNK);
    work(upTo - i);
    for (; i < upTo; i++, x += step) out[i] = x;
  }
  return out;
}

function bigRange(s: bigint, e: bigint, st: bigint): Value[] {
  const diff = e - s;
  if ((diff > 0n && st < 0n) || (diff < 0n && st > 0n)) return [];
  const count = diff / st + 1n;
  checkListSize(count > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(count), 'range()');
  const out: Value[] = [];
  for (let x = s, i = 0n; i < count; i++, x += st) {
    if ((out.length & (RANGE_CHUNK - 1)) === 0) work(RANGE_CHUNK);
    out.push(intFromBigInt(x));
  }
  return out;
}

function reverse(v: Value): Value {
  if (Array.isArray(v)) return v.slice().reverse();
  if (typeof v === 'string') return Array.from(v).reverse().join('');
  throw badArg('reverse', v, 'a list or a string');
}

function isEmpty(v: Value): Value {
  if (Array.isArray(v) || typeof v === 'string') return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  throw badArg('isEmpty', v, 'a list, a string or a map');
}

function listOf(fn: string, v: Value): Value[] {
  if (Array.isArray(v)) return v;
  throw badArg(fn, v, 'a list');
}

export const listFunctions: FunctionDef[] = [
  pure('head', 'list', [1, 1], 'The first element of a list', nullSafe1((l) => listOf('head', l)[0] ?? null)),
  pure('last', 'list', [1, 1], 'The last element of a list', nullSafe1((l) => {
    const list = listOf('last', l);
    return list.length ? list[list.length - 1] : null;
  })),
  pure('tail', 'list', [1, 1], 'A list without its first element', nullSafe1((l) => listOf('tail', l).slice(1))),
  pure('size', 'list', [1, 1], 'Number of elements of a list, or characters of a string', nullSafe1(size)),
  pure('range', 'list', [2, 3], 'A list of integers from start to end (inclusive) by step', range),
  pure('reverse', 'list', [1, 1], 'A list or string in reverse order', nullSafe1(reverse)),
  pure('isEmpty', 'list', [1, 1], 'Whether a list, string or map is empty', nullSafe1(isEmpty)),
  pure('coalesce', 'scalar', [1, Infinity], 'The first non-null argument', (...args) => {
    for (let i = 0; i < args.length; i++) if (args[i] !== null) return args[i];
    return null;
  }),
];

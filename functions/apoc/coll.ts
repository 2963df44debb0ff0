/**
 * `apoc.coll.*`: list functions — sums and extremes, sets (union, intersection, subtract,
 * toSet by Cypher equality), sorting, flattening, zipping, pairs, partitions, counts and
 * edits by position. A null list gives null (or the neutral result APOC documents).
 *
 * Hostile input is bounded like the rest of a query (runtime/governor.ts): lists that can
 * grow beyond their inputs (flatten of shared sub-lists, unions, fill, combinations) are
 * checked against the list limit and charged as they grow, and loops check the deadline.
 */

import { Node } from '../../src/store/entities.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { add } from '../../runtime/arith.js';
import { equals, orderCompare } from '../../runtime/compare.js';
import { groupKey } from '../../runtime/groupkey.js';
import { charge, checkListSize, step, work } from '../../runtime/governor.js';
import { pure } from '../define.js';
import { badArg, countArg, fl, intArg, listArg, numArg, strArg, type FunctionDef } from '../types.js';

const C = 'list';

function list(fn: string, v: Value | undefined): Value[] | null {
  return v === null || v === undefined ? null : listArg(fn, v);
}

/** Distinct values by grouping equivalence, first occurrences kept in order. */
function distinct(xs: Value[]): Value[] {
  const seen = new Set<unknown>();
  const out: Value[] = [];
  for (const x of xs) {
    step();
    const k = groupKey(x);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(x);
  }
  return out;
}

function keys(xs: Value[]): Set<unknown> {
  work(xs.length);
  return new Set(xs.map(groupKey));
}

function numbers(fn: string, xs: Value[]): Value[] {
  return xs.filter((x) => x !== null).map((x) => (numArg(fn, x), x));
}

/** `xs` with nested lists spliced in; the list limit is checked as it grows (shared sub-lists multiply). */
function flatten(xs: Value[], deep: boolean, out: Value[] = []): Value[] {
  for (const x of xs) {
    step();
    if (Array.isArray(x) && deep) flatten(x, true, out);
    else if (Array.isArray(x)) {
      checkListSize(out.length + x.length, 'apoc.coll.flatten()');
      work(x.length);
      for (const y of x) out.push(y);
    } else {
      checkListSize(out.length + 1, 'apoc.coll.flatten()');
      out.push(x);
    }
  }
  return out;
}

/** Both lists in one, refused beforehand when it would be over the list limit. */
function concat(fn: string, x: Value[], y: Value[]): Value[] {
  checkListSize(x.length + y.length, `${fn}()`);
  work(x.length + y.length);
  return x.concat(y);
}

/** A comparison that checks the deadline (sorting a huge list is many comparisons). */
function stepping(compare: (a: Value, b: Value) => number): (a: Value, b: Value) => number {
  return (a, b) => {
    step();
    return compare(a, b);
  };
}

function propertyOf(v: Value, key: string): Value {
  if (v instanceof Map) return v.get(key) ?? null;
  if (v instanceof Node) return v.prop(key) ?? null;
  if (v !== null && typeof v === 'object' && 'props' in v && v.props instanceof Map) return (v.props as Map<string, Value>).get(key) ?? null;
  return null;
}

/** Sort by a property (`^name` ascending — APOC's sortNodes/sortMaps are descending unless the key starts with ^). */
function sortBy(fn: string, xs: Value[], keySpec: Value): Value[] {
  let key = strArg(fn, keySpec);
  const asc = key.startsWith('^');
  if (asc) key = key.slice(1);
  const sorted = xs.slice().sort(stepping((a, b) => orderCompare(propertyOf(a, key), propertyOf(b, key))));
  return asc ? sorted : sorted.reverse();
}

export const apocCollFunctions: FunctionDef[] = [
  pure('apoc.coll.sum', C, [1, 1], 'The sum of the numbers in a list (a float)', (xs = null) => {
    const l = list('apoc.coll.sum', xs);
    if (l === null) return null;
    return fl(numbers('apoc.coll.sum', l).reduce<number>((a, x) => a + numArg('apoc.coll.sum', x), 0));
  }),
  pure('apoc.coll.sumLongs', C, [1, 1], 'The sum of the numbers in a list, as an integer', (xs = null) => {
    const l = list('apoc.coll.sumLongs', xs);
    if (l === null) return null;
    return numbers('apoc.coll.sumLongs', l).reduce<Value>((a, x) => add(a, typeof x === 'number' || x instanceof FloatBox ? Math.trunc(numArg('', x)) : x), 0);
  }),
  pure('apoc.coll.avg', C, [1, 1], 'The average of the numbers in a list (null for an empty list)', (xs = null) => {
    const l = list('apoc.coll.avg', xs);
    if (l === null) return null;
    const ns = numbers('apoc.coll.avg', l);
    return ns.length === 0 ? null : fl(ns.reduce<number>((a, x) => a + numArg('', x), 0) / ns.length);
  }),
  pure('apoc.coll.min', C, [1, 1], 'The smallest value in a list (ORDER BY order, nulls skipped)', (xs = null) => {
    const l = list('apoc.coll.min', xs)?.filter((x) => x !== null);
    return l === undefined || l.length === 0 ? null : l.reduce((a, b) => (orderCompare(b, a) < 0 ? b : a));
  }),
  pure('apoc.coll.max', C, [1, 1], 'The largest value in a list (ORDER BY order, nulls skipped)', (xs = null) => {
    const l = list('apoc.coll.max', xs)?.filter((x) => x !== null);
    return l === undefined || l.length === 0 ? null : l.reduce((a, b) => (orderCompare(b, a) > 0 ? b : a));
  }),
  pure('apoc.coll.toSet', C, [1, 1], 'The distinct values of a list, in first-seen order', (xs = null) => {
    const l = list('apoc.coll.toSet', xs);
    return l === null ? null : distinct(l.filter((x) => x !== null));
  }),
  pure('apoc.coll.sort', C, [1, 1], 'A list sorted ascending (ORDER BY order)', (xs = null) => {
    const l = list('apoc.coll.sort', xs);
    return l === null ? null : l.slice().sort(stepping(orderCompare));
  }),
  pure('apoc.coll.sortNodes', C, [2, 2], "Nodes sorted by a property, descending ('^prop' for ascending)", (xs = null, key = null) => {
    const l = list('apoc.coll.sortNodes', xs);
    return l === null || key === null ? l : sortBy('apoc.coll.sortNodes', l, key);
  }),
  pure('apoc.coll.sortMaps', C, [2, 2], "Maps sorted by a key, descending ('^key' for ascending)", (xs = null, key = null) => {
    const l = list('apoc.coll.sortMaps', xs);
    return l === null || key === null ? l : sortBy('apoc.coll.sortMaps', l, key);
  }),
  pure('apoc.coll.flatten', C, [1, 2], 'A list with nested lists spliced in (recursively when the second argument is true)', (xs = null, deep = false) => {
    const l = list('apoc.coll.flatten', xs);
    return l === null ? null : flatten(l, deep === true);
  }),
  pure('apoc.coll.union', C, [2, 2], 'The distinct values in either list', (a = null, b = null) => {
    const x = list('apoc.coll.union', a);
    const y = list('apoc.coll.union', b);
    return x === null || y === null ? null : distinct(concat('apoc.coll.union', x, y));
  }),
  pure('apoc.coll.unionAll', C, [2, 2], 'Both lists concatenated, duplicates kept', (a = null, b = null) => {
    const x = list('apoc.coll.unionAll', a);
    const y = list('apoc.coll.unionAll', b);
    return x === null || y === null ? null : concat('apoc.coll.unionAll', x, y);
  }),
  pure('apoc.coll.intersection', C, [2, 2], 'The distinct values in both lists', (a = null, b = null) => {
    const x = list('apoc.coll.intersection', a);
    const y = list('apoc.coll.intersection', b);
    if (x === null || y === null) return null;
    const ys = keys(y);
    return distinct(x.filter((v) => ys.has(groupKey(v))));
  }),
  pure('apoc.coll.subtract', C, [2, 2], 'The distinct values of the first list that are not in the second', (a = null, b = null) => {
    const x = list('apoc.coll.subtract', a);
    const y = list('apoc.coll.subtract', b);
    if (x === null || y === null) return null;
    const ys = keys(y);
    return distinct(x.filter((v) => !ys.has(groupKey(v))));
  }),
  pure('apoc.coll.disjunction', C, [2, 2], 'The distinct values in exactly one of the lists', (a = null, b = null) => {
    const x = list('apoc.coll.disjunction', a);
    const y = list('apoc.coll.disjunction', b);
    if (x === null || y === null) return null;
    const xs = keys(x);
    const ys = keys(y);
    return distinct(concat('apoc.coll.disjunction', x.filter((v) => !ys.has(groupKey(v))), y.filter((v) => !xs.has(groupKey(v)))));
  }),
  pure('apoc.coll.contains', C, [2, 2], 'Whether the list contains the value (Cypher equality)', (xs = null, v = null) => {
    const l = list('apoc.coll.contains', xs);
    return l === null ? false : l.some((x) => (step(), equals(x, v) === true));
  }),
  pure('apoc.coll.containsAll', C, [2, 2], 'Whether the first list contains every value of the second', (a = null, b = null) => {
    const x = list('apoc.coll.containsAll', a);
    const y = list('apoc.coll.containsAll', b);
    if (x === null || y === null) return false;
    const xs = keys(x);
    return y.every((v) => xs.has(groupKey(v)));
  }),
  pure('apoc.coll.isEqualCollection', C, [2, 2], 'Whether two lists hold the same values the same number of times, in any order', (a = null, b = null) => {
    const x = list('apoc.coll.isEqualCollection', a);
    const y = list('apoc.coll.isEqualCollection', b);
    if (x === null || y === null) return x === y;
    const count = (l: Value[]) => {
      const m = new Map<unknown, number>();
      for (const v of l) m.set(groupKey(v), (m.get(groupKey(v)) ?? 0) + 1);
      return m;
    };
    const cx = count(x);
    const cy = count(y);
    return x.length === y.length && [...cx].every(([k, n]) => cy.get(k) === n);
  }),
  pure('apoc.coll.indexOf', C, [2, 2], 'The 0-based position of the value in the list, or -1', (xs = null, v = null) => {
    const l = list('apoc.coll.indexOf', xs);
    return l === null ? -1 : l.findIndex((x) => (step(), equals(x, v) === true));
  }),
  pure('apoc.coll.zip', C, [2, 2], 'Pairs of elements at the same position ([a1, b1], …), as long as the first list', (a = null, b = null) => {
    const x = list('apoc.coll.zip', a);
    const y = list('apoc.coll.zip', b);
    if (x === null || y === null) return null;
    return x.map((v, i) => [v, y[i] ?? null]);
  }),
  pure('apoc.coll.pairs', C, [1, 1], 'Each element with the next ([a, b], [b, c], …, [z, null])', (xs = null) => {
    const l = list('apoc.coll.pairs', xs);
    return l === null ? null : l.map((v, i) => [v, l[i + 1] ?? null]);
  }),
  pure('apoc.coll.pairsMin', C, [1, 1], 'Each element with the next, without the last unpaired one', (xs = null) => {
    const l = list('apoc.coll.pairsMin', xs);
    return l === null ? null : l.slice(0, -1).map((v, i) => [v, l[i + 1]]);
  }),
  pure('apoc.coll.partition', C, [2, 2], 'The list cut into consecutive sublists of the given size', (xs = null, size = null) => {
    const l = list('apoc.coll.partition', xs);
    if (l === null || size === null) return null;
    const n = countArg('apoc.coll.partition', size);
    if (n === 0) throw badArg('apoc.coll.partition', size, 'a positive batch size');
    const out: Value[] = [];
    for (let i = 0; i < l.length; i += n) out.push(l.slice(i, i + n));
    return out;
  }),
  pure('apoc.coll.frequencies', C, [1, 1], 'Each distinct value with its count: [{item, count}, …]', (xs = null) => {
    const l = list('apoc.coll.frequencies', xs);
    if (l === null) return [];
    const m = new Map<unknown, { item: Value; count: number }>();
    for (const v of l) {
      step();
      if (v === null) continue;
      const k = groupKey(v);
      const e = m.get(k);
      if (e) e.count++;
      else m.set(k, { item: v, count: 1 });
    }
    return [...m.values()].map((e) => new Map<string, Value>([['item', e.item], ['count', e.count]]));
  }),
  pure('apoc.coll.occurrences', C, [2, 2], 'How many times the value occurs in the list', (xs = null, v = null) => {
    const l = list('apoc.coll.occurrences', xs);
    return l === null ? 0 : l.filter((x) => (step(), equals(x, v) === true)).length;
  }),
  pure('apoc.coll.duplicates', C, [1, 1], 'The values that occur more than once', (xs = null) => {
    const l = list('apoc.coll.duplicates', xs);
    if (l === null) return null;
    const seen = new Set<unknown>();
    return distinct(l.filter((v) => {
      const k = groupKey(v);
      if (seen.has(k)) return true;
      seen.add(k);
      return false;
    }));
  }),
  pure('apoc.coll.remove', C, [2, 3], 'The list without `length` (default 1) elements from a 0-based index', (xs = null, index = null, length = 1) => {
    const l = list('apoc.coll.remove', xs);
    if (l === null || index === null) return l;
    const i = countArg('apoc.coll.remove', index);
    const out = l.slice();
    out.splice(i, countArg('apoc.coll.remove', length ?? 1));
    return out;
  }),
  pure('apoc.coll.insert', C, [3, 3], 'The list with a value inserted at a 0-based index', (xs = null, index = null, v = null) => {
    const l = list('apoc.coll.insert', xs);
    if (l === null || index === null) return l;
    const out = l.slice();
    out.splice(countArg('apoc.coll.insert', index), 0, v);
    return out;
  }),
  pure('apoc.coll.set', C, [3, 3], 'The list with the element at a 0-based index replaced', (xs = null, index = null, v = null) => {
    const l = list('apoc.coll.set', xs);
    if (l === null || index === null) return l;
    const i = countArg('apoc.coll.set', index);
    if (i >= l.length) return l;
    const out = l.slice();
    out[i] = v;
    return out;
  }),
  pure('apoc.coll.fill', C, [2, 2], 'A list of `count` copies of a value', (v = null, count = null) => {
    if (count === null) return null;
    const n = countArg('apoc.coll.fill', count);
    checkListSize(n, 'apoc.coll.fill()');
    work(n);
    return new Array<Value>(n).fill(v);
  }),
  pure('apoc.coll.dropDuplicateNeighbors', C, [1, 1], 'The list without elements equal to the one before them', (xs = null) => {
    const l = list('apoc.coll.dropDuplicateNeighbors', xs);
    return l === null ? null : l.filter((v, i) => i === 0 || equals(v, l[i - 1]) !== true);
  }),
  pure('apoc.coll.different', C, [1, 1], 'Whether all values in the list are distinct', (xs = null) => {
    const l = list('apoc.coll.different', xs);
    return l === null ? true : keys(l).size === l.length;
  }),
  pure('apoc.coll.slice', C, [2, 3], 'The elements from a 0-based offset, at most `length` of them', (xs = null, from = null, length = null) => {
    const l = list('apoc.coll.slice', xs);
    if (l === null || from === null) return l;
    const f = countArg('apoc.coll.slice', from);
    return length === null ? l.slice(f) : l.slice(f, f + countArg('apoc.coll.slice', length));
  }),
  pure('apoc.coll.combinations', C, [2, 3], 'All combinations of between min and max elements of the list', (xs = null, min = null, max = null) => {
    const l = list('apoc.coll.combinations', xs);
    if (l === null || min === null) return null;
    const lo = countArg('apoc.coll.combinations', min);
    const hi = max === null ? lo : intArg('apoc.coll.combinations', max);
    if (l.length > 20) throw badArg('apoc.coll.combinations', xs, 'a list of at most 20 elements');
    const out: Value[] = [];
    for (let size = lo; size <= Math.min(hi, l.length); size++) {
      const pick = (start: number, acc: Value[]) => {
        if (acc.length === size) {
          step();
          checkListSize(out.length + 1, 'apoc.coll.combinations()');
          charge(1 + size);
          out.push(acc.slice());
          return;
        }
        for (let i = start; i < l.length; i++) pick(i + 1, [...acc, l[i]]);
      };
      pick(0, []);
    }
    return out;
  }),
];

import { describe, expect, it } from 'vitest';
import { and, contains, endsWith, hasAnyLabel, hasLabels, inList, index, isTrue, not, or, property, regexMatch, slice, startsWith, unwindList, xor } from '../../runtime/ops.js';
import { FloatBox } from '../../runtime/values.js';
import { EntityNotFoundError, ValueTypeError } from '../../src/errors.js';
import { map, node, rel } from './helpers.js';

describe('three-valued logic', () => {
  const T = true, F = false, N = null;
  it('truth tables', () => {
    expect([and(T, T), and(T, F), and(F, N), and(T, N), and(N, N)]).toEqual([T, F, F, N, N]);
    expect([or(T, N), or(F, F), or(F, N), or(N, N)]).toEqual([T, F, N, N]);
    expect([xor(T, F), xor(T, T), xor(T, N)]).toEqual([T, F, N]);
    expect([not(T), not(F), not(N)]).toEqual([F, T, N]);
  });
  it('rejects non-booleans', () => {
    expect(() => and(1, true)).toThrow(ValueTypeError);
    expect(() => not('x')).toThrow(ValueTypeError);
  });
  it('isTrue', () => {
    expect([isTrue(true), isTrue(false), isTrue(null), isTrue(1)]).toEqual([true, false, false, false]);
  });
});

describe('IN', () => {
  it('follows the TCK', () => {
    expect(inList(3, [1, null, 3])).toBe(true);
    expect(inList(4, [1, null, 3])).toBe(null);
    expect(inList(null, [])).toBe(false);
    expect(inList(null, [1, 2])).toBe(null);
    expect(inList(null, null)).toBe(null);
    expect(inList(1, ['1', 2])).toBe(false);
    expect(inList([1, 2], [1, [1, 2]])).toBe(true);
    expect(inList([1, 2], [[null, 'foo']])).toBe(false);
    expect(inList([1, 2], [[null, 2]])).toBe(null);
    expect(inList([1, 2, null], [1, [1, 2, null]])).toBe(null);
    expect(inList([], [])).toBe(false);
    expect(inList([], [1, 2, null])).toBe(null);
    expect(inList('a', ['b', null])).toBe(null);
    expect(inList('a', ['b', ['a']])).toBe(false);
    expect(inList(1, [new FloatBox(1)])).toBe(true);
  });
  it('needs a list', () => {
    expect(() => inList(1, 5)).toThrow(ValueTypeError);
  });
});

describe('subscripts and slices', () => {
  it('list index', () => {
    expect(index([1, 2, 3], 0)).toBe(1);
    expect(index([1, 2, 3], -1)).toBe(3);
    expect(index([1, 2, 3], 3)).toBe(null);
    expect(index([1, 2, 3], -4)).toBe(null);
    expect(index([1], null)).toBe(null);
    expect(index(null, 0)).toBe(null);
    expect(() => index([1], 'a')).toThrow(ValueTypeError);
    expect(() => index([1], new FloatBox(1))).toThrow(ValueTypeError);
    expect(() => index(123, 0)).toThrow(ValueTypeError);
  });
  it('map index', () => {
    expect(index(map({ name: 'Apa' }), 'name')).toBe('Apa');
    expect(index(map({ name: 'Apa' }), 'Name')).toBe(null);
    expect(index(map({ name: 'Apa' }), null)).toBe(null);
    try {
      index(map({ name: 'Apa' }), 0);
      expect.unreachable();
    } catch (e) {
      expect((e as ValueTypeError).detail).toBe('MapElementAccessByNonString');
    }
    expect(index(node(1, [], { name: 'x' }), 'name')).toBe('x');
  });
  it('slices (TCK List2)', () => {
    const l = [1, 2, 3];
    expect(slice([1, 2, 3, 4, 5], 1, 3)).toEqual([2, 3]);
    expect(slice(l, 1, undefined)).toEqual([2, 3]);
    expect(slice(l, undefined, 2)).toEqual([1, 2]);
    expect(slice(l, 0, 0)).toEqual([]);
    expect(slice(l, -3, -1)).toEqual([1, 2]);
    expect(slice(l, 3, 1)).toEqual([]);
    expect(slice(l, -5, 5)).toEqual([1, 2, 3]);
    expect(slice(l, null, null)).toBe(null);
    expect(slice(l, 1, null)).toBe(null);
    expect(slice(l, undefined, null)).toBe(null);
  });
  it('unwind', () => {
    expect(unwindList(null)).toEqual([]);
    expect(unwindList(1)).toEqual([1]);
    expect(unwindList([1, 2])).toEqual([1, 2]);
  });
});

describe('properties and labels', () => {
  it('reads properties', () => {
    const n = node(1, ['A'], { existing: 42 });
    expect(property(n, 'existing')).toBe(42);
    expect(property(n, 'missing')).toBe(null);
    expect(property(null, 'x')).toBe(null);
    expect(property(map({ a: null }), 'a')).toBe(null);
    expect(() => property(123, 'x')).toThrow(ValueTypeError);
    n.deleted = true;
    expect(() => property(n, 'existing')).toThrow(EntityNotFoundError);
  });
  it('checks labels', () => {
    const n = node(1, ['A', 'C']);
    expect(hasLabels(n, ['A', 'C'])).toBe(true);
    expect(hasLabels(n, ['C', 'A', 'A'])).toBe(true);
    expect(hasLabels(n, ['B'])).toBe(false);
    expect(hasLabels(null, ['B'])).toBe(null);
    expect(hasAnyLabel(n, ['B', 'C'])).toBe(true);
    expect(hasLabels(rel(1, 'T', n, n), ['T'])).toBe(true);
  });
});

describe('string predicates', () => {
  it('null unless both strings', () => {
    expect(startsWith('abc', 'ab')).toBe(true);
    expect(endsWith('abc', 'bc')).toBe(true);
    expect(contains('abc', '')).toBe(true);
    expect(contains('abc', null)).toBe(null);
    expect(startsWith(1, 1)).toBe(null);
    expect(endsWith([], 'a')).toBe(null);
  });
  it('regex full match with Java inline flags', () => {
    expect(regexMatch('abc', 'a.c')).toBe(true);
    expect(regexMatch('abcd', 'a.c')).toBe(false);
    expect(regexMatch('ABC', '(?i)abc')).toBe(true);
    expect(regexMatch('a|b', 'a\\|b')).toBe(true);
    expect(regexMatch('x', null)).toBe(null);
    expect(regexMatch(1, 'a')).toBe(null);
    expect(regexMatch('ab', 'a|ab')).toBe(true);
  });
});

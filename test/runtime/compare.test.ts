import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compare, compareStrings, equals, gt, gte, lt, lte, notEquals, orderCompare } from '../../runtime/compare.js';
import { groupKey, rowKey } from '../../runtime/groupkey.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { map, node, path, rel } from './helpers.js';

const f = (x: number) => new FloatBox(x);

describe('equals', () => {
  it('numbers across kinds', () => {
    expect(equals(1, f(1))).toBe(true);
    expect(equals(1, 1.5)).toBe(false);
    expect(equals(NaN, NaN)).toBe(false);
    expect(equals(NaN, 1)).toBe(false);
    expect(equals(4611686018427387905n, 4611686018427387905n)).toBe(true);
    expect(equals(4611686018427387905n, 4611686018427387900n)).toBe(false);
    expect(equals(f(2 ** 60), 2n ** 60n)).toBe(true);
    expect(equals('1', 1)).toBe(false);
    expect(equals('1.0', f(1))).toBe(false);
  });
  it('null is unknown', () => {
    expect(equals(null, null)).toBe(null);
    expect(notEquals(null, null)).toBe(null);
    expect(equals(1, null)).toBe(null);
  });
  it('lists (TCK List3/Comparison1)', () => {
    expect(equals([1, 2], [1])).toBe(false);
    expect(equals([null], [1])).toBe(null);
    expect(equals(['a'], [1])).toBe(false);
    expect(equals([[1]], [[1], [null]])).toBe(false);
    expect(equals([[1], [2]], [[1], [null]])).toBe(null);
    expect(equals([[1], [2, 3]], [[1], [null]])).toBe(false);
    expect(equals([1, 2], [null, 'foo'])).toBe(false);
    expect(equals([1, 2], [null, 2])).toBe(null);
    expect(equals([1, 2], 'foo')).toBe(false);
  });
  it('maps (TCK Comparison1 [7])', () => {
    const cases: [Record<string, Value>, Record<string, Value>, boolean | null][] = [
      [{}, {}, true],
      [{ k: true }, { k: true }, true],
      [{ k: f(1) }, { k: f(1) }, true],
      [{}, { k: null }, false],
      [{ k: null }, {}, false],
      [{ k: 1 }, { k: 1, l: null }, false],
      [{ k: null, l: 1 }, { l: 1 }, false],
      [{ k: null }, { k: null, l: null }, false],
      [{ k: null }, { k: null }, null],
      [{ k: 1 }, { k: null }, null],
      [{ k: 1, l: null }, { k: null, l: null }, null],
      [{ k: 1, l: null }, { k: null, l: 1 }, null],
      [{ k: 1, l: null }, { k: 1, l: 1 }, null],
    ];
    for (const [a, b, r] of cases) expect(equals(map(a), map(b))).toBe(r);
  });
  it('entities by id, paths by elements', () => {
    const a = node(1, ['A']);
    const b = node(2);
    const r = rel(1, 'T', a, a);
    expect(equals(a, node(1))).toBe(true);
    expect(equals(a, b)).toBe(false);
    expect(equals(a, r)).toBe(false);
    expect(equals(path([a, a], [r]), path([a, a], [r]))).toBe(true);
  });
});

describe('compare', () => {
  it('orders numbers, strings, booleans', () => {
    expect(lt(1, 3.14)).toBe(true);
    expect(gt(f(3.0), 2)).toBe(true);
    expect(lt(2n ** 60n, f(2 ** 61))).toBe(true);
    expect(lt('a', 'b')).toBe(true);
    expect(lt(false, true)).toBe(true);
    expect(lt(1, f(1))).toBe(false);
    expect(lte(1, f(1))).toBe(true);
  });
  it('NaN comparisons are false, cross-type null', () => {
    for (const op of [lt, lte, gt, gte]) {
      expect(op(NaN, 1)).toBe(false);
      expect(op(NaN, f(1))).toBe(false);
      expect(op(NaN, NaN)).toBe(false);
      expect(op(NaN, 'a')).toBe(null);
      expect(op('1', 1)).toBe(null);
      expect(op(node(1), node(2))).toBe(null);
      expect(op(map({}), map({}))).toBe(null);
      expect(op(true, 1)).toBe(null);
    }
  });
  it('lists lexicographically (TCK Comparison2 [4])', () => {
    expect(gte([1, 0], [1])).toBe(true);
    expect(gte([1, null], [1])).toBe(true);
    expect(gte([1, 2], [1, null])).toBe(null);
    expect(gte([1, 'a'], [1, null])).toBe(null);
    expect(gte([1, 2], [3, null])).toBe(false);
  });
  it('strings by code point', () => {
    expect(compareStrings('\uFFFF', '\u{10000}')).toBeLessThan(0);
    expect(compareStrings('a', 'ab')).toBeLessThan(0);
    expect(compare('B', 'a')).toBeLessThan(0);
  });
});

describe('orderCompare', () => {
  it('orders types as the TCK expects', () => {
    const n = node(1, ['N']);
    const m = node(2);
    const r = rel(1, 'REL', n, m);
    const p = path([n, m], [r]);
    const input: Value[] = [n, r, p, 1.5, ['list'], 'text', null, false, NaN, map({ a: 'map' })];
    const sorted = [...input].sort(orderCompare);
    expect(sorted).toEqual([map({ a: 'map' }), n, r, ['list'], p, 'text', false, 1.5, NaN, null]);
  });
  it('orders lists as the TCK expects', () => {
    const input: Value[] = [[null, 2], [], ['a'], ['a', 1], [1], [1, 'a'], [1, null], [null, 1]];
    const sorted = [...input].sort(orderCompare);
    expect(sorted).toEqual([[], ['a'], ['a', 1], [1], [1, 'a'], [1, null], [null, 1], [null, 2]]);
  });
  it('is a total order (antisymmetric, transitive) over mixed values', () => {
    const scalar = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -5, max: 5 }),
      fc.double({ noDefaultInfinity: false }),
      fc.integer({ min: -5, max: 5 }).map((x) => new FloatBox(x)),
      fc.bigInt({ min: 2n ** 53n, max: 2n ** 60n }),
      fc.string({ maxLength: 3 }),
    );
    const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        const ab = Math.sign(orderCompare(a, b)) || 0; // -0 and +0 are the same verdict
        expect(ab).toBe(-Math.sign(orderCompare(b, a)) || 0);
        if (ab <= 0 && orderCompare(b, c) <= 0) expect(orderCompare(a, c)).toBeLessThanOrEqual(0);
        // equal order within a type means grouping-equivalent for scalars; keys are compared
        // as a Map compares them (SameValueZero: -0 and +0 are one key)
        if (ab === 0 && equals(a, b) === true) expect(new Set([groupKey(a)]).has(groupKey(b))).toBe(true);
      }),
    );
  });
});

describe('groupKey', () => {
  it('groups equivalent values', () => {
    expect(groupKey(1)).toBe(groupKey(f(1)));
    expect(groupKey([1, 'a'])).toBe(groupKey([f(1), 'a']));
    expect(groupKey(map({ a: 1, b: 2 }))).toBe(groupKey(map({ b: 2, a: f(1) })));
    // The store hands out one canonical object per node, so the object is its own key.
    const n3 = node(3);
    expect(groupKey(n3)).toBe(groupKey(n3));
    expect(groupKey(n3)).not.toBe(groupKey(node(4)));
    expect(groupKey(null)).toBe(groupKey(null));
    expect(groupKey([null])).toBe(groupKey([null]));
    expect(groupKey(f(2 ** 60))).toBe(groupKey(2n ** 60n));
  });
  it('separates different values', () => {
    const vals: Value[] = [1, '1', [1], ['1'], [[1]], map({ a: 1 }), map({ a: '1' }), true, 'true', null, [null], '', [], node(1), rel(1, 'T', node(1), node(1)), '\u0000[d1,]'];
    const keys = new Set(vals.map(groupKey));
    expect(keys.size).toBe(vals.length);
  });
  it('row keys', () => {
    expect(rowKey([1, 'a'])).toBe(rowKey([f(1), 'a']));
    expect(rowKey([1, 'a'])).not.toBe(rowKey(['a', 1]));
    expect(rowKey([5])).toBe(5);
  });
  it('agrees with equals on lists of scalars', () => {
    const scalar = fc.oneof(fc.boolean(), fc.integer({ min: -3, max: 3 }), fc.constantFrom('a', 'b'), fc.integer({ min: -3, max: 3 }).map((x) => new FloatBox(x)));
    fc.assert(
      fc.property(fc.array(scalar, { maxLength: 3 }), fc.array(scalar, { maxLength: 3 }), (a, b) => {
        expect(groupKey(a) === groupKey(b)).toBe(equals(a, b) === true);
      }),
    );
  });
});

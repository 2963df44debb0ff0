import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { lookupAggregate } from '../../functions/aggregates.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { ArgumentError, ArithmeticError, ValueTypeError } from '../../src/errors.js';

const f = (x: number) => new FloatBox(x);

function agg(name: string, values: Value[], opts: { distinct?: boolean; arg2?: Value } = {}): Value {
  const def = lookupAggregate(name);
  if (!def) throw new Error(`no aggregate ${name}`);
  const a = def.create(opts.distinct ?? false);
  for (const v of values) a.step(v, opts.arg2);
  return a.result();
}

describe('aggregates', () => {
  it('empty input', () => {
    expect(agg('count', [])).toBe(0);
    expect(agg('sum', [])).toBe(0);
    expect(agg('avg', [])).toBe(null);
    expect(agg('min', [])).toBe(null);
    expect(agg('max', [null])).toBe(null);
    expect(agg('collect', [null, null])).toEqual([]);
    expect(agg('percentileCont', [], { arg2: 0.5 })).toBe(null);
  });
  it('count and DISTINCT', () => {
    expect(agg('COUNT', [1, null, 2])).toBe(2);
    expect(agg('count', [1, f(1), 2, null], { distinct: true })).toBe(2);
    expect(agg('collect', [null, 1, null], { distinct: true })).toEqual([1]);
    expect(agg('collect', [[1], [f(1)], [2]], { distinct: true })).toEqual([[1], [2]]);
  });
  it('sum', () => {
    expect(agg('sum', [33, null, 42])).toBe(75);
    expect(agg('sum', [1, 0.5])).toBe(1.5);
    expect(agg('sum', [0.5, 0.5])).toEqual(f(1));
    expect(agg('sum', [9007199254740991, 1])).toBe(9007199254740992n);
    expect(() => agg('sum', [9223372036854775807n, 1])).toThrow(ArithmeticError);
    expect(() => agg('sum', ['a'])).toThrow(ValueTypeError);
    const many: number[] = [];
    for (let i = 1000000; i < 1003000; i++) many.push(i);
    expect(agg('sum', many)).toBe(3004498500);
  });
  it('avg', () => {
    expect(agg('avg', [1, 2])).toBe(1.5);
    expect(agg('avg', [2, 2])).toEqual(f(2));
    expect(agg('avg', [9223372036854775807n, 9223372036854775807n])).toEqual(f(Number(9223372036854775807n)));
  });
  it('min and max (TCK Aggregation2)', () => {
    expect(agg('max', [1, 2, 0, null, -1])).toBe(2);
    expect(agg('min', [1, 2, 0, null, -1])).toBe(-1);
    expect(agg('max', [1, f(2), 5, null, 3.2, 0.1])).toBe(5);
    expect(agg('min', [1, f(2), 5, null, 3.2, 0.1])).toBe(0.1);
    expect(agg('max', ['a', 'b', 'B', null, 'abc', 'abc1'])).toBe('b');
    expect(agg('min', ['a', 'b', 'B', null, 'abc', 'abc1'])).toBe('B');
    expect(agg('max', [[1], [2], [2, 1]])).toEqual([2, 1]);
    expect(agg('min', [[1], [2], [2, 1]])).toEqual([1]);
    expect(agg('max', [1, 'a', null, [1, 2], 0.2, 'b'])).toBe(1);
    expect(agg('min', [1, 'a', null, [1, 2], 0.2, 'b'])).toEqual([1, 2]);
  });
  it('stDev', () => {
    expect(agg('stDev', [2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138, 3);
    expect(agg('stDevP', [2, 4, 4, 4, 5, 5, 7, 9])).toEqual(f(2));
    expect(agg('stDev', [1])).toEqual(f(0));
  });
  it('percentiles (TCK Aggregation6)', () => {
    const prices = [f(10), f(20), f(30)];
    for (const [p, r] of [[0, 10], [0.5, 20], [1, 30]] as const) {
      expect(agg('percentileDisc', prices, { arg2: p })).toEqual(f(r));
      expect(agg('percentileCont', prices, { arg2: p })).toEqual(f(r));
    }
    expect(agg('percentileCont', [1, 2, 3, 4], { arg2: 0.5 })).toBe(2.5);
    expect(agg('percentileDisc', [1, 2, 3, 4], { arg2: 0.5 })).toBe(2);
    for (const bad of [1000, -1, 1.1]) {
      try {
        agg('percentileCont', [f(10)], { arg2: bad });
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(ArgumentError);
        expect((e as ArgumentError).detail).toBe('NumberOutOfRange');
      }
      expect(() => agg('percentileDisc', [f(10)], { arg2: bad })).toThrow(ArgumentError);
    }
  });
  it('sum of integers equals bigint sum; DISTINCT count equals set size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1000, max: 1000 })), (xs) => {
        expect(agg('sum', xs)).toBe(xs.reduce((s, x) => s + x, 0));
        expect(agg('count', xs, { distinct: true })).toBe(new Set(xs).size);
        if (xs.length) expect(agg('max', xs)).toBe(Math.max(...xs));
      }),
    );
  });
});

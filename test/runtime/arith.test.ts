import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { add, div, mod, mul, neg, pow, sub } from '../../runtime/arith.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { ArithmeticError, ValueTypeError } from '../../src/errors.js';

const f = (x: number) => new FloatBox(x);

describe('integer arithmetic', () => {
  it('stays integral', () => {
    expect(add(1, 2)).toBe(3);
    expect(sub(1, 2)).toBe(-1);
    expect(mul(3, 4)).toBe(12);
    expect(div(7, 2)).toBe(3);
    expect(div(-7, 2)).toBe(-3);
    expect(div(7, -2)).toBe(-3);
    expect(mod(7, 3)).toBe(1);
    expect(mod(-7, 3)).toBe(-1);
    expect(Object.is(mul(0, -5), 0)).toBe(true);
    expect(Object.is(div(0, -5), 0)).toBe(true);
    expect(Object.is(neg(0), 0)).toBe(true);
  });
  it('precedence example from the TCK', () => {
    expect(sub(mul(div(12, 4), 3), mul(2, 4))).toBe(1);
  });
  it('uses bigint beyond 2^53 and detects 64-bit overflow', () => {
    expect(add(9007199254740991, 1)).toBe(9007199254740992n);
    expect(add(9007199254740992n, -1)).toBe(9007199254740991);
    expect(mul(4611686018427387904n, 1)).toBe(4611686018427387904n);
    expect(() => add(9223372036854775807n, 1)).toThrow(ArithmeticError);
    expect(() => mul(4611686018427387904n, 2)).toThrow(ArithmeticError);
    expect(() => neg(-9223372036854775808n)).toThrow(ArithmeticError);
    expect(() => div(-9223372036854775808n, -1)).toThrow(ArithmeticError);
    expect(mul(3037000499, 3037000499)).toBe(9223372030926249001n);
  });
  it('integer division by zero fails', () => {
    const e = (() => {
      try {
        div(1, 0);
      } catch (err) {
        return err as ArithmeticError;
      }
    })();
    expect(e).toBeInstanceOf(ArithmeticError);
    expect(e?.detail).toBe('DivisionByZero');
    expect(() => mod(1, 0)).toThrow(ArithmeticError);
    expect(() => div(10n ** 17n, 0)).toThrow(ArithmeticError);
  });
});

describe('float arithmetic', () => {
  it('boxes integral float results', () => {
    expect(add(1.5, 1.5)).toEqual(f(3));
    expect(add(1, f(2))).toEqual(f(3));
    expect(mul(f(2), 3)).toEqual(f(6));
    expect(div(f(1), 2)).toBe(0.5);
    expect(div(1, f(0))).toBe(Infinity);
    expect(div(-1, f(0))).toBe(-Infinity);
    expect(div(1.5, 0)).toBe(Infinity);
    expect(Number.isNaN(div(f(0), f(0)) as number)).toBe(true);
    expect(pow(2, 3)).toEqual(f(8));
    expect(pow(2, -1)).toBe(0.5);
    expect(neg(f(0))).toEqual(f(-0));
    expect(neg(1.5)).toBe(-1.5);
    expect(mod(7.5, 2)).toBe(1.5);
  });
  it('float with bigint', () => {
    expect(add(9007199254740993n, 0.5)).toEqual(f(9007199254740992));
  });
});

describe('other operands', () => {
  it('concatenates strings and lists', () => {
    expect(add('a', 'b')).toBe('ab');
    expect(add('a', 1)).toBe('a1');
    expect(add(f(1), 'a')).toBe('1.0a');
    expect(add([1], [2, 3])).toEqual([1, 2, 3]);
    expect(add([false, true], false)).toEqual([false, true, false]);
    expect(add(0, [1])).toEqual([0, 1]);
    expect(add([1], null)).toBe(null);
  });
  it('propagates null', () => {
    for (const op of [add, sub, mul, div, mod, pow]) {
      expect(op(null, 1)).toBe(null);
      expect(op(1, null)).toBe(null);
    }
    expect(neg(null)).toBe(null);
  });
  it('rejects other types', () => {
    expect(() => sub('a', 1)).toThrow(ValueTypeError);
    expect(() => add(true, 1)).toThrow(ValueTypeError);
    expect(() => add(new Map(), 1)).toThrow(ValueTypeError);
    expect(() => neg('x')).toThrow(ValueTypeError);
  });
});

describe('laws', () => {
  const bigInts = fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n });
  const toValue = (b: bigint): Value => (b >= -(2n ** 53n) + 1n && b <= 2n ** 53n - 1n ? Number(b) : b);
  const asBig = (v: Value): bigint => BigInt(v as number | bigint);
  it('integer add/sub/mul agree with bigint arithmetic', () => {
    fc.assert(
      fc.property(bigInts, bigInts, (x, y) => {
        expect(asBig(add(toValue(x), toValue(y)))).toBe(x + y);
        expect(asBig(sub(toValue(x), toValue(y)))).toBe(x - y);
        const p = x * y;
        if (p <= 2n ** 63n - 1n && p >= -(2n ** 63n)) expect(asBig(mul(toValue(x), toValue(y)))).toBe(p);
        else expect(() => mul(toValue(x), toValue(y))).toThrow(ArithmeticError);
      }),
    );
  });
  it('integer div/mod truncate like bigint', () => {
    fc.assert(
      fc.property(bigInts, bigInts, (x, y) => {
        fc.pre(y !== 0n);
        expect(asBig(div(toValue(x), toValue(y)))).toBe(x / y);
        expect(asBig(mod(toValue(x), toValue(y)))).toBe(x % y);
      }),
    );
  });
  it('safe integers stay plain numbers', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (x, y) => {
        expect(add(x, y)).toBe(x + y);
        expect(typeof mul(x, y)).toMatch(/number|bigint/);
      }),
    );
  });
});

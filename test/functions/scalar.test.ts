import { describe, expect, it } from 'vitest';
import { functionCatalogue, lookupFunction } from '../../functions/registry.js';
import { FloatBox, Path, type Value } from '../../runtime/values.js';
import { ArgumentError, ArithmeticError, EntityNotFoundError, ValueTypeError } from '../../src/errors.js';
import { map, node, rel } from '../runtime/helpers.js';
import { call } from './call.js';

const f = (x: number) => new FloatBox(x);

function detailOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return (e as { detail?: string }).detail;
  }
  return undefined;
}

describe('registry', () => {
  it('looks up case-insensitively', () => {
    expect(lookupFunction('toUpper')).toBe(lookupFunction('TOUPPER'));
    expect(lookupFunction('nope')).toBeUndefined();
    expect(lookupFunction('rand')?.needsContext).toBe(true);
  });
  it('lists every function with a description', () => {
    const all = functionCatalogue();
    expect(all.length).toBeGreaterThan(80);
    for (const fn of all) expect(fn.description.length).toBeGreaterThan(5);
    expect(all.some((x) => x.name === 'count' && x.aggregate)).toBe(true);
  });
  it('every scalar function returns null for null where it takes arguments', () => {
    // valueType(null) is 'NULL' (Neo4j); these APOC functions treat a null list or map as empty, as APOC documents.
    const exempt = new Set([
      'coalesce',
      'valueType',
      ...['contains', 'containsAll', 'different', 'frequencies', 'indexOf', 'isEqualCollection', 'occurrences'].map((n) => `apoc.coll.${n}`),
      ...['clean', 'flatten', 'fromLists', 'fromPairs', 'fromValues', 'groupBy', 'merge', 'mergeList', 'removeKey', 'removeKeys', 'setPairs', 'submap', 'values'].map((n) => `apoc.map.${n}`),
      'apoc.convert.toJson',
      'apoc.text.fuzzyMatch',
      'apoc.util.validatePredicate',
    ]);
    for (const fn of functionCatalogue()) {
      // all/any/none/single/reduce are syntax: listed, never called through the registry.
      if (fn.aggregate || fn.minArgs === 0 || exempt.has(fn.name) || !lookupFunction(fn.name)) continue;
      const args: Value[] = Array(fn.minArgs).fill(null);
      expect(call(fn.name, ...args), fn.name).toBe(null);
    }
  });
});

describe('math', () => {
  it('basics', () => {
    expect(call('abs', -1)).toBe(1);
    expect(call('abs', f(-2))).toEqual(f(2));
    expect(call('abs', -1.5)).toBe(1.5);
    expect(() => call('abs', -9223372036854775808n)).toThrow(ArithmeticError);
    expect(call('sqrt', 12.96)).toBe(3.6);
    expect(call('sqrt', 4)).toEqual(f(2));
    expect(call('ceil', 1.2)).toEqual(f(2));
    expect(call('floor', -1.2)).toEqual(f(-2));
    expect(call('sign', -0.5)).toBe(-1);
    expect(call('sign', 0)).toBe(0);
    expect(call('sign', 7n * 10n ** 17n)).toBe(1);
    expect(call('e')).toBe(Math.E);
    expect(call('rand')).toBe(0.25);
    expect(call('atan2', 1, 1)).toBe(Math.PI / 4);
    expect(call('degrees', Math.PI)).toEqual(f(180));
    expect(call('haversin', 0)).toEqual(f(0));
    expect(call('log', 0)).toBe(-Infinity);
    expect(() => call('sqrt', 'x')).toThrow(ValueTypeError);
  });
  it('round', () => {
    expect(call('round', 3.5)).toEqual(f(4));
    expect(call('round', -1.5)).toEqual(f(-1));
    expect(call('round', -0.4)).toEqual(f(0));
    expect(call('round', 3.141592, 3)).toBe(3.142);
    expect(call('round', -1.5, 0)).toEqual(f(-1));
    expect(call('round', -1.55, 1)).toBe(-1.6);
    expect(call('round', 1.005, 2)).toBe(1.01);
    expect(call('round', 1234, -2)).toEqual(f(1200));
    expect(call('round', 1.249, 1, 'CEILING')).toBe(1.3);
    expect(call('round', -1.25, 1, 'half_even')).toBe(-1.2);
    expect(call('round', 1.25, 1, 'HALF_DOWN')).toBe(1.2);
    expect(call('round', 1.2e-7, 7, 'UP')).toBe(2e-7);
    expect(call('round', 0.5, 0, 'DOWN')).toEqual(f(0));
    expect(() => call('round', 1.5, 0, 'SIDEWAYS')).toThrow(ArgumentError);
    expect(call('round', 1.5, null)).toBe(null);
  });
});

describe('strings', () => {
  it('case, trim, substring', () => {
    expect(call('toUpper', 'abc')).toBe('ABC');
    expect(call('lower', 'ABC')).toBe('abc');
    expect(call('trim', '  a b  ')).toBe('a b');
    expect(call('ltrim', '  a ')).toBe('a ');
    expect(call('rtrim', '  a ')).toBe('  a');
    expect(call('btrim', 'xxaxx', 'x')).toBe('a');
    expect(call('substring', '0123456789', 1)).toBe('123456789');
    expect(call('substring', '0123456789', 1, 3)).toBe('123');
    expect(call('substring', '0123', 10)).toBe('');
    expect(detailOf(() => call('substring', 'abc', -1))).toBe('NegativeIntegerArgument');
    expect(call('left', 'hello', 2)).toBe('he');
    expect(call('right', 'hello', 2)).toBe('lo');
    expect(call('right', 'hello', 10)).toBe('hello');
    expect(call('left', null, 2)).toBe(null);
  });
  it('code points', () => {
    expect(call('size', 'a😀b')).toBe(3);
    expect(call('char_length', '😀😀')).toBe(2);
    expect(call('substring', 'a😀b', 1, 1)).toBe('😀');
    expect(call('reverse', 'a😀b')).toBe('b😀a');
    expect(call('reverse', 'raksO')).toBe('Oskar');
  });
  it('replace and split', () => {
    expect(call('replace', 'hello', 'l', 'w')).toBe('hewwo');
    expect(call('replace', 'a$b', '$', '$$')).toBe('a$$b');
    expect(call('split', 'one1two', '1')).toEqual(['one', 'two']);
    expect(call('split', 'a,b;c', [',', ';'])).toEqual(['a', 'b', 'c']);
    expect(call('split', 'abc', '')).toEqual(['a', 'b', 'c']);
    expect(() => call('toUpper', 1)).toThrow(ValueTypeError);
  });
});

describe('lists', () => {
  it('head/last/tail/size/reverse', () => {
    expect(call('head', [1, 2])).toBe(1);
    expect(call('head', [])).toBe(null);
    expect(call('last', [1, 2])).toBe(2);
    expect(call('tail', [1, 2, 3])).toEqual([2, 3]);
    expect(call('tail', [])).toEqual([]);
    expect(call('size', [1, 2, 3])).toBe(3);
    expect(call('reverse', [1, 2])).toEqual([2, 1]);
    expect(call('isEmpty', [])).toBe(true);
    expect(call('isEmpty', map({ a: 1 }))).toBe(false);
    expect(call('coalesce', null, null, 2, 3)).toBe(2);
    expect(call('coalesce', null)).toBe(null);
  });
  it('range (TCK List11)', () => {
    expect(call('range', 0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(call('range', 0, -1)).toEqual([]);
    expect(call('range', 1381, -3412, -1298)).toEqual([1381, 83, -1215, -2513]);
    expect(call('range', -10, 10, 3)).toEqual([-10, -7, -4, -1, 2, 5, 8]);
    expect(call('range', 0, 0, -1)).toEqual([0]);
    expect(call('range', 0, 1, 2)).toEqual([0]);
    for (const step of [-1000, -3, -2, -1, 1, 2, 3, 1000]) {
      for (const stop of [1, 2, 500, 1000, 1500]) {
        expect((call('range', 0, stop, step) as Value[]).length === 0).toBe(Math.sign(stop) !== Math.sign(step));
      }
    }
    expect(detailOf(() => call('range', 2, 8, 0))).toBe('NumberOutOfRange');
    for (const bad of [true, -1.1, f(0), 'xyz', [0], map({ start: 0 })]) {
      expect(() => call('range', bad, 1, 1)).toThrow(ArgumentError);
      expect(detailOf(() => call('range', 0, 1, bad))).toBe('InvalidArgumentType');
    }
    expect(call('range', 9007199254740990n + 10n, 9007199254741002n, 1)).toEqual([9007199254741000n, 9007199254741001n, 9007199254741002n]);
  });
});

describe('graph functions', () => {
  const a = node(1, ['Foo', 'Bar'], { name: 'Popeye', level: 9001 });
  const b = node(2);
  const r = rel(5, 'T', a, b, { k: 1 });
  it('entities', () => {
    expect(call('labels', a)).toEqual(['Foo', 'Bar']);
    expect(call('type', r)).toBe('T');
    expect(call('id', r)).toBe(5);
    expect(call('elementId', a)).not.toBe(call('elementId', rel(1, 'T', a, b)));
    expect(call('keys', a)).toEqual(['name', 'level']);
    expect(call('keys', map({ k: null, l: 1 }))).toEqual(['k', 'l']);
    expect(call('properties', a)).toEqual(map({ name: 'Popeye', level: 9001 }));
    expect(call('startNode', r)).toBe(a);
    expect(call('endNode', r)).toBe(b);
    const p = new Path([a, b], [r]);
    expect(call('length', p)).toBe(1);
    expect(call('nodes', p)).toEqual([a, b]);
    expect(call('relationships', p)).toEqual([r]);
    expect(call('timestamp')).toBe(1700000000123);
  });
  it('type errors are InvalidArgumentValue (TCK Graph3/Graph4)', () => {
    expect(detailOf(() => call('labels', 1))).toBe('InvalidArgumentValue');
    for (const bad of [0, f(1), true, '', []]) expect(detailOf(() => call('type', bad))).toBe('InvalidArgumentValue');
    const gone = node(9, [], { x: 1 });
    gone.deleted = true;
    expect(() => call('keys', gone)).toThrow(EntityNotFoundError);
  });
});

describe('conversions (TCK TypeConversion1-4)', () => {
  const n = node(1);
  const r = rel(1, 'T', n, n);
  const p = new Path([n, n], [r]);
  it('toBoolean', () => {
    expect(call('toBoolean', 'true')).toBe(true);
    expect(call('toBoolean', 'FALSE')).toBe(false);
    for (const s of ['', ' tru ', 'f alse']) expect(call('toBoolean', s)).toBe(null);
    expect(call('toBoolean', 0)).toBe(false);
    for (const bad of [[], map({}), f(1), n, r, p]) expect(detailOf(() => call('toBoolean', bad))).toBe('InvalidArgumentValue');
    expect(call('toBooleanOrNull', f(1))).toBe(null);
  });
  it('toInteger', () => {
    expect(call('toInteger', 82.9)).toBe(82);
    expect(call('toInteger', -2.9)).toBe(-2);
    expect(call('toInteger', '1.7')).toBe(1);
    expect(call('toInteger', '42')).toBe(42);
    expect(call('toInteger', 'foo')).toBe(null);
    expect(call('toInteger', '')).toBe(null);
    expect(call('toInteger', '9223372036854775807')).toBe(9223372036854775807n);
    expect(call('toInteger', '9223372036854775808')).toBe(null);
    expect(call('toInteger', true)).toBe(1);
    for (const bad of [[], map({}), n, r, p]) expect(detailOf(() => call('toInteger', bad))).toBe('InvalidArgumentValue');
    expect(call('toIntegerOrNull', [])).toBe(null);
  });
  it('toFloat', () => {
    expect(call('toFloat', 3)).toEqual(f(3));
    expect(call('toFloat', 3.4)).toBe(3.4);
    expect(call('toFloat', '5')).toEqual(f(5));
    expect(call('toFloat', '1e3')).toEqual(f(1000));
    expect(call('toFloat', 'foo')).toBe(null);
    expect(call('toFloat', '')).toBe(null);
    for (const bad of [true, [], map({}), n, r, p]) expect(detailOf(() => call('toFloat', bad))).toBe('InvalidArgumentValue');
  });
  it('toString', () => {
    expect(call('toString', 42)).toBe('42');
    expect(call('toString', true)).toBe('true');
    expect(call('toString', 2.3)).toBe('2.3');
    expect(call('toString', f(1))).toBe('1.0');
    expect(call('toString', 'apa')).toBe('apa');
    for (const bad of [[], map({}), n, r, p]) expect(detailOf(() => call('toString', bad))).toBe('InvalidArgumentValue');
    expect(call('toStringOrNull', [])).toBe(null);
  });
  it('list forms', () => {
    expect(call('toIntegerList', ['1', 2.5, 'x', null, [1]])).toEqual([1, 2, null, null, null]);
    expect(call('toFloatList', [1, '2.5'])).toEqual([f(1), 2.5]);
    expect(call('toStringList', [1, f(2), true])).toEqual(['1', '2.0', 'true']);
    expect(call('toBooleanList', ['true', 0, 1.5])).toEqual([true, false, null]);
    expect(call('toBooleanList', null)).toBe(null);
    expect(() => call('toBooleanList', 1)).toThrow(ValueTypeError);
  });
});

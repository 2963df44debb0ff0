import { describe, expect, it } from 'vitest';
import { cellText, formatValue, fromJs, toJs } from '../../runtime/format.js';
import { FloatBox } from '../../runtime/values.js';
import { map, node, path, rel } from './helpers.js';

const f = (x: number) => new FloatBox(x);

describe('formatValue', () => {
  it('scalars', () => {
    expect(formatValue(null)).toBe('null');
    expect(formatValue(1)).toBe('1');
    expect(formatValue(-5n * 10n ** 18n)).toBe('-5000000000000000000');
    expect(formatValue(f(1))).toBe('1.0');
    expect(formatValue(f(1e9))).toBe('1000000000.0');
    expect(formatValue(0.00001)).toBe('0.00001');
    expect(formatValue(f(1e308))).toBe('1e308');
    expect(formatValue(f(1.2635418652381264e305))).toBe('1.2635418652381264e305');
    expect(formatValue(1e-305)).toBe('1e-305');
    expect(formatValue(3985764.3405892686)).toBe('3985764.3405892686');
    expect(formatValue(NaN)).toBe('NaN');
    expect(formatValue(-Infinity)).toBe('-Infinity');
    expect(formatValue(f(-0))).toBe('-0.0');
    expect(formatValue(true)).toBe('true');
    expect(formatValue("it's\n")).toBe("'it\\'s\\n'");
  });
  it('collections', () => {
    expect(formatValue([1, 'a', [f(2)]])).toBe("[1, 'a', [2.0]]");
    expect(formatValue(map({}))).toBe('{}');
    expect(formatValue(map({ name: 'Popeye', level: 9001 }))).toBe("{name: 'Popeye', level: 9001}");
    expect(formatValue(map({ 'a b': 1 }))).toBe('{`a b`: 1}');
  });
  it('graph values', () => {
    const a = node(1, ['A', 'B'], { name: 'x' });
    const b = node(2);
    const c = node(3, [], { id: 0 });
    const t = rel(1, 'T', a, b, { k: 1 });
    const u = rel(2, 'U', c, b);
    expect(formatValue(a)).toBe("(:A:B {name: 'x'})");
    expect(formatValue(b)).toBe('()');
    expect(formatValue(c)).toBe('({id: 0})');
    expect(formatValue(t)).toBe('[:T {k: 1}]');
    expect(formatValue(path([a, b, c], [t, u]))).toBe("<(:A:B {name: 'x'})-[:T {k: 1}]->()<-[:U]-({id: 0})>");
    expect(formatValue(path([b], []))).toBe('<()>');
  });
});

describe('cellText', () => {
  it('renders every cell as a string', () => {
    expect(cellText('abc')).toBe('abc');
    expect(cellText(null)).toBe('null');
    expect(cellText(3)).toBe('3');
    expect(cellText(f(1))).toBe('1.0');
    expect(cellText(0.5)).toBe('0.5');
    expect(cellText(true)).toBe('true');
    expect(cellText(['a'])).toBe("['a']");
  });
});

describe('JS boundary', () => {
  it('fromJs', () => {
    expect(fromJs(1)).toBe(1);
    expect(fromJs(1.5)).toBe(1.5);
    expect(fromJs(2 ** 60)).toBe(2n ** 60n);
    expect(fromJs(1e30)).toEqual(f(1e30));
    expect(fromJs(5n)).toBe(5);
    expect(fromJs(undefined)).toBe(null);
    expect(fromJs({ a: [1, { b: 'x' }] })).toEqual(map({ a: [1, map({ b: 'x' })] }));
    expect(() => fromJs(() => 1)).toThrow();
    expect(() => fromJs(new Date())).toThrow();
  });
  it('fromJs on lists of plain numbers (the copied fast path) converts as element by element', () => {
    const v = [0.25, -1.5, 3, 1.5e-300];
    const out = fromJs(v) as unknown[];
    expect(out).toEqual(v);
    expect(out).not.toBe(v);
    v[0] = 9;
    expect(out[0]).toBe(0.25);
    expect(Object.is((fromJs([0.5, -0]) as number[])[1], 0)).toBe(true);
    expect(fromJs([0.5, 2 ** 60])).toEqual([0.5, 2n ** 60n]);
    expect(fromJs([0.5, 1e30])).toEqual([0.5, f(1e30)]);
    expect(fromJs([])).toEqual([]);
  });
  it('toJs', () => {
    expect(toJs(f(1))).toBe(1);
    expect(toJs(map({ a: [f(2)] }))).toEqual({ a: [2] });
    const a = node(1, ['A'], { k: 1 });
    const b = node(2);
    expect(toJs(a)).toEqual({ id: 1, labels: ['A'], properties: { k: 1 } });
    expect(toJs(rel(7, 'T', a, b))).toEqual({ id: 7, type: 'T', start: 1, end: 2, properties: {} });
    expect(toJs(path([a, b], [rel(7, 'T', a, b)]))).toMatchObject({ nodes: [{ id: 1 }, { id: 2 }], relationships: [{ id: 7 }] });
  });
});

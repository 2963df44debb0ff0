/** Unit tests of the TCK runner's result comparison and side-effect diffing (test/tck/compare.ts, sideEffects.ts). */

import { describe, expect, it } from 'vitest';
import { FloatBox, Path, type Value } from '../../runtime/values.js';
import { Node, Rel } from '../../src/store/entities.js';
import { storeWith } from '../runtime/helpers.js';
import { compareResult, formatValue, matchValue } from './compare.js';
import { parseLiteral } from './literals.js';
import { compareSideEffects, diffSnapshots, noSideEffects, parseSideEffectsTable, snapshot, type GraphView } from './sideEffects.js';

const props = (o: Record<string, Value>): Map<string, Value> => new Map(Object.entries(o));
const m = (text: string, v: Value, unorderedLists = false): boolean => matchValue(parseLiteral(text), v, { unorderedLists });

describe('matchValue', () => {
  it('keeps integers and floats apart', () => {
    expect(m('1', 1)).toBe(true);
    expect(m('1', 1n)).toBe(true);
    expect(m('1', new FloatBox(1))).toBe(false);
    expect(m('1.0', new FloatBox(1))).toBe(true);
    expect(m('1.0', 1)).toBe(false);
    expect(m('1.5', 1.5)).toBe(true);
    expect(m('9223372036854775807', 9223372036854775807n)).toBe(true);
    expect(m('NaN', NaN)).toBe(true);
    expect(m('-Inf', -Infinity)).toBe(true);
    expect(m('Inf', -Infinity)).toBe(false);
    expect(m('0.1', 0.1 + 0.2 - 0.2)).toBe(false);
  });

  it('matches strings, nulls and booleans exactly', () => {
    expect(m("'a'", 'a')).toBe(true);
    expect(m("'a'", 'A')).toBe(false);
    expect(m('null', null)).toBe(true);
    expect(m('null', false)).toBe(false);
    expect(m('true', true)).toBe(true);
  });

  it('matches a temporal value against its printed form', () => {
    const date = { cypherType: 'DATE', toCypherString: () => "'2015-07-21'", equalsValue: () => true, compareValue: () => 0, hashKey: () => 'd' };
    expect(m("'2015-07-21'", date)).toBe(true);
    expect(m("'2015-07-22'", date)).toBe(false);
  });

  it('compares lists in order, or as multisets when asked', () => {
    expect(m('[1, 2]', [1, 2])).toBe(true);
    expect(m('[1, 2]', [2, 1])).toBe(false);
    expect(m('[1, 2]', [2, 1], true)).toBe(true);
    expect(m('[1, 1, 2]', [1, 2, 2], true)).toBe(false);
    expect(m('[[1, 2]]', [[2, 1]], true)).toBe(true);
  });

  it('compares maps by their exact key set', () => {
    expect(m('{a: 1, b: null}', props({ b: null, a: 1 }))).toBe(true);
    expect(m('{a: 1}', props({ a: 1, b: null }))).toBe(false);
  });

  it('compares nodes by label set and properties', () => {
    const n = new Node(1, ['B', 'A'], storeWith(1, { name: 'x' }));
    expect(m("(:A:B {name: 'x'})", n)).toBe(true);
    expect(m("(:A {name: 'x'})", n)).toBe(false);
    expect(m('(:A:B)', n)).toBe(false);
    expect(m("(:A:B {name: 'x', k: 1})", n)).toBe(false);
  });

  it('compares relationships by type and properties, and paths hop by hop with direction', () => {
    const a = new Node(1, ['A'], storeWith(1, {}));
    const b = new Node(2, ['B'], storeWith(2, {}));
    const r = new Rel(7, 'T', 0, a, b, storeWith(7, { w: 1 }));
    expect(m('[:T {w: 1}]', r)).toBe(true);
    expect(m('[:U {w: 1}]', r)).toBe(false);
    expect(m('<(:A)-[:T {w: 1}]->(:B)>', new Path([a, b], [r]))).toBe(true);
    expect(m('<(:B)<-[:T {w: 1}]-(:A)>', new Path([b, a], [r]))).toBe(true);
    expect(m('<(:B)-[:T {w: 1}]->(:A)>', new Path([b, a], [r]))).toBe(false);
    expect(m('<(:A)>', new Path([a], []))).toBe(true);
  });
});

describe('compareResult', () => {
  const table = (cols: string[], rows: string[][]) => ({ columns: cols, rows: rows.map((r) => r.map(parseLiteral)) });

  it('checks column names in order', () => {
    expect(compareResult(table(['a', 'b'], []), ['b', 'a'], [], { ordered: false, unorderedLists: false })).toMatch(/^columns mismatch/);
  });

  it('matches rows as a multiset in any order', () => {
    const t = table(['x'], [['1'], ['2'], ['2']]);
    expect(compareResult(t, ['x'], [[2], [1], [2]], { ordered: false, unorderedLists: false })).toBeNull();
    expect(compareResult(t, ['x'], [[2], [1], [1]], { ordered: false, unorderedLists: false })).toBe('result mismatch');
    expect(compareResult(t, ['x'], [[2], [1]], { ordered: false, unorderedLists: false })).toMatch(/expected 3 rows, got 2/);
  });

  it('matches rows in order when asked', () => {
    const t = table(['x'], [['1'], ['2']]);
    expect(compareResult(t, ['x'], [[1], [2]], { ordered: true, unorderedLists: false })).toBeNull();
    expect(compareResult(t, ['x'], [[2], [1]], { ordered: true, unorderedLists: false })).toMatch(/result mismatch/);
  });
});

describe('formatValue', () => {
  it('prints in the TCK notation', () => {
    const a = new Node(1, ['A'], storeWith(1, { n: 1 }));
    const b = new Node(2, [], storeWith(2, {}));
    const r = new Rel(1, 'T', 0, b, a, storeWith(1, {}));
    expect(formatValue([1, new FloatBox(2), 'x', null, props({ k: true })])).toBe("[1, 2.0, 'x', null, {k: true}]");
    expect(formatValue(new Path([a, b], [r]))).toBe('<(:A {n: 1})<-[:T]-()>');
  });
});

describe('side effects', () => {
  const graphOf = (nodes: Node[], rels: Rel[]): GraphView => ({ allNodes: () => nodes, allRels: () => rels });

  it('counts label names in the graph, not label additions', () => {
    const before = snapshot(graphOf([], []));
    const after = snapshot(graphOf([new Node(1, ['Label'], storeWith(1, {})), new Node(2, ['Label'], storeWith(2, {}))], []));
    expect(diffSnapshots(before, after)).toMatchObject({ '+nodes': 2, '+labels': 1 });
  });

  it('counts an overwritten property as one added and one removed', () => {
    const store = storeWith(1, { name: 'Andres' });
    const n = new Node(1, ['A'], store);
    const before = snapshot(graphOf([n], []));
    store.set(n.id, 'name', 'Michael');
    const fx = diffSnapshots(before, snapshot(graphOf([n], [])));
    expect(fx).toEqual({ ...noSideEffects(), '+properties': 1, '-properties': 1 });
    const same = snapshot(graphOf([n], []));
    expect(diffSnapshots(same, snapshot(graphOf([n], [])))).toEqual(noSideEffects());
  });

  it('distinguishes 1 from 1.0 in properties and counts deleted entities', () => {
    const store = storeWith(1, { v: 1 });
    const n = new Node(1, [], store);
    const before = snapshot(graphOf([n], []));
    store.set(n.id, 'v', new FloatBox(1));
    expect(diffSnapshots(before, snapshot(graphOf([n], [])))).toMatchObject({ '+properties': 1, '-properties': 1 });
    const gone = diffSnapshots(snapshot(graphOf([n], [])), snapshot(graphOf([], [])));
    expect(gone).toEqual({ ...noSideEffects(), '-nodes': 1, '-properties': 1 });
  });

  it('reads tables with missing rows as 0 and reports differences', () => {
    const exp = parseSideEffectsTable([['+nodes', '1'], ['+labels', '1']]);
    expect(exp).toEqual({ ...noSideEffects(), '+nodes': 1, '+labels': 1 });
    expect(compareSideEffects(exp, exp)).toBeNull();
    expect(compareSideEffects(exp, noSideEffects())).toBe('side effects mismatch: +nodes expected 1 got 0, +labels expected 1 got 0');
    expect(() => parseSideEffectsTable([['+foo', '1']])).toThrow();
  });
});

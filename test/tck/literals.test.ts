/** Unit tests of the TCK value-literal parser (test/tck/literals.ts). */

import { describe, expect, it } from 'vitest';
import { FloatBox } from '../../runtime/values.js';
import { LiteralSyntaxError, literalToValue, parseLiteral } from './literals.js';

describe('parseLiteral: scalars', () => {
  it('reads null and booleans', () => {
    expect(parseLiteral('null')).toEqual({ k: 'null' });
    expect(parseLiteral('true')).toEqual({ k: 'bool', v: true });
    expect(parseLiteral(' false ')).toEqual({ k: 'bool', v: false });
  });

  it('reads integers, including negative and beyond 2^53', () => {
    expect(parseLiteral('42')).toEqual({ k: 'int', v: 42n });
    expect(parseLiteral('-1')).toEqual({ k: 'int', v: -1n });
    expect(parseLiteral('9223372036854775807')).toEqual({ k: 'int', v: 9223372036854775807n });
    expect(parseLiteral('-0x1F')).toEqual({ k: 'int', v: -31n });
  });

  it('reads floats in all their spellings', () => {
    expect(parseLiteral('1.0')).toEqual({ k: 'float', v: 1 });
    expect(parseLiteral('-2.5')).toEqual({ k: 'float', v: -2.5 });
    expect(parseLiteral('1e10')).toEqual({ k: 'float', v: 1e10 });
    expect(parseLiteral('-1.2635418652381264e305')).toEqual({ k: 'float', v: -1.2635418652381264e305 });
    expect(parseLiteral('1e-305')).toEqual({ k: 'float', v: 1e-305 });
    expect(parseLiteral('.5')).toEqual({ k: 'float', v: 0.5 });
    const nan = parseLiteral('NaN');
    expect(nan.k).toBe('float');
    expect(nan.k === 'float' && Number.isNaN(nan.v)).toBe(true);
    expect(parseLiteral('Inf')).toEqual({ k: 'float', v: Infinity });
    expect(parseLiteral('-Inf')).toEqual({ k: 'float', v: -Infinity });
  });

  it('reads strings with escapes', () => {
    expect(parseLiteral("'abc'")).toEqual({ k: 'string', v: 'abc' });
    expect(parseLiteral("''")).toEqual({ k: 'string', v: '' });
    expect(parseLiteral("'\\''")).toEqual({ k: 'string', v: "'" });
    expect(parseLiteral("'a\\nb\\tc'")).toEqual({ k: 'string', v: 'a\nb\tc' });
    expect(parseLiteral("'\\u00e9'")).toEqual({ k: 'string', v: 'é' });
    // Literals6 [5] after Gherkin's own unescaping of the cell.
    expect(parseLiteral(`'a\\\\bcn5t\\'"\\\\//\\\\"\\''`)).toEqual({ k: 'string', v: `a\\bcn5t'"\\//\\"'` });
    expect(parseLiteral('"double"')).toEqual({ k: 'string', v: 'double' });
    // A raw newline (Gherkin turns a cell's \n into one) is kept.
    expect(parseLiteral("'Foo\nFoo'")).toEqual({ k: 'string', v: 'Foo\nFoo' });
  });
});

describe('parseLiteral: structures', () => {
  it('reads lists and maps, nested and empty', () => {
    expect(parseLiteral('[]')).toEqual({ k: 'list', items: [] });
    expect(parseLiteral("[1, 'a', [null]]")).toEqual({
      k: 'list',
      items: [{ k: 'int', v: 1n }, { k: 'string', v: 'a' }, { k: 'list', items: [{ k: 'null' }] }],
    });
    expect(parseLiteral('{}')).toEqual({ k: 'map', entries: new Map() });
    expect(parseLiteral("{a: 1, `b c`: {d: 'x'}}")).toEqual({
      k: 'map',
      entries: new Map<string, unknown>([
        ['a', { k: 'int', v: 1n }],
        ['b c', { k: 'map', entries: new Map([['d', { k: 'string', v: 'x' }]]) }],
      ]),
    });
  });

  it('reads nodes', () => {
    expect(parseLiteral('()')).toEqual({ k: 'node', labels: [], props: new Map() });
    expect(parseLiteral("(:A:B {name: 'x', n: 1})")).toEqual({
      k: 'node',
      labels: ['A', 'B'],
      props: new Map<string, unknown>([['name', { k: 'string', v: 'x' }], ['n', { k: 'int', v: 1n }]]),
    });
    expect(parseLiteral('({n: 1})')).toEqual({ k: 'node', labels: [], props: new Map([['n', { k: 'int', v: 1n }]]) });
  });

  it('reads relationships, and tells them from lists', () => {
    expect(parseLiteral('[:T]')).toEqual({ k: 'rel', type: 'T', props: new Map() });
    expect(parseLiteral('[:KNOWS {since: 2}]')).toEqual({ k: 'rel', type: 'KNOWS', props: new Map([['since', { k: 'int', v: 2n }]]) });
    expect(parseLiteral('[[:T], [:U]]')).toMatchObject({ k: 'list', items: [{ k: 'rel', type: 'T' }, { k: 'rel', type: 'U' }] });
  });

  it('reads paths with both directions', () => {
    const p = parseLiteral('<(:A)-[:T]->(:B)<-[:U {x: 1}]-()>');
    expect(p).toMatchObject({
      k: 'path',
      start: { labels: ['A'] },
      steps: [
        { dir: 'out', rel: { type: 'T' }, node: { labels: ['B'] } },
        { dir: 'in', rel: { type: 'U' }, node: { labels: [] } },
      ],
    });
    expect(parseLiteral('<()>')).toMatchObject({ k: 'path', steps: [] });
  });

  it('rejects malformed text', () => {
    for (const bad of ['', "'open", '[1, 2', '{a 1}', '1 2', 'foo', '(:A', '<(:A)-[:T]-(:B)>']) {
      expect(() => parseLiteral(bad), bad).toThrow(LiteralSyntaxError);
    }
  });
});

describe('literalToValue', () => {
  it('turns plain literals into engine values', () => {
    expect(literalToValue(parseLiteral('1'))).toBe(1);
    expect(literalToValue(parseLiteral('9223372036854775807'))).toBe(9223372036854775807n);
    expect(literalToValue(parseLiteral('1.0'))).toEqual(new FloatBox(1));
    expect(literalToValue(parseLiteral('1.5'))).toBe(1.5);
    expect(literalToValue(parseLiteral("[1, 'a', {k: null}]"))).toEqual([1, 'a', new Map([['k', null]])]);
  });

  it('refuses graph entities', () => {
    expect(() => literalToValue(parseLiteral('(:A)'))).toThrow();
  });
});

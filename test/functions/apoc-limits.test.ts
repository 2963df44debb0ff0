/**
 * APOC text, collection and aggregation functions under hostile input (issue 9): regular
 * expressions run in bounded time (no catastrophic backtracking in replace, split,
 * regexGroups or date parsing), strings and lists that would outgrow the memory limits
 * fail with MEMORY_LIMIT before they are built, and quadratic loops stop at the deadline
 * with TIMEOUT. Each case would hang, exhaust the heap or crash without its bound.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';

const SMALL = { maxListSize: 100_000, maxStringLength: 100_000, maxQueryCells: 200_000 };

function codeOf(db: Database, query: string, timeoutMs = 0): string {
  try {
    db.executeSync(query, {}, { timeoutMs });
  } catch (err) {
    expect(err).toBeInstanceOf(GraphDbError);
    return (err as GraphDbError).code;
  }
  return 'ok';
}

function value(db: Database, query: string): unknown {
  return db.executeSync(query, {}, { timeoutMs: 30_000 }).records[0][0];
}

const EVIL = `'${'a'.repeat(40)}!'`;

describe('APOC regular expressions run in bounded time', () => {
  const db = Database.openInMemory();

  it('replace, regreplace, split and regexGroups answer at once on a catastrophic pattern', () => {
    expect(value(db, `RETURN apoc.text.replace(${EVIL}, '(a+)+b', 'x')`)).toBe(`${'a'.repeat(40)}!`);
    expect(value(db, `RETURN apoc.text.regreplace(${EVIL}, '(a|aa)+b', 'x')`)).toBe(`${'a'.repeat(40)}!`);
    expect(value(db, `RETURN apoc.text.split(${EVIL}, '(a+)+b')`)).toEqual([`${'a'.repeat(40)}!`]);
    expect(value(db, `RETURN apoc.text.regexGroups(${EVIL}, '(a+)+b')`)).toEqual([]);
  });

  it('splits as Java String.split does (APOC calls it): limits, trailing empties, groups not spliced in', () => {
    expect(value(db, "RETURN apoc.text.split('boo:and:foo', 'o')")).toEqual(['b', '', ':and:f']);
    expect(value(db, "RETURN apoc.text.split('boo:and:foo', 'o', 2)")).toEqual(['b', 'o:and:foo']);
    expect(value(db, "RETURN apoc.text.split('boo:and:foo', 'o', -2)")).toEqual(['b', '', ':and:f', '', '']);
    expect(value(db, "RETURN apoc.text.split('a b  c', ' ', 2)")).toEqual(['a', 'b  c']);
    expect(value(db, "RETURN apoc.text.split('a1b2c', '([0-9])')")).toEqual(['a', 'b', 'c']);
    expect(value(db, "RETURN apoc.text.split('abc', '')")).toEqual(['a', 'b', 'c']);
    expect(value(db, "RETURN apoc.text.split(',', ',')")).toEqual([]);
    expect(value(db, "RETURN apoc.text.split('', ',')")).toEqual(['']);
  });

  it('keeps Java inline flags and group references', () => {
    expect(value(db, "RETURN apoc.text.replace('Hello hello', '(?i)HELLO', 'bye')")).toBe('bye bye');
    expect(value(db, "RETURN apoc.text.replace('k=v', '(\\\\w)=(\\\\w)', '$2=$1')")).toBe('v=k');
    expect(value(db, "RETURN apoc.text.regexGroups('a1 b2', '([a-z])([0-9])')")).toEqual([
      ['a1', 'a', '1'],
      ['b2', 'b', '2'],
    ]);
  });

  it('refuses a catastrophic pattern the linear engine cannot run, with an argument error', () => {
    expect(codeOf(db, `RETURN apoc.text.replace(${EVIL}, '(?i)(a+)+b', 'x')`)).toBe('ARGUMENT_ERR');
    expect(codeOf(db, "RETURN apoc.text.replace('abc', '(', 'x')")).toBe('ARGUMENT_ERR');
  });

  it('parses dates with many adjacent digit fields without backtracking', () => {
    const pattern = 'HH'.repeat(30);
    expect(codeOf(db, `RETURN apoc.date.parse('${'1'.repeat(90)}x', 'ms', '${pattern}')`, 5_000)).toBe('ARGUMENT_ERR');
  });

  it('rejects more than 100 decimals in apoc.text.format instead of failing inside', () => {
    expect(codeOf(db, "RETURN apoc.text.format('%.200f', [1.5])")).toBe('ARGUMENT_ERR');
    expect(value(db, "RETURN apoc.text.format('%.2f|%s|%d', [1.234, 'x', 7])")).toBe('1.23|x|7');
  });
});

describe('APOC functions that build big strings and lists charge the memory limits', () => {
  const db = Database.openInMemory({ memoryLimits: SMALL });

  it.each([
    ['replace with an empty match at every position', "RETURN apoc.text.replace(apoc.text.repeat('a', 50000), '', 'xyz')"],
    ['regreplace with a whole-text reference per match', "RETURN apoc.text.regreplace(apoc.text.repeat('ab', 1000), 'b', '$`')"],
    ['repeat', "RETURN apoc.text.repeat('ab', 1000000)"],
    ['lpad to a billion characters', "RETURN apoc.text.lpad('x', 1000000000, 'ab')"],
    ['rpad', "RETURN apoc.text.rpad('x', 200000)"],
    ['join', "RETURN apoc.text.join([x IN range(1, 20000) | 'abcdefgh'], ',')"],
    ['format', "RETURN apoc.text.format(apoc.text.repeat('%s', 1000), [x IN range(1, 1000) | apoc.text.repeat('z', 200)])"],
    ['regexGroups', "RETURN size(apoc.text.regexGroups(apoc.text.repeat('ab', 60000), '(a)(b)'))"],
    ['fill', 'RETURN size(apoc.coll.fill(0, 1000000))'],
    ['flatten of shared sub-lists', 'WITH range(1, 1000) AS l WITH [x IN range(1, 50) | l] AS ll RETURN size(apoc.coll.flatten([x IN range(1, 50) | ll], true))'],
    ['unionAll', 'WITH range(1, 60000) AS l RETURN size(apoc.coll.unionAll(l, l))'],
    ['combinations', 'RETURN size(apoc.coll.combinations(range(1, 20), 0, 20))'],
    ['apoc.agg.median over many rows', 'UNWIND range(1, 300000) AS x RETURN apoc.agg.median(x)'],
    ['apoc.agg.slice over many rows', 'UNWIND range(1, 300000) AS x RETURN size(apoc.agg.slice(x))'],
    ['apoc.agg.maxItems of equal values', 'UNWIND range(1, 300000) AS x RETURN size(apoc.agg.maxItems(x, 1).items)'],
  ])('%s fails with MEMORY_LIMIT', (_what, query) => {
    expect(codeOf(db, query)).toBe('MEMORY_LIMIT');
  });

  it('keeps answering within the limits', () => {
    expect(value(db, "RETURN apoc.text.replace('a-b-c', '-', '+')")).toBe('a+b+c');
    expect(value(db, 'RETURN apoc.coll.flatten([[1, [2]], [3]], true)')).toEqual([1, 2, 3]);
    expect(value(db, 'UNWIND range(1, 10) AS x RETURN apoc.agg.nth(x, 2)')).toBe(3);
    expect(value(db, 'UNWIND range(1, 10) AS x RETURN apoc.agg.nth(x, -1)')).toBe(10);
    expect(value(db, "RETURN apoc.text.sorensenDiceSimilarity('night', 'nacht')")).toBeCloseTo(0.25);
  });
});

describe('APOC loops stop at the deadline', () => {
  const db = Database.openInMemory();
  const long = (s: string) => `apoc.text.repeat('${s}', 20000)`;

  it.each([
    ['levenshteinDistance', `RETURN apoc.text.levenshteinDistance(${long('ab')}, ${long('ba')})`],
    ['fuzzyMatch', `RETURN apoc.text.fuzzyMatch(${long('abc')}, ${long('acb')})`],
    ['jaroWinklerDistance', `RETURN apoc.text.jaroWinklerDistance(${long('abcd')}, ${long('dcba')})`],
  ])('%s of two long texts fails with TIMEOUT', (_what, query) => {
    expect(codeOf(db, query, 100)).toBe('TIMEOUT');
  });
});

/**
 * Functions that build strings and lists are held to the memory limits before they build
 * (issue 26): split() made 32 M elements and apoc.convert.toJson a 117 M-character string
 * past the documented limits (10 M elements, 32 Mi characters). Through queries, with the
 * default limits for the two findings and small ones for the rest of the family.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';
import { DEFAULT_MEMORY_LIMITS } from '../../runtime/governor.js';

function failure(db: Database, query: string): GraphDbError {
  try {
    db.executeSync(query);
  } catch (err) {
    expect(err).toBeInstanceOf(GraphDbError);
    return err as GraphDbError;
  }
  throw new Error(`expected ${query} to fail`);
}

const value = (db: Database, query: string): unknown => db.executeSync(query).records[0][0];

describe('the findings, at the default limits', () => {
  const db = Database.openInMemory();

  it("split(s, '') of a 32 M-character string is refused before the list is built", () => {
    const e = failure(db, "RETURN size(split(apoc.text.repeat('a', 32000000), '')) AS n");
    expect(e.code).toBe('MEMORY_LIMIT');
    expect(e.message).toMatch(new RegExp(`split\\(\\) would hold 32000000 elements; the limit is ${DEFAULT_MEMORY_LIMITS.maxListSize}`));
  });

  it('apoc.convert.toJson of a list whose text passes 32 Mi characters is refused before the text is built', () => {
    const e = failure(db, 'RETURN size(apoc.convert.toJson(range(1, 10000000))) AS n');
    expect(e.code).toBe('MEMORY_LIMIT');
    expect(e.message).toMatch(new RegExp(`apoc\\.convert\\.toJson\\(\\) would be \\d+ characters long; the limit is ${DEFAULT_MEMORY_LIMITS.maxStringLength}`));
  });
});

describe('strings and lists from functions, at small limits', () => {
  const db = Database.openInMemory({ memoryLimits: { maxListSize: 1000, maxStringLength: 10_000, maxQueryCells: 1_000_000 } });

  it('split by a string, by the empty string and by a list of delimiters', () => {
    expect(value(db, "RETURN size(split(apoc.text.repeat('a,', 999), ','))")).toBe(1000);
    expect(failure(db, "RETURN split(apoc.text.repeat('a,', 1000), ',')").message).toMatch(/split\(\) would hold 1001 elements/);
    expect(failure(db, "RETURN split(apoc.text.repeat('ab', 600), '')").code).toBe('MEMORY_LIMIT');
    expect(failure(db, "RETURN split(apoc.text.repeat('a;b,', 600), [',', ';'])").code).toBe('MEMORY_LIMIT');
    expect(value(db, "RETURN split('a;b,c', [',', ';'])")).toEqual(['a', 'b', 'c']);
  });

  it('toJson counts escapes: a string that fits becomes text that does not', () => {
    expect(value(db, "RETURN apoc.convert.toJson({a: [1, 'x\"y', null, true]})")).toBe('{"a":[1,"x\\"y",null,true]}');
    // 6 000 characters, each written as two (\n): 12 002 characters of JSON.
    expect(failure(db, "RETURN apoc.convert.toJson(apoc.text.repeat('\\n', 6000))").message).toMatch(/apoc\.convert\.toJson\(\) would be 12002 characters long/);
    // The count is exact: text of exactly the limit is made, one character more is refused.
    const fits = JSON.stringify('x'.repeat(9998));
    expect(value(db, "RETURN apoc.convert.toJson(apoc.text.repeat('x', 9998))")).toBe(fits);
    expect(failure(db, "RETURN apoc.convert.toJson(apoc.text.repeat('x', 9999))").message).toMatch(/would be 10001 characters long/);
  });

  it('case mapping that lengthens a string is held to the limit', () => {
    expect(value(db, "RETURN toUpper('straße')")).toBe('STRASSE');
    expect(failure(db, "RETURN toUpper(apoc.text.repeat('ß', 6000))").message).toMatch(/toUpper\(\) would be 12000 characters long/);
  });

  it('replace, repeat, range, concatenation and reduce results were already bounded, and stay so', () => {
    expect(failure(db, "RETURN replace(apoc.text.repeat('a', 5000), 'a', 'bbb')").message).toMatch(/replace\(\) would be 15000/);
    expect(failure(db, "RETURN apoc.text.repeat('ab', 6000)").code).toBe('MEMORY_LIMIT');
    expect(failure(db, 'RETURN range(1, 1001)').message).toMatch(/range\(\) would hold 1001 elements/);
    expect(failure(db, "RETURN reduce(s = '', x IN range(1, 1000) | s + 'abcdefghijk')").message).toMatch(/String concatenation/);
    expect(failure(db, 'RETURN reduce(l = [], x IN range(1, 600) | l + [x, x])').message).toMatch(/List concatenation/);
  });
});

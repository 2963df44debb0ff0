/**
 * Issue 26's bounds on results, in the engine: a read given a row limit (`maxRows`, the doors'
 * 1M) stops as its result passes it, with LIMIT_EXCEEDED, while nested Cypher a procedure runs
 * is not counted; `checkResultShape` refuses values nested deeper than MAX_RESULT_DEPTH or
 * results over a cell count, without recursion.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { checkResultShape, MAX_RESULT_DEPTH } from '../../src/engine/result-bounds.js';
import { ResourceLimitError } from '../../src/errors.js';
import type { Value } from '../../runtime/values.js';

describe('row limit of a read', () => {
  const db = new Database();

  it('stops a read as its result passes the limit', () => {
    const started = performance.now();
    expect(() => db.executeSync('UNWIND range(1, 5000000) AS x RETURN x', undefined, { maxRows: 1000 })).toThrow(ResourceLimitError);
    // Stopped at row 1001, not after building five million.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(db.executeSync('UNWIND range(1, 1000) AS x RETURN x', undefined, { maxRows: 1000 }).records).toHaveLength(1000);
  });

  it('does not count the rows of nested Cypher', () => {
    const r = db.executeSync("CALL apoc.cypher.run('UNWIND range(1, 100) AS x RETURN x', {}) YIELD value RETURN count(*) AS c", undefined, { maxRows: 10 });
    expect(r.records).toEqual([[100]]);
  });
});

describe('checkResultShape', () => {
  const nested = (depth: number): Value => {
    let v: Value = [];
    for (let i = 1; i < depth; i++) v = [v];
    return v;
  };

  it('accepts values nested up to the limit and refuses deeper ones, however deep', () => {
    expect(() => checkResultShape([[nested(MAX_RESULT_DEPTH)]], 1e9)).not.toThrow();
    expect(() => checkResultShape([[nested(MAX_RESULT_DEPTH + 1)]], 1e9)).toThrow(ResourceLimitError);
    expect(() => checkResultShape([[new Map([['m', nested(200_000)]])]], 1e9)).toThrow(/nested more than 500/);
  });

  it('refuses results over the cell count', () => {
    const rows: Value[][] = Array.from({ length: 100 }, () => [Array.from({ length: 100 }, (_, i) => i)]);
    expect(() => checkResultShape(rows, 20_000)).not.toThrow();
    expect(() => checkResultShape(rows, 5_000)).toThrow(/more than 5000 cells/);
    // Long strings count by their length, as the governor counts held rows.
    expect(() => checkResultShape([['x'.repeat(16 * 10_000)]], 5_000)).toThrow(ResourceLimitError);
    expect(() => checkResultShape([[['x'.repeat(16 * 10_000)]]], 5_000)).toThrow(ResourceLimitError);
  });
});

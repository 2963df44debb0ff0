/**
 * Runaway queries stop cleanly: memory limits (MEMORY_LIMIT), the deadline in reduce,
 * comprehensions, regular expressions and compilation, and long MATCH chains.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';

function failure(db: Database, query: string): GraphDbError {
  try {
    db.executeSync(query);
  } catch (err) {
    expect(err).toBeInstanceOf(GraphDbError);
    return err as GraphDbError;
  }
  throw new Error(`expected ${query} to fail`);
}

describe('memory limits', () => {
  it('stops a result that would exhaust the heap with MEMORY_LIMIT', () => {
    const db = new Database({ memoryLimits: { maxQueryCells: 2_000_000 } });
    const err = failure(db, 'UNWIND range(1, 900000) AS x RETURN range(1, 1000) AS l');
    expect(err.code).toBe('MEMORY_LIMIT');
    expect(err.message).toMatch(/memory limit/);
  });

  it('stops the default-limited attack query too', () => {
    const db = new Database();
    expect(failure(db, 'UNWIND range(1, 900000) AS x RETURN range(1, 1000) AS l').code).toBe('MEMORY_LIMIT');
  }, 60_000);

  it('bounds list and string sizes where they are built', () => {
    const db = new Database({ memoryLimits: { maxListSize: 10_000, maxStringLength: 1_000_000 } });
    expect(failure(db, 'RETURN size(range(1, 20000))').code).toBe('MEMORY_LIMIT');
    expect(failure(db, 'RETURN size(reduce(acc = [], x IN range(1, 6000) | acc + [x, x]))').code).toBe('MEMORY_LIMIT');
    expect(failure(db, "RETURN size(reduce(s = '', x IN range(1, 100000) | s + 'abcdefghijklmnopqrstuvwxyz'))").code).toBe('MEMORY_LIMIT');
    expect(failure(db, "RETURN size(replace('abcdefghij', '', reduce(s = '', x IN range(1, 3000) | s + 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy')))").code).toBe('MEMORY_LIMIT');
    expect(db.executeSync('RETURN size(range(1, 10000)) AS n').records).toEqual([[10000]]);
  });

  it('counts collect, sort, distinct and grouping buffers', () => {
    const db = new Database({ memoryLimits: { maxQueryCells: 500_000 } });
    expect(failure(db, 'UNWIND range(1, 10000) AS x RETURN collect(range(1, 100)) AS l').code).toBe('MEMORY_LIMIT');
    expect(failure(db, 'UNWIND range(1, 300000) AS x WITH x ORDER BY x DESC LIMIT 1000000 RETURN count(*)').code).toBe('MEMORY_LIMIT');
    expect(failure(db, 'UNWIND range(1, 600000) AS x WITH DISTINCT x RETURN count(*)').code).toBe('MEMORY_LIMIT');
    expect(failure(db, 'UNWIND range(1, 300000) AS x WITH x, count(*) AS c RETURN count(*)').code).toBe('MEMORY_LIMIT');
    expect(failure(db, 'UNWIND range(1, 300000) AS x CREATE (n {x: x}) RETURN count(*)').code).toBe('MEMORY_LIMIT');
    // A top-k sort holds only about 2k rows at a time: the rows it cuts give their cells back.
    expect(db.executeSync('UNWIND range(1, 300000) AS x WITH x ORDER BY x DESC LIMIT 3 RETURN collect(x) AS top').records).toEqual([
      [[300000, 299999, 299998]],
    ]);
    // Streaming aggregation holds nothing per row.
    expect(db.executeSync('UNWIND range(1, 300000) AS x RETURN count(*) AS c, sum(x) AS s').records).toEqual([[300000, 45000150000]]);
    // A failed write query leaves nothing behind.
    expect(db.executeSync('MATCH (n) RETURN count(n) AS c').records).toEqual([[0]]);
  });
});

describe('the deadline reaches everything', () => {
  it('stops catastrophic regular expressions (linear-time engine)', () => {
    const db = new Database({ queryTimeoutMs: 2000 });
    const started = Date.now();
    expect(db.executeSync("RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ '(a+)+' AS m").records).toEqual([[false]]);
    expect(db.executeSync("RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' =~ '(a|aa)*' AS m").records).toEqual([[true]]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(db.executeSync("RETURN 'ABC' =~ '(?i)a[a-c]+' AS a, 'abc' =~ '(?i)A\\\\w+' AS b, 'a\\nb' =~ '(?s)a.b' AS c").records).toEqual([[true, true, true]]);
  });

  it('keeps backreferences and lookaround for safe shapes and refuses explosive ones', () => {
    const db = new Database({ queryTimeoutMs: 2000 });
    expect(db.executeSync("RETURN 'abab' =~ '(ab)\\\\1' AS a, 'ab' =~ '(?=a)ab' AS b, 'éa' =~ '\\\\p{L}+' AS c").records).toEqual([[true, true, true]]);
    const err = failure(db, "RETURN 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' =~ '(a+)+\\\\1'");
    expect(err.code).toBe('ARGUMENT_ERR');
    expect(err.message).toMatch(/bounded time/);
  });

  it('stops nested reduce, comprehensions and quantifiers at the time limit', () => {
    const db = new Database({ queryTimeoutMs: 500 });
    for (const q of [
      'RETURN reduce(a = 0, x IN range(1, 100000) | a + reduce(b = 0, y IN range(1, 100000) | b + y)) AS r',
      'RETURN size([x IN range(1, 100000) | size([y IN range(1, 100000) WHERE y > x])]) AS r',
      'RETURN all(x IN range(1, 100000) WHERE any(y IN range(1, 100000) WHERE y < 0)) AS r',
      'UNWIND range(1, 10000) AS x RETURN size(tail(range(1, 5000000))) AS r',
    ]) {
      const started = Date.now();
      expect(failure(db, q).code).toBe('TIMEOUT');
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  }, 60_000);

  it('stops compiling a huge label list at the deadline', () => {
    const db = new Database({ queryTimeoutMs: 1000 });
    const labels = Array.from({ length: 13000 }, (_, i) => `L${i}`).join(':');
    const started = Date.now();
    const err = failure(db, `MATCH (n:${labels}) RETURN count(n)`);
    expect(['TIMEOUT', 'COMPILE_ERR']).toContain(err.code);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('bounds the compile that read-only doors run to classify a query (isMutating)', () => {
    const db = new Database({ queryTimeoutMs: 1 });
    const labels = Array.from({ length: 13000 }, (_, i) => `L${i}`).join(':');
    let code: string | undefined;
    try {
      db.isMutating(`MATCH (n:${labels}) RETURN count(n)`);
    } catch (err) {
      expect(err).toBeInstanceOf(GraphDbError);
      code = (err as GraphDbError).code;
    }
    // Parsing 13,000 labels takes far longer than 1 ms: the limit must have stopped it.
    expect(code).toBe('TIMEOUT');
  }, 30_000);
});

describe('long MATCH chains', () => {
  it('plans relationship uniqueness linearly and still enforces it', () => {
    const db = new Database();
    db.executeSync('CREATE (a:S)-[:R]->(b)-[:R]->(c)-[:R]->(a)');
    const hops = 40;
    const chain = 'MATCH (:S)' + '-[:R]-()'.repeat(hops) + ' RETURN count(*) AS c';
    // A triangle has three relationships: no chain longer than three can use each once.
    expect(db.executeSync(chain).records).toEqual([[0]]);
    expect(db.executeSync('MATCH (:S)' + '-[:R]-()'.repeat(3) + ' RETURN count(*) AS c').records).toEqual([[2]]);
    expect(db.explain(chain)).toMatch(/all distinct \(40 relationships\)/);
  });

  it('fails a 10,000-hop chain cleanly, within the deadline', () => {
    const db = new Database({ queryTimeoutMs: 3000 });
    db.executeSync('CREATE ()-[:R]->()');
    const started = Date.now();
    const err = failure(db, 'MATCH ()' + '-->()'.repeat(10_000) + ' RETURN count(*)');
    expect(['TIMEOUT', 'LIMIT_EXCEEDED', 'COMPILE_ERR']).toContain(err.code);
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});

/**
 * Engine-level behaviour of Database: results and parameters, atomicity of failing
 * queries, the query deadline, the plan cache, the optimizer's choices as EXPLAIN shows
 * them, and the rule that generated code never contains user text.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Database } from '../../src/engine/database.js';
import { GraphDbError, QueryTimeoutError } from '../../src/errors.js';
import { FloatBox } from '../../runtime/values.js';

function rows(db: Database, q: string, params?: Record<string, unknown>): unknown[][] {
  return db.executeSync(q, params).records;
}

describe('Database', () => {
  it('keeps integers and floats apart', () => {
    const db = Database.openInMemory();
    const [[f, i]] = rows(db, 'RETURN 1.0 AS f, 7/2 AS i');
    expect(f).toBeInstanceOf(FloatBox);
    expect(i).toBe(3);
  });

  it('passes parameters as values, never as code', () => {
    const db = Database.openInMemory();
    const evil = "'); throw new Error('pwned'); ('";
    expect(rows(db, 'RETURN $x AS x', { x: evil })).toEqual([[evil]]);
    db.executeSync('CREATE (:P {name: $n})', { n: evil });
    expect(rows(db, 'MATCH (p:P) WHERE p.name = $n RETURN count(*) AS c', { n: evil })).toEqual([[1]]);
  });

  it('puts no user text into generated source', () => {
    const db = Database.openInMemory();
    const q = "MATCH (`we*/ird`:`La}bel` {`k'ey`: 'v\\'al'})-[:`T*/`]->(b) WHERE b.`x-y` = 'needle' RETURN b.`x-y` AS `out*/`";
    const src = db.generatedSource(q);
    for (const fragment of ['we*/ird', 'La}bel', "k'ey", 'needle', 'T*/', 'x-y', 'out*/']) {
      expect(src).not.toContain(fragment);
    }
  });

  it('rolls back every change of a query that fails', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (:A {v: 1})');
    const before = db.fingerprint();
    expect(() => db.executeSync('MATCH (a:A) CREATE (:B) SET a.v = 2 WITH a RETURN 1 / 0')).toThrow(GraphDbError);
    expect(db.fingerprint()).toBe(before);
    expect(rows(db, 'MATCH (n) RETURN labels(n) AS l, n.v AS v')).toEqual([[['A'], 1]]);
  });

  it('stops a runaway query at its deadline', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 300) AS i CREATE (:N {i: i})');
    const started = Date.now();
    expect(() =>
      db.executeSync('MATCH (a:N), (b:N), (c:N), (d:N) RETURN count(*)', undefined, { timeoutMs: 200 }),
    ).toThrow(QueryTimeoutError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('rejects writes through the read-only call', async () => {
    const db = Database.openInMemory();
    await expect(db.query('CREATE (n)')).rejects.toThrow(/read-only/);
    expect(db.stats().nodes).toBe(0);
  });

  it('starts a MATCH at the rarer label and expands from it', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 500) AS i CREATE (:Many {i: i})');
    db.executeSync('CREATE (:Few)');
    const plan = db.explain('MATCH (m:Many)-[:R]->(f:Few) RETURN m');
    expect(plan).toMatch(/NodeByLabelScan f:Few/);
    expect(plan).toMatch(/Expand/);
  });

  it('reports compile errors with their position', () => {
    const db = Database.openInMemory();
    try {
      db.executeSync('MATCH (n RETURN n');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(GraphDbError);
      const e = err as GraphDbError;
      expect(e.code).toBe('COMPILE_ERR');
      expect(e.position).toEqual({ line: 1, column: expect.any(Number) });
    }
  });

  it('reuses compiled queries by text', () => {
    const db = Database.openInMemory();
    const a = db.generatedSource('RETURN 1 AS x');
    const b = db.generatedSource('RETURN 1 AS x');
    expect(a).toBe(b);
  });

  it('never lets an input escape as an untyped error', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:A {s: 'x', n: 1})-[:R {w: 2}]->(:B {l: [1, 2]})");
    const fragments = [
      'MATCH', '(a)', '-[r]->', '(b:B)', 'RETURN', 'a', 'count(*)', 'WITH', 'WHERE', '=', '1', "'s'", '+', '[', ']',
      '{', '}', ',', 'UNWIND', 'AS', 'x', 'ORDER BY', 'LIMIT', 'CREATE', 'SET', 'a.n', 'DELETE', 'OPTIONAL', '*', '..',
      'null', 'CASE', 'WHEN', 'THEN', 'END', '$p', 'collect(x)', '.', ':', '<>', '(', ')',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 14 }), (parts) => {
        const q = parts.join(' ');
        try {
          db.executeSync(q, { p: 1 }, { timeoutMs: 1000 });
        } catch (err) {
          if (!(err instanceof GraphDbError) || err.kind === 'InternalError') {
            throw new Error(`query ${JSON.stringify(q)} threw ${String(err)}`, { cause: err });
          }
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('survives random bytes as a query', () => {
    const db = Database.openInMemory();
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (q) => {
        try {
          db.executeSync(q);
        } catch (err) {
          expect(err).toBeInstanceOf(GraphDbError);
        }
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * How algorithm procedures are called: without arguments (the config defaults to `{}`,
 * as SPEC's `CALL algo.pageRank()` shows), with the cached projection staying correct as
 * the graph changes, and under the query's time limit.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';

describe('algorithm procedure calls', () => {
  it('take no arguments when the defaults will do', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (a:N)-[:R]->(b:N)-[:R]->(c:N)');
    const r = db.executeSync('CALL algo.pageRank() YIELD node, score RETURN count(node) AS n, round(sum(score) * 1000) / 1000 AS total');
    expect(r.records).toEqual([[3, expect.anything()]]);
    expect(db.executeSync('CALL algo.wcc').records.length).toBe(3);
  });

  it('see changes to the graph even though projections are cached', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (:N {k: 1}), (:N {k: 2})');
    const components = () =>
      Number(db.executeSync('CALL algo.wcc({}) YIELD componentId RETURN count(DISTINCT componentId) AS c').records[0][0]);
    expect(components()).toBe(2);
    expect(components()).toBe(2);
    db.executeSync('MATCH (a:N {k: 1}), (b:N {k: 2}) CREATE (a)-[:R]->(b)');
    expect(components()).toBe(1);
    expect(() => db.executeSync('MATCH (a:N {k: 1}) CREATE (a)-[:R]->(:N) WITH 1 AS x RETURN 1 / 0')).toThrow();
    expect(components()).toBe(1);
  });

  it('are stopped by the query time limit', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE INDEX FOR (n:N) ON (n.i)');
    db.executeSync('UNWIND range(1, 50000) AS i CREATE (:N {i: i})');
    db.executeSync('MATCH (a:N) WHERE a.i > 1 MATCH (b:N {i: a.i - 1}) CREATE (a)-[:R]->(b)');
    expect(() =>
      db.executeSync('CALL algo.pageRank({maxIterations: 100000, tolerance: 0}) YIELD score RETURN count(*)', undefined, { timeoutMs: 200 }),
    ).toThrow(/time limit/);
  });
});

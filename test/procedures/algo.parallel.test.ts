/**
 * The parallel kernels (procedures/algo/parallel.ts): with `concurrency` above 1 the
 * PageRank, closeness, betweenness, triangle count and lcc procedures run on worker threads over shared CSR arrays and must
 * give bit-identical scores to the single-threaded run; a query time limit stops them, and
 * the pool works again afterwards.
 */

import { describe, expect, it } from 'vitest';
import { FloatBox } from '../../runtime/values.js';
import { Database } from '../../src/engine/database.js';
import { random } from './algo.graphs.js';

/** A skewed random multigraph on `n` nodes with weights 1..5 (hubs at the low ids). */
function load(n: number, perNode: number): Database {
  const db = Database.openInMemory();
  db.executeSync('CREATE INDEX FOR (v:V) ON (v.i)');
  db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n });
  const rand = random(20261123);
  const edges: number[][] = [];
  for (let k = 0; k < n * perNode; k++) edges.push([Math.floor(rand() ** 2 * n), Math.floor(rand() * n), 1 + Math.floor(rand() * 5)]);
  db.executeSync('UNWIND $e AS e MATCH (a:V {i: e[0]}), (b:V {i: e[1]}) CREATE (a)-[:R {w: e[2]}]->(b)', { e: edges });
  return db;
}

/** Scores in node order; `toEqual` compares numbers with Object.is, so equal means the same bits. */
function scores(db: Database, call: string, concurrency: number, column = 'score'): number[] {
  const rows = db.executeSync(`${call.replace('})', `, concurrency: $c})`)} YIELD node, ${column} AS score RETURN node.i AS i, score ORDER BY i`, { c: concurrency }).records;
  return rows.map((r) => (r[1] instanceof FloatBox ? r[1].value : (r[1] as number)));
}

describe('parallel algorithm kernels', () => {
  const db = load(700, 4);
  const calls = [
    "CALL algo.closeness({direction: 'BOTH'})",
    "CALL algo.closeness({direction: 'OUT', harmonic: true})",
    "CALL algo.closeness({direction: 'BOTH', wassermanFaust: true, weightProperty: 'w'})",
    "CALL algo.betweenness({direction: 'BOTH'})",
    "CALL algo.betweenness({direction: 'OUT', weightProperty: 'w'})",
    "CALL algo.betweenness({direction: 'BOTH', samplingSize: 100, randomSeed: 3})",
  ];
  for (const call of calls) {
    it(`give the single-threaded bits: ${call}`, () => {
      const one = scores(db, call, 1);
      expect(one.length).toBe(700);
      expect(one.some((x) => x > 0)).toBe(true);
      for (const c of [2, 3]) {
        expect(scores(db, call, c)).toEqual(one);
      }
    });
  }

  it('count triangles and clustering coefficients as one thread does', () => {
    for (const [call, column] of [
      ["CALL algo.triangleCount({relationshipTypes: 'R'})", 'triangles'],
      ["CALL algo.lcc({relationshipTypes: 'R'})", 'coefficient'],
    ]) {
      const one = scores(db, call, 1, column);
      expect(one.some((x) => x > 0)).toBe(true);
      expect(scores(db, call, 2, column)).toEqual(one);
    }
  });

  it('rank pages as one thread does (a graph large enough for the pool)', () => {
    // 72 000 relationships, 144 000 CSR entries both ways: above PageRank's 2^17-edge floor
    // for waking the worker threads.
    const big = load(9000, 8);
    for (const call of ["CALL algo.pageRank({direction: 'BOTH', tolerance: 1e-12, maxIterations: 100})", 'CALL algo.pageRank({direction: \'BOTH\', sourceNodes: [0, 1, 2]})']) {
      const one = scores(big, call, 1);
      expect(one.length).toBe(9000);
      expect(Math.abs(one.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-9);
      expect(scores(big, call, 2)).toEqual(one);
    }
  });

  it('stop at the query time limit and leave the pool usable', () => {
    const big = load(6000, 8);
    expect(() => big.executeSync("CALL algo.betweenness({direction: 'BOTH', concurrency: 2}) YIELD score RETURN count(*)", undefined, { timeoutMs: 200 })).toThrow(/time limit/);
    const call = "CALL algo.closeness({direction: 'BOTH'})";
    expect(scores(db, call, 2)).toEqual(scores(db, call, 1));
  });

  it('reject a concurrency that is not a positive integer', () => {
    expect(() => db.executeSync("CALL algo.closeness({concurrency: 0})")).toThrow(/concurrency/);
    expect(() => db.executeSync("CALL algo.closeness({concurrency: 'many'})")).toThrow(/concurrency/);
  });
});

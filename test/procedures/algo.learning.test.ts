/**
 * The randomised and similarity procedures by the quality of their answers: FastRP and
 * node2vec place nodes of the same dense cluster closer together than nodes of different
 * clusters; knn finds exactly the neighbours a brute-force search finds; sampled betweenness
 * is reproducible and exact when every node is sampled. Plus the edge cases networkx cannot
 * judge: parallel relationships are never bridges, and the query time limit stops the
 * quadratic kernels.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { toJs } from '../../runtime/format.js';
import { random } from './algo.graphs.js';

/** Two 8-cliques joined by a single relationship; cluster = floor(i / 8). */
function twoClusters(): Database {
  const db = Database.openInMemory();
  db.executeSync('UNWIND range(0, 15) AS i CREATE (:V {i: i})');
  db.executeSync('MATCH (a:V), (b:V) WHERE a.i < b.i AND a.i / 8 = b.i / 8 CREATE (a)-[:R]->(b)');
  db.executeSync('MATCH (a:V {i: 7}), (b:V {i: 8}) CREATE (a)-[:R]->(b)');
  return db;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

function expectClustered(db: Database, call: string): void {
  const rows = db.executeSync(`${call} YIELD node, embedding RETURN node.i, embedding ORDER BY node.i`).records.map((r) => [toJs(r[0]), toJs(r[1])] as [number, number[]]);
  expect(rows.length).toBe(16);
  for (const [i, e] of rows) {
    let same = 0;
    let other = 0;
    for (const [j, f] of rows) {
      if (i === j) continue;
      if (Math.floor(i / 8) === Math.floor(j / 8)) same += cosine(e, f) / 7;
      else other += cosine(e, f) / 8;
    }
    expect(same, `node ${i}`).toBeGreaterThan(other);
  }
}

describe('embeddings', () => {
  it('FastRP keeps clusters together, and the same seed gives the same vectors', () => {
    const db = twoClusters();
    expectClustered(db, "CALL algo.fastRP({embeddingDimension: 64, direction: 'BOTH'})");
    const a = db.executeSync('CALL algo.fastRP({embeddingDimension: 16, randomSeed: 7}) YIELD embedding RETURN embedding').records;
    const b = db.executeSync('CALL algo.fastRP({embeddingDimension: 16, randomSeed: 7}) YIELD embedding RETURN embedding').records;
    expect(b.map((r) => toJs(r[0]))).toEqual(a.map((r) => toJs(r[0])));
  });

  it('node2vec keeps clusters together', () => {
    expectClustered(twoClusters(), 'CALL algo.node2vec({embeddingDimension: 16, walkLength: 20, walksPerNode: 20, windowSize: 4, returnFactor: 2, inOutFactor: 2})');
  });
});

describe('algo.knn', () => {
  it('finds the same top-k neighbours as a brute-force search', () => {
    const rand = random(5);
    const vectors = Array.from({ length: 60 }, () => Array.from({ length: 6 }, () => rand() - 0.5));
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(0, size($v) - 1) AS i CREATE (:V {i: i, v: $v[i]})', { v: vectors });
    db.executeSync('CREATE (:V {i: 99})'); // no vector: left out
    const rows = db.executeSync("CALL algo.knn({nodeProperties: 'v', topK: 3}) YIELD node1, node2, similarity RETURN node1.i, node2.i, similarity").records.map((r) => r.map((x) => toJs(x)) as [number, number, number]);
    expect(rows.length).toBe(60 * 3);
    for (let i = 0; i < 60; i++) {
      const expected = vectors
        .map((v, j) => ({ j, s: cosine(vectors[i], v) }))
        .filter((x) => x.j !== i)
        .sort((a, b) => b.s - a.s)
        .slice(0, 3);
      const ours = rows.filter((r) => r[0] === i);
      expect(ours.map((r) => r[1])).toEqual(expected.map((x) => x.j));
      ours.forEach((r, k) => expect(r[2]).toBeCloseTo(expected[k].s, 12));
    }
  });

  it('rejects vectors of different lengths', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (:V {v: [1, 2]}), (:V {v: [1, 2, 3]})');
    expect(() => db.executeSync("CALL algo.knn({nodeProperties: 'v'})")).toThrow(/differ in length/);
  });
});

describe('sampled betweenness', () => {
  const db = Database.openInMemory();
  db.executeSync('UNWIND range(0, 39) AS i CREATE (:V {i: i})');
  db.executeSync('MATCH (a:V), (b:V) WHERE b.i = a.i + 1 OR b.i = (a.i * 7 + 3) % 40 CREATE (a)-[:R]->(b)');
  const scores = (config: string): unknown[] => db.executeSync(`CALL algo.betweenness(${config}) YIELD node, score RETURN score ORDER BY node.i`).records.map((r) => toJs(r[0]));

  it('is exact when every node is sampled and reproducible for a seed', () => {
    expect(scores('{samplingSize: 40}')).toEqual(scores('{}').map((x) => expect.closeTo(x as number, 9)));
    expect(scores('{samplingSize: 10, randomSeed: 3}')).toEqual(scores('{samplingSize: 10, randomSeed: 3}'));
    expect(scores('{samplingSize: 10, randomSeed: 3}')).not.toEqual(scores('{}'));
  });
});

describe('structure edge cases', () => {
  it('never reports parallel relationships as bridges, nor their ends as articulation points', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (a:V {i: 0})-[:R]->(b:V {i: 1}), (a)-[:R]->(b), (b)-[:R]->(c:V {i: 2}), (c)-[:R]->(c)');
    expect(db.executeSync('CALL algo.bridges() YIELD source, target RETURN source.i, target.i').records).toEqual([[1, 2]]);
    expect(db.executeSync('CALL algo.articulationPoints() YIELD node RETURN node.i').records).toEqual([[1]]);
  });
});

describe('the query time limit', () => {
  // Built once: under a loaded machine the setup alone can take tens of seconds.
  let db: Database;
  beforeAll(() => {
    db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 30000) AS i CREATE (:N {i: i, v: [i % 7, i % 11, 1]})');
    db.executeSync('MATCH (a:N) WITH a ORDER BY a.i WITH collect(a) AS ns UNWIND range(0, size(ns) - 2) AS k WITH ns[k] AS a, ns[k + 1] AS b CREATE (a)-[:R]->(b)');
  }, 180_000);

  it.each([
    ['betweenness', 'CALL algo.betweenness() YIELD score RETURN count(*)'],
    ['closeness', 'CALL algo.closeness() YIELD score RETURN count(*)'],
    ['node2vec', 'CALL algo.node2vec({walksPerNode: 1000}) YIELD embedding RETURN count(*)'],
    ['knn', "CALL algo.knn({nodeProperties: 'v'}) YIELD similarity RETURN count(*)"],
  ])('stops %s', (_name, query) => {
    expect(() => db.executeSync(query, undefined, { timeoutMs: 300 })).toThrow(/time limit/);
  }, 120_000);
});

/**
 * Vector indexes through the query language: DDL, queries with Neo4j's scores, writes and
 * rollbacks followed by the index, filtered search that still fills k, typed errors, the
 * relationship form, the procedural forms, and the same through the HTTP door.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { rows, seeded } from './helpers.js';
import type { VectorIndex } from '../../src/vector/hnsw-index.js';

const DDL = "CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}";

function freshDocs(): Database {
  const db = Database.openInMemory();
  db.executeSync(DDL);
  db.executeSync("UNWIND range(0, 20) AS i CREATE (:Doc {i: i, lang: CASE WHEN i % 5 = 0 THEN 'en' ELSE 'fr' END, emb: [1.0, toFloat(i) / 10, 0.0]})");
  return db;
}

const near = (db: Database, k: number, v: number[], where = ''): unknown[][] =>
  rows(db, `CALL db.index.vector.queryNodes('docs', ${k}, $v) YIELD node, score ${where} RETURN node.i AS i, score`, { v });

describe('CREATE VECTOR INDEX and queryNodes', () => {
  it('returns the k nearest nodes, best first, with cosine scores (1 + cos) / 2', () => {
    const db = freshDocs();
    const r = near(db, 3, [1, 0, 0]);
    expect(r.map((x) => x[0])).toEqual([0, 1, 2]);
    expect(r[0][1]).toBeCloseTo(1, 5);
    expect(r[1][1]).toBeCloseTo((1 + 1 / Math.sqrt(1.01)) / 2, 5);
  });

  it('euclidean and dot indexes score as documented', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE VECTOR INDEX e FOR (n:P) ON (n.v) OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'euclidean'}}");
    db.executeSync("CREATE VECTOR INDEX d FOR (n:Q) ON (n.v) OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'dot'}}");
    db.executeSync('CREATE (:P {v: [0.0, 0.0]}), (:P {v: [3.0, 4.0]}), (:Q {v: [0.6, 0.8]})');
    const e = rows(db, "CALL db.index.vector.queryNodes('e', 2, [0, 0]) YIELD node, score RETURN score");
    expect(e[0][0]).toBeCloseTo(1, 6);
    expect(e[1][0]).toBeCloseTo(1 / 26, 6);
    const d = rows(db, "CALL db.index.vector.queryNodes('d', 1, [0.6, 0.8]) YIELD score RETURN score");
    expect(d[0][0]).toBeCloseTo(1, 5);
  });

  it('IF NOT EXISTS, duplicates, SHOW VECTOR INDEXES and DROP INDEX', () => {
    const db = freshDocs();
    expect(() => db.executeSync(DDL)).toThrow(/already exists/);
    expect(() => db.executeSync(DDL.replace('INDEX docs', 'INDEX docs IF NOT EXISTS'))).not.toThrow();
    const show = rows(db, 'SHOW VECTOR INDEXES');
    expect(show).toHaveLength(1);
    expect(show[0].slice(0, 7)).toEqual(['docs', 'ONLINE', 100, 'VECTOR', 'NODE', ['Doc'], ['emb']]);
    expect(show[0][7]).toMatchObject({ indexConfig: { 'vector.dimensions': 3, 'vector.similarity_function': 'cosine' }, size: 21 });
    expect(rows(db, 'SHOW INDEXES YIELD name').map((r) => r[0])).toContain('docs');
    db.executeSync('DROP INDEX docs');
    expect(rows(db, 'SHOW VECTOR INDEXES')).toEqual([]);
    expect(() => near(db, 1, [1, 0, 0])).toThrow(/no vector index called `docs`/);
  });

  it('rejects bad definitions with typed errors', () => {
    const db = Database.openInMemory();
    expect(() => db.executeSync('CREATE VECTOR INDEX v FOR (n:A) ON (n.e)')).toThrow(/vector.dimensions/);
    expect(() => db.executeSync("CREATE VECTOR INDEX v FOR (n:A) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 0}}")).toThrow(/integer from 1/);
    expect(() =>
      db.executeSync("CREATE VECTOR INDEX v FOR (n:A) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'manhattan'}}"),
    ).toThrow(/one of 'cosine', 'euclidean', 'dot'/);
    expect(() => db.executeSync("CREATE VECTOR INDEX v FOR (n:A) ON (n.e, n.f) OPTIONS {indexConfig: {`vector.dimensions`: 3}}")).toThrow(/exactly one property/);
    expect(() => db.executeSync('CREATE VECTOR INDEX v FOR (n:A) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.hnsw.ef_search`: 0}}')).toThrow(
      /`vector.hnsw.ef_search` must be an integer from 1/,
    );
  });

  it('vector.hnsw.ef_search sets the search ef: shown by SHOW VECTOR INDEXES, raised for over-fetching by EXPLAIN', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE VECTOR INDEX v FOR (n:A) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.hnsw.ef_search`: 400}}');
    db.executeSync('UNWIND range(1, 3000) AS i CREATE (:A {i: i, e: [toFloat(i % 17), toFloat(i % 5), 1.0]})');
    expect(rows(db, 'SHOW VECTOR INDEXES')[0][7]).toMatchObject({ indexConfig: { 'vector.hnsw.ef_search': 400 } });
    expect(rows(db, "CALL db.index.vector.queryNodes('v', 5, [3.0, 2.0, 1.0]) YIELD node RETURN node.i")).toHaveLength(5);
    const plan = String(rows(db, "EXPLAIN CALL db.index.vector.queryNodes('v', 10, [3.0, 2.0, 1.0]) YIELD node, score WHERE node.i % 2 = 0 RETURN node")[0][0]);
    // A fixed guess of 0.10 for the modulo: 10 / 0.1 × 1.5 = 150 candidates, ef 400 · √15 ≈ 1550 (the default 64 gives 248).
    expect(plan).toMatch(/over-fetch 150 of 3000 candidates \(ef 1550\)/);
  });

  it("queryNodes' options {ef} replace the index's ef_search for one query, up or down", () => {
    // Two indexes over the same nodes, built in the same order with the same seed: identical
    // HNSW graphs that differ only in ef_search. A query's own ef must answer exactly as the
    // index with that ef_search does.
    const db = Database.openInMemory();
    db.executeSync('CREATE VECTOR INDEX lo FOR (n:A) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 24, `vector.hnsw.ef_search`: 10}}');
    db.executeSync('CREATE VECTOR INDEX hi FOR (n:B) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 24, `vector.hnsw.ef_search`: 500}}');
    const rnd = seeded(7);
    const vector = (): number[] => Array.from({ length: 24 }, () => rnd() - 0.5);
    db.executeSync('UNWIND $vs AS v CREATE (:A:B {e: v})', { vs: Array.from({ length: 3000 }, vector) });
    const ids = (index: string, q: number[], options = ''): unknown[] =>
      rows(db, `CALL db.index.vector.queryNodes('${index}', 10, $q${options}) YIELD node RETURN id(node)`, { q }).map((r) => r[0]);
    let differ = 0;
    for (let i = 0; i < 30; i++) {
      const q = vector();
      const lo = ids('lo', q);
      const hi = ids('hi', q);
      if (JSON.stringify(lo) !== JSON.stringify(hi)) differ++;
      expect(ids('lo', q, ', {ef: 500}')).toEqual(hi);
      expect(ids('hi', q, ', {ef: 10}')).toEqual(lo);
      expect(ids('hi', q, ', {ef: null}')).toEqual(hi);
    }
    // Otherwise the test above could not tell the efs apart.
    expect(differ).toBeGreaterThan(0);
    // The filtered search takes the query's ef as its base too: the same rows as the other index.
    const q = vector();
    const filtered = (index: string, options = ''): unknown[] =>
      rows(db, `CALL db.index.vector.queryNodes('${index}', 10, $q${options}) YIELD node WHERE id(node) % 3 = 0 RETURN id(node)`, { q }).map((r) => r[0]);
    expect(filtered('lo', ', {ef: 500}')).toEqual(filtered('hi'));
  });

  it('rejects bad per-query options with typed errors', () => {
    const db = freshDocs();
    const q = (options: string): unknown => rows(db, `CALL db.index.vector.queryNodes('docs', 3, [1.0, 0.0, 0.0], ${options}) YIELD node RETURN node.i`);
    expect(() => q('{ef: 0}')).toThrow(/Option 'ef' must be an integer from 1 to 10000, got 0/);
    expect(() => q('{ef: 10001}')).toThrow(/Option 'ef' must be an integer from 1 to 10000/);
    expect(() => q('{ef: 1.5}')).toThrow(/Option 'ef' must be an integer/);
    expect(() => q("{ef: '64'}")).toThrow(/Option 'ef' must be an integer/);
    expect(() => q('{efs: 64}')).toThrow(/Unknown vector query option 'efs'/);
    expect(() => q('[64]')).toThrow(/must be of type MAP/);
    expect(q('{ef: 1}')).toHaveLength(3);
    expect(q('null')).toHaveLength(3);
  });
});

describe('query errors', () => {
  const db = freshDocs();
  const fails = (q: string, v: unknown): { code: string; detail: string; message: string } => {
    try {
      db.executeSync(q, { v });
    } catch (err) {
      return err as { code: string; detail: string; message: string };
    }
    throw new Error('expected an error');
  };
  const Q = "CALL db.index.vector.queryNodes('docs', 3, $v) YIELD node RETURN node";
  it('wrong dimension', () => expect(fails(Q, [1, 0])).toMatchObject({ code: 'ARGUMENT_ERR', detail: 'VectorDimensionMismatch' }));
  it('non-numeric list', () => expect(fails(Q, [1, 'x', 0])).toMatchObject({ code: 'TYPE_ERR', detail: 'InvalidVectorValue' }));
  it('not a list', () => expect(fails(Q, 'abc')).toMatchObject({ code: 'TYPE_ERR', detail: 'InvalidVectorValue' }));
  it('NaN', () => expect(fails("CALL db.index.vector.queryNodes('docs', 3, [1.0, 0.0/0.0, 0.0]) YIELD node RETURN node", null).detail).toBe('InvalidVectorValue'));
  it('missing index', () => expect(fails("CALL db.index.vector.queryNodes('nope', 3, $v) YIELD node RETURN node", [1, 0, 0])).toMatchObject({ code: 'PROCEDURE_ERR', detail: 'IndexNotFound' }));
  it('bad k', () => expect(fails("CALL db.index.vector.queryNodes('docs', 0, $v) YIELD node RETURN node", [1, 0, 0]).code).toBe('ARGUMENT_ERR'));
  it('node procedure on a relationship index', () => {
    db.executeSync("CREATE VECTOR INDEX rv FOR ()-[r:R]-() ON (r.e) OPTIONS {indexConfig: {`vector.dimensions`: 3}}");
    expect(fails("CALL db.index.vector.queryNodes('rv', 1, $v) YIELD node RETURN node", [1, 0, 0]).detail).toBe('IndexEntityMismatch');
  });
});

describe('the index follows writes within the transaction', () => {
  it('create, set, remove, label changes and delete', () => {
    const db = freshDocs();
    // Seen by the same query that wrote it.
    expect(rows(db, "CREATE (:Doc {i: 99, emb: [0.0, 0.0, 1.0]}) WITH 1 AS x CALL db.index.vector.queryNodes('docs', 1, [0, 0, 1]) YIELD node RETURN node.i")).toEqual([[99]]);
    db.executeSync('MATCH (d:Doc {i: 99}) SET d.emb = [0.0, 1.0, 0.0]');
    expect(near(db, 1, [0, 1, 0])[0][0]).toBe(99);
    db.executeSync('MATCH (d:Doc {i: 99}) REMOVE d.emb');
    expect(near(db, 1, [0, 1, 0])[0][0]).not.toBe(99);
    db.executeSync('MATCH (d:Doc {i: 99}) SET d.emb = [0.0, 1.0, 0.0] REMOVE d:Doc');
    expect(near(db, 1, [0, 1, 0])[0][0]).not.toBe(99);
    db.executeSync('MATCH (d {i: 99}) SET d:Doc');
    expect(near(db, 1, [0, 1, 0])[0][0]).toBe(99);
    db.executeSync('MATCH (d:Doc {i: 99}) DELETE d');
    expect(near(db, 30, [0, 1, 0]).map((r) => r[0])).not.toContain(99);
    // A value that is not a vector of the index's size is left out, as Neo4j does.
    db.executeSync("CREATE (:Doc {i: 100, emb: [1.0, 2.0]}), (:Doc {i: 101, emb: 'text'})");
    expect(near(db, 50, [1, 0, 0])).toHaveLength(21);
  });

  it('a rolled-back write leaves no trace', () => {
    const db = freshDocs();
    const before = near(db, 5, [0, 0, 1]);
    expect(() =>
      db.executeSync("MATCH (d:Doc) WHERE d.i < 3 SET d.emb = [0.0, 0.0, 1.0] CREATE (:Doc {i: 50, emb: [0.0, 0.0, 1.0]}) WITH count(*) AS c RETURN c / 0"),
    ).toThrow(/Division by zero/);
    expect(near(db, 5, [0, 0, 1])).toEqual(before);
    expect(() => db.executeSync('MATCH (d:Doc) WHERE d.i = 0 DETACH DELETE d WITH 1 AS x RETURN 1 / 0')).toThrow();
    expect(near(db, 1, [1, 0, 0])[0][0]).toBe(0);
  });

  it('many updates and deletions keep agreeing with an exact scan', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE VECTOR INDEX v FOR (n:V) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'euclidean'}}");
    const rnd = seeded(7);
    const vec = (): number[] => Array.from({ length: 8 }, () => rnd());
    db.executeSync('UNWIND $vs AS v CREATE (:V {e: v})', { vs: Array.from({ length: 3000 }, vec) });
    db.executeSync('MATCH (n:V) WHERE id(n) % 3 = 0 DELETE n');
    db.executeSync('MATCH (n:V) WHERE id(n) % 3 = 1 SET n.e = $v', { v: vec() });
    const q = vec();
    const got = rows(db, "CALL db.index.vector.queryNodes('v', 10, $q) YIELD node RETURN id(node)", { q }).map((r) => r[0]);
    const exact = rows(db, 'MATCH (n:V) RETURN id(n) ORDER BY vector.similarity.euclidean(n.e, $q) DESC, id(n) LIMIT 10', { q }).map((r) => r[0]);
    const overlap = got.filter((x) => exact.includes(x)).length;
    expect(overlap).toBeGreaterThanOrEqual(9);
  });
});

describe('every live vector stays findable', () => {
  /**
   * Writes as several clients make them, one entity at a time in a random interleaving:
   * creations, then an update and a deletion of each client's previous entity. hnswlib's
   * in-place update left some of the never-updated elements with no link into them in about
   * a quarter of such runs; each seed here is a fixed run (the RNG and hnswlib's are seeded).
   */
  function churn(seed: number, dims: number): Database {
    const db = Database.openInMemory();
    db.executeSync(`CREATE VECTOR INDEX v FOR (n:V) ON (n.e) OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}, \`vector.similarity_function\`: 'euclidean'}}`);
    const rnd = seeded(seed);
    const vec = (): number[] => Array.from({ length: dims }, () => rnd());
    const next = [0, 0, 0];
    while (Math.min(...next) < 300) {
      const c = Math.floor(rnd() * 3);
      const i = next[c]++;
      if (i % 4 === 3) db.executeSync('MATCH (n:V {c: $c, i: $i}) DELETE n', { c, i: i - 2 });
      else if (i % 4 === 2) db.executeSync('MATCH (n:V {c: $c, i: $i}) SET n.e = $e', { c, i: i - 1, e: vec() });
      else db.executeSync('CREATE (:V {c: $c, i: $i, e: $e})', { c, i, e: vec() });
    }
    return db;
  }

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('after a stream of single writes (seed %i), each vector is among its own ten nearest', (seed) => {
    const db = churn(seed, 4);
    const docs = rows(db, 'MATCH (n:V) RETURN id(n), n.e');
    expect(docs.length).toBeGreaterThan(200);
    const missed = docs.filter(([id, e]) => !rows(db, "CALL db.index.vector.queryNodes('v', 10, $e) YIELD node RETURN id(node)", { e }).some((r) => r[0] === id));
    expect(missed.map((d) => d[0])).toEqual([]);
  });

  it('an update adds a fresh element, and the graph is rebuilt once deleted elements outnumber live ones', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE VECTOR INDEX v FOR (n:V) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'euclidean'}}");
    db.executeSync('UNWIND range(1, 100) AS i CREATE (:V {i: i, e: [toFloat(i), 0.0]})');
    const index = db.schema.extensionIndex('v') as VectorIndex;
    expect(index.elements).toBe(100);
    db.executeSync('MATCH (n:V) WHERE n.i <= 60 SET n.e = [toFloat(n.i), 1.0]');
    expect(index.elements).toBe(160); // 60 deleted, 100 live
    db.executeSync('MATCH (n:V) WHERE n.i <= 41 SET n.e = [toFloat(n.i), 2.0]');
    // The 101st deleted element set off the rebuild: one element per live vector.
    expect(index.elements).toBe(100);
    db.executeSync('MATCH (n:V) SET n.e = n.e'); // the same vectors: nothing changes
    const after = index.elements;
    db.executeSync('MATCH (n:V) SET n.e = n.e');
    expect(index.elements).toBe(after);
    for (let i = 1; i <= 100; i++) {
      const e = [i, i <= 41 ? 2 : i <= 60 ? 1 : 0];
      expect(rows(db, "CALL db.index.vector.queryNodes('v', 1, $e) YIELD node, score RETURN node.i, score", { e })).toEqual([[i, 1]]);
    }
  });
});

describe('filtered search', () => {
  const db = Database.openInMemory();
  beforeAll(() => {
    db.executeSync("CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 16}}");
    const rnd = seeded(3);
    const docs = Array.from({ length: 5000 }, (_, i) => ({ i, lang: i % 100 === 0 ? 'rare' : i % 10 === 0 ? 'en' : 'fr', emb: Array.from({ length: 16 }, () => rnd() - 0.5) }));
    db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, lang: d.lang, emb: d.emb})', { docs });
  });
  const q = Array.from({ length: 16 }, (_, i) => Math.sin(i));
  const exact = (lang: string[]): unknown[] =>
    rows(db, 'MATCH (d:Doc) WHERE d.lang IN $langs RETURN d.i ORDER BY vector.similarity.cosine(d.emb, $q) DESC LIMIT 10', { langs: lang, q }).map((r) => r[0]);

  for (const [label, langs] of [
    ['1 %', ['rare']],
    ['9 %', ['en']],
    ['90 %', ['en', 'fr']],
  ] as const) {
    it(`returns k rows when k qualify, matching the exact answer (${label})`, () => {
      const got = rows(db, "CALL db.index.vector.queryNodes('docs', 10, $q) YIELD node, score WHERE node.lang IN $langs RETURN node.i", { q, langs: [...langs] }).map((r) => r[0]);
      expect(got).toHaveLength(10);
      const want = exact([...langs]);
      expect(got.filter((x) => want.includes(x)).length).toBeGreaterThanOrEqual(9);
    });
  }

  it('a filter on the score applies too, and EXPLAIN shows the filter inside the search', () => {
    const got = rows(db, "CALL db.index.vector.queryNodes('docs', 10, $q) YIELD node, score WHERE score > 2 RETURN node", { q });
    expect(got).toEqual([]);
    const plan = rows(db, "EXPLAIN CALL db.index.vector.queryNodes('docs', 10, $q) YIELD node, score WHERE node.lang = 'en' RETURN node", { q })[0][0];
    expect(plan).toMatch(/ProcedureCall db.index.vector.queryNodes \(filter inside the search, estimated selectivity/);
  });

  it('EXPLAIN shows the selectivity estimated from statistics and the strategy it leads to', () => {
    const explain = (where: string, k = '10'): string => {
      const plan = String(rows(db, `EXPLAIN CALL db.index.vector.queryNodes('docs', ${k}, $q) YIELD node AS d, score WHERE ${where} RETURN d`, { q, p: 'en' })[0][0]);
      return /ProcedureCall db\.index\.vector\.queryNodes \((.*)\)$/m.exec(plan)?.[1] ?? plan;
    };
    const estimate = (text: string): number => Number(/estimated selectivity ([0-9.e-]+)/.exec(text)?.[1]);
    // No property index: a sample of the 5000 :Doc nodes (rare is 1 %, en 9 %, fr 90 %).
    const rare = explain("d.lang = 'rare'");
    expect(rare).toMatch(/from a sample of 2000 of 50\d\d :Doc nodes; strategy: (exact scan of 50\d\d vectors|over-fetch \d+ of 50\d\d candidates)/);
    expect(estimate(rare)).toBeGreaterThan(0.003);
    expect(estimate(rare)).toBeLessThan(0.025);
    const fr = explain("'fr' = d.lang");
    expect(estimate(fr)).toBeGreaterThan(0.85);
    expect(estimate(fr)).toBeLessThan(0.95);
    expect(fr).toMatch(/strategy: over-fetch 1[67] of 50\d\d candidates \(ef 8\d\), widening 4× until 10 pass/);
    expect(estimate(explain("d.lang IN ['rare', 'en']"))).toBeGreaterThan(0.07);
    expect(estimate(explain('d.i < 500'))).toBeGreaterThan(0.07);
    expect(estimate(explain('d.i < 500'))).toBeLessThan(0.13);
    expect(estimate(explain('d.nothing IS NOT NULL'))).toBeLessThan(0.001);
    // A parameter: one over the distinct values seen.
    expect(explain('d.lang = $p')).toMatch(/estimated selectivity 0\.(2[0-9]|3[0-9]) from a sample/);
    // No statistic for an arbitrary expression, or a non-literal k: fixed guess, strategy described generally.
    expect(explain('d.i % 7 = 0', '$k')).toMatch(/estimated selectivity 0\.10 \(fixed guess\); strategy: over-fetch k \/ selectivity/);
    // With a property index the counts are exact.
    db.executeSync('CREATE INDEX doc_lang FOR (d:Doc) ON (d.lang)');
    try {
      const indexed = explain("d.lang = 'en'");
      expect(indexed).toMatch(/from property index on :Doc\(lang\); strategy: over-fetch 1\d\d of 50\d\d candidates/);
      const en = rows(db, "MATCH (d:Doc) WHERE d.lang = 'en' RETURN count(*)")[0][0] as number;
      const all = rows(db, 'MATCH (d:Doc) RETURN count(*)')[0][0] as number;
      expect(estimate(indexed)).toBeCloseTo(en / all, 2);
      expect(estimate(explain("d.lang <> 'fr'"))).toBeCloseTo(1 - (all - en - 50) / all, 2);
      expect(explain("d.lang = 'rare'")).toMatch(/estimated selectivity 0\.010 from property index on :Doc\(lang\); strategy: exact scan of 50\d\d vectors/);
      // The search follows the plan: a 1 % filter is answered exactly.
      const got = rows(db, "CALL db.index.vector.queryNodes('docs', 10, $q) YIELD node, score WHERE node.lang = 'rare' RETURN node.i", { q }).map((r) => r[0]);
      expect(got).toEqual(exact(['rare']));
    } finally {
      db.executeSync('DROP INDEX doc_lang');
    }
  });

  it('fewer rows only when fewer qualify', () => {
    db.executeSync("CREATE (:Doc {i: -1, lang: 'solo', emb: $q})", { q });
    expect(rows(db, "CALL db.index.vector.queryNodes('docs', 10, $q) YIELD node WHERE node.lang = 'solo' RETURN node.i", { q })).toEqual([[-1]]);
  });
});

describe('relationships and procedures', () => {
  it('relationship vector index with queryRelationships', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE VECTOR INDEX rels FOR ()-[r:SIM]-() ON (r.e) OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'euclidean'}}");
    db.executeSync('CREATE (a)-[:SIM {k: 1, e: [0.0, 0.0]}]->(b), (a)-[:SIM {k: 2, e: [1.0, 1.0]}]->(b), (a)-[:OTHER {e: [0.0, 0.0]}]->(b)');
    const q = "CALL db.index.vector.queryRelationships('rels', 5, [0, 0]) YIELD relationship, score RETURN relationship.k, score";
    expect(rows(db, q)).toEqual([
      [1, 1],
      [2, 1 / 3],
    ]);
    db.executeSync('MATCH ()-[r:SIM {k: 1}]->() DELETE r');
    expect(rows(db, q).map((r) => r[0])).toEqual([2]);
    expect(() => db.executeSync('MATCH ()-[r:SIM]->() SET r.e = [9.0, 9.0] WITH r RETURN 1 / 0')).toThrow();
    expect(rows(db, q)).toEqual([[2, 1 / 3]]);
  });

  it('db.create.setNodeVectorProperty checks the vector; db.index.vector.createNodeIndex creates an index', () => {
    const db = Database.openInMemory();
    db.executeSync("CALL db.index.vector.createNodeIndex('byProc', 'Item', 'v', 2, 'euclidean')");
    expect(rows(db, 'SHOW VECTOR INDEXES').map((r) => [r[0], r[5]])).toEqual([['byProc', ['Item']]]);
    db.executeSync('CREATE (:Item {n: 1})');
    db.executeSync("MATCH (i:Item) CALL db.create.setNodeVectorProperty(i, 'v', [1, 2])");
    expect(rows(db, 'MATCH (i:Item) RETURN i.v')).toEqual([[[1, 2]]]);
    expect(rows(db, "CALL db.index.vector.queryNodes('byProc', 1, [1, 2]) YIELD node RETURN node.n")).toEqual([[1]]);
    expect(() => db.executeSync("MATCH (i:Item) CALL db.create.setNodeVectorProperty(i, 'v', [1, 2, 3])")).toThrow(/expects 2/);
    expect(() => db.executeSync("MATCH (i:Item) CALL db.create.setNodeVectorProperty(i, 'v', ['a', 2])")).toThrow(/finite numbers/);
    // A failed query that created an index takes the index with it.
    expect(() => db.executeSync("CALL db.index.vector.createNodeIndex('gone', 'G', 'v', 2, 'cosine') WITH 1 AS x RETURN 1 / 0")).toThrow();
    expect(rows(db, 'SHOW VECTOR INDEXES').map((r) => r[0])).toEqual(['byProc']);
  });

  it('vector.similarity functions use Neo4j definitions', () => {
    const db = Database.openInMemory();
    const [[c, e, same, none]] = rows(db, 'RETURN vector.similarity.cosine([1, 0], [0, 1]), vector.similarity.euclidean([0, 0], [1, 1]), vector.similarity.cosine([2, 0], [1, 0]), vector.similarity.cosine(null, [1])');
    expect([c, e, same, none]).toEqual([0.5, 1 / 3, 1, null]);
    // Same direction, different lengths: exactly 1 (and exactly 0 for opposite directions).
    expect(rows(db, 'RETURN vector.similarity.cosine([1, 2], [2, 4]), vector.similarity.cosine([3, 1, 2], [6, 2, 4]), vector.similarity.cosine([1, 2], [-2, -4])')).toEqual([[1, 1, 0]]);
    expect(() => db.executeSync('RETURN vector.similarity.cosine([1, 0], [1, 0, 0])')).toThrow(/equal dimension/);
    expect(() => db.executeSync("RETURN vector.similarity.euclidean([1, 'a'], [1, 0])")).toThrow(/finite numbers/);
  });
});

describe('through HTTP', () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    const db = Database.openInMemory();
    server = await startHttpServer(db, { port: 0, log: () => undefined });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
  });
  const post = async (body: string): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${base}/query`, { method: 'POST', body });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  it('creates, fills, queries and reports errors', async () => {
    expect((await post(DDL)).status).toBe(200);
    expect((await post("CREATE (:Doc {i: 1, emb: [1.0, 0.0, 0.0]}), (:Doc {i: 2, emb: [0.0, 1.0, 0.0]})")).status).toBe(200);
    const r = await post("CALL db.index.vector.queryNodes('docs', 1, [0.1, 1, 0]) YIELD node, score RETURN node.i AS i");
    expect(r.json).toEqual({ columns: ['i'], rows: [{ i: '2' }] });
    const show = await post('SHOW VECTOR INDEXES');
    expect((show.json.rows as Record<string, string>[])[0].name).toBe('docs');
    const bad = await post("CALL db.index.vector.queryNodes('docs', 1, [1, 0]) YIELD node RETURN node");
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ error: true, code: 'ARGUMENT_ERR' });
  });
});

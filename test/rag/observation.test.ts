/**
 * Observation classes through the query language: defaults, the write-path check on every
 * kind of write (CREATE, SET, MERGE, map SET, procedures, explicit transactions, bulk
 * transactions), the reading functions, the summary, and inferred facts explained back to
 * their evidence.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';
import { ObservationValueError } from '../../src/observation/model.js';

function rows(db: Database, q: string, params?: Record<string, unknown>): Record<string, unknown>[] {
  const r = db.executeSync(q, params);
  return r.records.map((rec) => Object.fromEntries(r.columns.map((c, i) => [c, rec[i]])));
}

function plain(v: unknown): unknown {
  return typeof v === 'object' && v !== null && 'value' in v ? (v as { value: unknown }).value : v;
}

function rejects(db: Database, q: string, detail: string, params?: Record<string, unknown>): void {
  let caught: unknown;
  try {
    db.executeSync(q, params);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ObservationValueError);
  const e = caught as GraphDbError;
  expect(e.code).toBe('CONSTRAINT_ERR');
  expect(e.detail).toBe(detail);
}

describe('observation classes', () => {
  it('reads absent properties as observed with confidence 1.0', () => {
    const db = Database.openInMemory();
    const [r] = rows(db, `CREATE (n:Fact {name: 'x'}) RETURN graphdb.observation.class(n) AS c, graphdb.observation.confidence(n) AS k, graphdb.observation.source(n) AS s`);
    expect(r.c).toBe('observed');
    expect(plain(r.k)).toBe(1);
    expect(r.s).toBeNull();
  });

  it('reads class, confidence and provenance from nodes, relationships and maps', () => {
    const db = Database.openInMemory();
    const [r] = rows(
      db,
      `CREATE (a)-[r:R {observation_class: 'predicted', confidence: 0.25, source: 'model-7'}]->(b)
       RETURN graphdb.observation.class(r) AS c, graphdb.observation.confidence(r) AS k, graphdb.observation.source(r) AS s,
              graphdb.observation.class({observation_class: 'inferred'}) AS m, graphdb.observation.class(null) AS n`,
    );
    expect(r).toMatchObject({ c: 'predicted', s: 'model-7', m: 'inferred', n: null });
    expect(plain(r.k)).toBe(0.25);
  });

  it('rejects an unknown class or an out-of-range confidence on every write path, leaving nothing behind', () => {
    const db = Database.openInMemory();
    rejects(db, `CREATE (:F {observation_class: 'guessed'})`, 'InvalidObservationClass');
    rejects(db, `CREATE (:F {observation_class: 'Observed'})`, 'InvalidObservationClass');
    rejects(db, `CREATE (:F {confidence: 1.5})`, 'InvalidConfidence');
    rejects(db, `CREATE (:F {confidence: -0.01})`, 'InvalidConfidence');
    rejects(db, `CREATE (:F {confidence: '0.5'})`, 'InvalidConfidence');
    rejects(db, `CREATE (:F {confidence: $c})`, 'InvalidConfidence', { c: Number.NaN });
    rejects(db, `CREATE ()-[:R {confidence: 2}]->()`, 'InvalidConfidence');
    db.executeSync(`CREATE (:F {name: 'ok', confidence: 0.5})`);
    rejects(db, `MATCH (n:F) SET n.confidence = 7`, 'InvalidConfidence');
    rejects(db, `MATCH (n:F) SET n += {observation_class: 'maybe'}`, 'InvalidObservationClass');
    rejects(db, `MATCH (n:F) SET n = {observation_class: 3}`, 'InvalidObservationClass');
    rejects(db, `MERGE (n:G {k: 1}) ON CREATE SET n.confidence = 9`, 'InvalidConfidence');
    rejects(db, `MATCH (n:F) CALL apoc.create.setProperty(n, 'confidence', 3) YIELD node RETURN node`, 'InvalidConfidence');
    rejects(db, `UNWIND range(1, 100) AS i CREATE (:Many {i: i, confidence: CASE WHEN i = 100 THEN 1.01 ELSE 0.5 END})`, 'InvalidConfidence');
    expect(rows(db, 'MATCH (n) RETURN count(n) AS n')[0].n).toBe(1);
    expect(plain(rows(db, 'MATCH (n:F) RETURN n.confidence AS c')[0].c)).toBe(0.5);
    // Removing a key is always allowed; the edges of the range are inside it.
    db.executeSync(`MATCH (n:F) SET n.confidence = null, n.observation_class = 'inferred'`);
    db.executeSync(`CREATE (:E {confidence: 0}), (:E {confidence: 1}), (:E {confidence: 1.0})`);
    // \`source\` is a common property name (edge lists): any value is kept; a non-string reads as no provenance.
    const [r] = rows(db, `CREATE (n:E {source: 12}) RETURN graphdb.observation.source(n) AS s`);
    expect(r.s).toBeNull();
  });

  it('checks explicit transactions and bulk write transactions at commit', async () => {
    const db = Database.openInMemory();
    await expect(
      db.executeInTransaction([{ query: `CREATE (:T {confidence: 0.4})` }, { query: `CREATE (:T {confidence: 4})` }], { commit: true }),
    ).rejects.toBeInstanceOf(ObservationValueError);
    expect(() => db.writeTransaction((g) => g.createNode(['T'], new Map([['observation_class', 'nope']])))).toThrow(ObservationValueError);
    expect(rows(db, 'MATCH (n) RETURN count(n) AS n')[0].n).toBe(0);
  });

  it('lists the classes and summarises counts per class, label and type', () => {
    const db = Database.openInMemory();
    expect(rows(db, 'CALL graphdb.observation.classes() YIELD class, isDefault RETURN class, isDefault')).toEqual([
      { class: 'observed', isDefault: true },
      { class: 'inferred', isDefault: false },
      { class: 'predicted', isDefault: false },
    ]);
    db.executeSync(`CREATE (a:P {confidence: 0.5}), (b:P {observation_class: 'predicted', confidence: 0.2}), (c:P), (a)-[:K {observation_class: 'inferred'}]->(b)`);
    const summary = rows(db, 'CALL graphdb.observation.summary() YIELD entityType, name, observationClass, count, averageConfidence RETURN *');
    expect(summary.map((r) => [r.entityType, r.name, r.observationClass, r.count, plain(r.averageConfidence)])).toEqual([
      ['node', 'P', 'observed', 2, 0.75],
      ['node', 'P', 'predicted', 1, 0.2],
      ['relationship', 'K', 'inferred', 1, 1],
    ]);
  });

  it('keeps the evidence of an inferred fact and explains it back to observed facts', () => {
    const db = Database.openInMemory();
    db.executeSync(`
      CREATE (ann:Person {name: 'Ann'})-[:WORKS_AT {source: 'hr-2024'}]->(acme:Company {name: 'Acme'}),
             (acme)-[:LOCATED_IN {source: 'registry'}]->(:City {name: 'Oslo'})`);
    const [made] = rows(
      db,
      `MATCH (p:Person)-[w:WORKS_AT]->(c)-[l:LOCATED_IN]->(city)
       CALL graphdb.observation.infer(p, 'LIVES_NEAR', city, [w, l], {confidence: 0.7, rule: 'works-near-home'}) YIELD rel
       RETURN graphdb.observation.class(rel) AS c, graphdb.observation.confidence(rel) AS k, size(graphdb.observation.evidence(rel)) AS n`,
    );
    expect(made.c).toBe('inferred');
    expect(plain(made.k)).toBe(0.7);
    expect(made.n).toBe(2);
    const explained = rows(
      db,
      `MATCH ()-[r:LIVES_NEAR]->() CALL graphdb.observation.explain(r) YIELD depth, fact, observationClass, source, rule
       RETURN depth, type(fact) AS t, observationClass, source, rule ORDER BY depth, t`,
    );
    expect(explained).toEqual([
      { depth: 0, t: 'LIVES_NEAR', observationClass: 'inferred', source: null, rule: 'works-near-home' },
      { depth: 1, t: 'LOCATED_IN', observationClass: 'observed', source: 'registry', rule: null },
      { depth: 1, t: 'WORKS_AT', observationClass: 'observed', source: 'hr-2024', rule: null },
    ]);
    // Evidence that was deleted later is reported, not silently dropped.
    db.executeSync('MATCH ()-[l:LOCATED_IN]->() DELETE l');
    const [root] = rows(db, 'MATCH ()-[r:LIVES_NEAR]->() CALL graphdb.observation.explain(r) YIELD depth, missingEvidence WHERE depth = 0 RETURN missingEvidence');
    expect(root.missingEvidence).toHaveLength(1);
  });

  it('refuses an inference without evidence', () => {
    const db = Database.openInMemory();
    expect(() => db.executeSync(`CREATE (a), (b) WITH a, b CALL graphdb.observation.infer(a, 'R', b, []) YIELD rel RETURN rel`)).toThrow(/evidence/);
  });
});

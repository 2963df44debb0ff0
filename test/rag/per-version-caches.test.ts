/**
 * graph_rag's per-question savings (issue 32, latency): the value table (value-match.ts) is
 * read once per graph version, so it must follow every write, delete and rollback exactly as
 * the per-question column scan it replaces did; and ranking reads candidates in full only
 * until no unread one can reach the top k (rank.ts), so the top k must be the same whatever
 * k is asked for, trust order and recency included. A small graph of parcels and depots.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { valueTable } from '../../src/rag/value-match.js';

interface Row {
  name: string;
  score: number;
  observationClass: string;
}

function ask(db: Database, question: string, options: Record<string, unknown> = {}): Row[] {
  const r = db.executeSync('CALL graphdb.rag.retrieve($q, $o) YIELD name, score, observationClass RETURN *', { q: question, o: options });
  return r.records.map((rec) => Object.fromEntries(r.columns.map((c, i) => [c, rec[i]])) as unknown as Row);
}

/** The nodes the value seeds found, by name (explain's seeds.value step). */
function valueHits(db: Database, question: string): string[] {
  const r = db.executeSync("CALL graphdb.rag.explain($q, {sources: ['value']}) YIELD step, detail WHERE step = 'seeds.value' RETURN detail", { q: question });
  if (r.records.length === 0) return [];
  const detail = r.records[0][0] as Map<string, unknown>;
  return (detail.get('hits') as Map<string, unknown>[]).map((h) => String(h.get('name'))).sort();
}

describe('value table', () => {
  it('follows creates, changed values, deletes and rollbacks', async () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Parcel {name: 'Blue crate', tag: 'QZ-118'}), (:Parcel {name: 'Red crate', tag: 'QZ-200'}), (:Depot {name: 'Hollin', ref: 40417})");
    expect(valueHits(db, 'Where is parcel QZ-118?')).toEqual(['Blue crate']);
    expect(valueHits(db, 'Which depot is 40417?')).toEqual(['Hollin']);
    // The table was read at this version; a changed value must be seen at the next question.
    const before = valueTable(db.graph, () => undefined);
    expect(before?.get('qz-118')?.length).toBe(1);
    db.executeSync("MATCH (p:Parcel {name: 'Blue crate'}) SET p.tag = 'QZ-119'");
    expect(valueHits(db, 'Where is parcel QZ-118?')).toEqual([]);
    expect(valueHits(db, 'Where is parcel QZ-119?')).toEqual(['Blue crate']);
    db.executeSync("CREATE (:Parcel {name: 'Green crate', tag: 'qz-118 '})");
    expect(valueHits(db, 'Where is parcel QZ-118?')).toEqual(['Green crate']);
    db.executeSync("MATCH (p:Parcel {name: 'Green crate'}) DELETE p");
    expect(valueHits(db, 'Where is parcel QZ-118?')).toEqual([]);
    // A failed query changes nothing it wrote.
    expect(() => db.executeSync("MATCH (p:Parcel {name: 'Red crate'}) SET p.tag = 'QZ-118' WITH p RETURN 1 / 0")).toThrow();
    expect(valueHits(db, 'Where is parcel QZ-118?')).toEqual([]);
    expect(valueHits(db, 'Where is parcel QZ-200?')).toEqual(['Red crate']);
    // Inside a transaction the question sees its own write; after the rollback it is gone.
    const [seen] = await db
      .executeInTransaction(
        [
          { query: "MATCH (p:Parcel {name: 'Red crate'}) SET p.tag = 'QZ-777'" },
          { query: "CALL graphdb.rag.explain('parcel QZ-777', {sources: ['value']}) YIELD step, detail WHERE step = 'seeds.value' RETURN size(detail.hits) AS n" },
        ],
        { commit: false },
      )
      .then((rs) => rs.slice(1));
    expect(seen.records).toEqual([[1]]);
    expect(valueHits(db, 'parcel QZ-777')).toEqual([]);
    expect(valueHits(db, 'parcel QZ-200')).toEqual(['Red crate']);
  });

  it('is not rebuilt while the graph does not change', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Parcel {name: 'Blue crate', tag: 'QZ-118'})");
    const first = valueTable(db.graph, () => undefined);
    expect(valueTable(db.graph, () => undefined)).toBe(first);
    db.executeSync("CREATE (:Parcel {name: 'Red crate', tag: 'QZ-200'})");
    expect(valueTable(db.graph, () => undefined)).not.toBe(first);
  });
});

describe('bounded ranking', () => {
  it('returns the same top k whatever k is asked for, trust and recency included', () => {
    const db = Database.openInMemory();
    // A depot with many parcels: some predicted, some inferred with low confidence, some dated, so the trust term reorders
    // what relevance alone would rank the same.
    db.executeSync(`
      CREATE (d:Depot {name: 'Hollin'})
      WITH d
      UNWIND range(1, 60) AS i
      CREATE (p:Parcel {name: 'parcel ' + toString(i)})-[:STORED_AT {
        observation_class: CASE i % 3 WHEN 0 THEN 'predicted' WHEN 1 THEN 'observed' ELSE 'inferred' END,
        confidence: 0.3 + (i % 7) / 10.0,
        observed_at: CASE WHEN i % 4 = 0 THEN null ELSE '2024-01-' + toString(10 + i % 19) END
      }]->(d)
    `);
    const wide = ask(db, 'Which parcels are stored at Hollin?', { k: 100 });
    expect(wide.length).toBeGreaterThan(20);
    for (const k of [1, 3, 10, 20]) {
      const narrow = ask(db, 'Which parcels are stored at Hollin?', { k });
      expect(narrow.map((r) => [r.name, r.score, r.observationClass])).toEqual(wide.slice(0, k).map((r) => [r.name, r.score, r.observationClass]));
    }
    // The trust order holds among the returned: no predicted parcel above an observed one of the same relevance.
    const top = ask(db, 'Which parcels are stored at Hollin?', { k: 5 });
    expect(top.every((r) => r.observationClass !== 'predicted')).toBe(true);
  });
});

describe('explain budget', () => {
  it('says where the time went, stage by stage', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Parcel {name: 'Blue crate', tag: 'QZ-118'})-[:STORED_AT]->(:Depot {name: 'Hollin'})");
    const r = db.executeSync("CALL graphdb.rag.explain('Where is parcel QZ-118 stored?', {}) YIELD step, detail WHERE step = 'budget' RETURN detail");
    const detail = r.records[0][0] as Map<string, unknown>;
    const stages = detail.get('stageMs') as Map<string, number>;
    expect([...stages.keys()]).toEqual(expect.arrayContaining(['question', 'seeds.value', 'seeds.name', 'targets', 'expand', 'paths', 'rank']));
    const total = [...stages.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(Number(detail.get('elapsedMs')) + 1e-6);
  });
});

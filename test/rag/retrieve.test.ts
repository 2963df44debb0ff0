/**
 * graph_rag's pipeline through the query language (`graphdb.rag.retrieve` /
 * `graphdb.rag.explain`): seeds from names, full-text and vector indexes fused; expansion;
 * schema-aware answers (the answer ranks above the seed it was found from); trust ranking
 * (predicted never above observed at equal relevance); conflicts marked; options checked;
 * hostile questions (huge, control characters, injection) handled as data.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';

interface Row {
  rank: number;
  name: string;
  confidence: unknown;
  observationClass: string;
  note: string;
  evidence: string[];
  conflict: boolean;
}

function retrieve(db: Database, question: string, options: Record<string, unknown> = {}): Row[] {
  const r = db.executeSync(
    'CALL graphdb.rag.retrieve($q, $o) YIELD rank, name, confidence, observationClass, note, evidence, conflict RETURN *',
    { q: question, o: options },
  );
  return r.records.map((rec) => Object.fromEntries(r.columns.map((c, i) => [c, rec[i]])) as unknown as Row);
}

function num(v: unknown): number {
  return typeof v === 'object' && v !== null && 'value' in v ? Number((v as { value: unknown }).value) : Number(v);
}

function companyGraph(): Database {
  const db = Database.openInMemory();
  db.executeSync(`
    CREATE (ann:Person {name: 'Ann Lee', bio: 'Ann designs engines'}),
           (bob:Person {name: 'Bob Stone', bio: 'Bob sells pumps'}),
           (acme:Company {name: 'Acme', about: 'Acme builds engines and pumps'}),
           (globex:Company {name: 'Globex', about: 'Globex makes software'}),
           (oslo:City {name: 'Oslo', time_zone: 'Europe/Oslo'}),
           (ann)-[:WORKS_AT {source: 'hr'}]->(acme),
           (bob)-[:WORKS_AT {source: 'hr'}]->(globex),
           (acme)-[:LOCATED_IN]->(oslo),
           (globex)-[:LOCATED_IN]->(oslo)`);
  return db;
}

describe('graphdb.rag.retrieve', () => {
  it('ranks the entity the question asks for above the seed it was found from', () => {
    const db = companyGraph();
    const which = retrieve(db, 'Which company does Ann Lee work at?');
    expect(which[0].name).toBe('Acme');
    expect(which[0].note).toMatch(/WORKS_AT/);
    expect(which[0].note).toMatch(/seed: name #1/);
    expect(which[0].evidence[0]).toMatch(/^n:/);
    expect(which[0].evidence).toHaveLength(3);
    const who = retrieve(db, 'Who works at Globex?');
    expect(who[0].name).toBe('Bob Stone');
    const zone = retrieve(db, 'What time zone is Oslo in?');
    expect(zone[0].name).toBe('Europe/Oslo');
    expect(zone[0].note).toMatch(/^time_zone of 'Oslo'/);
  });

  it('fuses full-text and name seeds when a full-text index exists', () => {
    const db = companyGraph();
    db.executeSync('CREATE FULLTEXT INDEX about FOR (n:Company|Person) ON EACH [n.about, n.bio]');
    const rows = retrieve(db, 'builds pumps', { hops: 0 });
    // A "who" question asks for people: the person whose bio mentions pumps comes first.
    expect(retrieve(db, 'who sells pumps')[0].name).toBe('Bob Stone');
    expect(rows[0].name).toBe('Acme');
    expect(rows[0].note).toMatch(/fulltext #1 \(full-text index about\)/);
    // Lucene syntax in a question is just words: no parse error, no field query.
    expect(() => retrieve(db, 'about:"engines" AND (pumps OR ) ~ ^ * [')).not.toThrow();
  });

  it('seeds from a vector index with the question embedded by the default embedder', () => {
    const db = Database.openInMemory();
    db.executeSync(`UNWIND ['red apples and pears', 'fast cars and engines', 'quiet libraries with books'] AS t
                    CREATE (:Doc {text: t, embedding: genai.vector.encode(t)})`);
    db.executeSync("CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.embedding) OPTIONS {indexConfig: {`vector.dimensions`: 384}}");
    const explain = db.executeSync("CALL graphdb.rag.explain('books in a quiet library') YIELD step, detail RETURN step, detail");
    const steps = explain.records.map((r) => r[0]);
    expect(steps).toContain('seeds.vector');
    const rows = retrieve(db, 'books in a quiet library', { hops: 0 });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0].note).toMatch(/vector #1 \(vector index docs\)/);
  });

  it('never ranks a predicted answer above an observed one of equal relevance, whatever the confidences', () => {
    const db = Database.openInMemory();
    db.executeSync(`
      CREATE (p:Person {name: 'Kim'}),
             (p)-[:LIVES_IN {observation_class: 'predicted', confidence: 0.99, source: 'model'}]->(:City {name: 'Bergen'}),
             (p)-[:LIVES_IN {observation_class: 'observed', confidence: 0.3, source: 'census'}]->(:City {name: 'Tromso'}),
             (p)-[:LIVES_IN {observation_class: 'inferred', confidence: 1.0, source: 'rule'}]->(:City {name: 'Alta'})`);
    const rows = retrieve(db, 'Which city does Kim live in?');
    // A confident inference may beat a weakly confident observation; a prediction never beats an observation.
    expect(rows.slice(0, 3).map((r) => [r.name, r.observationClass])).toEqual([
      ['Alta', 'inferred'],
      ['Tromso', 'observed'],
      ['Bergen', 'predicted'],
    ]);
    const onlyTwo = retrieve(db, 'Which city does Kim live in?', { classWeights: { inferred: 0 } });
    expect(onlyTwo.findIndex((r) => r.name === 'Tromso')).toBeLessThan(onlyTwo.findIndex((r) => r.name === 'Bergen'));
    // Conflicting facts about the same thing are all shown and marked.
    for (const r of rows.slice(0, 3)) {
      expect(r.conflict).toBe(true);
      expect(r.note).toMatch(/conflicts with/);
    }
    expect(num(rows[2].confidence)).toBeCloseTo(0.99);
  });

  it('prefers the more recent of two equally trusted facts', () => {
    const db = Database.openInMemory();
    db.executeSync(`
      CREATE (p:Person {name: 'Sam'}),
             (p)-[:LIVES_IN {observed_at: '2019-05-01', source: 'census-2019'}]->(:City {name: 'Narvik'}),
             (p)-[:LIVES_IN {observed_at: datetime('2024-02-01T00:00:00Z'), source: 'census-2024'}]->(:City {name: 'Bodo'})`);
    const rows = retrieve(db, 'Which city does Sam live in?');
    expect(rows.slice(0, 2).map((r) => r.name)).toEqual(['Bodo', 'Narvik']);
    expect(rows[0].conflict).toBe(true);
  });

  it('takes relationship weights, hop and size bounds', () => {
    const db = companyGraph();
    const none = retrieve(db, 'Which company does Ann Lee work at?', { relWeights: { WORKS_AT: 0 } });
    expect(none.map((r) => r.name)).not.toContain('Acme');
    expect(retrieve(db, 'Ann Lee', { hops: 0 }).map((r) => r.name)).toEqual(['Ann Lee']);
    expect(retrieve(db, 'Oslo', { k: 2 })).toHaveLength(2);
    // Without schema targets the seed comes first; a source with nothing to search finds nothing.
    expect(retrieve(db, 'Which company does Ann Lee work at?', { targets: false })[0].name).toBe('Ann Lee');
    expect(retrieve(db, 'Ann Lee', { sources: ['vector'] })).toEqual([]);
    expect(retrieve(db, 'Ann Lee', { sources: ['text'], hops: 0 })[0].note).toMatch(/seed: text #1/);
    for (const bad of [{ k: 0 }, { k: 101 }, { hops: 9 }, { fanout: 0 }, { deadline: 0 }, { colour: 1 }, { classWeights: { guessed: 1 } }, { relWeights: { R: -1 } }, { sources: ['web'] }, { sources: [] }, { targets: 'yes' }]) {
      expect(() => retrieve(db, 'Oslo', bad)).toThrow(/option/);
    }
  });

  it('treats hostile questions as data', () => {
    const db = companyGraph();
    const before = db.executeSync('MATCH (n) RETURN count(n)').records[0][0];
    const hostile = [
      "Oslo'}) DETACH DELETE n //",
      'Oslo\') MATCH (n) DETACH DELETE n RETURN 1 //',
      '$q } ] ) ; CALL db.clearQueryCaches()',
      'Oslo\u0000\u0001\u0007\u001b[31m\u202e\ufeff',
      'x'.repeat(2_000_000) + ' Oslo',
      '',
      '   \n\t  ',
      '\ud800 broken surrogate Oslo',
    ];
    for (const q of hostile) expect(() => retrieve(db, q)).not.toThrow();
    expect(retrieve(db, 'Oslo\u0000\u0007 time zone')[0].name).toBe('Europe/Oslo');
    expect(db.executeSync('MATCH (n) RETURN count(n)').records[0][0]).toBe(before);
    const [analysed] = db.executeSync("CALL graphdb.rag.explain($q) YIELD step, detail WHERE step = 'question' RETURN detail", { q: 'y'.repeat(10_000) }).records;
    expect((analysed[0] as Map<string, unknown>).get('truncated')).toBe(true);
    expect(() => db.executeSync('CALL graphdb.rag.retrieve(42)')).toThrow(/must be of type STRING/);
  });

  it('stays within its deadline on a larger graph and reports skipped stages', () => {
    const db = Database.openInMemory();
    db.executeSync(`UNWIND range(1, 3000) AS i CREATE (:Item {name: 'item ' + i, text: 'common words here ' + i})`);
    db.executeSync(`MATCH (b:Item {name: 'item 1'}) MATCH (a:Item) WHERE a <> b CREATE (a)-[:NEAR]->(b)`);
    const rows = retrieve(db, 'item 1 common words', { fanout: 1000, hops: 4 });
    expect(rows.length).toBeLessThanOrEqual(10);
    expect(rows[0].name).toBe('item 1');
    const [budget] = db.executeSync("CALL graphdb.rag.explain('item 1 common words', {deadline: 1}) YIELD step, detail WHERE step = 'budget' RETURN detail").records;
    expect(Array.isArray((budget[0] as Map<string, unknown>).get('skipped'))).toBe(true);
  });
});

/**
 * graph_rag's general reading of paraphrases (issue 32, after a third development domain):
 * agent and action nouns meet their verb (director ~ DIRECTED_BY), noun synonyms name a label
 * (physician → :Doctor), a late question word past a classifier ("is on which body of water"),
 * lexicon phrases read as one ("head office"), a question word counted once along a path, a
 * seed the chain was walked from not taken for the answer, loose text hits kept below an exact
 * name, a name inside a longer name not taken for a second entity, and a value's key words not
 * read as a relation. Through the query language, on a small graph of its own vocabulary.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';

function clinics(): Database {
  const db = Database.openInMemory();
  db.executeSync(`
    CREATE (marlow:Town {name: 'Marlow'}), (brookside:Town {name: 'Brookside'}),
           (teme:River {name: 'Teme River'}), (avon:River {name: 'Avon River'}), (:River {name: 'Wye River'}),
           (marlow)-[:SITS_ON]->(teme), (brookside)-[:SITS_ON]->(avon),
           (c1:Clinic {name: 'Brookside Clinic', visit_code: 'VC-881'})-[:HEADQUARTERED_IN]->(marlow),
           (c2:Clinic {name: 'Elm Clinic', visit_code: 'VC-882'})-[:HEADQUARTERED_IN]->(brookside),
           (vera:Doctor {name: 'Vera Holt'}), (omar:Doctor {name: 'Omar Lind'}), (pia:Doctor {name: 'Pia Sand'}),
           (c1)-[:DIRECTED_BY]->(vera), (c2)-[:DIRECTED_BY]->(omar),
           (c1)-[:DIRECTED_BY {observation_class: 'predicted', confidence: 0.99, source: 'model'}]->(pia),
           (vera)-[:VISITS]->(c2), (omar)-[:VISITS]->(c1), (pia)-[:VISITS]->(c1)`);
  return db;
}

function ask(db: Database, question: string): { name: string; note: string }[] {
  return db
    .executeSync('CALL graphdb.rag.retrieve($q, {k: 5}) YIELD name, note RETURN name, note', { q: question })
    .records.map((r) => ({ name: String(r[0]), note: String(r[1]) }));
}

function step(db: Database, question: string, name: string): Map<string, unknown> {
  const rows = db.executeSync('CALL graphdb.rag.explain($q) YIELD step, detail WHERE step = $s RETURN detail', { q: question, s: name }).records;
  return (rows[0]?.[0] ?? new Map()) as Map<string, unknown>;
}

describe('graph_rag reads paraphrases by general rules', () => {
  it('an agent noun meets its verb, and a fragment naming the seed does not answer with the seed', () => {
    const db = clinics();
    const a = ask(db, 'the director of Brookside Clinic');
    expect(a[0].name).toBe('Vera Holt');
    expect(a[0].note).toMatch(/path 'Brookside Clinic' -\[:DIRECTED_BY\]-> 'Vera Holt'/);
    // The predicted director stays below the observed one.
    expect(a.findIndex((r) => r.name === 'Pia Sand')).toBeGreaterThan(0);
    // "Brookside" inside "Brookside Clinic" is not a second seed (the town of that name).
    const names = ((step(db, 'the director of Brookside Clinic', 'seeds.name').get('hits') ?? []) as Map<string, unknown>[]).map((h) => h.get('name'));
    expect(names).toEqual(['Brookside Clinic']);
  });

  it('a noun synonym names the label asked for and a verb synonym the relation', () => {
    const db = clinics();
    expect(ask(db, 'Which physician runs Elm Clinic?')[0].name).toBe('Omar Lind');
    const targets = step(db, 'Which physician runs Elm Clinic?', 'targets');
    expect(targets.get('labels')).toEqual(['Doctor']);
  });

  it('reads a question word late in the question, past "body of", and keeps loose text hits below the named entity', () => {
    const db = clinics();
    expect(ask(db, 'Marlow is on which body of water?')[0].name).toBe('Teme River');
    // "river" matches every river's name by text; the exact name Brookside anchors the question.
    expect(ask(db, 'Which river does Brookside lie on?')[0].name).toBe('Avon River');
  });

  it('reads "head office" as one phrase and counts it once along a path', () => {
    const db = clinics();
    const a = ask(db, 'Where is the head office of Elm Clinic?');
    expect(a[0].name).toBe('Brookside');
    const relations = (step(db, 'Where is the head office of Elm Clinic?', 'paths').get('relations') ?? []) as Map<string, unknown>[];
    expect(relations.find((r) => r.get('type') === 'HEADQUARTERED_IN')?.get('word')).toBe('head office');
    // "head" alone would have read as "manage" (DIRECTED_BY): it is not a relation phrase here.
    expect(relations.some((r) => r.get('type') === 'DIRECTED_BY' && r.get('by') !== 'endpoint')).toBe(false);
  });

  it("a value's key words and a closing 'called' are not relation phrases", () => {
    const db = clinics();
    expect(ask(db, 'Which clinic has visit code VC-882?')[0].name).toBe('Elm Clinic');
    expect(ask(db, 'VC-881: what is the clinic called?')[0].name).toBe('Brookside Clinic');
    const relations = (step(db, 'Which clinic has visit code VC-882?', 'paths').get('relations') ?? []) as Map<string, unknown>[];
    expect(relations.some((r) => r.get('type') === 'VISITS' && r.get('by') !== 'endpoint')).toBe(false);
  });
});

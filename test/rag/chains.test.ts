/**
 * graph_rag's relation chains (issue 32, follow-up), through the query language: relative
 * clauses ("the firm whose garage X is assigned to"), possessive chains ("X's garage belongs
 * to…"), a schema abbreviation read in full (`HQ_IN` ~ "headquartered", "head office"), a
 * doubled consonant in an inflection ("running" ~ `run_by`), "next to" and "pass through",
 * the asked label deciding where a chain stops, a noun phrase naming one hop, and dates
 * written in words. A small bus-company graph of its own vocabulary, with one predicted
 * distractor for the trust order.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';

interface Row {
  name: string;
  note: string;
  observationClass: string;
}

let db: Database;

function ask(question: string, options: Record<string, unknown> = {}): Row[] {
  const r = db.executeSync('CALL graphdb.rag.retrieve($q, $o) YIELD name, note, observationClass RETURN *', { q: question, o: options });
  return r.records.map((rec) => Object.fromEntries(r.columns.map((c, i) => [c, rec[i]])) as unknown as Row);
}

function explain(question: string): Map<string, Map<string, unknown>> {
  const r = db.executeSync('CALL graphdb.rag.explain($q, {}) YIELD step, detail RETURN step, detail', { q: question });
  return new Map(r.records.map((rec) => [String(rec[0]), rec[1] as Map<string, unknown>]));
}

beforeAll(() => {
  db = Database.openInMemory();
  db.executeSync(`
    CREATE (orrin:Town {name: 'Orrin'}), (pellow:Town {name: 'Pellow'}), (quist:Town {name: 'Quist'}), (marl:Town {name: 'Marl'}),
           (tarn:Firm {name: 'Tarn Coaches'})-[:HQ_IN]->(orrin),
           (vell:Firm {name: 'Vell Transit'})-[:HQ_IN]->(pellow),
           (east:Garage {name: 'East Shed', opened: date('1998-03-14')})-[:ownedBy]->(tarn),
           (west:Garage {name: 'West Shed', opened: date('2004-11-02')})-[:ownedBy]->(vell),
           (s1:Stop {name: 'Mill Lane'})-[:inTown]->(quist), (s2:Stop {name: 'Fair Green'})-[:inTown]->(marl),
           (s3:Stop {name: 'Kiln Row'})-[:inTown]->(orrin),
           (east)-[:adjacent_to]->(s1), (west)-[:adjacent_to]->(s2),
           (comet:Bus {name: 'Blue Comet'})-[:assignedTo]->(east),
           (comet)-[:assignedTo {observation_class: 'predicted', confidence: 0.98, source: 'planner'}]->(west),
           (:Bus {name: 'Red Heron'})-[:assignedTo]->(west),
           (loop:Route {name: 'Harbour Loop'})-[:run_by]->(tarn),
           (loop)-[:SERVES]->(s1), (loop)-[:SERVES]->(s2), (loop)-[:SERVES]->(s3),
           (:Route {name: 'Moor Express'})-[:run_by]->(vell)`);
});

afterAll(() => db.close());

describe('relation chains', () => {
  it('reads an abbreviated type in full: "headquartered" meets HQ_IN, through the firm that runs a route', () => {
    const rows = ask('Where is the firm that runs the Harbour Loop headquartered?');
    expect(rows[0].name).toBe('Orrin');
    expect(rows[0].note).toMatch(/path 'Harbour Loop' -\[:run_by\]-> 'Tarn Coaches' -\[:HQ_IN\]-> 'Orrin' \(2 hops, coverage 1\)/);
  });

  it('undoes a doubled consonant ("running" ~ run_by) and reads "head office" as the HQ', () => {
    expect(ask('In which town does the company running the Moor Express have its head office?')[0].name).toBe('Pellow');
  });

  it('follows a possessive chain: "belongs to" reads as ownership, observed before predicted', () => {
    const rows = ask("Blue Comet's garage belongs to which company?");
    expect(rows[0].name).toBe('Tarn Coaches');
    expect(rows[0].observationClass).toBe('observed');
    expect(rows[0].note).toMatch(/path 'Blue Comet' -\[:assignedTo\]-> 'East Shed' -\[:ownedBy\]-> 'Tarn Coaches'/);
    const vell = rows.findIndex((r) => r.name === 'Vell Transit');
    if (vell >= 0) expect(rows[vell].observationClass).toBe('predicted');
  });

  it('walks a relative clause of three hops through the label it mentions ("whose garage")', () => {
    const question = 'In which town is the head office of the firm whose garage Blue Comet is assigned to?';
    const rows = ask(question);
    expect(rows[0].name).toBe('Orrin');
    expect(rows[0].note).toMatch(/path 'Blue Comet' -\[:assignedTo\]-> 'East Shed' -\[:ownedBy\]-> 'Tarn Coaches' -\[:HQ_IN\]-> 'Orrin' \(3 hops/);
    // The stop's town (reached past the garage's neighbour) is not the answer.
    expect(rows[0].name).not.toBe('Quist');
    const paths = explain(question).get('paths');
    const chosen = paths?.get('chosen') as Map<string, unknown>;
    expect(chosen.get('path')).toBe("'Blue Comet' -[:assignedTo]-> 'East Shed' -[:ownedBy]-> 'Tarn Coaches' -[:HQ_IN]-> 'Orrin'");
    expect(Number(chosen.get('coverage'))).toBe(1);
  });

  it('stops at the asked label: "next to" names adjacent_to and the stop is the answer, not its town', () => {
    const rows = ask('What stop is the garage of Blue Comet next to?');
    expect(rows[0].name).toBe('Mill Lane');
    expect(rows[0].note).toMatch(/-\[:adjacent_to\]-> 'Mill Lane' \(2 hops, coverage 1\)/);
  });

  it('lists the towns a route passes through ("pass through" ~ SERVES, then the stop\'s town)', () => {
    const names = ask('Which towns does the Harbour Loop pass through?', { k: 5 }).map((r) => r.name);
    expect(names.slice(0, 3).sort()).toEqual(['Marl', 'Orrin', 'Quist']);
  });

  it('reads a noun phrase as one hop: "head office location" is the HQ, not the towns beyond it', () => {
    const rows = ask('Give me the head office location of Vell Transit');
    expect(rows[0].name).toBe('Pellow');
    expect(rows[0].note).toMatch(/path 'Vell Transit' -\[:HQ_IN\]-> 'Pellow' \(1 hop, coverage 1\)/);
  });
});

describe('a possessive', () => {
  it('ends a name: "Blue Comet\'s garage" does not name a node called "Comet Garage"', () => {
    const other = Database.openInMemory();
    try {
      other.executeSync(`CREATE (tarn:Firm {name: 'Tarn Coaches'}), (vell:Firm {name: 'Vell Transit'}),
        (:Bus {name: 'Blue Comet'})-[:assignedTo]->(:Garage {name: 'East Shed'})-[:ownedBy]->(tarn),
        (:Garage {name: 'Comet Garage'})-[:ownedBy]->(vell)`);
      const r = other.executeSync('CALL graphdb.rag.retrieve($q, {}) YIELD name RETURN name', { q: "Blue Comet's garage belongs to which company?" });
      expect(r.records[0][0]).toBe('Tarn Coaches');
      const seeds = other.executeSync("CALL graphdb.rag.explain($q, {}) YIELD step, detail WHERE step = 'seeds.name' RETURN detail", { q: "Blue Comet's garage belongs to which company?" });
      const hits = (seeds.records[0][0] as Map<string, unknown>).get('hits') as Map<string, unknown>[];
      expect(hits.map((h) => h.get('name'))).toEqual(['Blue Comet']);
    } finally {
      other.close();
    }
  });
});

describe('a gerund before a noun', () => {
  it('modifies the noun: "stopping firms" names neither :Stop nor a relation', () => {
    const question = 'Which stopping firms are headquartered in Orrin?';
    expect(ask(question)[0].name).toBe('Tarn Coaches');
    const targets = explain(question).get('targets');
    expect(targets?.get('labels')).toEqual(['Firm']);
    expect(targets?.get('types')).toEqual(['HQ_IN']);
  });
});

describe('a verb the schema does not know', () => {
  it('reads the entity after "at" as the object: what points into it ranks first', () => {
    const rows = ask('What is parked at East Shed?');
    expect(rows[0].name).toBe('Blue Comet');
    expect(rows[0].note).toMatch(/1 hop from 'East Shed' <-\[:assignedTo\]-/);
    // Without the preposition the seed is the subject and nothing is marked down.
    expect(ask('What does East Shed belong to?')[0].name).toBe('Tarn Coaches');
  });
});

describe('dates written in words', () => {
  it('finds the entity holding a date written as "14 March 1998" or "November 2nd, 2004"', () => {
    expect(ask('Which garage opened on 14 March 1998?')[0].name).toBe('East Shed');
    expect(ask('Which garage was opened on November 2nd, 2004?')[0].name).toBe('West Shed');
    const values = explain('Which garage opened on the 14th of March, 1998?').get('values');
    expect(values?.get('candidates')).toEqual(['1998-03-14']);
  });
});

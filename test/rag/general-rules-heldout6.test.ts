/**
 * graph_rag's general rules added after the sixth held-out domain (observational astronomy)
 * showed their causes, each tested here on a small graph of its own vocabulary (reports and
 * archives, beacons, guilds, shifts and inspectors, expeditions and navigators, boatyards, masts
 * and broadcasters), through the query language:
 *
 * - a quoted name is looked up whole, however many words it has (a title of eleven words);
 * - value-like tokens (digits or capitals) written one after another, a space and maybe a sign
 *   apart, are sought as one value too ("5133N 00412W", "ISAN 0000-…", "WW PAB");
 * - "abbreviated" is a naming word: the capitalised run after it is a value ("abbreviated WvG");
 * - a two-letter acronym the question writes in capitals names a type that spells it (`hasQA`);
 * - a question word closing the question ("… guided by whom?") asks as an opening one does, and
 *   "who" with nothing else to go by prefers a label of people: an agent noun whose nodes carry
 *   personal names (person-labels.ts);
 * - an irregular past form meets its verb ("built" ~ `BUILDS`);
 * - a fragment asks for the label its noun phrase's head names ("X's home **academy**"), not one a
 *   modifier before it names ("home" ~ reside, a `:Residence`), nor one its opening imperative
 *   spells ("**Look** up …");
 * - "where" asks for a place: a label the question names that is no place is a step on the way;
 * - "which exhibition…" asks for the exhibition, not for a key spelt with its word
 *   (`exhibitionCode`) that the asked words only resemble by embedding.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { agentPersonLabels } from '../../src/rag/person-labels.js';
import { stem, typeAcronyms } from '../../src/rag/relation-match.js';
import { valueCandidates } from '../../src/rag/value-match.js';
import { ask, note } from './rule-answers.js';

function world(): Database {
  const db = Database.openInMemory();
  db.executeSync(`
    CREATE (elm:Town {name: 'Elmton'}), (ash:Town {name: 'Ashby'}),
           (a1:Archive {name: 'County Archive'}), (a2:Archive {name: 'Harbour Archive'}),
           (r1:Report {name: 'A Long Study of Quiet Rivers and Their Banks in Early Spring'})-[:filed_with]->(a1),
           (r2:Report {name: 'Quiet Rivers'})-[:filed_with]->(a2),
           (:Beacon {name: 'North Beacon', grid: '5133N 00412W'}), (:Beacon {name: 'South Beacon', grid: '5021N 00355W'}),
           (:Port {name: 'Quillhaven', locode: 'WW PAB'}), (:Port {name: 'Brightmouth', locode: 'WW QRT'}),
           (:Guild {name: 'Weavers Guild', short_form: 'WvG'}), (:Guild {name: 'Dyers Guild', short_form: 'DyG'}),
           (s:Shift {name: 'Night Shift 7'}), (zed:Inspector {name: 'Zed Frost'}), (bo:Inspector {name: 'Bo Hale'}),
           (s)-[:hasQA]->(zed), (s)-[:supervisedBy]->(bo), (:Shift {name: 'Day Shift 2'})-[:supervisedBy]->(zed),
           (zoe:Navigator {name: 'Zoe Park'}), (zoe)-[:TRAINED_AT]->(:Academy {name: 'Sea Academy'}), (zoe)-[:sleeps_in]->(:Residence {name: 'Gull Cottage'}),
           (e:Expedition {name: 'Expedition 9'}), (e)-[:HAS_NAVIGATOR]->(zoe),
           (e)-[:usedVessel]->(:Boat {name: 'Albatross'}), (:Logbook {name: 'Blue Logbook', note: 'a look back at the voyage'})-[:covers]->(e),
           (:Logbook {name: 'Red Logbook', note: 'a look at the harbour'}),
           (:Navigator {name: 'Ian K. Rowe'}), (:Navigator {name: 'Mira Solt'}),
           (y:Yard {name: 'Kern Yard'}), (y)-[:BUILDS]->(:Boat {name: 'Osprey'}), (y)-[:REPAIRS]->(:Boat {name: 'Auk'}),
           (m:Mast {name: 'Mast 12'})-[:operated_by]->(b:Broadcaster {name: 'Vale Radio'})-[:based_in]->(elm),
           (:Mast {name: 'Mast 14'})-[:operated_by]->(b2:Broadcaster {name: 'Hill Radio'})-[:based_in]->(ash)`);
  return db;
}

describe('graph_rag general rules from the sixth held-out domain', () => {
  it('looks a quoted name up whole, however many words it has', () => {
    const db = world();
    try {
      // Eleven words: longer than any word run a question is cut into; the quotes make it one name.
      const q = 'Which archive was "A Long Study of Quiet Rivers and Their Banks in Early Spring" filed with?';
      expect(ask(db, q)[0]).toBe('County Archive');
      expect(note(db, q)).toMatch(/'A Long Study of Quiet Rivers and Their Banks in Early Spring' -\[:filed_with\]-> 'County Archive'/);
      // The name seed is the report, once; the short name inside the quotes is not a second entity.
      const seeds = db.executeSync("CALL graphdb.rag.explain($q, {}) YIELD step, detail WHERE step = 'seeds.name' RETURN detail", { q }).records[0][0] as Map<string, unknown>;
      expect((seeds.get('hits') as Map<string, unknown>[]).map((h) => h.get('name'))).toEqual(['A Long Study of Quiet Rivers and Their Banks in Early Spring']);
    } finally {
      db.close();
    }
  });

  it('seeks tokens with digits written together as one value, sign and all', () => {
    expect(valueCandidates('Which beacon stands at 5133N 00412W?').map((c) => c.text)).toContain('5133N 00412W');
    expect(valueCandidates('What is at 15h04m48s -84d55m56s?').map((c) => c.text)).toContain('15h04m48s -84d55m56s');
    // A word in capitals before the value joins it too, a key's name or part of the value ("ISAN 0000-…"); two capital words do.
    expect(valueCandidates('Look up ISAN 0000-8F2A-E3E7-0000-N').map((c) => c.text)).toEqual(['ISAN 0000-8F2A-E3E7-0000-N', 'ISAN', '0000-8F2A-E3E7-0000-N']);
    expect(valueCandidates('What city is LOCODE WW PAB?').map((c) => c.text)).toContain('WW PAB');
    // A date in words is still one date, not joined to what follows it.
    expect(valueCandidates('harvested on 7 May 1928 2 tonnes').map((c) => c.text)).not.toContain('1928 2');
    const db = world();
    try {
      expect(ask(db, 'Which beacon stands at 5133N 00412W?')[0]).toBe('North Beacon');
      expect(ask(db, 'beacon at 5021N -00355W')[0]).not.toBe('North Beacon');
      expect(ask(db, 'What port is LOCODE WW PAB?')[0]).toBe('Quillhaven');
    } finally {
      db.close();
    }
  });

  it('reads the capitalised run after "abbreviated" as a value', () => {
    expect(valueCandidates('Which guild is abbreviated WvG?').map((c) => c.text)).toContain('WvG');
    const db = world();
    try {
      expect(ask(db, 'Which guild is abbreviated WvG?')[0]).toBe('Weavers Guild');
      expect(ask(db, 'Which guild is abbreviated DyG?')[0]).toBe('Dyers Guild');
    } finally {
      db.close();
    }
  });

  it('matches a two-letter acronym in capitals to the type that spells it', () => {
    expect(typeAcronyms('hasQA')).toEqual(['qa']);
    expect(typeAcronyms('HAS_PI')).toEqual(['pi']);
    // Stop words and the abbreviations read in full are no acronyms.
    expect(typeAcronyms('LIES_IN')).toEqual([]);
    expect(typeAcronyms('HQ_IN')).toEqual([]);
    const db = world();
    try {
      // Both neighbours are inspectors; alphabetically Bo Hale would come first.
      expect(ask(db, 'Who was the QA on Night Shift 7?')[0]).toBe('Zed Frost');
      expect(note(db, 'Who was the QA on Night Shift 7?')).toMatch(/-\[:hasQA\]-> 'Zed Frost'/);
    } finally {
      db.close();
    }
  });

  it('asks "who" when the question ends with it, and prefers a label of people then', () => {
    const db = world();
    try {
      expect([...agentPersonLabels(db.graph)]).toEqual(['Inspector', 'Navigator']);
      // A boat, a logbook and a navigator are one hop away; "guided" names no type. Alphabetically the boat came first.
      expect(ask(db, 'Expedition 9 was guided by whom?')[0]).toBe('Zoe Park');
      expect(ask(db, 'Who guided Expedition 9?')[0]).toBe('Zoe Park');
      const detail = db.executeSync("CALL graphdb.rag.explain('Expedition 9 was guided by whom?', {}) YIELD step, detail WHERE step = 'targets' RETURN detail").records[0][0] as Map<string, unknown>;
      expect(detail.get('prefers')).toEqual(['Inspector', 'Navigator']);
    } finally {
      db.close();
    }
  });

  it('takes no label for people on its suffix alone: the names must read as personal names, the stem be a word', () => {
    const db = Database.openInMemory();
    try {
      db.executeSync(`CREATE (:Container {name: 'CX-1042'}), (:Container {name: 'CX-1043'}), (:Paper {name: 'Ann Lee'}), (:Paper {name: 'Bo Ek'}),
                             (:Counsellor {name: 'Dee Ray'}), (:Counsellor {name: 'Eli M. Ross'}), (:Monitor {name: 'Hall Monitor Display'}), (:Monitor {name: 'Room Monitor Display'})`);
      expect([...agentPersonLabels(db.graph)]).toEqual(['Counsellor']);
    } finally {
      db.close();
    }
  });

  it('meets an irregular past form with its verb', () => {
    expect(stem('built')).toBe(stem('builds'));
    expect(stem('written')).toBe(stem('writes'));
    expect(stem('led')).toBe(stem('leads'));
    // Forms that are other words too are left alone.
    expect(stem('found')).not.toBe(stem('find'));
    const db = world();
    try {
      expect(ask(db, 'What was built by Kern Yard?')[0]).toBe('Osprey');
    } finally {
      db.close();
    }
  });

  it("asks a fragment for the label its noun phrase's head names, not a modifier's", () => {
    const db = world();
    try {
      // "home" names :Residence (home ~ reside); "academy" is the head of "home academy".
      expect(ask(db, "Zoe Park's home academy")[0]).toBe('Sea Academy');
      expect(ask(db, "Zoe Park's home")[0]).toBe('Gull Cottage');
      // An opening imperative is the request's verb: "look" (which the logbooks' prose uses) names no label there.
      expect(ask(db, 'Look up grid 5133N 00412W')[0]).toBe('North Beacon');
    } finally {
      db.close();
    }
  });

  it('answers "which X" with the X, not with a key spelt with its word', () => {
    const db = Database.openInMemory();
    try {
      db.executeSync(`CREATE (t:Town {name: 'Elmton'}), (:Exhibition {name: 'Elmton Spring Show', exhibitionCode: 'ESF01'})-[:heldIn]->(t),
                             (:Exhibition {name: 'Elmton Wool Show', exhibitionCode: 'EWF02'})-[:heldIn]->(t), (:Exhibition {name: 'Ashby Show', exhibitionCode: 'ASF03'})`);
      // The built-in embedder finds "exhibition" near "exhibition code" by spelling: before, the codes answered first.
      const top = ask(db, 'Which exhibition is held in Elmton?').slice(0, 2).sort();
      expect(top).toEqual(['Elmton Spring Show', 'Elmton Wool Show']);
      const detail = db.executeSync("CALL graphdb.rag.explain('Which exhibition is held in Elmton?', {}) YIELD step, detail WHERE step = 'targets' RETURN detail").records[0][0] as Map<string, unknown>;
      expect(detail.get('properties')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('answers "where" with a place: the label named along the way is a step', () => {
    const db = world();
    try {
      const q = 'Where is the broadcaster that operates Mast 12?';
      expect(ask(db, q)[0]).toBe('Elmton');
      expect(note(db, q)).toMatch(/'Mast 12' -\[:operated_by\]-> 'Vale Radio' -\[:based_in\]-> 'Elmton'/);
    } finally {
      db.close();
    }
  });
});

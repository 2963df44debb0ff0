/**
 * graph_rag's general rules added after the fifth held-out domain (arable farming) and the
 * software domain's remaining misses showed their causes, each tested here on a small graph of
 * its own vocabulary (couriers, parcels, depots, inspectors, unions, wiki pages, editors,
 * kitchens, gardens, bands), through the query language; each test fails on the code before its
 * rule:
 *
 * - a word that says how many or how often ("every") is never a label's word, however often a
 *   label's prose repeats it;
 * - a noun after "its" in a label's prose ("speaks for its members") is what the node has, not
 *   its kind: it does not ask for that label;
 * - a word in one node of a label only is not the label's learnt word, however few its nodes;
 * - the words naming the key a question's value was found in ("whose licence number is …") ask
 *   for no label or property (the holder's own label aside);
 * - "who" with no label asked does not answer with a place or a time ("Who drives for X?" is
 *   not X's town);
 * - the word right after "who" is the question's verb: spelt as a label's noun ("who **gardens**
 *   the plot …" with a `:Garden` label) it names the relation, not that label; a label named by
 *   an agent or action noun of it ("who **verifies** …" → `:VerificationOffice`) is what is
 *   asked; so is a bare type word after a plural noun its verb ("which volunteers **garden** in …");
 * - a type joining a label to itself is walked the way the question's word order reads it ("what
 *   does X link to" / "what links to X", "X's manager" / "who does X manage");
 * - a plural asked for with no relation walked from the entity ("List the members of X", "X
 *   members") is answered from the types the entity has several of, not its single facts (its
 *   city); a plain search with a plural in it is not a question (retrieve.test.ts keeps that).
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { labelVocabulary } from '../../src/rag/label-vocabulary.js';
import { clauseDirection, possessiveOf } from '../../src/rag/relation-direction.js';
import { stem } from '../../src/rag/relation-match.js';
import { ask } from './rule-answers.js';

function depots(): Database {
  const db = Database.openInMemory();
  db.executeSync(`
    CREATE (elm:Town {name: 'Elmton'}), (ash:Town {name: 'Ashby'}),
           (north:Depot {name: 'North Depot'})-[:located_in]->(elm), (south:Depot {name: 'South Depot'})-[:located_in]->(ash),
           (:Inspector {name: 'Ada Frost', bio: 'checks the scales every month'})-[:works_in]->(elm),
           (:Inspector {name: 'Ben Okoro', bio: 'visits every depot twice a year'})-[:works_in]->(elm),
           (:Inspector {name: 'Cleo Hart', bio: 'reports every fault she finds'})-[:works_in]->(ash),
           (:Parcel {name: 'Parcel 101', note: 'boxed'})-[:SHIPPED_TO]->(north), (:Parcel {name: 'Parcel 102', note: 'crated'})-[:SHIPPED_TO]->(north),
           (u1:Union {name: 'Riverside Licence Holders', number: 'U-7781', about: 'speaks for its members at the depots'}),
           (u2:Union {name: 'Hillside Licence Holders', number: 'U-1204', about: 'speaks for its members at the depots'}),
           (:Courier {name: 'Dora Lind', licence_no: '551-203-QX'})-[:registered_with {confidence: 0.7}]->(u1), (:Courier {name: 'Eli Marsh', licence_no: '618-440-KT'})-[:registered_with {confidence: 0.7}]->(u2)`);
  return db;
}

function wiki(): Database {
  const db = Database.openInMemory();
  db.executeSync(`
    CREATE (home:Page {name: 'Home'}), (a:Page {name: 'Alpha'}), (b:Page {name: 'Beta'}), (c:Page {name: 'Gamma'}), (d:Page {name: 'Delta'}),
           (home)-[:linksTo]->(a), (home)-[:linksTo]->(b), (c)-[:linksTo]->(home), (d)-[:linksTo]->(home),
           (ann:Editor {name: 'Ann Lee'}), (bo:Editor {name: 'Bo Ek'}), (cy:Editor {name: 'Cy Dahl'}), (di:Editor {name: 'Di Moss'}), (eve:Editor {name: 'Eve Tan'}),
           (a)-[:EDITED_BY]->(ann), (b)-[:EDITED_BY]->(bo), (c)-[:EDITED_BY]->(cy), (d)-[:EDITED_BY]->(di), (home)-[:EDITED_BY]->(eve),
           (eve)-[:MANAGES]->(cy), (cy)-[:MANAGES]->(ann), (cy)-[:MANAGES]->(bo)`);
  return db;
}

function kitchens(): Database {
  const db = Database.openInMemory();
  db.executeSync(`
    CREATE (t:Town {name: 'Elmton'}), (o1:VerificationOffice {name: 'Food Standards North'}), (o2:VerificationOffice {name: 'Food Standards South'}),
           (ann:Chef {name: 'Ann Cole'}), (bo:Chef {name: 'Bo Hale'}),
           (k1:Kitchen {name: 'Kitchen Alpha'})-[:RUN_BY]->(ann), (k2:Kitchen {name: 'Kitchen Beta'})-[:RUN_BY]->(bo),
           (k1)-[:audited]->(o1), (k2)-[:audited]->(o2), (k1)-[:in_town]->(t), (k2)-[:in_town]->(t),
           (g1:Garden {name: 'Rose Court'}), (g2:Garden {name: 'Fern Yard'}), (:Shed {name: 'Shed 4'})-[:STANDS_IN]->(g1), (:Shed {name: 'Shed 5'})-[:STANDS_IN]->(g2),
           (g1)-[:GARDENED_BY]->(:Volunteer {name: 'Cy Dahl'}), (g2)-[:GARDENED_BY]->(:Volunteer {name: 'Di Moss'}), (g1)-[:in_town]->(t)`);
  return db;
}

describe('graph_rag general rules from the fifth held-out domain', () => {
  it("a word saying how often, repeated in a label's prose, does not ask for that label", () => {
    const db = depots();
    try {
      // Every inspector's bio says "every": read as the inspectors' word, the fragment asked for :Inspector (reached by the town).
      expect(new Set(ask(db, 'every parcel shipped to North Depot').slice(0, 2))).toEqual(new Set(['Parcel 101', 'Parcel 102']));
    } finally {
      db.close();
    }
  });

  it('a noun after "its" in a label\'s prose does not ask for that label', () => {
    const db = depots();
    try {
      expect(labelVocabulary(db.graph).get('Union')?.has(stem('members'))).toBe(false);
      // Every union's prose says "its members": read as the unions' word, "members" asked for :Union (the seed came first).
      expect(ask(db, 'List the members of Riverside Licence Holders')[0]).toBe('Dora Lind');
    } finally {
      db.close();
    }
  });

  it("a word in one node of a label only is not the label's learnt word", () => {
    const db = depots();
    try {
      // "scales" is in one of the three inspectors' bios: a third of the label's nodes, so it was the inspectors' word.
      const words = labelVocabulary(db.graph).get('Inspector');
      expect(words?.has(stem('scales'))).toBe(false);
      expect(words?.has(stem('every'))).toBe(false);
    } finally {
      db.close();
    }
  });

  it('the words naming the key a value was found in ask for no property of another entity', () => {
    const db = depots();
    try {
      // "licence" named :Union (by its nodes' names) and "number" the unions' `number`: Dora's union's number came first.
      expect(ask(db, 'Whose licence number is 551-203-QX?')[0]).toBe('Dora Lind');
      // A word of the key that names the holder's own label still does.
      expect(ask(db, 'Which union has the number U-1204?')[0]).toBe('Hillside Licence Holders');
    } finally {
      db.close();
    }
  });

  it('a who-question with no label asked does not answer with a place', () => {
    const db = depots();
    try {
      // "drives" names no relationship: the depot's town (confidence 1) came before its couriers (registered at 0.7).
      db.executeSync(`MATCH (d:Depot {name: 'South Depot'}) CREATE (:Courier {name: 'Fay Ng'})-[:registered_with {confidence: 0.7}]->(d),
        (:Courier {name: 'Gus Roy'})-[:registered_with {confidence: 0.7}]->(d)`);
      expect(new Set(ask(db, 'Who drives for South Depot?').slice(0, 2))).toEqual(new Set(['Fay Ng', 'Gus Roy']));
      const targets = db.executeSync("CALL graphdb.rag.explain('Who drives for South Depot?') YIELD step, detail WHERE step = 'targets' RETURN detail.ruledOut").records[0][0];
      expect(targets).toEqual(['Town', 'Depot']);
      // A question asking for a label keeps it, places included.
      expect(ask(db, 'Which town is South Depot located in?')[0]).toBe('Ashby');
    } finally {
      db.close();
    }
  });

  it('walks a type joining a label to itself the way the question reads it', () => {
    expect(clauseDirection(['what', 'does', 'home', 'link', 'to'], 'link', 'linksTo', ['home'])).toBe('out');
    expect(clauseDirection(['what', 'links', 'to', 'home'], 'links', 'linksTo', ['home'])).toBe('in');
    expect(clauseDirection(['the', 'dependents', 'of', 'x'], 'dependents', 'dependsOn', ['x'])).toBe('in');
    expect(clauseDirection(['the', 'dependencies', 'of', 'x'], 'dependencies', 'dependsOn', ['x'])).toBe('out');
    expect(clauseDirection(['pages', 'linked', 'to', 'by', 'home'], 'linked', 'linksTo', ['home'])).toBe('out');
    // A passive type name reads the other way round: "who manages X" is X's manager either way.
    expect(clauseDirection(['who', 'manages', 'x'], 'manages', 'MANAGED_BY', ['x'])).toBe('out');
    expect(clauseDirection(['cy', 'dahl', 'manager'], 'manager', 'MANAGES', ['cy', 'dahl'], possessiveOf("Cy Dahl's manager", ['cy', 'dahl']))).toBe('in');
    expect(possessiveOf('Cy Dahl’s manager', ['cy', 'dahl'])).toBe(true);
    expect(possessiveOf('Cy Dahls manager', ['cy', 'dahl'])).toBe(false);
    const db = wiki();
    try {
      // Walked both ways, the pages linking to Home ranked with those it links to.
      expect(new Set(ask(db, 'What does Home link to?').slice(0, 2))).toEqual(new Set(['Alpha', 'Beta']));
      expect(new Set(ask(db, 'What links to Home?').slice(0, 2))).toEqual(new Set(['Gamma', 'Delta']));
      expect(new Set(ask(db, 'Who edited the pages that Home links to?').slice(0, 2))).toEqual(new Set(['Ann Lee', 'Bo Ek']));
      expect(new Set(ask(db, 'Which pages link to pages edited by Eve Tan?').slice(0, 2))).toEqual(new Set(['Gamma', 'Delta']));
      expect(ask(db, 'Who manages Cy Dahl?')[0]).toBe('Eve Tan');
      expect(new Set(ask(db, 'Who does Cy Dahl manage?').slice(0, 2))).toEqual(new Set(['Ann Lee', 'Bo Ek']));
      expect(ask(db, "Cy Dahl's manager")[0]).toBe('Eve Tan');
    } finally {
      db.close();
    }
  });

  it('reads the word after "who" as the verb: a label spelt as it is not asked; an agent noun of it is', () => {
    expect(stem('verification')).toBe(stem('verifies'));
    expect(stem('certificate')).toBe(stem('certify'));
    const db = kitchens();
    try {
      // "verifies" names no type; the office is asked by its action noun ("verification") and reached by the schema's route.
      expect(ask(db, 'Who verifies Kitchen Alpha?')[0]).toBe('Food Standards North');
      // The farms-like mention ("the kitchens run by …") is a step, not a second label asked.
      expect(ask(db, 'Who verifies the kitchens run by Bo Hale?')[0]).toBe('Food Standards South');
      // "gardens" spelt the :Garden label, which was then asked for: the garden answered; as the verb it names GARDENED_BY.
      expect(ask(db, 'Who gardens the plot Shed 4 stands in?')[0]).toBe('Cy Dahl');
      // After a plural noun a bare type word is its verb ("volunteers garden in"): :Garden was asked with :Volunteer.
      expect(ask(db, 'Which volunteers garden in Elmton?')[0]).toBe('Cy Dahl');
    } finally {
      db.close();
    }
  });

  it('answers a plural with no walked relation from the types the entity has several of', () => {
    const db = Database.openInMemory();
    try {
      db.executeSync(`
        CREATE (owls:Band {name: 'The Owls'})-[:formed_in]->(:City {name: 'Leeds'}), (:Band {name: 'Red Kites'})-[:formed_in]->(:City {name: 'York'}),
               (:Musician {name: 'Ann Vale'})-[:plays_with {confidence: 0.8}]->(owls), (:Musician {name: 'Bo Sand'})-[:plays_with {confidence: 0.8}]->(owls),
               (:Musician {name: 'Cy Hart'})-[:plays_with {confidence: 0.8}]->(owls)`);
      // "members" names no type: the city (one, confidence 1) came before the three players (confidence 0.8).
      expect(new Set(ask(db, 'List the members of The Owls').slice(0, 3))).toEqual(new Set(['Ann Vale', 'Bo Sand', 'Cy Hart']));
      expect(new Set(ask(db, 'The Owls members').slice(0, 3))).toEqual(new Set(['Ann Vale', 'Bo Sand', 'Cy Hart']));
      // A singular asks for the one: the city still answers "Which city were The Owls formed in?".
      expect(ask(db, 'Which city were The Owls formed in?')[0]).toBe('Leeds');
    } finally {
      db.close();
    }
  });
});

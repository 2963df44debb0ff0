/**
 * `Graph.bulkLoad` (the path a data directory opens through) must give the graph that the
 * same history built one change at a time gives: the same entities, labels, types,
 * properties, and the same expansion order per node, type and direction.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import type { Node } from '../../src/store/entities.js';
import { Graph } from '../../src/store/graph.js';
import { Schema } from '../../src/store/schema.js';
import { metaOf, RecordStore } from '../../src/store/persist/record-store.js';
import { schemaDefinition } from '../../src/store/persist/schema-def.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A seeded graph with several labels and types, self-loops, parallel relationships and deletions. */
function history(seed: number): Graph {
  let state = seed;
  const rand = (n: number): number => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
  const g = new Graph();
  const labelChoices = [['A'], ['B'], ['A', 'B'], [], ['C', 'A']];
  const nodes: Node[] = [];
  g.begin();
  for (let i = 0; i < 300; i++) nodes.push(g.createNode(labelChoices[rand(labelChoices.length)], new Map<string, Value>([['i', i]])));
  for (let i = 0; i < 1500; i++) {
    const from = nodes[rand(nodes.length)];
    const to = rand(10) === 0 ? from : nodes[rand(nodes.length)];
    g.createRel(['T', 'U', 'V'][rand(3)], from, to, new Map<string, Value>([['w', rand(7)]]));
  }
  g.commit();
  g.begin();
  for (let i = 0; i < 100; i++) {
    const rel = g.rels.get(rand(g.rels.length));
    if (rel !== undefined && !rel.deleted) g.deleteRel(rel);
  }
  for (let i = 0; i < 20; i++) {
    const node = nodes[rand(nodes.length)];
    if (!node.deleted) g.detachDeleteNode(node);
  }
  g.commit();
  return g;
}

function adjacencyOf(g: Graph, types = ['T', 'U', 'V']): string[] {
  const out: string[] = [];
  for (const node of g.allNodes()) {
    for (const type of types) {
      const typeId = g.typeId(type);
      for (const direction of ['out', 'in', 'both'] as const) {
        const seen: string[] = [];
        g.forEachAdjacent(node, typeId === undefined ? [] : [typeId], direction, (rel, nbr) => seen.push(`${rel}>${nbr}`));
        out.push(`${node.id} ${type} ${direction}: ${seen.join(',')}`);
      }
    }
  }
  return out;
}

describe('bulk load', () => {
  it.each([1, 2, 3])('rebuilds the graph a history built one change at a time (seed %i)', (seed) => {
    const built = history(seed);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-bulk-'));
    dirs.push(dir);
    const store = RecordStore.open(dir);
    store.rewriteAll(built, metaOf(built, 0, schemaDefinition(new Schema(built))), undefined);
    const loaded = new Graph();
    store.load(loaded, store.meta()!, undefined);
    store.close();

    expect(loaded.nodeCount).toBe(built.nodeCount);
    expect(loaded.relCount).toBe(built.relCount);
    expect(loaded.fingerprint()).toBe(built.fingerprint());
    const nodeState = (g: Graph) => [...g.allNodes()].map((n) => [n.id, [...n.labels], [...n.propertyMap()]]);
    const relState = (g: Graph) => [...g.allRels()].map((r) => [r.id, r.type, r.start.id, r.end.id, [...r.propertyMap()]]);
    expect(nodeState(loaded)).toEqual(nodeState(built));
    expect(relState(loaded)).toEqual(relState(built));
    expect(adjacencyOf(loaded)).toEqual(adjacencyOf(built));
    for (const label of ['A', 'B', 'C']) {
      const members = (g: Graph) => g.labelSets[g.labelId(label)!]!.toArray().sort((a, b) => a - b);
      expect(members(loaded)).toEqual(members(built));
    }
    for (const type of ['T', 'U', 'V']) {
      const members = (g: Graph) => g.typeSets[g.typeId(type)!]!.toArray().sort((a, b) => a - b);
      expect(members(loaded)).toEqual(members(built));
    }
    // The loaded graph takes writes like any other: a new relationship joins the rows built in bulk.
    loaded.begin();
    const a = loaded.allNodes().next().value!;
    const rel = loaded.createRel('T', a, a, new Map());
    loaded.commit();
    const seen: number[] = [];
    loaded.forEachAdjacent(a, [loaded.typeId('T')!], 'out', (r) => seen.push(r));
    expect(seen[seen.length - 1]).toBe(rel.id);
  });
});

describe('entities of a bulk load, made on first use', () => {
  it('keep one object per entity, take writes and rollbacks, and a committed deletion outlives a restart', async () => {
    const { crashImage, openDb, tempDir } = await import('./persist-helpers.js');
    const dir = tempDir();
    const first = await openDb(dir);
    first.executeSync("UNWIND range(0, 99) AS i CREATE (:P {i: i})-[:R {w: i}]->(:Q {i: i})");
    await first.close();

    const db = await openDb(dir);
    const g = db.graph;
    expect(g.bulk).toBeDefined();
    expect(g.bulk!.unmadeNodes).toBe(200);
    expect(g.bulk!.unmadeRels).toBe(100);
    const nodeOf = (i: number) => db.executeSync(`MATCH (p:P {i: ${i}}) RETURN p`).records[0][0];
    expect(nodeOf(7)).toBe(nodeOf(7));
    const [[rel]] = db.executeSync('MATCH (:P {i: 7})-[r:R]->(q:Q) RETURN r').records as unknown[][];
    expect(rel).toBe(g.relAt((rel as { id: number }).id));
    expect(g.bulk!.unmadeNodes).toBeLessThan(200);

    // A rolled-back deletion leaves the entity as it was.
    expect(() => db.executeSync('MATCH (p:P {i: 3}) DETACH DELETE p WITH 1 AS x RETURN 1 / 0')).toThrow();
    expect(db.executeSync('MATCH (p:P {i: 3})-[r:R]->() RETURN count(r) AS c').records).toEqual([[1]]);
    // A committed one is gone, here, after a restart, and after a crash (replayed from the WAL).
    db.executeSync('MATCH (p:P {i: 4}) DETACH DELETE p');
    db.executeSync('MATCH (q:Q {i: 5}) DETACH DELETE q');
    expect(db.executeSync('MATCH (n) RETURN count(n) AS c').records).toEqual([[198]]);
    expect(db.executeSync('MATCH ()-[r]->() RETURN count(r) AS c').records).toEqual([[98]]);
    const crashed = crashImage(dir); // the deletions only in the WAL, replayed over a bulk load
    await db.close();
    for (const where of [dir, crashed]) {
      const again = await openDb(where);
      expect(again.executeSync('MATCH (n) RETURN count(n) AS c').records).toEqual([[198]]);
      expect(again.executeSync('MATCH (p:P) WHERE p.i IN [4, 5] RETURN p.i AS i').records).toEqual([[5]]);
      expect(again.executeSync('MATCH ()-[r:R]->() WHERE r.w IN [3, 4, 5] RETURN r.w AS w ORDER BY w').records).toEqual([[3]]);
      await again.close();
    }
  });
});

describe('bulk-loaded entity arrays', () => {
  it('keep label-list and type indexes in the narrowest array that holds them, and every type reads back', async () => {
    const { Database } = await import('../../src/engine/database.js');
    const { importCsv } = await import('../../src/engine/csv-import.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-narrow-'));
    dirs.push(dir);
    for (const types of [3, 200]) {
      const nodes = path.join(dir, `nodes-${types}.csv`);
      const rels = path.join(dir, `rels-${types}.csv`);
      fs.writeFileSync(nodes, ['id:ID,:LABEL', ...Array.from({ length: 400 }, (_, i) => `${i},L${i % 5}`)].join('\n'));
      fs.writeFileSync(rels, [':START_ID,:END_ID,:TYPE', ...Array.from({ length: 1000 }, (_, i) => `${i % 400},${(i * 7) % 400},T${i % types}`)].join('\n'));
      const db = Database.openInMemory();
      await importCsv(db, [
        { kind: 'nodes', defaults: [], path: nodes },
        { kind: 'relationships', defaults: [], path: rels },
      ]);
      const bulk = db.graph.bulk!;
      expect(bulk.nodeLabels).toBeInstanceOf(Int8Array);
      expect(bulk.relType).toBeInstanceOf(types <= 127 ? Int8Array : Int16Array);
      const got = db.executeSync('MATCH (a)-[r]->(b) RETURN a.id AS a, type(r) AS t, b.id AS b ORDER BY a, t, b').records;
      const want = Array.from({ length: 1000 }, (_, i) => [`${i % 400}`, `T${i % types}`, `${(i * 7) % 400}`]).sort((x, y) => (x[0] === y[0] ? (x[1] === y[1] ? (x[2] < y[2] ? -1 : 1) : x[1] < y[1] ? -1 : 1) : x[0] < y[0] ? -1 : 1));
      expect(got).toEqual(want);
      expect(db.executeSync(`MATCH (:L1)-[r:T${types - 1}]->() RETURN count(r)`).records[0][0]).toBe(db.executeSync(`MATCH (a:L1)-[r]->() WHERE type(r) = 'T${types - 1}' RETURN count(r)`).records[0][0]);
      db.close();
    }
  });
});

describe('label and type sets of a bulk import', () => {
  it('are runs with no member array where each file is one run of ids, and the graph reads and changes as one built by creates', async () => {
    const { Database } = await import('../../src/engine/database.js');
    const { importCsv } = await import('../../src/engine/csv-import.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-runs-'));
    dirs.push(dir);
    const people = path.join(dir, 'people.csv');
    const cities = path.join(dir, 'cities.csv');
    const knows = path.join(dir, 'knows.csv');
    const lives = path.join(dir, 'lives.csv');
    fs.writeFileSync(people, ['id:ID,:LABEL', ...Array.from({ length: 300 }, (_, i) => `p${i},Person`)].join('\n'));
    fs.writeFileSync(cities, ['id:ID,:LABEL', ...Array.from({ length: 20 }, (_, i) => `c${i},City`)].join('\n'));
    // Starts out of order, so each CSR row gathers relationships from all over the run.
    const knowsRows = Array.from({ length: 900 }, (_, i) => [(i * 37) % 300, (i * 11 + 5) % 300]);
    fs.writeFileSync(knows, [':START_ID,:END_ID', ...knowsRows.map(([a, b]) => `p${a},p${b}`)].join('\n'));
    fs.writeFileSync(lives, [':START_ID,:END_ID', ...Array.from({ length: 300 }, (_, i) => `p${i},c${i % 20}`)].join('\n'));
    const db = Database.openInMemory();
    await importCsv(db, [
      { kind: 'nodes', defaults: [], path: people },
      { kind: 'nodes', defaults: [], path: cities },
      { kind: 'relationships', defaults: ['KNOWS'], path: knows },
      { kind: 'relationships', defaults: ['LIVES_IN'], path: lives },
    ]);
    const g = db.graph;
    const sets = [g.labelSet('Person')!, g.labelSet('City')!, g.typeSet('KNOWS')!, g.typeSet('LIVES_IN')!];
    expect(sets.map((s) => s.runStart())).toEqual([0, 300, 0, 900]);
    // No member arrays and no bitsets: a run is its bounds.
    for (const set of sets) expect(set.memoryBytes()).toBe(0);
    // LIVES_IN was loaded in start order: its outgoing neighbours are the end column itself; KNOWS was not.
    expect(g.adjOut[g.typeId('LIVES_IN')!]!.nbrsBorrowed).toBe(true);
    expect(g.adjOut[g.typeId('LIVES_IN')!]!.nbrs.buffer).toBe(g.bulk!.relEnd.buffer);
    expect(g.adjOut[g.typeId('KNOWS')!]!.nbrsBorrowed).toBe(false);

    const built = Database.openInMemory();
    built.executeSync('UNWIND range(0, 299) AS i CREATE (:Person {id: "p" + i})');
    built.executeSync('UNWIND range(0, 19) AS i CREATE (:City {id: "c" + i})');
    built.executeSync('UNWIND $rows AS r MATCH (a:Person {id: "p" + r[0]}), (b:Person {id: "p" + r[1]}) CREATE (a)-[:KNOWS]->(b)', { rows: knowsRows });
    built.executeSync('UNWIND range(0, 299) AS i MATCH (a:Person {id: "p" + i}), (c:City {id: "c" + (i % 20)}) CREATE (a)-[:LIVES_IN]->(c)');
    const state = (x: Graph) => [[...x.allNodes()].map((n) => [n.id, [...n.labels], [...n.propertyMap()]]), [...x.allRels()].map((r) => [r.id, r.type, r.start.id, r.end.id])];
    expect(state(g)).toEqual(state(built.graph));
    expect(adjacencyOf(g, ['KNOWS', 'LIVES_IN'])).toEqual(adjacencyOf(built.graph, ['KNOWS', 'LIVES_IN']));
    const rows = (d: InstanceType<typeof Database>, q: string) => d.executeSync(q).records;
    for (const q of [
      'MATCH (a:Person)-[r:KNOWS]->(b) RETURN a.id, id(r), b.id',
      'MATCH (a)<-[r:KNOWS]-(b) RETURN a.id, id(r), b.id',
      'MATCH ()-[r:LIVES_IN]->(c:City) RETURN c.id, count(r) ORDER BY c.id',
      'MATCH (p:Person) WHERE p.id < "p2" RETURN count(p)',
      'MATCH ()-[r:KNOWS]->() RETURN count(r)',
    ]) {
      expect(rows(db, q)).toEqual(rows(built, q));
    }
    // A deletion, a rollback and an addition leave both graphs alike.
    for (const d of [db, built]) {
      d.executeSync('MATCH (a:Person {id: "p7"}) DETACH DELETE a');
      d.executeSync('CREATE (:Person {id: "p300"})-[:KNOWS]->(:City {id: "c20"})');
    }
    expect(state(g)).toEqual(state(built.graph));
    expect(adjacencyOf(g, ['KNOWS', 'LIVES_IN'])).toEqual(adjacencyOf(built.graph, ['KNOWS', 'LIVES_IN']));
    // A merge moves the borrowed neighbours into a base of the block's own, in the same order.
    g.mergeAdjacency(true);
    built.graph.mergeAdjacency(true);
    expect(g.adjOut[g.typeId('LIVES_IN')!]!.nbrsBorrowed).toBe(false);
    expect(adjacencyOf(g, ['KNOWS', 'LIVES_IN'])).toEqual(adjacencyOf(built.graph, ['KNOWS', 'LIVES_IN']));
    expect(rows(db, 'MATCH (a:Person)-[r:KNOWS]->(b) RETURN a.id, b.id ORDER BY a.id, b.id')).toEqual(rows(built, 'MATCH (a:Person)-[r:KNOWS]->(b) RETURN a.id, b.id ORDER BY a.id, b.id'));
    expect(rows(db, 'MATCH (c:City) RETURN count(c)')).toEqual([[21]]);
    db.close();
    built.close();
  });
});

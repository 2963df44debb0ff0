/**
 * The APOC core procedures, one case each: a real result over a small graph (writes
 * checked by reading the graph back and by the query's statistics) and a call with a bad
 * argument that fails with a typed error naming the argument.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../src/engine/database.js';
import { fails, fixture, rows, value } from './catalogue-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'graphdb-apoc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'people.json'), JSON.stringify([{ name: 'Dee', tags: ['a', 'b'] }, { name: 'Eve', nested: { n: 1 } }]));
writeFileSync(join(dir, 'doc.json'), JSON.stringify({ data: { items: [1, 2, 3] } }));
writeFileSync(join(dir, 'nodes.csv'), 'id:ID,name,age:int,:LABEL\n1,Fay,41,Person;Import\n2,Gus,,Person\n');
writeFileSync(join(dir, 'rels.csv'), ':START_ID,:END_ID,:TYPE,since:int\n1,2,KNOWS,2020\n');

interface Case {
  name: string;
  run(db: Database): void;
  bad: string;
  error: RegExp;
}

const names = (db: Database, q: string) => rows(db, q).map((r) => r[0]);

const cases: Case[] = [
  // ---- apoc.path.*
  {
    name: 'apoc.path.expand',
    run: (db) =>
      expect(names(db, "MATCH (a {name: 'Ann'}) CALL apoc.path.expand(a, 'KNOWS>', '+Person', 1, 2) YIELD path RETURN [n IN nodes(path) | n.name] ORDER BY length(path)")).toEqual([
        ['Ann', 'Bob'],
        ['Ann', 'Bob', 'Cy'],
      ]),
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.path.expand(a, 'KNOWS>', '', 'one', 2) YIELD path RETURN path",
    error: /minLevel/,
  },
  {
    name: 'apoc.path.expandConfig',
    run: (db) =>
      expect(names(db, "MATCH (a {name: 'Ann'}) CALL apoc.path.expandConfig(a, {relationshipFilter: 'KNOWS>|LIKES>|LIVES_IN>', labelFilter: '/City', maxLevel: 3}) YIELD path RETURN length(path) ORDER BY length(path)")).toEqual([2, 3]),
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.path.expandConfig(a, {maxLevel: 'x'}) YIELD path RETURN path",
    error: /config/,
  },
  {
    name: 'apoc.path.subgraphNodes',
    run: (db) => expect(names(db, "MATCH (a {name: 'Ann'}) CALL apoc.path.subgraphNodes(a, {relationshipFilter: 'KNOWS>'}) YIELD node RETURN node.name ORDER BY node.name")).toEqual(['Ann', 'Bob', 'Cy']),
    bad: 'CALL apoc.path.subgraphNodes(1.5, {}) YIELD node RETURN node',
    error: /startNode/,
  },
  {
    name: 'apoc.path.subgraphAll',
    run: (db) =>
      expect(rows(db, "MATCH (a {name: 'Ann'}) CALL apoc.path.subgraphAll(a, {relationshipFilter: 'KNOWS>|LIKES>'}) YIELD nodes, relationships RETURN size(nodes), size(relationships)")).toEqual([[3, 3]]),
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.path.subgraphAll(a, 'KNOWS') YIELD nodes RETURN nodes",
    error: /config/,
  },
  {
    name: 'apoc.path.spanningTree',
    run: (db) =>
      expect(names(db, "MATCH (a {name: 'Ann'}) CALL apoc.path.spanningTree(a, {relationshipFilter: 'KNOWS>|LIKES>|LIVES_IN>'}) YIELD path RETURN last(nodes(path)).name + ':' + length(path) ORDER BY length(path), last(nodes(path)).name")).toEqual(['Bob:1', 'Cy:1', 'Oslo:2']),
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.path.spanningTree(a, {relationshipFilter: 'KN>OWS'}) YIELD path RETURN path",
    error: /config/,
  },
  // ---- apoc.create.*
  {
    name: 'apoc.create.node',
    run: (db) => {
      const r = db.executeSync("CALL apoc.create.node(['Dyn', 'Other'], {k: 1}) YIELD node RETURN labels(node) AS l, node.k AS k");
      expect(r.records).toEqual([[['Dyn', 'Other'], 1]]);
      expect(r.stats.nodesCreated).toBe(1);
      expect(value(db, 'MATCH (n:Dyn) RETURN count(n)')).toBe(1);
    },
    bad: "CALL apoc.create.node(['X'], {bad: {nested: 1}}) YIELD node RETURN node",
    error: /Property 'bad'/,
  },
  {
    name: 'apoc.create.nodes',
    run: (db) => {
      expect(rows(db, "CALL apoc.create.nodes(['Many'], [{i: 1}, {i: 2}]) YIELD node RETURN node.i ORDER BY node.i")).toEqual([[1], [2]]);
      expect(value(db, 'MATCH (n:Many) RETURN count(n)')).toBe(2);
    },
    bad: "CALL apoc.create.nodes('Many', [{i: 1}]) YIELD node RETURN node",
    error: /labels/,
  },
  {
    name: 'apoc.create.relationship',
    run: (db) => {
      const r = db.executeSync("MATCH (a {name: 'Ann'}), (o:City) CALL apoc.create.relationship(a, 'VISITED', {year: 2024}, o) YIELD rel RETURN type(rel), rel.year");
      expect(r.records).toEqual([['VISITED', 2024]]);
      expect(r.stats.relationshipsCreated).toBe(1);
    },
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.create.relationship(a, '', {}, a) YIELD rel RETURN rel",
    error: /relType.*empty/,
  },
  {
    name: 'apoc.create.addLabels',
    run: (db) => expect(value(db, "MATCH (b {name: 'Bob'}) CALL apoc.create.addLabels(b, ['Extra']) YIELD node RETURN labels(node)")).toEqual(['Person', 'Extra']),
    bad: "CALL apoc.create.addLabels('Bob', ['Extra']) YIELD node RETURN node",
    error: /nodes/,
  },
  {
    name: 'apoc.create.setLabels',
    run: (db) => expect(value(db, "MATCH (c {name: 'Cy'}) CALL apoc.create.setLabels(c, ['Only']) YIELD node RETURN labels(node)")).toEqual(['Only']),
    bad: "MATCH (c {name: 'Cy'}) CALL apoc.create.setLabels(c, [1]) YIELD node RETURN node",
    error: /labels/,
  },
  {
    name: 'apoc.create.removeLabels',
    run: (db) => expect(value(db, "MATCH (c {name: 'Cy'}) CALL apoc.create.removeLabels([c], ['Admin']) YIELD node RETURN labels(node)")).toEqual(['Person']),
    bad: 'CALL apoc.create.removeLabels(999, []) YIELD node RETURN node',
    error: /nodes.*999/,
  },
  {
    name: 'apoc.create.setProperty',
    run: (db) => {
      expect(value(db, "MATCH (b {name: 'Bob'}) CALL apoc.create.setProperty(b, 'score', 7) YIELD node RETURN node.score")).toBe(7);
      expect(value(db, "MATCH (b {name: 'Bob'}) RETURN b.score")).toBe(7);
    },
    bad: "MATCH (b {name: 'Bob'}) CALL apoc.create.setProperty(b, null, 7) YIELD node RETURN node",
    error: /key/,
  },
  {
    name: 'apoc.create.setProperties',
    run: (db) => expect(rows(db, "MATCH (b {name: 'Bob'}) CALL apoc.create.setProperties(b, ['x', 'y'], [1, 'two']) YIELD node RETURN node.x, node.y")).toEqual([[1, 'two']]),
    bad: "MATCH (b {name: 'Bob'}) CALL apoc.create.setProperties(b, ['x', 'y'], [1]) YIELD node RETURN node",
    error: /values/,
  },
  {
    name: 'apoc.create.setRelProperty',
    run: (db) => expect(value(db, 'MATCH ()-[r:LIKES]->() CALL apoc.create.setRelProperty(r, "w", 9) YIELD rel RETURN rel.w')).toBe(9),
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.create.setRelProperty(a, 'w', 9) YIELD rel RETURN rel",
    error: /rels/,
  },
  {
    name: 'apoc.create.uuids',
    run: (db) => {
      const r = rows(db, 'CALL apoc.create.uuids(3)');
      expect(r.map((x) => x[0])).toEqual([0, 1, 2]);
      for (const x of r) expect(x[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    },
    bad: 'CALL apoc.create.uuids(-1)',
    error: /count/,
  },
  // ---- apoc.merge.*
  {
    name: 'apoc.merge.node',
    run: (db) => {
      const q = "CALL apoc.merge.node(['Person'], {name: 'Zed'}, {created: true}, {matched: true}) YIELD node RETURN node.created, node.matched";
      expect(rows(db, q)).toEqual([[true, null]]);
      expect(rows(db, q)).toEqual([[true, true]]);
      expect(value(db, "MATCH (p:Person {name: 'Zed'}) RETURN count(p)")).toBe(1);
    },
    bad: "CALL apoc.merge.node(['Person'], {name: null}) YIELD node RETURN node",
    error: /identProps.*null/,
  },
  {
    name: 'apoc.merge.relationship',
    run: (db) => {
      const q = "MATCH (a {name: 'Ann'}), (b {name: 'Bob'}) CALL apoc.merge.relationship(a, 'KNOWS', {}, {fresh: true}, b, {seen: true}) YIELD rel RETURN rel.w, rel.seen";
      expect(rows(db, q)).toEqual([[1, true]]);
      expect(value(db, "MATCH (a {name: 'Ann'})-[r:KNOWS]->(b {name: 'Bob'}) RETURN count(r)")).toBe(1);
      expect(rows(db, "MATCH (a {name: 'Ann'}), (b {name: 'Bob'}) CALL apoc.merge.relationship(a, 'WORKS_WITH', {}, {fresh: true}, b) YIELD rel RETURN rel.fresh")).toEqual([[true]]);
    },
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.merge.relationship(a, 'X', {}, {}, 'b') YIELD rel RETURN rel",
    error: /endNode/,
  },
  // ---- apoc.refactor.*
  {
    name: 'apoc.refactor.mergeNodes',
    run: (db) => {
      const r = rows(db, "MATCH (a {name: 'Ann'}), (b {name: 'Bob'}) CALL apoc.refactor.mergeNodes([a, b], {properties: 'discard'}) YIELD node RETURN node.name, node.age");
      expect(r).toEqual([['Ann', 30]]);
      expect(value(db, 'MATCH (p:Person) RETURN count(p)')).toBe(2);
      expect(names(db, "MATCH ({name: 'Ann'})-[:KNOWS]->(c) RETURN c.name ORDER BY c.name")).toEqual(['Ann', 'Cy']);
    },
    bad: "MATCH (a {name: 'Ann'}), (c {name: 'Cy'}) CALL apoc.refactor.mergeNodes([a, c], {properties: 'shuffle'}) YIELD node RETURN node",
    error: /config.*shuffle/,
  },
  {
    name: 'apoc.refactor.mergeRelationships',
    run: (db) => {
      db.executeSync("MATCH (a {name: 'Ann'}), (b {name: 'Bob'}) CREATE (a)-[:KNOWS {w: 3, extra: 'x'}]->(b)");
      const r = rows(db, "MATCH ({name: 'Ann'})-[r:KNOWS]->({name: 'Bob'}) WITH collect(r) AS rs CALL apoc.refactor.mergeRelationships(rs, {properties: 'combine'}) YIELD rel RETURN rel.w, rel.extra");
      expect(r).toEqual([[[1, 3], 'x']]);
      expect(value(db, "MATCH ({name: 'Ann'})-[r:KNOWS]->({name: 'Bob'}) RETURN count(r)")).toBe(1);
    },
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.refactor.mergeRelationships([a]) YIELD rel RETURN rel",
    error: /rels/,
  },
  {
    name: 'apoc.refactor.cloneNodes',
    run: (db) => {
      const r = rows(db, "MATCH (b {name: 'Bob'}) CALL apoc.refactor.cloneNodes([b], true, ['age']) YIELD input, output RETURN output.name, output.age, size([(output)--() | 1])");
      expect(r).toEqual([['Bob', null, 2]]);
      expect(value(db, "MATCH (p {name: 'Bob'}) RETURN count(p)")).toBe(2);
    },
    bad: "MATCH (b {name: 'Bob'}) CALL apoc.refactor.cloneNodes([b], 'yes') YIELD output RETURN output",
    error: /withRelationships/,
  },
  {
    name: 'apoc.refactor.rename.label',
    run: (db) => {
      expect(value(db, "CALL apoc.refactor.rename.label('Person', 'Human') YIELD total RETURN total")).toBe(3);
      expect(value(db, 'MATCH (h:Human) RETURN count(h)')).toBe(3);
      expect(value(db, 'MATCH (p:Person) RETURN count(p)')).toBe(0);
    },
    bad: "CALL apoc.refactor.rename.label('Person', '') YIELD total RETURN total",
    error: /newName.*empty/,
  },
  {
    name: 'apoc.refactor.rename.type',
    run: (db) => {
      expect(value(db, "CALL apoc.refactor.rename.type('KNOWS', 'FRIEND_OF') YIELD total RETURN total")).toBe(2);
      expect(value(db, 'MATCH ()-[r:FRIEND_OF]->() RETURN sum(r.w)')).toBe(3);
    },
    bad: "CALL apoc.refactor.rename.type(1, 'X') YIELD total RETURN total",
    error: /oldName/,
  },
  {
    name: 'apoc.refactor.rename.nodeProperty',
    run: (db) => {
      expect(value(db, "CALL apoc.refactor.rename.nodeProperty('age', 'years') YIELD total RETURN total")).toBe(2);
      expect(rows(db, 'MATCH (p) WHERE p.years IS NOT NULL RETURN p.name, p.age ORDER BY p.name')).toEqual([['Ann', null], ['Bob', null]]);
    },
    bad: "CALL apoc.refactor.rename.nodeProperty('age', 'years', 'all') YIELD total RETURN total",
    error: /nodes|LIST/,
  },
  {
    name: 'apoc.refactor.setType',
    run: (db) => {
      expect(rows(db, 'MATCH ()-[r:LIKES]->() CALL apoc.refactor.setType(r, "ADORES") YIELD output RETURN type(output), output.w')).toEqual([['ADORES', 5]]);
      expect(value(db, 'MATCH ()-[r:LIKES]->() RETURN count(r)')).toBe(0);
    },
    bad: 'MATCH ()-[r:KNOWS]->() CALL apoc.refactor.setType(r, "") YIELD output RETURN output',
    error: /newType/,
  },
  {
    name: 'apoc.refactor.invert',
    run: (db) => {
      db.executeSync('MATCH ()-[r:LIVES_IN]->() CALL apoc.refactor.invert(r) YIELD output RETURN output');
      expect(value(db, 'MATCH (c:City)-[:LIVES_IN]->(p) RETURN p.name')).toBe('Cy');
    },
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.refactor.invert(a) YIELD output RETURN output",
    error: /rel/,
  },
  // ---- apoc.periodic.*, apoc.cypher.*, apoc.when
  {
    name: 'apoc.periodic.iterate',
    run: (db) => {
      const r = db.executeSync("CALL apoc.periodic.iterate('MATCH (p:Person) RETURN p, p.name AS who', 'SET p.seen = true, p.copy = who', {batchSize: 2}) YIELD batches, total RETURN batches, total");
      expect(r.records).toEqual([[2, 3]]);
      expect(r.stats.propertiesSet).toBe(6);
      expect(value(db, "MATCH (p {name: 'Cy'}) RETURN p.copy")).toBe('Cy');
      expect(value(db, 'MATCH (p:Person) WHERE p.seen RETURN count(p)')).toBe(3);
    },
    bad: "CALL apoc.periodic.iterate('MATCH (p) RETURN p', 'SET p.x = 1', {batchSize: 0})",
    error: /batchSize/,
  },
  {
    name: 'apoc.periodic.commit',
    run: (db) => {
      db.executeSync('UNWIND range(1, 25) AS i CREATE (:Todo {i: i})');
      const r = rows(db, "CALL apoc.periodic.commit('MATCH (t:Todo) WITH t LIMIT $limit DETACH DELETE t RETURN count(*)', {limit: 10}) YIELD updates, executions RETURN updates, executions");
      expect(r).toEqual([[25, 4]]);
      expect(value(db, 'MATCH (t:Todo) RETURN count(t)')).toBe(0);
    },
    bad: "CALL apoc.periodic.commit('RETURN \"x\" AS notACount', {})",
    error: /statement/,
  },
  {
    name: 'apoc.cypher.run',
    run: (db) => expect(rows(db, "CALL apoc.cypher.run('MATCH (p:Person) WHERE p.age > $min RETURN p.name AS name', {min: 26}) YIELD value RETURN value.name")).toEqual([['Ann']]),
    bad: "CALL apoc.cypher.run('CREATE (:Sneaky)', {})",
    error: /read-only procedure/,
  },
  {
    name: 'apoc.cypher.runWrite',
    run: (db) => {
      const r = db.executeSync("CALL apoc.cypher.runWrite('CREATE (n:Made {by: $who}) RETURN n.by AS creator', {who: 'runWrite'}) YIELD value RETURN value.creator");
      expect(r.records).toEqual([['runWrite']]);
      expect(r.stats.nodesCreated).toBe(1);
    },
    bad: "CALL apoc.cypher.runWrite(42, {})",
    error: /statement/,
  },
  {
    name: 'apoc.cypher.doIt',
    run: (db) => {
      db.executeSync("CALL apoc.cypher.doIt('MATCH (p:Person {name: $n}) SET p.done = true', {n: 'Bob'})");
      expect(value(db, "MATCH (p {name: 'Bob'}) RETURN p.done")).toBe(true);
    },
    bad: "CALL apoc.cypher.doIt('RETURN $missing', {})",
    error: /missing/,
  },
  {
    name: 'apoc.when',
    run: (db) => {
      expect(rows(db, "CALL apoc.when(true, 'RETURN $x + 1 AS r', 'RETURN 0 AS r', {x: 1}) YIELD value RETURN value.r")).toEqual([[2]]);
      expect(rows(db, "CALL apoc.when(false, 'RETURN 1 AS r', 'RETURN 0 AS r') YIELD value RETURN value.r")).toEqual([[0]]);
    },
    bad: "CALL apoc.when('yes', 'RETURN 1 AS r')",
    error: /condition/,
  },
  {
    name: 'apoc.do.when',
    run: (db) => {
      db.executeSync("CALL apoc.do.when(false, 'CREATE (:Yes)', 'CREATE (:No)') YIELD value RETURN value");
      expect(rows(db, 'MATCH (n) WHERE n:Yes OR n:No RETURN labels(n)')).toEqual([[['No']]]);
    },
    bad: "CALL apoc.do.when(true, 'CREATE (:Yes)', '', 'params')",
    error: /params/,
  },
  // ---- apoc.meta.*
  {
    name: 'apoc.meta.stats',
    run: (db) =>
      expect(rows(db, 'CALL apoc.meta.stats() YIELD labelCount, relTypeCount, nodeCount, relCount, labels, relTypesCount RETURN labelCount, relTypeCount, nodeCount, relCount, labels, relTypesCount')).toEqual([
        [3, 3, 4, 4, { Person: 3, Admin: 1, City: 1 }, { KNOWS: 2, LIKES: 1, LIVES_IN: 1 }],
      ]),
    bad: 'CALL apoc.meta.stats(1)',
    error: /argument/,
  },
  {
    name: 'apoc.meta.data',
    run: (db) => {
      expect(rows(db, "CALL apoc.meta.data() YIELD label, property, type, elementType WHERE label IN ['Person', 'KNOWS'] RETURN label, property, type, elementType ORDER BY label, property")).toEqual([
        ['KNOWS', 'w', 'INTEGER', 'relationship'],
        ['Person', 'KNOWS', 'RELATIONSHIP', 'node'],
        ['Person', 'LIKES', 'RELATIONSHIP', 'node'],
        ['Person', 'LIVES_IN', 'RELATIONSHIP', 'node'],
        ['Person', 'age', 'INTEGER', 'node'],
        ['Person', 'name', 'STRING', 'node'],
      ]);
      // LangChain's relationship query over apoc.meta.data.
      expect(
        rows(db, 'CALL apoc.meta.data() YIELD label, other, elementType, type, property WHERE type = "RELATIONSHIP" AND elementType = "node" UNWIND other AS other_node RETURN label + "-" + property + "->" + toString(other_node) AS r ORDER BY r').map((x) => x[0]),
      ).toEqual(['Admin-LIVES_IN->City', 'Person-KNOWS->Admin', 'Person-KNOWS->Person', 'Person-LIKES->Admin', 'Person-LIKES->Person', 'Person-LIVES_IN->City']);
    },
    bad: "CALL apoc.meta.data('all')",
    error: /config|MAP/,
  },
  {
    name: 'apoc.meta.nodeTypeProperties',
    run: (db) =>
      expect(rows(db, "CALL apoc.meta.nodeTypeProperties() YIELD nodeType, propertyName, propertyObservations, totalObservations WHERE nodeType = ':`Person`' RETURN propertyName, propertyObservations, totalObservations ORDER BY propertyName")).toEqual([
        ['age', 2, 2],
        ['name', 2, 2],
      ]),
    bad: 'CALL apoc.meta.nodeTypeProperties(1)',
    error: /config|MAP/,
  },
  {
    name: 'apoc.meta.schema',
    run: (db) => {
      const schema = value(db, 'CALL apoc.meta.schema() YIELD value RETURN value') as Record<string, { type: string; count: number; properties: Record<string, { type: string }> }>;
      expect(schema.Person).toMatchObject({ type: 'node', count: 3, properties: { name: { type: 'STRING' }, age: { type: 'INTEGER' } } });
      expect(schema.KNOWS).toMatchObject({ type: 'relationship', count: 2 });
    },
    bad: "CALL apoc.meta.schema('x')",
    error: /config|MAP/,
  },
  {
    name: 'apoc.meta.graph',
    run: (db) => {
      const [[nodes, rels]] = rows(
        db,
        "CALL apoc.meta.graph() YIELD nodes, relationships RETURN [n IN nodes | n.name + ':' + n.count] AS ns, [r IN relationships WHERE type(r) = 'KNOWS' | startNode(r).name + '-' + apoc.any.property(r, 'type') + '->' + endNode(r).name + ':' + r.count] AS rs",
      ) as [[string[], string[]]];
      expect([...nodes].sort()).toEqual(['Admin:1', 'City:1', 'Person:3']);
      expect([...rels].sort()).toEqual(['Person-KNOWS->Admin:1', 'Person-KNOWS->Person:2']);
    },
    bad: "CALL apoc.meta.graph('x')",
    error: /config|MAP/,
  },
  {
    name: 'apoc.meta.graphSample',
    run: (db) => {
      // LangChain's enhanced schema reads the counts this way.
      const q =
        "CALL apoc.meta.graphSample() YIELD nodes, relationships RETURN nodes, [rel IN relationships | {name: apoc.any.property(rel, 'type'), count: apoc.any.property(rel, 'count')}] AS relationships";
      const [[nodes, rels]] = rows(db, q) as [[{ properties: { name: string; count: number } }[], { name: string; count: number }[]]];
      expect(nodes.map((n) => n.properties.name).sort()).toEqual(['Admin', 'City', 'Person']);
      expect(rels.filter((r) => r.name === 'LIVES_IN').map((r) => r.count)).toEqual([1, 1]);
    },
    bad: 'CALL apoc.meta.graphSample(1)',
    error: /config|MAP/,
  },
  {
    name: 'apoc.schema.nodes',
    run: (db) => {
      db.executeSync('CREATE INDEX person_name FOR (p:Person) ON (p.name)');
      db.executeSync('CREATE CONSTRAINT city_name FOR (c:City) REQUIRE c.name IS UNIQUE');
      expect(rows(db, 'CALL apoc.schema.nodes() YIELD name, label, properties, status, type RETURN name, label, properties, status, type ORDER BY name')).toEqual([
        ['city_name', 'City', ['name'], 'ONLINE', 'UNIQUENESS'],
        ['person_name', 'Person', ['name'], 'ONLINE', 'RANGE'],
      ]);
      expect(rows(db, "CALL apoc.schema.nodes({excludeLabels: ['City']}) YIELD name RETURN name")).toEqual([['person_name']]);
    },
    bad: 'CALL apoc.schema.nodes({labels: 1})',
    error: /labels/,
  },
  {
    name: 'apoc.schema.properties.distinct',
    run: (db) => {
      const [[values]] = rows(db, "CALL apoc.schema.properties.distinct('Person', 'name') YIELD value RETURN value") as [[string[]]];
      expect([...values].sort()).toEqual(['Ann', 'Bob', 'Cy']);
      expect(rows(db, "CALL apoc.schema.properties.distinct('Nobody', 'name') YIELD value RETURN value")).toEqual([[[]]]);
    },
    bad: "CALL apoc.schema.properties.distinct(1, 'name')",
    error: /label/,
  },
  // ---- files
  {
    name: 'apoc.load.json',
    run: (db) => {
      expect(rows(db, "CALL apoc.load.json('people.json') YIELD value RETURN value.name ORDER BY value.name")).toEqual([['Dee'], ['Eve']]);
      expect(rows(db, "CALL apoc.load.json('file:///doc.json', '$.data') YIELD value RETURN value.items")).toEqual([[[1, 2, 3]]]);
    },
    bad: "CALL apoc.load.json('https://example.com/x.json')",
    error: /local files only/,
  },
  {
    name: 'apoc.load.jsonArray',
    run: (db) => expect(rows(db, "CALL apoc.load.jsonArray('doc.json', '$.data.items') YIELD value RETURN sum(value)")).toEqual([[6]]),
    bad: "CALL apoc.load.jsonArray('../outside.json')",
    error: /outside the import directory/,
  },
  {
    name: 'apoc.import.csv',
    run: (db) => {
      const r = db.executeSync("CALL apoc.import.csv([{fileName: 'nodes.csv', labels: ['Csv']}], [{fileName: 'rels.csv'}], {}) YIELD nodes, relationships RETURN nodes, relationships");
      expect(r.records).toEqual([[2, 1]]);
      expect(r.stats.nodesCreated).toBe(2);
      expect(rows(db, 'MATCH (a:Csv:Import)-[k:KNOWS]->(b:Csv) RETURN a.name, a.age, b.name, b.age, k.since')).toEqual([['Fay', 41, 'Gus', null, 2020]]);
    },
    bad: "CALL apoc.import.csv([{fileName: 'nodes.csv'}], [], {delimiter: ';;'})",
    error: /delimiter/,
  },
  {
    name: 'apoc.export.json.all',
    run: (db) => {
      const data = String(value(db, "CALL apoc.export.json.all(null, {}) YIELD data RETURN data"));
      const lines = data.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
      expect(lines.filter((l) => l.type === 'node')).toHaveLength(4);
      expect(lines.filter((l) => l.type === 'relationship')).toHaveLength(4);
      expect(rows(db, "CALL apoc.export.json.all('all.json', {}) YIELD file, nodes, relationships RETURN file, nodes, relationships")).toEqual([['all.json', 4, 4]]);
      expect(readFileSync(join(dir, 'all.json'), 'utf8')).toBe(data);
    },
    bad: "CALL apoc.export.json.all('../escape.json', {})",
    error: /outside the import directory/,
  },
  {
    name: 'apoc.export.json.query',
    run: (db) => {
      db.executeSync("CALL apoc.export.json.query('MATCH (p:Person) RETURN p.name AS name ORDER BY name', 'q.json', {})");
      expect(readFileSync(join(dir, 'q.json'), 'utf8')).toBe('{"name":"Ann"}\n{"name":"Bob"}\n{"name":"Cy"}\n');
    },
    bad: "CALL apoc.export.json.query('CREATE (n) RETURN n', null, {})",
    error: /read-only procedure/,
  },
  {
    name: 'apoc.export.csv.query',
    run: (db) =>
      expect(value(db, "CALL apoc.export.csv.query('MATCH (p:Person) RETURN p.name AS name, p.age AS age ORDER BY name', '', {}) YIELD data RETURN data")).toBe('name,age\nAnn,30\nBob,25\nCy,\n'),
    bad: "CALL apoc.export.csv.query('RETURN 1', '', {delim: 1})",
    error: /delim/,
  },
  // ---- traversal algorithms
  {
    name: 'apoc.neighbors.tohop',
    run: (db) => expect(names(db, "MATCH (a {name: 'Ann'}) CALL apoc.neighbors.tohop(a, 'KNOWS>', 2) YIELD node RETURN node.name ORDER BY node.name")).toEqual(['Bob', 'Cy']),
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.neighbors.tohop(a, 'KNOWS>', 0) YIELD node RETURN node",
    error: /distance/,
  },
  {
    name: 'apoc.algo.dijkstra',
    run: (db) =>
      expect(rows(db, "MATCH (a {name: 'Ann'}), (c {name: 'Cy'}) CALL apoc.algo.dijkstra(a, c, 'KNOWS>|LIKES>', 'w') YIELD path, weight RETURN [n IN nodes(path) | n.name], weight")).toEqual([[['Ann', 'Bob', 'Cy'], 3]]),
    bad: "MATCH (a {name: 'Ann'}) CALL apoc.algo.dijkstra(a, 'Cy', 'KNOWS>', 'w') YIELD path RETURN path",
    error: /endNode/,
  },
  {
    name: 'apoc.algo.allSimplePaths',
    run: (db) =>
      expect(rows(db, "MATCH (a {name: 'Ann'}), (c {name: 'Cy'}) CALL apoc.algo.allSimplePaths(a, c, 'KNOWS>|LIKES>', 3) YIELD path RETURN length(path) ORDER BY length(path)")).toEqual([[1], [2]]),
    bad: "MATCH (a {name: 'Ann'}), (c {name: 'Cy'}) CALL apoc.algo.allSimplePaths(a, c, 'KNOWS>', 0) YIELD path RETURN path",
    error: /maxNodes/,
  },
];

describe('APOC core procedures', () => {
  it.each(cases)('$name: result and a bad argument', (c) => {
    const db = fixture({ csvImportRoot: dir });
    c.run(db);
    const before = db.fingerprint();
    fails(db, c.bad, c.error);
    // A failed call leaves nothing behind.
    expect(db.fingerprint()).toBe(before);
  });

  it('covers every apoc.* procedure', () => {
    const all = fixture()
      .procedures.list()
      .map((p) => p.name)
      .filter((n) => n.startsWith('apoc.'));
    expect(all.sort()).toEqual(cases.map((c) => c.name).sort());
    expect(all).toHaveLength(49);
  });
});

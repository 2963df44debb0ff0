/**
 * The Neo4j surface that drivers and tools call, through `graphdb --bolt` and Neo4j's own
 * JavaScript driver: dbms.components, SHOW DATABASES / INDEXES / CONSTRAINTS with Neo4j's
 * columns, element ids that a query finds again, dynamic labels from parameters, a float
 * where a procedure takes an INTEGER, and the EXISTS/COUNT-with-WITH scoping fix. Assumes
 * `npm run build`.
 */

import neo4j, { type Driver, type Node as DriverNode, type Relationship as DriverRel } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';

const KEY = 'surface-key';
let servers: SpawnedServers;
let driver: Driver;

beforeAll(async () => {
  servers = await spawnGraphdb(['--bolt', '0', '--api-key', KEY, '--workers', '1']);
  driver = neo4j.driver(`bolt://127.0.0.1:${servers.ports.bolt}`, neo4j.auth.basic('neo4j', KEY));
  await driver.executeQuery(
    "CREATE (a:Person {name: 'Andy'})-[:HAS_DOG]->(:Dog {name: 'Andy'}), (fido:Dog {name: 'Fido'})<-[:HAS_DOG]-(p:Person {name: 'Peter'})-[:HAS_DOG]->(:Dog {name: 'Ozzy'})",
  );
}, 30_000);

afterAll(async () => {
  await driver?.close();
  await servers?.stop();
});

describe('Neo4j 5 surface over Bolt', () => {
  it('dbms.components: the Neo4j kernel row first', async () => {
    const { records } = await driver.executeQuery('CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition');
    expect(records[0].toObject()).toEqual({ name: 'Neo4j Kernel', versions: ['5.26.0'], edition: 'community' });
    expect(records[1].get('name')).toBe('graphdb');
  });

  it('SHOW DATABASES, SHOW INDEXES YIELD * and SHOW CONSTRAINTS with Neo4j columns', async () => {
    const dbs = await driver.executeQuery("SHOW DATABASES YIELD name, aliases, currentStatus WHERE name = 'neo4j'");
    expect(dbs.records.map((r) => r.toObject())).toEqual([{ name: 'neo4j', aliases: ['graphdb'], currentStatus: 'online' }]);
    await driver.executeQuery('CREATE INDEX dog_name IF NOT EXISTS FOR (d:Dog) ON (d.name)');
    await driver.executeQuery('CREATE CONSTRAINT person_name IF NOT EXISTS FOR (p:Person) REQUIRE p.name IS UNIQUE');
    const idx = await driver.executeQuery("SHOW INDEXES YIELD * WHERE name = 'dog_name'");
    expect(idx.keys).toEqual(['id', 'name', 'state', 'populationPercent', 'type', 'entityType', 'labelsOrTypes', 'properties', 'indexProvider', 'owningConstraint', 'lastRead', 'readCount', 'trackedSince', 'options', 'failureMessage', 'createStatement']);
    expect(idx.records[0].get('options')).toEqual({ indexProvider: 'range-1.0', indexConfig: {} });
    const cons = await driver.executeQuery('SHOW CONSTRAINTS');
    expect(cons.keys).toEqual(['id', 'name', 'type', 'entityType', 'labelsOrTypes', 'properties', 'ownedIndex', 'propertyType']);
    expect(cons.records[0].get('type')).toBe('UNIQUENESS');
  });

  it("element ids from a record find the same node and relationship again with elementId()", async () => {
    const { records } = await driver.executeQuery("MATCH (p:Person {name: 'Andy'})-[r:HAS_DOG]->(d) RETURN p, r, d");
    const p = records[0].get('p') as DriverNode;
    const r = records[0].get('r') as DriverRel;
    const again = await driver.executeQuery('MATCH (x)-[y]->() WHERE elementId(x) = $p AND elementId(y) = $r RETURN x.name AS name, elementId(x) AS id', { p: p.elementId, r: r.elementId });
    expect(again.records.map((x) => x.toObject())).toEqual([{ name: 'Andy', id: p.elementId }]);
    expect(r.startNodeElementId).toBe(p.elementId);
  });

  it('dynamic labels and types from parameters', async () => {
    await driver.executeQuery('MATCH (d:Dog) SET d:$($extra)', { extra: ['Pet', 'Animal'] });
    const { records } = await driver.executeQuery('MATCH (n:$all($labels))<-[:$($type)]-(p) RETURN p.name AS owner, count(n) AS dogs ORDER BY owner', {
      labels: ['Dog', 'Pet'],
      type: 'HAS_DOG',
    });
    expect(records.map((x) => [x.get('owner'), x.get('dogs').toNumber()])).toEqual([
      ['Andy', 1],
      ['Peter', 2],
    ]);
  });

  it('a JavaScript number (a float on the wire) is accepted where a procedure takes an INTEGER', async () => {
    // An auto-commit query, as LangChain sends it: inside a transaction (executeQuery) graphdb refuses a procedure that changes the schema.
    const session = driver.session();
    try {
      await session.run("CALL db.index.vector.createNodeIndex('dogs', 'Dog', 'v', 2, 'cosine')");
    } finally {
      await session.close();
    }
    await driver.executeQuery("MATCH (d:Dog) CALL db.create.setNodeVectorProperty(d, 'v', CASE d.name WHEN 'Fido' THEN [1.0, 0.0] ELSE [0.0, 1.0] END)");
    const { records } = await driver.executeQuery('CALL db.index.vector.queryNodes($index, $k, $v) YIELD node RETURN node.name AS name', { index: 'dogs', k: 1, v: [1, 0] });
    expect(records.map((x) => x.get('name'))).toEqual(['Fido']);
  });

  it('EXISTS and COUNT subqueries with WITH keep the outer variable (each match counted once)', async () => {
    const { records } = await driver.executeQuery(
      "MATCH (person:Person) RETURN person.name AS name, COUNT { MATCH (d:Dog) WITH d MATCH (person)-[:HAS_DOG]->(d) RETURN d } AS dogs, EXISTS { WITH 'Ozzy' AS dog MATCH (person)-->(:Dog {name: dog}) } AS ozzy ORDER BY name",
    );
    expect(records.map((x) => [x.get('name'), x.get('dogs').toNumber(), x.get('ozzy')])).toEqual([
      ['Andy', 1, false],
      ['Peter', 2, true],
    ]);
  });
});

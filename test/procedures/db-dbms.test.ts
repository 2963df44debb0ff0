/**
 * The db.*, dbms.* and tx.* procedures: each with its Neo4j column names, a real result
 * over a small graph, and a call with a bad argument that fails with a typed error.
 */

import { describe, expect, it } from 'vitest';
import { fails, fixture, rows, value } from './catalogue-helpers.js';
import type { Database } from '../../src/engine/database.js';

interface Case {
  name: string;
  columns: string[];
  call: string;
  check(db: Database, result: unknown[][]): void;
  bad: string;
  error: RegExp;
}

const ARITY = /argument/;

const cases: Case[] = [
  { name: 'db.labels', columns: ['label'], call: 'CALL db.labels()', check: (_d, r) => expect(r.flat().sort()).toEqual(['Admin', 'City', 'Person']), bad: 'CALL db.labels(1)', error: ARITY },
  { name: 'db.relationshipTypes', columns: ['relationshipType'], call: 'CALL db.relationshipTypes()', check: (_d, r) => expect(r.flat().sort()).toEqual(['KNOWS', 'LIKES', 'LIVES_IN']), bad: "CALL db.relationshipTypes('x')", error: ARITY },
  { name: 'db.propertyKeys', columns: ['propertyKey'], call: 'CALL db.propertyKeys()', check: (_d, r) => expect(r.flat().sort()).toEqual(['age', 'name', 'w']), bad: 'CALL db.propertyKeys(1, 2)', error: ARITY },
  {
    name: 'db.schema.visualization',
    columns: ['nodes', 'relationships'],
    call: 'CALL db.schema.visualization()',
    check: (_d, r) => {
      const [nodes, rels] = r[0] as [{ labels: string[]; properties: { name: string } }[], { type: string }[]];
      expect(nodes.map((n) => n.properties.name).sort()).toEqual(['Admin', 'City', 'Person']);
      expect(new Set(rels.map((x) => x.type))).toEqual(new Set(['KNOWS', 'LIKES', 'LIVES_IN']));
    },
    bad: 'CALL db.schema.visualization(true)',
    error: ARITY,
  },
  {
    name: 'db.schema.nodeTypeProperties',
    columns: ['nodeType', 'nodeLabels', 'propertyName', 'propertyTypes', 'mandatory'],
    call: "CALL db.schema.nodeTypeProperties() YIELD nodeType, propertyName, propertyTypes, mandatory WHERE nodeType = ':`Person`' RETURN propertyName, propertyTypes, mandatory ORDER BY propertyName",
    check: (_d, r) => expect(r).toEqual([['age', ['Long'], true], ['name', ['String'], true]]),
    bad: 'CALL db.schema.nodeTypeProperties(1)',
    error: ARITY,
  },
  {
    name: 'db.schema.relTypeProperties',
    columns: ['relType', 'propertyName', 'propertyTypes', 'mandatory'],
    call: "CALL db.schema.relTypeProperties() YIELD relType, propertyName, mandatory WHERE relType = ':`LIVES_IN`' OR propertyName = 'w' RETURN relType, propertyName, mandatory ORDER BY relType",
    check: (_d, r) => expect(r).toEqual([[':`KNOWS`', 'w', true], [':`LIKES`', 'w', true], [':`LIVES_IN`', null, false]]),
    bad: 'CALL db.schema.relTypeProperties(1)',
    error: ARITY,
  },
  {
    name: 'db.indexes',
    columns: ['id', 'name', 'state', 'populationPercent', 'uniqueness', 'type', 'entityType', 'labelsOrTypes', 'properties', 'indexProvider'],
    call: 'CALL db.indexes() YIELD name, state, uniqueness, labelsOrTypes, properties RETURN name, state, uniqueness, labelsOrTypes, properties ORDER BY name',
    check: (_d, r) =>
      expect(r).toEqual([
        ['city_name', 'ONLINE', 'UNIQUE', ['City'], ['name']],
        ['person_name', 'ONLINE', 'NONUNIQUE', ['Person'], ['name']],
      ]),
    bad: 'CALL db.indexes(1)',
    error: ARITY,
  },
  {
    name: 'db.constraints',
    columns: ['name', 'description', 'details'],
    call: 'CALL db.constraints() YIELD name, description RETURN name, description',
    check: (_d, r) => expect(r).toEqual([['city_name', 'CONSTRAINT ON ( n:City ) ASSERT n.name IS UNIQUE']]),
    bad: 'CALL db.constraints(1)',
    error: ARITY,
  },
  { name: 'db.awaitIndex', columns: [], call: "CALL db.awaitIndex('person_name', 5)", check: (_d, r) => expect(r).toEqual([]), bad: "CALL db.awaitIndex('no_such_index')", error: /indexName.*no_such_index/ },
  { name: 'db.awaitIndexes', columns: [], call: 'CALL db.awaitIndexes(10)', check: (_d, r) => expect(r).toEqual([]), bad: 'CALL db.awaitIndexes(-1)', error: /timeOutSeconds/ },
  {
    name: 'db.createLabel',
    columns: [],
    call: "CALL db.createLabel('Future')",
    check: (d) => expect(d.graph.labelId('Future')).toBeTypeOf('number'),
    bad: "CALL db.createLabel('')",
    error: /newLabel.*empty/,
  },
  {
    name: 'db.createProperty',
    columns: [],
    call: "CALL db.createProperty('futureKey')",
    check: (d) => expect(d.graph.keyId('futureKey')).toBeTypeOf('number'),
    bad: 'CALL db.createProperty(42)',
    error: /newProperty/,
  },
  {
    name: 'db.createRelationshipType',
    columns: [],
    call: "CALL db.createRelationshipType('FUTURE')",
    check: (d) => expect(d.graph.typeId('FUTURE')).toBeTypeOf('number'),
    bad: 'CALL db.createRelationshipType([1])',
    error: /newRelationshipType/,
  },
  {
    name: 'db.info',
    columns: ['id', 'name', 'creationDate'],
    call: 'CALL db.info()',
    check: (d, r) => {
      expect(r[0][1]).toBe('neo4j');
      expect(String(r[0][0])).toMatch(/^[0-9A-F-]{36}$/);
      expect(Number.isNaN(Date.parse(String(r[0][2])))).toBe(false);
      expect(rows(d, 'CALL db.info()')[0][0]).toBe(r[0][0]);
    },
    bad: 'CALL db.info(1)',
    error: ARITY,
  },
  { name: 'db.ping', columns: ['success'], call: 'CALL db.ping()', check: (_d, r) => expect(r).toEqual([[true]]), bad: 'CALL db.ping(1)', error: ARITY },
  {
    name: 'db.clearQueryCaches',
    columns: ['value'],
    call: 'CALL db.clearQueryCaches()',
    check: (d, r) => {
      expect(String(r[0][0])).toMatch(/^Query caches successfully cleared of \d+ queries\.$/);
      expect(rows(d, 'CALL db.clearQueryCaches()')).toEqual([['Query caches successfully cleared of 1 queries.']]);
    },
    bad: 'CALL db.clearQueryCaches(1)',
    error: ARITY,
  },
  { name: 'db.checkpoint', columns: ['success', 'message'], call: 'CALL db.checkpoint()', check: (_d, r) => expect(r).toEqual([[true, 'In-memory database: there is no log to checkpoint.']]), bad: 'CALL db.checkpoint(1)', error: ARITY },
  {
    name: 'db.procedures',
    columns: ['name', 'signature', 'description', 'mode', 'worksOnSystem'],
    call: "CALL db.procedures() YIELD name, signature, mode WHERE name = 'db.labels' RETURN name, signature, mode",
    check: (_d, r) => expect(r).toEqual([['db.labels', 'db.labels() :: (label :: STRING)', 'READ']]),
    bad: 'CALL db.procedures(1)',
    error: ARITY,
  },
  {
    name: 'dbms.procedures',
    columns: ['name', 'signature', 'description', 'mode', 'worksOnSystem'],
    call: "CALL dbms.procedures() YIELD name, mode WHERE name STARTS WITH 'apoc.create.' RETURN DISTINCT mode",
    check: (_d, r) => expect(r.flat().sort()).toEqual(['READ', 'WRITE']),
    bad: 'CALL dbms.procedures(1)',
    error: ARITY,
  },
  {
    name: 'dbms.functions',
    columns: ['name', 'signature', 'category', 'description', 'aggregating'],
    call: "CALL dbms.functions() YIELD name, aggregating WHERE name IN ['apoc.agg.median', 'apoc.coll.sum', 'all'] RETURN name, aggregating ORDER BY name",
    check: (_d, r) => expect(r).toEqual([['all', false], ['apoc.agg.median', true], ['apoc.coll.sum', false]]),
    bad: 'CALL dbms.functions(1)',
    error: ARITY,
  },
  {
    name: 'dbms.components',
    columns: ['name', 'versions', 'edition'],
    call: 'CALL dbms.components() YIELD name, versions, edition UNWIND versions AS version RETURN name, version, edition',
    check: (_d, r) => {
      expect(r[0]).toEqual(['Neo4j Kernel', expect.stringMatching(/^5\.\d+\.\d+$/), 'community']);
      expect(r[1][0]).toBe('graphdb');
    },
    bad: 'CALL dbms.components(1)',
    error: ARITY,
  },
  { name: 'dbms.info', columns: ['id', 'name', 'creationDate', 'executionProvider', 'cores', 'totalMemory', 'gpu', 'onnxRuntime'], call: 'CALL dbms.info()', check: (_d, r) => expect(r[0][1]).toBe('graphdb'), bad: 'CALL dbms.info(1)', error: ARITY },
  {
    name: 'dbms.clientConfig',
    columns: ['name', 'description', 'value', 'dynamic'],
    call: 'CALL dbms.clientConfig()',
    check: (_d, r) => expect(r.map((x) => x[0])).toContain('browser.allow_outgoing_connections'),
    bad: 'CALL dbms.clientConfig(1)',
    error: ARITY,
  },
  {
    name: 'dbms.listConfig',
    columns: ['name', 'description', 'value', 'dynamic'],
    call: "CALL dbms.listConfig('timeout') YIELD name, value RETURN name, value",
    check: (_d, r) => expect(r).toEqual([['db.transaction.timeout', '0']]),
    bad: 'CALL dbms.listConfig(5)',
    error: /searchString/,
  },
  { name: 'dbms.showCurrentUser', columns: ['username', 'roles', 'flags'], call: 'CALL dbms.showCurrentUser()', check: (_d, r) => expect(r).toEqual([['neo4j', ['admin'], []]]), bad: 'CALL dbms.showCurrentUser(1)', error: ARITY },
  {
    name: 'tx.setMetaData',
    columns: [],
    call: "CALL tx.setMetaData({app: 'test', n: 1}) CALL tx.getMetaData() YIELD metadata RETURN metadata",
    check: (d, r) => {
      expect(r).toEqual([[{ app: 'test', n: 1 }]]);
      // Metadata belongs to one transaction: the next query starts without it.
      expect(value(d, 'CALL tx.getMetaData() YIELD metadata RETURN metadata')).toEqual({});
    },
    bad: "CALL tx.setMetaData('app')",
    error: /data/,
  },
  { name: 'tx.getMetaData', columns: ['metadata'], call: 'CALL tx.getMetaData()', check: (_d, r) => expect(r).toEqual([[{}]]), bad: 'CALL tx.getMetaData(1)', error: ARITY },
];

function db(): Database {
  const d = fixture();
  d.executeSync('CREATE INDEX person_name FOR (p:Person) ON (p.name)');
  d.executeSync('CREATE CONSTRAINT city_name FOR (c:City) REQUIRE c.name IS UNIQUE');
  return d;
}

describe('db.*, dbms.*, tx.* procedures', () => {
  it.each(cases)('$name: columns, result and a bad argument', (c) => {
    const d = db();
    const def = d.procedures.require(c.name);
    expect(def.outputs.map((o) => o.name)).toEqual(c.columns);
    c.check(d, rows(d, c.call));
    fails(d, c.bad, c.error);
  });

  it('covers every db.*, dbms.* and tx.* procedure (vector and full-text ones are tested in test/vector, replication in test/replication)', () => {
    const names = db()
      .procedures.list()
      .map((p) => p.name)
      .filter((n) => /^(db|dbms|tx)\./.test(n) && !/^db\.(index\.|create\.set|replicationStatus)/.test(n));
    expect(names.sort()).toEqual(cases.map((c) => c.name).sort());
  });
});

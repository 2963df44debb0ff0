/**
 * PROFILE and notifications at the Bolt door, as neo4j-driver reads them: PROFILE answers the
 * query's own records and `summary.profile` with rows per operator (auto-commit and inside a
 * transaction, as executeQuery runs it); EXPLAIN and PROFILE warn of a Cartesian product and
 * of unknown labels and relationship types in `summary.notifications`, with positions.
 * Through the real `graphdb --bolt` binary; assumes `npm run build`.
 */

import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from './helpers.js';

const KEY = 'profile-key';
let servers: SpawnedServers;
let driver: Driver;

interface Profiled {
  operatorType: string;
  rows: number;
  dbHits: number;
  time?: number;
  children: Profiled[];
}

beforeAll(async () => {
  servers = await spawnGraphdb(['--bolt', '0', '--api-key', KEY, '--workers', '1']);
  driver = neo4j.driver(`bolt://127.0.0.1:${servers.ports.bolt}`, neo4j.auth.basic('u', KEY));
  await driver.executeQuery("UNWIND range(1, 5) AS i CREATE (:Pf {i: i})-[:LINK]->(:Pg {i: i})");
}, 30_000);

afterAll(async () => {
  await driver?.close();
  await servers?.stop();
});

function flatten(p: Profiled): Profiled[] {
  return [p, ...p.children.flatMap(flatten)];
}

describe('PROFILE', () => {
  it('answers the records and the profile with rows per operator (executeQuery: in a transaction)', async () => {
    const { records, summary } = await driver.executeQuery('PROFILE MATCH (a:Pf)-[:LINK]->(b:Pg) WHERE a.i > 2 RETURN a.i AS i ORDER BY i');
    expect(records.map((r) => r.get('i').toNumber())).toEqual([3, 4, 5]);
    expect(summary.hasProfile()).toBe(true);
    const root = summary.profile as unknown as Profiled;
    expect(root.operatorType).toMatch(/^ProduceResults@graphdb$/);
    expect(root.rows).toBe(3);
    const scan = flatten(root).find((op) => op.operatorType.startsWith('NodeByLabelScan'));
    expect(scan?.rows).toBe(5);
    expect(flatten(root).every((op) => op.dbHits === 0)).toBe(true);
  });

  it('auto-commit PROFILE (session.run) too, and a PROFILE that writes applies once', async () => {
    const session = driver.session();
    try {
      const r = await session.run('PROFILE UNWIND range(1, 4) AS x RETURN x');
      expect(r.records).toHaveLength(4);
      expect((r.summary.profile as unknown as Profiled).rows).toBe(4);
      const w = await session.run("PROFILE CREATE (n:PfOnce {v: 1}) RETURN n.v AS v");
      expect(w.records[0].get('v').toNumber()).toBe(1);
      expect(w.summary.counters.updates().nodesCreated).toBe(1);
      const c = await session.run('MATCH (n:PfOnce) RETURN count(n) AS c');
      expect(c.records[0].get('c').toNumber()).toBe(1);
    } finally {
      await session.close();
    }
  });
});

describe('notifications', () => {
  it('EXPLAIN of disconnected patterns warns of a Cartesian product', async () => {
    const { summary } = await driver.executeQuery('EXPLAIN MATCH (a:Pf), (b:Pg) RETURN a, b');
    const codes = summary.notifications.map((n) => n.code);
    expect(codes).toContain('Neo.ClientNotification.Statement.CartesianProduct');
    const n = summary.notifications.find((x) => x.code.endsWith('CartesianProduct'))!;
    expect(n.severityLevel).toBe('WARNING');
    expect(n.rawCategory).toBe('PERFORMANCE');
    const connected = await driver.executeQuery('EXPLAIN MATCH (a:Pf)-[:LINK]->(b:Pg) RETURN a, b');
    expect(connected.summary.notifications).toEqual([]);
  });

  it('an unknown label or relationship type is warned of, with its position', async () => {
    const query = 'PROFILE MATCH (a:Pf)-[:NOPE_TYPE]->(b:Nolabel) RETURN a';
    const { records, summary } = await driver.executeQuery(query);
    expect(records).toEqual([]);
    const label = summary.notifications.find((n) => n.code === 'Neo.ClientNotification.Statement.UnknownLabelWarning');
    expect(label?.description).toContain('Nolabel');
    expect(label?.position).toMatchObject({ offset: query.indexOf(':Nolabel'), line: 1, column: query.indexOf(':Nolabel') + 1 });
    const type = summary.notifications.find((n) => n.code === 'Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning');
    expect(type?.description).toContain('NOPE_TYPE');
    // Known ones raise nothing; a label in a CREATE is no warning.
    expect((await driver.executeQuery('EXPLAIN MATCH (a:Pf)-[:LINK]->(b) RETURN b')).summary.notifications).toEqual([]);
    expect((await driver.executeQuery('EXPLAIN CREATE (:BrandNew)')).summary.notifications).toEqual([]);
  });
});

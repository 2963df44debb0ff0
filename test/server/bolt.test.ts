/**
 * The Bolt door through the real `graphdb` binary and Neo4j's own JavaScript driver
 * (`neo4j-driver`): bolt:// and neo4j:// URLs, every value type as a parameter and back,
 * nodes/relationships/paths, managed and explicit transactions, errors with Neo4j's codes,
 * authentication by the API key. RESET during a long query, bad handshakes and garbage are
 * spoken on a raw socket (the driver offers no way to send them). Assumes `npm run build`.
 */

import neo4j, { type Driver, int, isInt, Neo4jError } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackValue } from '../../src/server/bolt/packstream.js';
import { FAILURE, IGNORED, MAGIC, map, message, RawBolt, rawLoggedIn, RECORD, SUCCESS } from './bolt-raw.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { Structure } from '../../src/server/bolt/packstream.js';
import { converse, garbage, spawnGraphdb, type SpawnedServers } from './helpers.js';

const KEY = 'bolt-test-key';
/** Checks its deadline all along, and runs for minutes. */
const LONG = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c';

let servers: SpawnedServers;
let driver: Driver;
const url = (scheme: string): string => `${scheme}://127.0.0.1:${servers.ports.bolt}`;

beforeAll(async () => {
  servers = await spawnGraphdb(['--bolt', '0', '--http', '0', '--serve', '0', '--pg', '0', '--api-key', KEY, '--workers', '1', '--query-timeout', '120000']);
  driver = neo4j.driver(url('bolt'), neo4j.auth.basic('anyone', KEY));
}, 30_000);

afterAll(async () => {
  await driver?.close();
  await servers?.stop();
});

describe('connecting', () => {
  it('answers a bolt:// driver as a Neo4j 5 server over Bolt 5.8', async () => {
    const info = await driver.getServerInfo();
    // The same Neo4j version dbms.components() reports.
    const { records } = await driver.executeQuery('CALL dbms.components() YIELD versions RETURN versions[0] AS v');
    expect(info.agent).toBe(`Neo4j/${records[0].get('v')}`);
    expect(info.protocolVersion).toMatchObject({ major: 5, minor: 8 });
  });

  it('serves a neo4j:// (routing) driver: the routing table names this server', async () => {
    const routed = neo4j.driver(url('neo4j'), neo4j.auth.basic('u', KEY));
    try {
      await routed.verifyConnectivity();
      const { records } = await routed.executeQuery('RETURN 40 + 2 AS n', {}, { routing: neo4j.routing.READ });
      expect(records[0].get('n').toNumber()).toBe(42);
      const written = await routed.executeQuery('CREATE (n:Routed) RETURN count(n) AS c', {}, { routing: neo4j.routing.WRITE });
      expect(written.summary.counters.updates().nodesCreated).toBe(1);
    } finally {
      await routed.close();
    }
  });

  it('refuses a wrong key with Neo.ClientError.Security.Unauthorized, and keeps serving', async () => {
    const wrong = neo4j.driver(url('bolt'), neo4j.auth.basic('anyone', 'not-the-key'));
    try {
      await expect(wrong.verifyConnectivity()).rejects.toMatchObject({ code: 'Neo.ClientError.Security.Unauthorized' });
    } finally {
      await wrong.close();
    }
    const none = neo4j.driver(url('bolt'));
    try {
      await expect(none.verifyConnectivity()).rejects.toMatchObject({ code: 'Neo.ClientError.Security.Unauthorized' });
    } finally {
      await none.close();
    }
    const { records } = await driver.executeQuery('RETURN 1 AS one');
    expect(records[0].get('one').toNumber()).toBe(1);
  });
});

describe('--bolt-password', () => {
  it('replaces the API key as the Bolt password', async () => {
    const other = await spawnGraphdb(['--bolt', '0', '--api-key', 'http-key', '--bolt-password', 'bolt-secret', '--workers', '0']);
    const right = neo4j.driver(`bolt://127.0.0.1:${other.ports.bolt}`, neo4j.auth.basic('neo4j', 'bolt-secret'));
    const wrong = neo4j.driver(`bolt://127.0.0.1:${other.ports.bolt}`, neo4j.auth.basic('neo4j', 'http-key'));
    try {
      await right.verifyConnectivity();
      await expect(wrong.verifyConnectivity()).rejects.toMatchObject({ code: 'Neo.ClientError.Security.Unauthorized' });
    } finally {
      await right.close();
      await wrong.close();
      await other.stop();
    }
  }, 30_000);
});

describe('TLS', () => {
  it('--bolt-tls-cert/--bolt-tls-key: bolt+ssc:// connects; plain bolt:// to that port fails without harm', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-bolt-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost'], { stdio: 'ignore' });
      const tls = await spawnGraphdb(['--bolt', '0', '--bolt-tls-cert', join(dir, 'cert.pem'), '--bolt-tls-key', join(dir, 'key.pem'), '--api-key', KEY, '--workers', '0']);
      expect(tls.stderr()).toMatch(/bolt\+s:\/\//);
      const secure = neo4j.driver(`bolt+ssc://127.0.0.1:${tls.ports.bolt}`, neo4j.auth.basic('u', KEY));
      const plain = neo4j.driver(`bolt://127.0.0.1:${tls.ports.bolt}`, neo4j.auth.basic('u', KEY), { connectionTimeout: 3000 });
      try {
        const { records } = await secure.executeQuery('RETURN $x AS x', { x: 'over TLS' });
        expect(records[0].get('x')).toBe('over TLS');
        await expect(plain.verifyConnectivity()).rejects.toBeDefined();
        await secure.verifyConnectivity();
        expect(tls.child.exitCode).toBeNull();
      } finally {
        await secure.close();
        await plain.close();
        await tls.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('values', () => {
  /** Each parameter comes back as the same value (compared by the driver's own text form, which spells every field). */
  const cases: [string, unknown][] = [
    ['integer', int(7)],
    ['large integer', int('9007199254740993')],
    ['negative integer', int(-129)],
    ['64-bit extreme', int('-9223372036854775808')],
    ['float', 1.5],
    ['integral float', 2.0],
    ['string', 'héllo ✓'],
    ['boolean', true],
    ['null', null],
    ['list', [int(1), 'two', [3.5]]],
    ['map', { a: int(1), b: { c: 'd' } }],
    ['date', new neo4j.types.Date(2024, 2, 29)],
    ['local time', new neo4j.types.LocalTime(13, 14, 15, 123456789)],
    ['time', new neo4j.types.Time(13, 14, 15, 5, 3600)],
    ['local date-time', new neo4j.types.LocalDateTime(1969, 7, 20, 20, 17, 40, 1)],
    ['date-time with offset', new neo4j.types.DateTime(2024, 1, 2, 3, 4, 5, 6, -18000)],
    ['date-time with zone', new neo4j.types.DateTime(2024, 7, 1, 12, 0, 0, 0, 3600, 'Europe/Lisbon')],
    ['duration', new neo4j.types.Duration(14, 3, 3661, 500)],
    ['negative duration', new neo4j.types.Duration(0, 0, -2, 250_000_000)],
    ['cartesian point', new neo4j.types.Point(int(7203), 1.5, -2)],
    ['3D point', new neo4j.types.Point(int(9157), 1, 2, 3)],
    ['WGS-84 point', new neo4j.types.Point(int(4326), -9.14, 38.72)],
    ['WGS-84 3D point', new neo4j.types.Point(int(4979), -9.14, 38.72, 100)],
  ];

  const text = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isInt(x) ? `int:${x.toString()}` : typeof x === 'object' && x !== null && 'toString' in x && x.constructor.name !== 'Object' && !Array.isArray(x) ? `${x.constructor.name}:${String(x)}` : x));

  it.each(cases)('a %s parameter comes back equal', async (_name, value) => {
    const { records } = await driver.executeQuery('RETURN $v AS v', { v: value });
    expect(text(records[0].get('v'))).toBe(text(value));
  });

  it('keeps the types graphdb computes: a temporal built in Cypher reads as the driver type', async () => {
    const { records } = await driver.executeQuery("RETURN date('2024-03-01') AS d, datetime('2024-03-01T10:00:00[Europe/Paris]') AS z, duration('PT1.5S') AS du, point({latitude: 1, longitude: 2}) AS p");
    const r = records[0];
    expect(r.get('d').toString()).toBe('2024-03-01');
    expect(r.get('z').timeZoneId).toBe('Europe/Paris');
    expect(r.get('z').hour.toNumber()).toBe(10);
    expect(r.get('du').seconds.toNumber()).toBe(1);
    expect(r.get('du').nanoseconds.toNumber()).toBe(500_000_000);
    expect(r.get('p').srid.toNumber()).toBe(4326);
  });

  it('sends nodes, relationships and paths with element ids', async () => {
    const { records, summary } = await driver.executeQuery("CREATE p = (a:Person {name: 'Ann'})-[r:KNOWS {since: 2020}]->(b:Person:Admin {name: 'Bo'}) RETURN a, r, b, p");
    const [a, r, b, p] = ['a', 'r', 'b', 'p'].map((k) => records[0].get(k));
    expect(a.labels).toEqual(['Person']);
    expect(a.properties).toEqual({ name: 'Ann' });
    expect(typeof a.elementId).toBe('string');
    expect(b.labels.sort()).toEqual(['Admin', 'Person']);
    expect(r.type).toBe('KNOWS');
    expect(r.properties.since.toNumber()).toBe(2020);
    expect(r.startNodeElementId).toBe(a.elementId);
    expect(r.endNodeElementId).toBe(b.elementId);
    expect(p.segments).toHaveLength(1);
    expect(p.start.elementId).toBe(a.elementId);
    expect(p.end.elementId).toBe(b.elementId);
    expect(p.segments[0].relationship.elementId).toBe(r.elementId);
    const counters = summary.counters.updates();
    expect(counters).toMatchObject({ nodesCreated: 2, relationshipsCreated: 1, labelsAdded: 3, propertiesSet: 3 });
    expect(summary.queryType).toBe('rw');

    // A path walked against a relationship's direction keeps its ends right.
    const back = await driver.executeQuery("MATCH p = (:Person {name: 'Bo'})<-[:KNOWS]-(:Person {name: 'Ann'}) RETURN p");
    const seg = back.records[0].get('p').segments[0];
    expect(seg.start.properties.name).toBe('Bo');
    expect(seg.end.properties.name).toBe('Ann');
    expect(seg.relationship.startNodeElementId).toBe(a.elementId);
  });

  it('streams a result in PULL batches (fetchSize)', async () => {
    const session = driver.session({ fetchSize: 100 });
    try {
      const result = await session.run('UNWIND range(1, 2500) AS i RETURN i');
      expect(result.records).toHaveLength(2500);
      expect(result.records[2499].get('i').toNumber()).toBe(2500);
    } finally {
      await session.close();
    }
  });
});

describe('transactions', () => {
  it('executeWrite and executeRead run managed transactions', async () => {
    const session = driver.session();
    try {
      await session.executeWrite((tx) => tx.run('CREATE (:Counter {v: 1})'));
      await session.executeWrite(async (tx) => {
        const v = (await tx.run('MATCH (c:Counter) RETURN c.v AS v')).records[0].get('v').toNumber();
        await tx.run('MATCH (c:Counter) SET c.v = $v', { v: int(v + 1) });
      });
      const v = await session.executeRead(async (tx) => (await tx.run('MATCH (c:Counter) RETURN c.v AS v')).records[0].get('v').toNumber());
      expect(v).toBe(2);
    } finally {
      await session.close();
    }
  });

  it('a write conflict is a Neo.TransientError, so executeWrite retries it: no lost update', async () => {
    await driver.executeQuery("CREATE (:Race {v: 0})");
    const sessions = [driver.session(), driver.session()];
    // Both read before either writes (first attempts only), so one of them must conflict.
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothRead = new Promise<void>((r) => (release = r));
    let attempts = 0;
    const errors: string[] = [];
    try {
      await Promise.all(
        sessions.map((session) =>
          session.executeWrite(
            async (tx) => {
              attempts++;
              const v = (await tx.run('MATCH (r:Race) RETURN r.v AS v')).records[0].get('v').toNumber();
              if (arrived < 2) {
                arrived++;
                if (arrived === 2) release();
                await bothRead;
              }
              await tx.run('MATCH (r:Race) SET r.v = $v', { v: int(v + 1) }).catch((e: Neo4jError) => {
                errors.push(e.code);
                throw e;
              });
            },
            { timeout: 20_000 },
          ),
        ),
      );
    } finally {
      await Promise.all(sessions.map((s) => s.close()));
    }
    const { records } = await driver.executeQuery('MATCH (r:Race) RETURN r.v AS v');
    expect(records[0].get('v').toNumber()).toBe(2);
    expect(attempts).toBeGreaterThan(2);
    expect(errors.every((c) => c.startsWith('Neo.TransientError.Transaction.'))).toBe(true);
  }, 30_000);

  it('an explicit transaction commits together, or rolls back leaving nothing', async () => {
    const session = driver.session();
    try {
      const tx = await session.beginTransaction();
      await tx.run('CREATE (:Tx {k: 1})');
      await tx.run('CREATE (:Tx {k: 2})');
      // Not visible to another session before COMMIT.
      const outside = await driver.executeQuery('MATCH (t:Tx) RETURN count(t) AS c');
      expect(outside.records[0].get('c').toNumber()).toBe(0);
      const inside = await tx.run('MATCH (t:Tx) RETURN count(t) AS c');
      expect(inside.records[0].get('c').toNumber()).toBe(2);
      await tx.commit();
      expect(session.lastBookmarks().length).toBe(1);

      const undone = await session.beginTransaction();
      await undone.run('CREATE (:Tx {k: 3})');
      await undone.rollback();
      const after = await driver.executeQuery('MATCH (t:Tx) RETURN count(t) AS c');
      expect(after.records[0].get('c').toNumber()).toBe(2);
    } finally {
      await session.close();
    }
  });

  it('interleaves two results of one transaction, each pulled in batches by its qid', async () => {
    const session = driver.session({ fetchSize: 10 });
    try {
      const tx = await session.beginTransaction();
      const first = tx.run('UNWIND range(1, 35) AS i RETURN i');
      const second = tx.run('UNWIND range(1, 25) AS j RETURN j * 2 AS j');
      const [b, a] = await Promise.all([second, first]);
      expect(a.records.map((r) => r.get('i').toNumber())).toEqual(Array.from({ length: 35 }, (_, k) => k + 1));
      expect(b.records.map((r) => r.get('j').toNumber())).toEqual(Array.from({ length: 25 }, (_, k) => 2 * (k + 1)));
      await tx.commit();
    } finally {
      await session.close();
    }
  });

  it('a schema change runs as a managed transaction (executeQuery); a broken constraint fails with ConstraintValidationFailed', async () => {
    await driver.executeQuery('CREATE CONSTRAINT bolt_unique IF NOT EXISTS FOR (u:BoltUser) REQUIRE u.id IS UNIQUE');
    await driver.executeQuery('CREATE (:BoltUser {id: 1})');
    await expect(driver.executeQuery('CREATE (:BoltUser {id: 1})')).rejects.toMatchObject({ code: 'Neo.ClientError.Schema.ConstraintValidationFailed' });
  });

  it("Neo4j's vector index procedure runs as a managed transaction too (executeQuery), as Neo4j accepts it", async () => {
    await driver.executeQuery("CALL db.index.vector.createNodeIndex('bolt_vec', 'BoltDoc', 'embedding', 3, 'cosine')");
    await driver.executeQuery('CREATE (:BoltDoc {id: 1, embedding: [1.0, 0.0, 0.0]}), (:BoltDoc {id: 2, embedding: [0.0, 1.0, 0.0]})');
    const { records } = await driver.executeQuery("CALL db.index.vector.queryNodes('bolt_vec', 1, [0.9, 0.1, 0.0]) YIELD node RETURN node.id AS id");
    expect(records.map((r) => Number(r.get('id')))).toEqual([1]);
  });
});

describe('errors', () => {
  it('a syntax error has its Neo4j code and the session stays usable', async () => {
    const session = driver.session();
    try {
      const err = await session.run('RETRUN 1').then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(Neo4jError);
      expect(err).toMatchObject({ code: 'Neo.ClientError.Statement.SyntaxError' });
      expect((err as Neo4jError).message).toMatch(/RETRUN/);
      const ok = await session.run('RETURN 3 AS x');
      expect(ok.records[0].get('x').toNumber()).toBe(3);
    } finally {
      await session.close();
    }
  });

  it('a missing parameter and an unknown procedure have their Neo4j codes', async () => {
    await expect(driver.executeQuery('RETURN $nope AS x')).rejects.toMatchObject({ code: 'Neo.ClientError.Statement.ParameterMissing' });
    await expect(driver.executeQuery('CALL no.such.procedure()')).rejects.toMatchObject({ code: 'Neo.ClientError.Procedure.ProcedureNotFound' });
  });

  it('an error inside a transaction rolls it back', async () => {
    const session = driver.session();
    try {
      const tx = await session.beginTransaction();
      await tx.run('CREATE (:Doomed)');
      await expect(tx.run('RETURN 1/0 AS boom')).rejects.toMatchObject({ code: expect.stringMatching(/^Neo\.ClientError\./) });
      await tx.rollback().catch(() => undefined);
      const { records } = await driver.executeQuery('MATCH (d:Doomed) RETURN count(d) AS c');
      expect(records[0].get('c').toNumber()).toBe(0);
    } finally {
      await session.close();
    }
  });
});

describe('the surface drivers and tools call first', () => {
  it('SHOW DATABASES lists neo4j (alias graphdb) and system with Neo4j 5 columns', async () => {
    const { records, keys } = await driver.executeQuery('SHOW DATABASES');
    expect(keys).toEqual(expect.arrayContaining(['name', 'type', 'aliases', 'access', 'address', 'role', 'currentStatus', 'default', 'home']));
    expect(records.map((r) => r.get('name'))).toEqual(['neo4j', 'system']);
    expect(records[0].get('aliases')).toEqual(['graphdb']);
    expect(records[0].get('default')).toBe(true);
    const home = await driver.executeQuery('SHOW HOME DATABASE YIELD name, currentStatus');
    expect(home.records.map((r) => r.toObject())).toEqual([{ name: 'neo4j', currentStatus: 'online' }]);
    const one = await driver.executeQuery('SHOW DATABASE graphdb YIELD name');
    expect(one.records.map((r) => r.get('name'))).toEqual(['neo4j']);
  });

  it('answers dbms.components(), db.labels(), db.relationshipTypes() and db.propertyKeys()', async () => {
    const components = await driver.executeQuery('CALL dbms.components() YIELD name, versions, edition RETURN name, versions, edition');
    expect(components.records[0].get('versions')[0]).toMatch(/^5\./);
    await driver.executeQuery("CREATE (:Surface {prop: 1})-[:SURFACE_REL]->(:Surface)");
    const labels = await driver.executeQuery('CALL db.labels() YIELD label RETURN collect(label) AS l');
    expect(labels.records[0].get('l')).toContain('Surface');
    const types = await driver.executeQuery('CALL db.relationshipTypes() YIELD relationshipType RETURN collect(relationshipType) AS t');
    expect(types.records[0].get('t')).toContain('SURFACE_REL');
    const keys = await driver.executeQuery('CALL db.propertyKeys() YIELD propertyKey RETURN collect(propertyKey) AS k');
    expect(keys.records[0].get('k')).toContain('prop');
  });

  it('EXPLAIN answers no records and the plan in the summary, as Neo4j does', async () => {
    const { records, summary } = await driver.executeQuery('EXPLAIN MATCH (n:Surface) WHERE n.prop = 1 RETURN n');
    expect(records).toHaveLength(0);
    expect(summary.hasPlan()).toBe(true);
    const plan = summary.plan as unknown as { operatorType: string; children: { operatorType: string }[] };
    expect(plan.operatorType).toMatch(/^ProduceResults/);
    expect(plan.children.length).toBeGreaterThan(0);
  });

  it('a database other than neo4j/graphdb/system is DatabaseNotFound', async () => {
    await expect(driver.executeQuery('RETURN 1', {}, { database: 'nope' })).rejects.toMatchObject({ code: 'Neo.ClientError.Database.DatabaseNotFound' });
    const { records } = await driver.executeQuery('RETURN 1 AS one', {}, { database: 'graphdb' });
    expect(records[0].get('one').toNumber()).toBe(1);
  });
});

async function loggedIn(): Promise<RawBolt> {
  return rawLoggedIn(servers.ports.bolt!, KEY);
}

describe('protocol edges (raw socket)', () => {
  it("a pipelined RUN+PULL is answered in one write: RUN's SUCCESS, the records and the summary arrive together", async () => {
    const c = await loggedIn();
    try {
      for (const [query, rows] of [['RETURN 1 AS one', 1], ['UNWIND range(1, 50) AS x RETURN x', 50]] as const) {
        const before = c.reads;
        c.write(Buffer.concat([message(0x10, query, map({}), map({})), message(0x3f, map({ n: 1000 }))]));
        expect((await c.next()).tag).toBe(SUCCESS);
        for (let i = 0; i < rows; i++) expect((await c.next()).tag).toBe(RECORD);
        expect((await c.next()).tag).toBe(SUCCESS);
        // One write of a few hundred bytes on loopback is one read; a write per message was rows + 2.
        expect(c.reads - before).toBe(1);
      }
    } finally {
      c.close();
    }
  });

  it('RESET stops a long query at once; the connection and the worker serve again', async () => {
    const c = await loggedIn();
    try {
      c.write(message(0x10, LONG, map({}), map({})));
      c.write(message(0x3f, map({ n: -1 })));
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      c.write(message(0x0f));
      const run = await c.next(10_000);
      const pull = await c.next(10_000);
      const reset = await c.next(10_000);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect([FAILURE, IGNORED]).toContain(run.tag);
      expect(pull.tag).toBe(IGNORED);
      expect(reset.tag).toBe(SUCCESS);
      // The only query worker is free again: a read answers promptly on the same connection.
      c.write(message(0x10, 'RETURN 5 AS five', map({}), map({ mode: 'r' })));
      c.write(message(0x3f, map({ n: -1 })));
      expect((await c.next()).tag).toBe(SUCCESS);
      const rec = await c.next();
      expect(rec.tag).toBe(RECORD);
      expect(rec.fields[0]).toEqual([5]);
      expect((await c.next()).tag).toBe(SUCCESS);
    } finally {
      c.close();
    }
  }, 30_000);

  it('a client that disconnects during a long query stops it: the only worker serves the next read', async () => {
    const c = await loggedIn();
    c.write(message(0x10, LONG, map({}), map({})));
    c.write(message(0x3f, map({ n: -1 })));
    await new Promise((r) => setTimeout(r, 500));
    c.close();
    const t0 = Date.now();
    // An auto-commit read (not a transaction, which runs on the primary) goes to the worker.
    const session = driver.session({ defaultAccessMode: neo4j.session.READ });
    try {
      const { records } = await session.run('UNWIND range(1, 1000) AS i RETURN count(i) AS c');
      expect(records[0].get('c').toNumber()).toBe(1000);
    } finally {
      await session.close();
    }
    expect(Date.now() - t0).toBeLessThan(5000);
  }, 30_000);

  it('after a FAILURE everything is IGNORED until RESET', async () => {
    const c = await loggedIn();
    try {
      c.write(message(0x10, 'RETRUN 1', map({}), map({})));
      c.write(message(0x3f, map({ n: -1 })));
      c.write(message(0x10, 'RETURN 1', map({}), map({})));
      const failure = await c.next();
      expect(failure.tag).toBe(FAILURE);
      expect((failure.fields[0] as Map<string, PackValue>).get('code')).toBe('Neo.ClientError.Statement.SyntaxError');
      expect((await c.next()).tag).toBe(IGNORED);
      expect((await c.next()).tag).toBe(IGNORED);
      c.write(message(0x0f));
      expect((await c.next()).tag).toBe(SUCCESS);
      c.write(message(0x10, 'RETURN 1 AS one', map({}), map({})));
      expect((await c.next()).tag).toBe(SUCCESS);
    } finally {
      c.close();
    }
  });

  it('negotiates Bolt 4.4 when that is all a client offers, and declines the manifest handshake alone', async () => {
    const c = await RawBolt.open(servers.ports.bolt!);
    c.write(Buffer.from([...MAGIC, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    expect(await c.version()).toEqual([0, 0, 4, 4]);
    // 4.4: the credentials come in HELLO.
    c.write(message(0x01, map({ user_agent: 'raw-test/1', scheme: 'basic', principal: 'x', credentials: KEY, patch_bolt: ['utc'] })));
    const hello = await c.next();
    expect(hello.tag).toBe(SUCCESS);
    expect((hello.fields[0] as Map<string, PackValue>).get('patch_bolt')).toEqual(['utc']);
    c.close();
    const m = await converse(servers.ports.bolt!, [Buffer.from([...MAGIC, 0, 0, 1, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])]);
    expect([...Buffer.from(m.text, 'latin1')]).toEqual([0, 0, 0, 0]);
    expect(m.closedByServer).toBe(true);
  });

  it('refuses a bad preamble, garbage, a huge message and a malformed one without harm to the server', async () => {
    const http = await converse(servers.ports.bolt!, ['GET / HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(http.closedByServer).toBe(true);
    for (let seed = 1; seed <= 5; seed++) {
      const g = await converse(servers.ports.bolt!, [garbage(seed, 4096)], { quietMs: 3000 });
      expect(g.closedByServer).toBe(true);
    }
    const old = await converse(servers.ports.bolt!, [Buffer.from([...MAGIC, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0])]);
    expect(old.closedByServer).toBe(true);

    // After the handshake: a message past the size limit, then a message that is not PackStream.
    const big = await loggedIn();
    const chunk = Buffer.alloc(2 + 0xffff);
    chunk.writeUInt16BE(0xffff, 0);
    for (let i = 0; i < 260; i++) big.write(chunk);
    const tooLarge = await big.next();
    expect(tooLarge.tag).toBe(FAILURE);
    big.close();
    const bad = await loggedIn();
    bad.write(Buffer.from([0, 3, 0xb1, 0x10, 0xd2, 0, 0]));
    const malformed = await bad.next();
    expect(malformed.tag).toBe(FAILURE);
    expect((malformed.fields[0] as Map<string, PackValue>).get('code')).toBe('Neo.ClientError.Request.InvalidFormat');
    bad.close();

    expect(servers.child.exitCode).toBeNull();
    const { records } = await driver.executeQuery('RETURN "still here" AS s');
    expect(records[0].get('s')).toBe('still here');
  }, 60_000);

  it('random sequences of well-formed messages in any state get answers or a close, never a crash or a hang', async () => {
    const field: fc.Arbitrary<PackValue> = fc.oneof(
      fc.constantFrom<PackValue>(null, -1, 0, 5, 'RETURN 1 AS x', 'CREATE (:Fuzz)', 'RETRUN', 'MATCH (n) RETURN n LIMIT 3', 'neo4j', 'nope', true),
      fc.constantFrom(
        map({}), map({ n: -1 }), map({ n: 1, qid: 0 }), map({ qid: 7 }), map({ mode: 'r' }), map({ db: 'nope' }), map({ tx_timeout: 1 }),
        map({ scheme: 'basic', principal: 'u', credentials: KEY }), map({ scheme: 'none' }), map({ bookmarks: ['x'] }),
      ),
    );
    const tags = fc.constantFrom(0x01, 0x02, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x2f, 0x3f, 0x54, 0x66, 0x6a, 0x6b, 0x00, 0x7f, 0x44);
    const msg = fc.tuple(tags, fc.array(field, { maxLength: 4 })).map(([t, fs]) => new Structure(t, fs));
    await fc.assert(
      fc.asyncProperty(fc.array(msg, { minLength: 1, maxLength: 12 }), async (msgs) => {
        const c = await loggedIn();
        try {
          for (const m of msgs) c.write(message(m.tag, ...m.fields));
          // Every message gets an answer until the connection closes (GOODBYE or a protocol error).
          for (let i = 0; i < msgs.length; i++) {
            const answer = await c.next(10_000).catch((e: Error) => e);
            if (answer instanceof Error) {
              expect(answer.message).toBe('closed');
              break;
            }
            expect([SUCCESS, RECORD, IGNORED, FAILURE]).toContain(answer.tag);
            if (answer.tag === RECORD) i--; // records come before their PULL's summary
          }
        } finally {
          c.close();
        }
      }),
      { numRuns: 40 },
    );
    expect(servers.child.exitCode).toBeNull();
    const { records } = await driver.executeQuery('RETURN 1 AS one');
    expect(records[0].get('one').toNumber()).toBe(1);
  }, 120_000);
});

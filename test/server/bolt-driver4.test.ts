/**
 * The Bolt door with Neo4j's JavaScript driver 4.4 (installed as the npm alias
 * `neo4j-driver-4`), which speaks Bolt 4.4 with credentials in HELLO and the `utc` patch:
 * bolt:// and neo4j:// URLs, every value type as a parameter and back, graph values (ids,
 * no element ids on 4.4), managed and explicit transactions, errors with their codes and
 * authentication. Against the real `graphdb --bolt` binary; assumes `npm run build`.
 */

import neo4j, { type Driver, int, isInt } from 'neo4j-driver-4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from './helpers.js';

const KEY = 'bolt4-test-key';
let servers: SpawnedServers;
let driver: Driver;
const url = (scheme: string): string => `${scheme}://127.0.0.1:${servers.ports.bolt}`;

beforeAll(async () => {
  servers = await spawnGraphdb(['--bolt', '0', '--api-key', KEY, '--workers', '1']);
  driver = neo4j.driver(url('bolt'), neo4j.auth.basic('anyone', KEY));
}, 30_000);

afterAll(async () => {
  await driver?.close();
  await servers?.stop();
});

/** One auto-commit query through a fresh session (4.4 has no executeQuery). */
async function run(query: string, params: Record<string, unknown> = {}, d: Driver = driver): Promise<import('neo4j-driver-4').QueryResult> {
  const session = d.session();
  try {
    return await session.run(query, params);
  } finally {
    await session.close();
  }
}

describe('neo4j-driver 4.4', () => {
  it('connects over bolt:// at Bolt 4.4 and through neo4j:// routing', async () => {
    const info = await driver.verifyConnectivity();
    expect(info.version).toMatch(/^Neo4j\//);
    const session = driver.session();
    try {
      const r = await session.run('RETURN 1 AS one');
      expect(r.summary.server.protocolVersion).toBe(4.4);
    } finally {
      await session.close();
    }
    const routed = neo4j.driver(url('neo4j'), neo4j.auth.basic('u', KEY));
    try {
      await routed.verifyConnectivity();
      const read = routed.session({ defaultAccessMode: neo4j.session.READ });
      const write = routed.session({ defaultAccessMode: neo4j.session.WRITE });
      try {
        expect((await read.run('RETURN 40 + 2 AS n')).records[0].get('n').toNumber()).toBe(42);
        expect((await write.run('CREATE (:Routed4)')).summary.counters.updates().nodesCreated).toBe(1);
      } finally {
        await read.close();
        await write.close();
      }
    } finally {
      await routed.close();
    }
  });

  const cases: [string, unknown][] = [
    ['integer', int(7)],
    ['64-bit extreme', int('-9223372036854775808')],
    ['float', 1.5],
    ['string', 'héllo ✓'],
    ['boolean', false],
    ['null', null],
    ['list', [int(1), 'two', [3.5]]],
    ['map', { a: int(1), b: { c: 'd' } }],
    ['date', new neo4j.types.Date(2024, 2, 29)],
    ['local time', new neo4j.types.LocalTime(13, 14, 15, 123456789)],
    ['time', new neo4j.types.Time(13, 14, 15, 5, 3600)],
    ['local date-time', new neo4j.types.LocalDateTime(1969, 7, 20, 20, 17, 40, 1)],
    ['date-time with offset', new neo4j.types.DateTime(2024, 1, 2, 3, 4, 5, 6, -18000)],
    ['date-time with zone', new neo4j.types.DateTime(2024, 7, 1, 12, 0, 0, 0, undefined, 'Europe/Lisbon')],
    ['duration', new neo4j.types.Duration(14, 3, 3661, 500)],
    ['cartesian point', new neo4j.types.Point(int(7203), 1.5, -2)],
    ['WGS-84 3D point', new neo4j.types.Point(int(4979), -9.14, 38.72, 100)],
  ];
  const text = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (isInt(x) ? `int:${x.toString()}` : typeof x === 'object' && x !== null && 'toString' in x && x.constructor.name !== 'Object' && !Array.isArray(x) ? `${x.constructor.name}:${String(x)}` : x));

  it.each(cases)('a %s parameter comes back equal', async (_name, value) => {
    const { records } = await run('RETURN $v AS v', { v: value });
    expect(text(records[0].get('v'))).toBe(text(value));
  });

  it('sends nodes, relationships and paths (ids as integers on 4.4)', async () => {
    const { records, summary } = await run("CREATE p = (a:P4 {name: 'Ann'})-[r:KNOWS]->(b:P4 {name: 'Bo'}) RETURN a, r, b, p");
    const [a, r, b, p] = ['a', 'r', 'b', 'p'].map((k) => records[0].get(k));
    expect(a.labels).toEqual(['P4']);
    expect(isInt(a.identity)).toBe(true);
    expect(r.type).toBe('KNOWS');
    expect(r.start.equals(a.identity)).toBe(true);
    expect(r.end.equals(b.identity)).toBe(true);
    expect(p.segments).toHaveLength(1);
    expect(summary.counters.updates()).toMatchObject({ nodesCreated: 2, relationshipsCreated: 1 });
  });

  it('readTransaction/writeTransaction and an explicit transaction that rolls back', async () => {
    const session = driver.session();
    try {
      await session.writeTransaction((tx) => tx.run('CREATE (:Tx4 {v: 1})'));
      const n = await session.readTransaction(async (tx) => (await tx.run('MATCH (t:Tx4) RETURN count(t) AS c')).records[0].get('c').toNumber());
      expect(n).toBe(1);
      const tx = session.beginTransaction();
      await tx.run('CREATE (:Tx4 {v: 2})');
      await tx.rollback();
      const after = await session.run('MATCH (t:Tx4) RETURN count(t) AS c');
      expect(after.records[0].get('c').toNumber()).toBe(1);
      const bookmarks = session.lastBookmark();
      expect(bookmarks.length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });

  it('streams a result in PULL batches', async () => {
    const session = driver.session({ fetchSize: 100 });
    try {
      const r = await session.run('UNWIND range(1, 2500) AS i RETURN i');
      expect(r.records).toHaveLength(2500);
      expect(r.records[2499].get('i').toNumber()).toBe(2500);
    } finally {
      await session.close();
    }
  });

  it('errors carry Neo4j codes; a wrong key is Unauthorized', async () => {
    await expect(run('RETRUN 1')).rejects.toMatchObject({ code: 'Neo.ClientError.Statement.SyntaxError' });
    await expect(run('RETURN $missing')).rejects.toMatchObject({ code: 'Neo.ClientError.Statement.ParameterMissing' });
    await expect(run('CALL no.such.proc()')).rejects.toMatchObject({ code: 'Neo.ClientError.Procedure.ProcedureNotFound' });
    const bad = neo4j.driver(url('bolt'), neo4j.auth.basic('u', 'wrong'));
    try {
      await expect(bad.verifyConnectivity()).rejects.toMatchObject({ code: 'Neo.ClientError.Security.Unauthorized' });
    } finally {
      await bad.close();
    }
    expect((await run('RETURN 1 AS one')).records[0].get('one').toNumber()).toBe(1);
  });
});

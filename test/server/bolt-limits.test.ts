/**
 * The Bolt door's bounds, on an in-process server with small limits (the same start
 * function `graphdb --bolt` uses): the query time limit through the real driver, the
 * connection limit, the time to authenticate, the idle limit and the message size limit on
 * raw sockets. Also the legacy date-time form of Bolt 4.4 without the `utc` patch.
 */

import neo4j from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startBoltServer } from '../../src/server/bolt/server.js';
import type { PackValue, Structure } from '../../src/server/bolt/packstream.js';
import type { RunningServer } from '../../src/server/running.js';
import { converse } from './helpers.js';
import { FAILURE, MAGIC, map, message, RawBolt, rawLoggedIn, RECORD, SUCCESS } from './bolt-raw.js';

const KEY = 'limits-key';
let db: Database;
let server: RunningServer;

beforeAll(async () => {
  db = Database.openInMemory();
  server = await startBoltServer(db, {
    port: 0,
    apiKey: KEY,
    log: () => undefined,
    limits: { maxConnections: 3, headersTimeoutMs: 400, idleTimeoutMs: 800, maxMessageBytes: 4096, queryTimeoutMs: 300 },
  });
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

const closesWithin = (c: RawBolt, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const t0 = Date.now();
    const poll = (): void => {
      if (c.closed) resolve(true);
      else if (Date.now() - t0 > ms) resolve(false);
      else setTimeout(poll, 25);
    };
    poll();
  });

describe('Bolt limits', () => {
  it('a query past the time limit fails with a Neo4j code, and the session goes on', async () => {
    const driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('u', KEY));
    const session = driver.session();
    try {
      await expect(session.run('UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*)')).rejects.toMatchObject({ code: 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration' });
      const r = await session.run('RETURN 1 AS one');
      expect(r.records[0].get('one').toNumber()).toBe(1);
    } finally {
      await session.close();
      await driver.close();
    }
  });

  it('a connection that does not authenticate in time is closed; so is an idle one', async () => {
    const silent = await RawBolt.open(server.port);
    expect(await closesWithin(silent, 3000)).toBe(true);
    const idle = await rawLoggedIn(server.port, KEY);
    expect(await closesWithin(idle, 4000)).toBe(true);
  });

  it('connections beyond the limit are closed at once, and a slot frees when one ends', async () => {
    const held = await Promise.all([1, 2, 3].map(() => rawLoggedIn(server.port, KEY)));
    try {
      const extra = await converse(server.port, [Buffer.from([...MAGIC, 0, 8, 8, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])], { quietMs: 2000 });
      expect(extra.closedByServer).toBe(true);
      expect(extra.text).toBe('');
    } finally {
      held.forEach((c) => c.close());
    }
    await new Promise((r) => setTimeout(r, 100));
    const again = await rawLoggedIn(server.port, KEY);
    again.close();
  });

  it('a message over the size limit is a FAILURE, then the connection closes', async () => {
    const c = await rawLoggedIn(server.port, KEY);
    c.write(message(0x10, 'RETURN $s', map({ s: 'x'.repeat(5000) }), map({})));
    const f = await c.next();
    expect(f.tag).toBe(FAILURE);
    expect((f.fields[0] as Map<string, PackValue>).get('code')).toBe('Neo.ClientError.Request.Invalid');
    expect(await closesWithin(c, 3000)).toBe(true);
  });

  it('Bolt 4.4 without the utc patch sends date-times in the legacy local form', async () => {
    const c = await RawBolt.open(server.port);
    c.write(Buffer.from([...MAGIC, 0, 0, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
    expect(await c.version()).toEqual([0, 0, 4, 4]);
    c.write(message(0x01, map({ user_agent: 'raw/1', scheme: 'basic', principal: 'u', credentials: KEY })));
    expect((await c.next()).tag).toBe(SUCCESS);
    c.write(message(0x10, "RETURN datetime('1970-01-01T01:00:00+01:00') AS t", map({}), map({})));
    c.write(message(0x3f, map({ n: -1 })));
    expect((await c.next()).tag).toBe(SUCCESS);
    const rec = await c.next();
    expect(rec.tag).toBe(RECORD);
    const dt = (rec.fields[0] as PackValue[])[0] as Structure;
    // Legacy 'F': seconds of the local time (01:00 = 3600), nanoseconds, offset.
    expect(dt.tag).toBe(0x46);
    expect(dt.fields).toEqual([3600, 0, 3600]);
    c.close();
  });
});

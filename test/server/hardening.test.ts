/**
 * The access-layer findings of issue 9, each reproduced against real servers: cross-site
 * writes over HTTP, connection caps and timeouts on HTTP, TCP and PG, held half-requests,
 * PG Parse floods, the TCP AUTH line, log-line forging through a PG user name, PG
 * transactions with real BEGIN … COMMIT / ROLLBACK semantics, and a bounded SIGTERM.
 */

import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import { startPgServer, type PgServer } from '../../src/server/pg/index.js';
import type { RunningServer } from '../../src/server/running.js';
import { startTcpServer } from '../../src/server/tcp/server.js';
import { converse, spawnGraphdb } from './helpers.js';

const count = (db: Database): number => Number(db.executeSync('MATCH (n) RETURN count(n) AS n').records[0][0]);

function openSocket(port: number, first?: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      if (first !== undefined) s.write(first);
      resolve(s);
    });
    s.on('error', reject);
  });
}

function firstData(socket: Socket, ms = 5000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const done = (closed: boolean): void => {
      clearTimeout(timer);
      resolve({ text, closed });
    };
    const timer = setTimeout(() => done(false), ms);
    socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
    socket.on('close', () => done(true));
  });
}

describe('HTTP: cross-site writes', () => {
  const db = Database.openInMemory();
  let srv: RunningServer;
  let base: string;
  beforeAll(async () => {
    srv = await startHttpServer(db, { port: 0, allowOrigins: ['https://app.example'], log: () => undefined });
    base = `http://127.0.0.1:${srv.port}`;
  });
  afterAll(() => srv.close());

  it('GET /query refuses a write with 405 WRITE_NOT_ALLOWED and changes nothing', async () => {
    db.executeSync('CREATE (:Keep)');
    const res = await fetch(`${base}/query?q=MATCH+(n)+DETACH+DELETE+n`);
    expect(res.status).toBe(405);
    expect(await res.json()).toMatchObject({ error: true, code: 'WRITE_NOT_ALLOWED' });
    expect((await fetch(`${base}/query?q=CREATE+INDEX+FOR+(n:Keep)+ON+(n.x)`)).status).toBe(405);
    expect(count(db)).toBe(1);
    expect(await (await fetch(`${base}/query?q=MATCH+(n)+RETURN+count(n)+AS+n`)).json()).toEqual({ columns: ['n'], rows: [{ n: '1' }] });
  });

  it('a browser POST (Origin, or a text/plain simple request) may read but not write', async () => {
    const post = (body: string, headers: Record<string, string>): Promise<Response> => fetch(`${base}/query`, { method: 'POST', body, headers });
    const evil = await post('MATCH (n) DETACH DELETE n', { origin: 'https://evil.example', 'content-type': 'text/plain' });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBe('*');
    expect(await evil.json()).toMatchObject({ code: 'CROSS_SITE_WRITE' });
    expect((await post('MATCH (n) DETACH DELETE n', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await post('MATCH (n) DETACH DELETE n', { origin: 'null' })).status).toBe(403);
    expect(count(db)).toBe(1);
    expect((await post('MATCH (n) RETURN count(n) AS n', { origin: 'https://evil.example' })).status).toBe(200);
    // An allowed origin, and non-browser clients, write as before.
    expect((await post('CREATE (:FromApp)', { origin: 'https://APP.example' })).status).toBe(200);
    expect((await post('CREATE (:FromCurl)', {})).status).toBe(200);
    expect(count(db)).toBe(3);
  });

  it('with --api-key a browser POST carrying the key may write', async () => {
    const keyed = await startHttpServer(db, { port: 0, apiKey: 'k', log: () => undefined });
    try {
      const res = await fetch(`http://127.0.0.1:${keyed.port}/query`, {
        method: 'POST',
        body: 'CREATE (:WithKey)',
        headers: { origin: 'https://evil.example', authorization: 'Bearer k' },
      });
      expect(res.status).toBe(200);
    } finally {
      await keyed.close();
    }
  });
});

describe('HTTP: connection cap and held half-requests', () => {
  it('beyond maxConnections a client gets 503 TOO_MANY_CONNECTIONS; a held head is cut at headersTimeoutMs', async () => {
    const db = Database.openInMemory();
    const srv = await startHttpServer(db, { port: 0, limits: { maxConnections: 3, headersTimeoutMs: 1500 }, log: () => undefined });
    try {
      const held = await Promise.all([1, 2, 3].map(() => openSocket(srv.port, 'POST /query HTTP/1.1\r\nHost: x\r\n')));
      const closes = held.map((s) => firstData(s, 10_000));
      const extra = await openSocket(srv.port, 'GET /query?q=RETURN%201 HTTP/1.1\r\nHost: x\r\n\r\n');
      const refused = await firstData(extra);
      expect(refused.text).toMatch(/^HTTP\/1.1 503/);
      expect(refused.text).toMatch(/TOO_MANY_CONNECTIONS/);
      // The held half-requests are closed by the head timeout, and the door serves again.
      const ends = await Promise.all(closes);
      expect(ends.every((e) => e.closed)).toBe(true);
      // The server sees the closes a moment after the clients do.
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        status = (await fetch(`http://127.0.0.1:${srv.port}/health`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});

describe('TCP: AUTH, idle timeout and the connection cap', () => {
  const db = Database.openInMemory();
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTcpServer(db, { port: 0, apiKey: 's3cret', limits: { maxConnections: 2, idleTimeoutMs: 1000, headersTimeoutMs: 1000 }, log: () => undefined });
  });
  afterAll(() => srv.close());

  it('AUTH <key> first, then queries', async () => {
    const ok = await converse(srv.port, ['AUTH s3cret\nRETURN 1 AS one\n'], { end: true });
    expect(ok.text.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([{ auth: 'ok' }, { columns: ['one'], rows: [{ one: '1' }] }]);
  });

  it('silence instead of AUTH, and idle sessions, are closed; then others get in', async () => {
    const a = await openSocket(srv.port);
    const b = await openSocket(srv.port, 'AUTH s3cret\n');
    const [ea, eb] = await Promise.all([firstData(a, 8000), firstData(b, 8000)]);
    expect(JSON.parse(ea.text.trim())).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(eb.text).toMatch(/IDLE_TIMEOUT/);
    expect(ea.closed && eb.closed).toBe(true);
    // The server sees the closes a moment after the clients do.
    let again = '';
    for (let i = 0; i < 50 && !again.includes('"two"'); i++) {
      again = (await converse(srv.port, ['AUTH s3cret\nRETURN 2 AS two\n'], { end: true })).text;
      if (!again.includes('"two"')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(again).toMatch(/"two":"2"/);
  });

  it('beyond the cap a connection gets TOO_MANY_CONNECTIONS', async () => {
    const held = [await openSocket(srv.port), await openSocket(srv.port)];
    const third = await converse(srv.port, []);
    expect(third.text).toMatch(/TOO_MANY_CONNECTIONS/);
    for (const s of held) s.destroy();
  });
});

describe('PG: connection limits, memory per session, transactions', () => {
  const db = Database.openInMemory();
  let srv: PgServer;
  const logged: string[] = [];
  beforeAll(async () => {
    srv = await startPgServer(db, {
      port: 0,
      logQueries: true,
      limits: { maxConnections: 4, idleTimeoutMs: 1500, headersTimeoutMs: 1500 },
      log: (l) => logged.push(l),
    });
  });
  afterAll(() => srv.close(), 20_000);
  const client = (user = 'u'): pg.Client => new pg.Client({ host: '127.0.0.1', port: srv.port, user, database: 'graph' });
  const connectWhenFree = async (): Promise<pg.Client> => {
    for (let attempt = 0; ; attempt++) {
      const c = client();
      try {
        await c.connect();
        return c;
      } catch (err) {
        if (attempt >= 50 || !/too many clients/.test(String(err))) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  it('a user name with a newline cannot forge a log line', async () => {
    const c = client('mallory\ngraphdb pg 1.2.3.4:5 user=admin: MATCH (n) DETACH DELETE n');
    await c.connect();
    await c.query('RETURN 1 AS x');
    await c.end();
    const line = logged.find((l) => l.includes('mallory'));
    expect(line).toContain('mallory\\ngraphdb pg');
    expect(logged.some((l) => l.startsWith('graphdb pg 1.2.3.4'))).toBe(false);
  });

  it('idle sessions and stalled start-ups are closed, so they cannot lock others out', async () => {
    const idle = client();
    await idle.connect();
    const ended = new Promise((resolve) => idle.on('error', resolve));
    const stalled = await Promise.all([1, 2, 3].map(() => openSocket(srv.port)));
    const closes = stalled.map((s) => firstData(s, 8000));
    const refused = await firstData(await openSocket(srv.port));
    expect(refused.text).toMatch(/too many clients/);
    expect(((await ended) as { code?: string }).code).toBe('57P05');
    expect((await Promise.all(closes)).every((e) => e.closed)).toBe(true);
    // The server frees a slot when it sees the socket close, which may come a little after the
    // client sees it: a fresh client gets in once the slots are free (bounded wait).
    const fresh = await connectWhenFree();
    expect((await fresh.query('RETURN 3 AS x')).rows).toEqual([{ x: '3' }]);
    await fresh.end();
  });

  it('Parse messages of megabytes without Sync hit the per-session bound, not the heap', async () => {
    const big = 'RETURN 1 AS x /*' + 'a'.repeat(15 * 1024 * 1024) + '*/';
    const body = Buffer.from(big, 'utf8');
    // Built before connecting: this process is also the server, and its start-up timer runs.
    const messages = Array.from({ length: 12 }, (_, i) => {
      const name = Buffer.from(`s${i}\0`);
      const head = Buffer.alloc(5);
      head.write('P', 0, 'latin1');
      head.writeInt32BE(4 + name.length + body.length + 1 + 2, 1);
      return Buffer.concat([head, name, body, Buffer.from([0, 0, 0])]);
    });
    const startup = Buffer.alloc(4 + 4 + 'user\0u\0\0'.length);
    startup.writeInt32BE(startup.length, 0);
    startup.writeInt32BE(196608, 4);
    startup.write('user\0u\0\0', 8, 'latin1');
    const socket = await openSocket(srv.port);
    socket.write(startup);
    const replies = firstData(socket, 60_000);
    for (const m of messages) socket.write(m);
    socket.write(Buffer.from([0x53, 0, 0, 0, 4])); // Sync
    socket.write(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
    const text = (await replies).text.replace(/[^ -~]/g, '.');
    expect(text).toMatch(/the query text is longer than the limit of 1048576 characters/);
    expect(text).toMatch(/Z.{4}I/); // ReadyForQuery after Sync: the session survived
    const c = client();
    await c.connect();
    expect((await c.query('RETURN 4 AS x')).rows).toEqual([{ x: '4' }]);
    await c.end();
  }, 120_000);

  it('statements held without Sync are bounded per session', async () => {
    const small = await startPgServer(db, { port: 0, maxSessionTextBytes: 200_000, log: null });
    const c = new pg.Client({ host: '127.0.0.1', port: small.port, user: 'u', database: 'graph' });
    await c.connect();
    const text = (i: number): string => `RETURN ${i} AS x /*${'b'.repeat(60_000)}*/`;
    for (let i = 0; i < 3; i++) await c.query({ name: `p${i}`, text: text(i) });
    await expect(c.query({ name: 'p3', text: text(3) })).rejects.toMatchObject({ code: '54000' });
    expect((await c.query('RETURN 5 AS x')).rows).toEqual([{ x: '5' }]);
    await c.end();
    await small.close();
  });

  it('BEGIN … ROLLBACK discards writes; COMMIT applies them all or none', async () => {
    const txServer = await startPgServer(db, { port: 0, log: null });
    const client = (): pg.Client => new pg.Client({ host: '127.0.0.1', port: txServer.port, user: 'u', database: 'graph' });
    const a = client();
    const b = client();
    await a.connect();
    await b.connect();
    await a.query('BEGIN');
    expect((await a.query("CREATE (:Tx {k: 1}) RETURN 'made' AS r")).rows).toEqual([{ r: 'made' }]);
    // Inside the block its own write is seen; outside, nothing yet.
    expect((await a.query('MATCH (t:Tx) RETURN count(t) AS n')).rows).toEqual([{ n: '1' }]);
    expect((await b.query('MATCH (t:Tx) RETURN count(t) AS n')).rows).toEqual([{ n: '0' }]);
    await a.query('ROLLBACK');
    expect((await b.query('MATCH (t:Tx) RETURN count(t) AS n')).rows).toEqual([{ n: '0' }]);

    await a.query('BEGIN');
    await a.query('CREATE (:Tx {k: $1})', [2]); // Extended Query inside the block
    await a.query('MATCH (t:Tx {k: 2}) SET t.seen = true');
    expect((await b.query('MATCH (t:Tx) RETURN count(t) AS n')).rows).toEqual([{ n: '0' }]);
    expect((await a.query('COMMIT')).command).toBe('COMMIT');
    expect((await b.query('MATCH (t:Tx) RETURN t.k AS k, t.seen AS s')).rows).toEqual([{ k: '2', s: true }]);

    // An error inside the block aborts it: 25P02 until the end, and COMMIT rolls back.
    await a.query('BEGIN');
    await a.query('CREATE (:Tx {k: 3})');
    await expect(a.query('RETURN 1/0 AS boom')).rejects.toMatchObject({ code: '22012' });
    await expect(a.query('RETURN 1 AS x')).rejects.toMatchObject({ code: '25P02' });
    expect((await a.query('COMMIT')).command).toBe('ROLLBACK');
    expect((await b.query('MATCH (t:Tx) RETURN count(t) AS n')).rows).toEqual([{ n: '1' }]);
    await a.end();
    await b.end();
    await txServer.close();
  });
});

describe('SIGTERM', () => {
  it('exits within the drain period while clients hold connections open', async () => {
    const srv = await spawnGraphdb(['--http', '0', '--serve', '0', '--pg', '0']);
    const held = [
      await openSocket(srv.ports.http!, 'POST /query HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nRETURN'),
      await openSocket(srv.ports.tcp!, 'RETURN'),
      await openSocket(srv.ports.pg!),
    ];
    const started = Date.now();
    const status = await srv.stop();
    expect(status).toBe(0);
    expect(Date.now() - started).toBeLessThan(12_000);
    for (const s of held) s.destroy();
  }, 30_000);
});

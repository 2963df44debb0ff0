/**
 * The HTTP door served by the query workers (`--worker-doors`), through the real binary and
 * real sockets: connections land on several threads (each answer names its thread), the key
 * is checked where the connection lands, a read that starts after a write's answer sees the
 * write whichever thread serves it, errors keep their shapes, writes and every other route
 * work through a worker-accepted connection (relayed to the main thread), and the server
 * stops cleanly and can start again on the same port.
 */

import { spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRAPHDB_BIN, spawnGraphdb, stopSpawned, type SpawnedServers } from './helpers.js';

interface Answer {
  status: number;
  thread: string;
  relayedBy: string | undefined;
  body: string;
}

/** One request on a connection of its own (so that the kernel picks the thread that accepts it). */
function ask(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          thread: String(res.headers['x-graphdb-thread'] ?? ''),
          relayedBy: res.headers['x-graphdb-relayed-by'] as string | undefined,
          body: Buffer.concat(parts).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const query = (port: number, text: string, headers?: Record<string, string>): Promise<Answer> => ask(port, 'POST', '/query', text, headers);

/** POST /query on `agent`'s one keep-alive connection (which stays with the thread that accepted it). */
function queryOn(agent: Agent, port: number, text: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/query', agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, thread: String(res.headers['x-graphdb-thread'] ?? ''), relayedBy: res.headers['x-graphdb-relayed-by'] as string | undefined, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** A keep-alive connection accepted by `thread` (or by any worker when undefined), with its thread's name. */
async function connectionOn(port: number, thread?: string): Promise<{ agent: Agent; thread: string }> {
  for (let i = 0; i < 100; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const a = await queryOn(agent, port, 'RETURN 1 AS one');
    if (thread === undefined ? byWorker(a) : a.thread === thread) return { agent, thread: a.thread };
    agent.destroy();
  }
  throw new Error(`no connection landed on ${thread ?? 'a worker'}`);
}

/** Asks until `done` holds for an answer (each on a new connection), at most `tries` times; returns every answer. */
async function until(tries: number, make: () => Promise<Answer>, done: (a: Answer) => boolean): Promise<Answer[]> {
  const all: Answer[] = [];
  for (let i = 0; i < tries; i++) {
    const a = await make();
    all.push(a);
    if (done(a)) break;
  }
  return all;
}

const byWorker = (a: Answer): boolean => a.thread.startsWith('worker-');

describe('HTTP door on the query workers', () => {
  let servers: SpawnedServers | undefined;
  let port = 0;
  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--workers', '2', '--worker-doors', '--query-timeout', '300']);
    port = servers.ports.http!;
  }, 30_000);
  afterAll(() => stopSpawned(servers));

  it('spreads connections over the workers and the main thread', async () => {
    expect(servers!.stderr()).toContain('2 query workers and the main thread accept HTTP connections');
    const threads = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const a = await query(port, 'RETURN 1 AS one');
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toEqual({ columns: ['one'], rows: [{ one: '1' }] });
      threads.add(a.thread);
    }
    expect([...threads].filter((t) => t.startsWith('worker-')).length).toBeGreaterThanOrEqual(1);
    expect(threads.size).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('lets a read that starts after a write see it, whichever thread answers', async () => {
    let onWorkers = 0;
    for (let i = 1; i <= 25; i++) {
      const w = await query(port, `CREATE (:Ryw {i: ${i}})`);
      expect(w.status).toBe(200);
      const r = await query(port, 'MATCH (n:Ryw) RETURN count(n) AS n');
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toEqual({ columns: ['n'], rows: [{ n: String(i) }] });
      if (byWorker(r)) onWorkers++;
    }
    expect(onWorkers).toBeGreaterThan(0);
  }, 60_000);

  it('lets a read see a write answered while its worker was busy with another query', async () => {
    // Two connections on one worker: while it runs a long query for one, a write is answered
    // elsewhere; the other's read, queued behind the long query, must still see the write.
    const reader = await connectionOn(port);
    const busy = await connectionOn(port, reader.thread);
    try {
      for (let i = 1; i <= 3; i++) {
        const long = queryOn(busy.agent, port, 'UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN count(*) AS c');
        await new Promise((r) => setTimeout(r, 50));
        const w = await query(port, `CREATE (:Busy {i: ${i}})`);
        expect(w.status).toBe(200);
        const r = await queryOn(reader.agent, port, 'MATCH (n:Busy) RETURN count(n) AS n');
        expect(r.thread).toBe(reader.thread);
        expect(JSON.parse(r.body)).toEqual({ columns: ['n'], rows: [{ n: String(i) }] });
        expect((await long).status).toBe(503);
      }
    } finally {
      reader.agent.destroy();
      busy.agent.destroy();
    }
  }, 60_000);

  it('answers a write on a worker-accepted connection through the main thread', async () => {
    let n = 0;
    const answers = await until(60, () => query(port, `CREATE (:Relayed {n: ${++n}})`), (a) => a.relayedBy !== undefined);
    const relayed = answers.at(-1)!;
    expect(relayed.relayedBy).toMatch(/^worker-\d+$/);
    expect(relayed.thread).toBe('main');
    expect(relayed.status).toBe(200);
    const count = await query(port, 'MATCH (r:Relayed) RETURN count(r) AS c');
    expect(JSON.parse(count.body)).toEqual({ columns: ['c'], rows: [{ c: String(answers.length) }] });
  }, 60_000);

  it('serves every other route on a worker-accepted connection', async () => {
    const routes: [string, string, string | undefined, Record<string, string>][] = [
      ['GET', '/health', undefined, {}],
      ['GET', '/status', undefined, {}],
      ['GET', '/query?q=RETURN+2+AS+two', undefined, {}],
      ['POST', '/query', JSON.stringify({ query: 'RETURN $x AS x', params: { x: 3 } }), { 'content-type': 'application/json' }],
      ['POST', '/db/neo4j/tx/commit', JSON.stringify({ statements: [{ statement: 'RETURN 4 AS four' }] }), { 'content-type': 'application/json' }],
    ];
    for (const [method, path, body, headers] of routes) {
      const answers = await until(60, () => ask(port, method, path, body, headers), (a) => a.relayedBy !== undefined);
      const a = answers.at(-1)!;
      expect(a.relayedBy, `${method} ${path} never landed on a worker`).toMatch(/^worker-\d+$/);
      expect(a.status, `${method} ${path}: ${a.body}`).toBe(200);
    }
  }, 120_000);

  it("answers the Query API's statements on the workers as the main thread does", async () => {
    const statement = JSON.stringify({ statement: 'RETURN $a AS a, 1.5 AS f, "x" AS s, [1, 2] AS l', parameters: { a: 7 }, includeCounters: true });
    const headers = { 'content-type': 'application/json', accept: 'application/vnd.neo4j.query' };
    const api = (body: string, h: Record<string, string> = headers): Promise<Answer> => ask(port, 'POST', '/db/neo4j/query/v2', body, h);
    // Until both the main thread and a worker have answered: the same status and body from each.
    const seen = new Map<string, string>();
    for (let i = 0; i < 80 && !(seen.has('main') && [...seen.keys()].some((t) => t.startsWith('worker-'))); i++) {
      const a = await api(statement);
      expect(a.status).toBe(202);
      seen.set(a.relayedBy === undefined ? a.thread : 'relayed', a.body);
    }
    expect(seen.has('main')).toBe(true);
    expect([...seen.keys()].some((t) => t.startsWith('worker-'))).toBe(true);
    expect(new Set(seen.values()).size).toBe(1);
    expect(JSON.parse([...seen.values()][0])).toMatchObject({ data: { fields: ['a', 'f', 's', 'l'] } });

    const bad = await until(60, () => api(JSON.stringify({ statement: 'RETURN (' })), byWorker);
    expect(byWorker(bad.at(-1)!)).toBe(true);
    expect(new Set(bad.map((a) => `${a.status} ${a.body}`)).size).toBe(1);
    expect(bad[0].status).toBe(400);

    // A write on a worker-accepted connection goes to the main thread; the next read, wherever it lands, sees it.
    let k = 0;
    const writes = await until(60, () => api(JSON.stringify({ statement: `CREATE (:ApiW {k: ${++k}})` })), (a) => a.relayedBy !== undefined);
    expect(writes.every((a) => a.status === 202)).toBe(true);
    const count = await until(20, () => api(JSON.stringify({ statement: 'MATCH (n:ApiW) RETURN count(n) AS c' }), { 'content-type': 'application/json' }), byWorker);
    for (const a of count) expect(JSON.parse(a.body)).toMatchObject({ data: { values: [[k]] } });
  }, 120_000);

  it('gives a syntax error and a time-out the same shapes on every thread', async () => {
    const bad = await until(60, () => query(port, 'MATCH (n RETURN n'), byWorker);
    expect(byWorker(bad.at(-1)!)).toBe(true);
    const bodies = new Set(bad.map((a) => `${a.status} ${a.body}`));
    expect(bodies.size).toBe(1);
    const [status, ...rest] = [...bodies][0].split(' ');
    expect(status).toBe('400');
    expect(JSON.parse(rest.join(' '))).toMatchObject({ error: true, code: 'COMPILE_ERR' });

    const slow = await until(30, () => query(port, 'UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN count(*) AS c'), byWorker);
    expect(byWorker(slow.at(-1)!)).toBe(true);
    for (const a of slow) {
      expect(a.status).toBe(503);
      expect(JSON.parse(a.body)).toMatchObject({ error: true, code: 'TIMEOUT' });
    }
  }, 120_000);
});

describe('HTTP door on the query workers, with a key', () => {
  let servers: SpawnedServers | undefined;
  let port = 0;
  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--workers', '2', '--worker-doors', '--api-key', 'k3y']);
    port = servers.ports.http!;
  }, 30_000);
  afterAll(() => stopSpawned(servers));

  it('refuses a request without the key on a worker-served connection, as the main thread does', async () => {
    const refused = await until(60, () => query(port, 'RETURN 1'), byWorker);
    expect(byWorker(refused.at(-1)!)).toBe(true);
    for (const a of refused) {
      expect(a.status).toBe(401);
      expect(JSON.parse(a.body)).toMatchObject({ error: 'unauthorized' });
    }
    expect(new Set(refused.map((a) => a.body)).size).toBe(1);
    const wrong = await until(60, () => query(port, 'RETURN 1', { authorization: 'Bearer nope' }), byWorker);
    expect(wrong.at(-1)!.status).toBe(401);
    const allowed = await until(60, () => query(port, 'RETURN 1 AS one', { authorization: 'Bearer k3y' }), byWorker);
    expect(byWorker(allowed.at(-1)!)).toBe(true);
    expect(allowed.at(-1)!.status).toBe(200);
  }, 60_000);
});

describe('HTTP door on the query workers: stopping', () => {
  it('stops at SIGTERM without hanging and starts again on the same port', async () => {
    const first = await spawnGraphdb(['--http', '0', '--workers', '2', '--worker-doors']);
    const port = first.ports.http!;
    // Keep a connection open on each thread, as a client would.
    const held = await Promise.all(Array.from({ length: 6 }, () => query(port, 'RETURN 1 AS one')));
    expect(held.every((a) => a.status === 200)).toBe(true);
    const started = Date.now();
    expect(await first.stop()).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    const second = await spawnGraphdb(['--http', String(port), '--workers', '2', '--worker-doors']);
    try {
      expect(second.stderr()).not.toContain('EADDRINUSE');
      const a = await query(port, 'RETURN 5 AS five');
      expect(JSON.parse(a.body)).toEqual({ columns: ['five'], rows: [{ five: '5' }] });
    } finally {
      await stopSpawned(second);
    }
  }, 60_000);
});

describe('--worker-doors: where it does not apply', () => {
  it('is a usage error without the HTTP server', () => {
    const r = spawnSync(process.execPath, [GRAPHDB_BIN, '--serve', '0', '--worker-doors'], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('--worker-doors applies to the HTTP server');
  }, 30_000);

  it('says so and answers everything on the main thread without query workers', async () => {
    const servers = await spawnGraphdb(['--http', '0', '--workers', '0', '--worker-doors']);
    try {
      expect(servers.stderr()).toContain('--worker-doors needs query workers');
      const a = await query(servers.ports.http!, 'RETURN 1 AS one');
      expect(a.status).toBe(200);
      expect(a.thread).toBe('');
    } finally {
      await stopSpawned(servers);
    }
  }, 30_000);
});

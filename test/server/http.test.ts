/**
 * The HTTP door against a real listening port with a real client (fetch / undici) and raw
 * sockets: every route, status, header and body shape of SPEC "HTTP API", "Authentication",
 * "Errors", and our limits (body size 413, query time TIMEOUT, result rows), plus garbage.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { converse, garbage } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const SLOW_QUERY = 'UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH a, b WHERE (a * b) % 7 = 3 RETURN count(*) AS c';

interface Started {
  server: RunningServer;
  base: string;
  banner: string[];
  db: Database;
}

async function start(options: { apiKey?: string; limits?: Record<string, number> } = {}): Promise<Started> {
  const db = Database.openInMemory();
  const banner: string[] = [];
  const server = await startHttpServer(db, { port: 0, apiKey: options.apiKey, limits: options.limits, log: (l) => banner.push(l) });
  return { server, base: `http://127.0.0.1:${server.port}`, banner, db };
}

async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}

describe('HTTP without an API key', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ limits: { maxBodyBytes: 4096, queryTimeoutMs: 2000, maxResultRows: 50 } });
    await s.db.execute("CREATE (:Person {name: 'Ada', born: 1815, score: 2.5})-[:KNOWS {since: 1833}]->(:Person {name: 'Charles'})");
  });
  afterAll(async () => s.server.close());

  it('prints its address, routes and key requirement at start-up', () => {
    const text = s.banner.join('\n');
    expect(text).toContain(`listening on ${s.base}`);
    for (const route of ['POST', '/query', '/query?q=', '/status', '/health', '/ready', 'OPTIONS']) expect(text).toContain(route);
    expect(text).toMatch(/API key: not required/);
  });

  it('POST /query runs the raw body and answers columns and string rows', async () => {
    const res = await fetch(`${s.base}/query`, { method: 'POST', body: 'MATCH (p:Person) RETURN p.name AS name, p.born, p.score ORDER BY name' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      columns: ['name', 'p.born', 'p.score'],
      rows: [
        { name: 'Ada', 'p.born': '1815', 'p.score': '2.5' },
        { name: 'Charles', 'p.born': 'null', 'p.score': 'null' },
      ],
    });
  });

  it('renders nodes and relationships as text of their properties', async () => {
    const res = await fetch(`${s.base}/query`, { method: 'POST', body: "MATCH (a {name: 'Ada'})-[r]->(b) RETURN a, r, [1, 2] AS l" });
    const body = await json(res);
    const row = (body.rows as Record<string, string>[])[0];
    expect(row.a).toContain("name: 'Ada'");
    expect(row.r).toContain('since: 1833');
    expect(row.l).toBe('[1, 2]');
  });

  it.each([
    ['text/plain', 'text/plain; charset=utf-8'],
    ['a form type (curl -d)', 'application/x-www-form-urlencoded'],
    ['a JSON type', 'application/json'],
  ])('POST /query takes the body as query text whatever the Content-Type (%s)', async (_what, type) => {
    const res = await fetch(`${s.base}/query`, { method: 'POST', headers: { 'content-type': type }, body: 'RETURN 1 + 1 AS two' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ columns: ['two'], rows: [{ two: '2' }] });
  });

  it('POST /query accepts mutations and CALL procedures', async () => {
    const created = await fetch(`${s.base}/query`, { method: 'POST', body: "CREATE (n:Temp {name: 'x'}) RETURN n.name AS name" });
    expect(await created.json()).toEqual({ columns: ['name'], rows: [{ name: 'x' }] });
    const called = await fetch(`${s.base}/query`, { method: 'POST', body: 'CALL db.labels() YIELD label RETURN label ORDER BY label' });
    expect(called.status).toBe(200);
    expect(((await json(called)).rows as { label: string }[]).map((r) => r.label)).toContain('Temp');
    await fetch(`${s.base}/query`, { method: 'POST', body: 'MATCH (n:Temp) DELETE n' });
  });

  it('GET /query?q= takes a URL-encoded query, + as space', async () => {
    const plus = await fetch(`${s.base}/query?q=MATCH+(p:Person)+RETURN+count(p)+AS+n`);
    expect(plus.status).toBe(200);
    expect(await plus.json()).toEqual({ columns: ['n'], rows: [{ n: '2' }] });
    const encoded = await fetch(`${s.base}/query?q=${encodeURIComponent("RETURN 'a+b c' AS s")}`);
    expect(await encoded.json()).toEqual({ columns: ['s'], rows: [{ s: 'a+b c' }] });
  });

  it('GET /query without q, or with q twice, is 400 BAD_REQUEST', async () => {
    for (const url of ['/query', '/query?q=RETURN+1&q=RETURN+2']) {
      const res = await fetch(s.base + url);
      expect(res.status).toBe(400);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = await json(res);
      expect(body).toMatchObject({ error: true, code: 'BAD_REQUEST' });
      expect(typeof body.message).toBe('string');
    }
  });

  it('a query that fails to compile is 400 with code COMPILE_ERR', async () => {
    for (const res of [
      await fetch(`${s.base}/query`, { method: 'POST', body: 'MATCH (n RETURN n' }),
      await fetch(`${s.base}/query?q=RETURN+x`),
      await fetch(`${s.base}/query`, { method: 'POST', body: '' }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = await json(res);
      expect(body.error).toBe(true);
      expect(body.code).toBe('COMPILE_ERR');
      expect(body.message).toEqual(expect.any(String));
    }
  });

  it('a query that fails while running is 422 with its own code', async () => {
    const res = await fetch(`${s.base}/query?q=RETURN+1/0`);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: true, code: 'ARITHMETIC_ERR' });
  });

  it('a query past the time limit is stopped: 503 with code TIMEOUT', async () => {
    const res = await fetch(`${s.base}/query`, { method: 'POST', body: SLOW_QUERY });
    expect(res.status).toBe(503);
    const body = await json(res);
    expect(body).toMatchObject({ error: true, code: 'TIMEOUT' });
    expect(String(body.message)).toMatch(/time limit/);
  });

  it('a body over the limit is 413 PAYLOAD_TOO_LARGE, with CORS', async () => {
    const res = await fetch(`${s.base}/query`, { method: 'POST', body: `RETURN '${'x'.repeat(5000)}' AS s` });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({ error: true, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a result over the row limit is 413 LIMIT_EXCEEDED', async () => {
    const res = await fetch(`${s.base}/query?q=UNWIND+range(1,100)+AS+x+RETURN+x`);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: true, code: 'LIMIT_EXCEEDED' });
  });

  it('a body that is not UTF-8 is 400 BAD_ENCODING', async () => {
    const res = await fetch(`${s.base}/query`, { method: 'POST', body: new Uint8Array([0x52, 0xff, 0xfe, 0x41]) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: true, code: 'BAD_ENCODING' });
  });

  it('GET /status reports name, version (package.json), counts and skills', async () => {
    const res = await fetch(`${s.base}/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const status = (await res.json()) as { memory: { storeBytes: number; propertyBytes: number; rssBytes: number } };
    expect(status).toEqual({ name: 'graphdb', version: VERSION, nodes: 2, relationships: 1, skills: 0, memory: expect.any(Object), compute: expect.any(Object) });
    expect(status.memory.storeBytes).toBeGreaterThan(0);
    expect(status.memory.propertyBytes).toBeLessThanOrEqual(status.memory.storeBytes);
    expect(status.memory.rssBytes).toBeGreaterThan(status.memory.storeBytes);
  });

  it.each(['/health', '/livez'])('GET %s is liveness: 200 {status}', async (path) => {
    const res = await fetch(s.base + path);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it.each(['/ready', '/readyz'])('GET %s is readiness: 200 {status, nodes, relationships}', async (path) => {
    const res = await fetch(s.base + path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', nodes: 2, relationships: 1 });
  });

  it('HEAD on a GET route answers 200 without a body', async () => {
    const res = await fetch(`${s.base}/health`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it.each(['/query', '/status', '/anything/at/all'])('OPTIONS %s is 204 with CORS headers', async (path) => {
    const plain = await fetch(s.base + path, { method: 'OPTIONS' });
    expect(plain.status).toBe(204);
    expect(plain.headers.get('access-control-allow-origin')).toBe('*');
    const preflight = await fetch(s.base + path, {
      method: 'OPTIONS',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(preflight.headers.get('access-control-max-age')).toBe('600');
    expect(preflight.headers.get('vary')).toBe('Access-Control-Request-Headers');
    expect(preflight.headers.get('content-length')).toBe('0');
  });

  it('an unknown path is 404 NOT_FOUND with CORS', async () => {
    const res = await fetch(`${s.base}/nowhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({ error: true, code: 'NOT_FOUND' });
  });

  it('a known path with another method is 405 with Allow', async () => {
    const res = await fetch(`${s.base}/status`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toMatchObject({ error: true, code: 'METHOD_NOT_ALLOWED' });
  });
});

describe('HTTP with --api-key', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ apiKey: 's3cret-key' });
  });
  afterAll(async () => s.server.close());

  it('says at start-up that a key is required', () => {
    expect(s.banner.join('\n')).toMatch(/API key: required/);
  });

  it.each([
    ['no header', {}],
    ['a wrong key', { authorization: 'Bearer wrong' }],
    ['a prefix of the key', { authorization: 'Bearer s3cret' }],
    ['another scheme', { authorization: 'Basic czNjcmV0LWtleQ==' }],
    ['the key without the scheme', { authorization: 's3cret-key' }],
  ])('401 unauthorized with %s, on every route but the probes', async (_what, headers: Record<string, string>) => {
    for (const [method, path] of [['POST', '/query'], ['GET', '/query?q=RETURN+1'], ['GET', '/status'], ['GET', '/nowhere']]) {
      const res = await fetch(s.base + path, { method, headers, body: method === 'POST' ? 'RETURN 1' : undefined });
      expect(res.status).toBe(401);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const body = await json(res);
      expect(body.error).toBe('unauthorized');
      expect(body.message).toMatch(/invalid or missing/);
      expect(body.message).toMatch(/Bearer/);
    }
  });

  it('serves with the right key (the scheme in any letter case)', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await fetch(`${s.base}/query?q=RETURN+1+AS+one`, { headers: { authorization: `${scheme} s3cret-key` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ columns: ['one'], rows: [{ one: '1' }] });
    }
    const status = await fetch(`${s.base}/status`, { headers: { authorization: 'Bearer s3cret-key' } });
    expect(status.status).toBe(200);
  });

  it.each(['/health', '/ready', '/livez', '/readyz'])('%s needs no key', async (path) => {
    const res = await fetch(s.base + path);
    expect(res.status).toBe(200);
  });

  it('CORS preflight needs no key (browsers never send one)', async () => {
    const res = await fetch(`${s.base}/query`, { method: 'OPTIONS', headers: { origin: 'http://x.test', 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
  });
});

describe('HTTP garbage', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ limits: { maxBodyBytes: 65536 } });
  });
  afterAll(async () => s.server.close());

  async function stillServes(): Promise<void> {
    const res = await fetch(`${s.base}/query?q=RETURN+42+AS+x`);
    expect(await res.json()).toEqual({ columns: ['x'], rows: [{ x: '42' }] });
  }

  it('random bytes get a 400 or a closed connection, and the server keeps serving', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const reply = await converse(s.server.port, [garbage(seed, 2000)], { quietMs: 500 });
      if (reply.text !== '') expect(reply.text).toMatch(/^HTTP\/1\.1 4\d\d/);
    }
    await stillServes();
  });

  it('a half request (headers never finished) does not block others', async () => {
    const half = converse(s.server.port, ['POST /query HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nRETURN'], { quietMs: 800 });
    await stillServes();
    const reply = await half;
    expect(reply.text).toBe('');
  });

  it('a body shorter than its Content-Length, then close, harms nothing', async () => {
    await converse(s.server.port, ['POST /query HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nRETURN 1'], { end: true, quietMs: 300 });
    await stillServes();
  });

  it('huge headers get 431 with CORS', async () => {
    const reply = await converse(s.server.port, [`GET /status HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`]);
    expect(reply.text).toMatch(/^HTTP\/1\.1 431/);
    expect(reply.text.toLowerCase()).toContain('access-control-allow-origin: *');
    await stillServes();
  });

  it('a huge body gets 413 and the server keeps serving', async () => {
    const res = await fetch(`${s.base}/query`, { method: 'POST', body: new Uint8Array(5 * 1024 * 1024).fill(0x41) });
    expect(res.status).toBe(413);
    await stillServes();
  });

  it('control characters and invalid UTF-8 in a query give errors, not crashes', async () => {
    for (const body of [new Uint8Array([0, 1, 2, 3]), new Uint8Array([0xc3, 0x28]), new Uint8Array([0xed, 0xa0, 0x80]), garbage(99, 3000)]) {
      const res = await fetch(`${s.base}/query`, { method: 'POST', body });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: true });
    }
    const res = await fetch(`${s.base}/query?q=%FF%FE%00`);
    expect(res.status).toBe(400);
    await stillServes();
  });
});

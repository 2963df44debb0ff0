/**
 * The main thread's short way for plain-text POST /query (src/server/http/plain-query.ts)
 * against the app's own route: each request below is sent over a real socket (answered by the
 * short way) and injected into the fastify app (which only the route answers), and the two
 * answers must agree — status, body, content type, CORS, the key challenge and the thread
 * header — for reads, writes, errors, the body limit, bad UTF-8, a missing or wrong key, and
 * a web page's write.
 */

import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Database } from '../../src/engine/database.js';
import { buildHttpApp } from '../../src/server/http/app.js';
import { resolveLimits } from '../../src/server/limits.js';

interface Request {
  name: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
  path?: string;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | undefined>;
}

const COMPARED_HEADERS = ['content-type', 'access-control-allow-origin', 'www-authenticate', 'x-graphdb-thread'];

/** The JSON body without what differs run to run (timings). */
function comparable(text: string): unknown {
  try {
    return JSON.parse(text, (key, value: unknown) => (key === 'elapsedMs' || key === 'time' || key === 'ms' ? '(time)' : value));
  } catch {
    return text;
  }
}

async function viaSocket(base: string, r: Request): Promise<Answer> {
  const res = await fetch(`${base}${r.path ?? '/query'}`, { method: 'POST', headers: r.headers, body: r.body });
  const headers: Record<string, string | undefined> = {};
  for (const h of COMPARED_HEADERS) headers[h] = res.headers.get(h) ?? undefined;
  return { status: res.status, body: comparable(await res.text()), headers };
}

async function viaApp(app: FastifyInstance, r: Request): Promise<Answer> {
  const res = await app.inject({ method: 'POST', url: r.path ?? '/query', headers: r.headers, payload: typeof r.body === 'string' ? r.body : Buffer.from(r.body) });
  const headers: Record<string, string | undefined> = {};
  for (const h of COMPARED_HEADERS) {
    const v = res.headers[h];
    headers[h] = v === undefined ? undefined : String(v);
  }
  return { status: res.statusCode, body: comparable(res.body), headers };
}

const READS: Request[] = [
  { name: 'a read', body: 'MATCH (p:Person) RETURN p.name AS name, p.born AS born ORDER BY name' },
  { name: 'a read with a form content type (curl -d)', body: 'RETURN 1 + 1 AS two', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
  { name: 'a trailing slash and a query string', body: 'RETURN 2 AS two', path: '/query/?x=1' },
  { name: 'a syntax error', body: 'MATCH (n RETURN n' },
  { name: 'an empty body', body: '' },
  { name: 'bad UTF-8', body: new Uint8Array([0x52, 0xff, 0xfe, 0x41]) },
  { name: 'a body over the limit', body: 'RETURN 1 //' + 'x'.repeat(5000) },
  { name: 'too many rows', body: 'UNWIND range(1, 60) AS i RETURN i' },
  { name: 'a runtime error', body: 'RETURN 1 / 0 AS x' },
  { name: 'a write', body: "MERGE (t:Tag {name: 'same'}) RETURN t.name AS name" },
  { name: "a web page's write", body: "MERGE (t:Tag {name: 'page'}) RETURN t.name AS name", headers: { origin: 'http://evil.test' } },
  { name: "a web page's read", body: 'RETURN 3 AS three', headers: { origin: 'http://evil.test', 'sec-fetch-site': 'cross-site' } },
];

async function serve(apiKey?: string, thread?: string): Promise<{ app: FastifyInstance; base: string; db: Database }> {
  const db = Database.openInMemory();
  await db.execute("CREATE (:Person {name: 'Ada', born: 1815})-[:KNOWS]->(:Person {name: 'Charles', born: 1791})");
  const app = await buildHttpApp(db, { apiKey, limits: resolveLimits({ maxBodyBytes: 4096, maxResultRows: 50 }), thread });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { app, base: `http://127.0.0.1:${port}`, db };
}

describe('plain-text POST /query answered before fastify', () => {
  const opened: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of opened) await app.close();
  });

  it('answers as the app route does, without a key', async () => {
    const { app, base } = await serve();
    opened.push(app);
    for (const r of READS) expect(await viaSocket(base, r), r.name).toEqual(await viaApp(app, r));
  });

  it('answers as the app route does with a key required, and with a thread name', async () => {
    const { app, base } = await serve('s3cret', 'main');
    opened.push(app);
    const key = { authorization: 'Bearer s3cret' };
    const cases: Request[] = [
      ...READS.map((r) => ({ ...r, headers: { ...r.headers, ...key } })),
      { name: 'no key', body: 'RETURN 1 AS one' },
      { name: 'a wrong key', body: 'RETURN 1 AS one', headers: { authorization: 'Bearer nope' } },
      { name: 'no key, over the limit', body: 'RETURN 1 //' + 'x'.repeat(5000) },
    ];
    for (const r of cases) {
      const socket = await viaSocket(base, r);
      expect(socket, r.name).toEqual(await viaApp(app, r));
      expect(socket.headers['x-graphdb-thread'], r.name).toBe('main');
    }
  });
});

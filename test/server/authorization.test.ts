/**
 * The shared authorisation rule (src/server/authorization.ts) through every door of the real
 * `graphdb` binary, each finding of issue 26's first round reproduced as it was found:
 * a web page's GET or text/plain POST running replication role changes or sync pushes, a
 * primary with no secret serving and being fenced by anyone, PG without a password under
 * --api-key, raw user text in the logs. Then the rule table itself, and the declared access
 * of every procedure.
 *
 * A caller on another machine is made by binding a server to this machine's own non-loopback
 * address and connecting to it: the peer address the server sees is then that address, not
 * loopback (those cases are skipped where the machine has no such address).
 */

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { ALL_ACCESS, procedureAccess } from '../../procedures/registry.js';
import { type Caller, grantFor, isLoopback, isLoopbackHost, pageOrigin } from '../../src/server/authorization.js';
import { escapeForLog } from '../../src/server/log-text.js';
import { openDoorsWarning } from '../../src/cli/serve.js';
import { converse, type SpawnedServers, spawnGraphdb } from './helpers.js';

const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const KEY = 'k-authz-1';

interface Answer {
  status: number;
  body: { error?: unknown; code?: string; message?: string; columns?: string[]; rows?: Record<string, unknown>[] };
}

async function post(base: string, query: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}/query`, { method: 'POST', body: query, headers: { 'content-type': 'text/plain', ...headers } });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function get(base: string, query: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}/query?q=${encodeURIComponent(query)}`, { headers });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

/** One line in, one JSON line out, over the TCP door at `host`. */
function tcpLines(host: string, port: number, lines: string[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      const got = text.split('\n').filter((l) => l !== '');
      if (got.length >= lines.length) {
        socket.destroy();
        resolve(got.map((l) => JSON.parse(l) as Record<string, unknown>));
      }
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.write(lines.map((l) => l + '\n').join('')));
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer from TCP: ${text}`));
    }, 10_000).unref();
  });
}

interface PsqlRun {
  code: number;
  stdout: string;
  stderr: string;
}

function psql(host: string, port: number, command: string, password?: string): Promise<PsqlRun> {
  const args = ['-h', host, '-p', String(port), '-U', 'anyone', '-d', 'graphdb', '-X', '-w', '-A', '-t', '-v', 'VERBOSITY=verbose', '-c', command];
  const env: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: '10' };
  delete env.PGPASSWORD;
  if (password !== undefined) env.PGPASSWORD = password;
  return new Promise((resolve) => {
    execFile('psql', args, { env, timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** This machine's first non-loopback IPv4 address, if it has one. */
function ownAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'graphdb-authz-'));
  dirs.push(d);
  return d;
}

const servers: SpawnedServers[] = [];
async function start(args: string[]): Promise<SpawnedServers> {
  const s = await spawnGraphdb(args);
  servers.push(s);
  return s;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a primary with no key and no secret, on loopback', () => {
  let srv: SpawnedServers;
  let base: string;
  let dir: string;

  beforeAll(async () => {
    dir = tempDir();
    srv = await start(['--data-dir', join(dir, 'db'), '--import-dir', dir, '--replication-role', 'primary', '--http', '0', '--serve', '0', '--pg', '0', '--pg-log-queries']);
    base = `http://127.0.0.1:${srv.ports.http}`;
  });

  const role = async (): Promise<unknown> => (await post(base, 'CALL graphdb.replication.contract() YIELD mode RETURN mode')).body.rows?.[0].mode;

  it('warns at start-up that replication is served to this machine only', () => {
    expect(srv.stderr()).toMatch(/WARNING: this primary has no replication secret: it serves replicas on this machine only/);
  });

  it('a cross-site GET cannot run demote, registerReplica or unregisterReplica, however the call is wrapped', async () => {
    const calls = [
      "CALL graphdb.replication.demote('http://127.0.0.1:9/')",
      "CALL graphdb.replication.registerReplica('r1') YIELD name RETURN name",
      "CALL graphdb.replication.unregisterReplica('r1') YIELD removed RETURN removed",
      "CALL { CALL graphdb.replication.demote('http://127.0.0.1:9/') YIELD role RETURN role } RETURN role",
      "CALL apoc.cypher.run(\"CALL graphdb.replication.demote('http://127.0.0.1:9/') YIELD role RETURN role\", {}) YIELD value RETURN value",
      "CALL apoc.cypher.run('CALL graphdb.replication.' + 'demote' + '($u) YIELD role RETURN role', {u: 'http://127.0.0.1:9/'}) YIELD value RETURN value",
    ];
    for (const q of calls) {
      for (const headers of [CROSS_SITE, {}]) {
        const a = await get(base, q, headers);
        expect(a.status, q).toBe(403);
        expect(a.body.code, q).toBe('FORBIDDEN');
        expect(a.body.message).toMatch(/administers the server/);
      }
      // A web page's text/plain POST is no better.
      const p = await post(base, q, CROSS_SITE);
      expect(p.status, q).toBe(403);
      expect(p.body.code).toBe('FORBIDDEN');
    }
    expect(await role()).toBe('primary');
    const listed = await post(base, 'CALL db.replicationStatus() YIELD name RETURN name');
    expect(listed.body.rows).toEqual([]);
  });

  it("a web page's JSON query, Neo4j transaction or Query API call runs under the same grant", async () => {
    const demote = "CALL graphdb.replication.demote('http://127.0.0.1:9/') YIELD role RETURN role";
    const json = (path: string, body: unknown): Promise<Response> =>
      fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...CROSS_SITE } });
    const single = await json('/query', { query: demote, params: {} });
    expect(single.status).toBe(403);
    expect(((await single.json()) as { code: string }).code).toBe('FORBIDDEN');
    const tx = (await (await json('/db/neo4j/tx/commit', { statements: [{ statement: demote }] })).json()) as { errors: { code: string }[] };
    expect(tx.errors.map((e) => e.code)).toEqual(['Neo.ClientError.Security.Forbidden']);
    const opened = await json('/db/neo4j/tx', { statements: [] });
    const location = opened.headers.get('location');
    expect(location).toBeTruthy();
    const next = (await (await fetch(location!, { method: 'POST', body: JSON.stringify({ statements: [{ statement: demote }] }), headers: { 'content-type': 'application/json' } })).json()) as { errors: { code: string }[] };
    expect(next.errors.map((e) => e.code)).toEqual(['Neo.ClientError.Security.Forbidden']);
    const v2 = (await (await json('/db/neo4j/query/v2', { statement: demote })).json()) as { errors?: { code: string }[] };
    expect(v2.errors?.map((e) => e.code)).toEqual(['Neo.ClientError.Security.Forbidden']);
    expect(await role()).toBe('primary');
  });

  it("the server's own page (the console, same origin on a loopback name) may write and administer; a rebound DNS name may not", async () => {
    const port = srv.ports.http!;
    const own = { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' };
    const w = await post(base, 'CREATE (:FromConsole) RETURN 1 AS one', own);
    expect(w.status).toBe(200);
    const reg = await post(base, "CALL graphdb.replication.registerReplica('console') YIELD name RETURN name", own);
    expect(reg.status).toBe(200);
    await post(base, "CALL graphdb.replication.unregisterReplica('console') YIELD removed RETURN removed");
    // Another local page differs in port, so in origin.
    const otherPort = await post(base, 'CREATE (:FromOtherPage) RETURN 1 AS one', { origin: `http://127.0.0.1:${port + 1}`, 'sec-fetch-site': 'same-site' });
    expect(otherPort.body.code).toBe('CROSS_SITE_WRITE');
    // A site whose name was rebound to 127.0.0.1: Host and Origin agree, but name no loopback.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/query', headers: { host: `evil.example:${port}`, origin: `http://evil.example:${port}`, 'content-type': 'text/plain' } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end('CREATE (:Rebound) RETURN 1 AS one');
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/CROSS_SITE_WRITE/);
    const counts = await post(base, 'MATCH (n) WHERE n:FromConsole OR n:FromOtherPage OR n:Rebound RETURN labels(n)[0] AS l');
    expect(counts.body.rows).toEqual([{ l: 'FromConsole' }]);
  });

  it('a local client that is not a web page may administer (register and unregister a replica)', async () => {
    const reg = await post(base, "CALL graphdb.replication.registerReplica('r2') YIELD name RETURN name");
    expect(reg.status).toBe(200);
    expect(reg.body.rows).toEqual([{ name: 'r2' }]);
    const un = await post(base, "CALL graphdb.replication.unregisterReplica('r2') YIELD removed RETURN removed");
    expect(un.body.rows).toEqual([{ removed: 'true' }]);
  });

  it('reads stay open to web pages; file exports and index changes do not', async () => {
    const read = await get(base, 'CALL dbms.components() YIELD name RETURN count(*) AS n', CROSS_SITE);
    expect(read.status).toBe(200);
    const exp = await post(base, "CALL apoc.export.json.all('page.json', {})", CROSS_SITE);
    expect(exp.status).toBe(403);
    expect(exp.body.code).toBe('FORBIDDEN');
    expect(existsSync(join(dir, 'page.json'))).toBe(false);
    const viaGet = await get(base, "CALL apoc.export.csv.query('RETURN 1 AS x', 'get.csv', {})");
    expect(viaGet.body.code).toBe('FORBIDDEN');
    expect(existsSync(join(dir, 'get.csv'))).toBe(false);
    const local = await post(base, "CALL apoc.export.csv.query('RETURN 1 AS x', 'local.csv', {})");
    expect(local.status).toBe(200);
    expect(existsSync(join(dir, 'local.csv'))).toBe(true);
  });

  it('the replication routes refuse a web page: its fence is not taken, so nothing is kept for a restart', async () => {
    const res = await fetch(`${base}/api/replication/fence`, { method: 'POST', body: JSON.stringify({ term: 99 }), headers: { 'content-type': 'text/plain', ...CROSS_SITE } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN');
    const stream = await fetch(`${base}/api/replication/stream?name=x&from=0&fingerprint=f&term=99`, { headers: CROSS_SITE });
    expect(stream.status).toBe(403);
    expect(await role()).toBe('primary');
    const kept = join(dir, 'db', 'replication', 'role.json');
    expect(existsSync(kept) ? readFileSync(kept, 'utf8') : '').not.toMatch(/fenced|"term": 99/);
  });

  it('a local replica (not a web page) is served the stream', async () => {
    const ac = new AbortController();
    const res = await fetch(`${base}/api/replication/stream?name=local-1&from=0&fingerprint=none`, { signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/ndjson/);
    ac.abort();
  });

  it('a web page cannot run queries through the TCP port by posting an HTTP request to it', async () => {
    const request = 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\nContent-Type: text/plain\r\nContent-Length: 21\r\n\r\nCREATE (:FromAPage)\n';
    const talk = await converse(srv.ports.tcp!, [request], { quietMs: 3000 });
    expect(talk.closedByServer).toBe(true);
    expect(JSON.parse(talk.text.split('\n')[0]) as { code: string }).toMatchObject({ code: 'BAD_REQUEST' });
    const n = await post(base, 'MATCH (n:FromAPage) RETURN count(n) AS n');
    expect(n.body.rows).toEqual([{ n: '0' }]);
  });

  it('logs escape control and bidirectional characters from clients (demote URL, PG query text)', async () => {
    const pg = await psql('127.0.0.1', srv.ports.pg!, "RETURN 'a\u202eb' AS s");
    expect(pg.code).toBe(0);
    const url = 'http://127.0.0.1:9/x\u001b[31mFAKE\u202e';
    const demoted = await post(base, `CALL graphdb.replication.demote('${url}') YIELD role RETURN role`);
    expect(demoted.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    const log = srv.stderr();
    expect(log).toContain('a\\u202eb');
    expect(log).toContain('x\\x1b[31mFAKE\\u202e');
    expect(log.includes('\u001b') || log.includes('\u202e')).toBe(false);
  });
});

describe('a server with no key, reached from another machine', () => {
  const address = ownAddress();
  let srv: SpawnedServers;
  let base: string;

  beforeAll(async () => {
    if (address === undefined) return;
    srv = await start(['--host', address, '--data-dir', join(tempDir(), 'db'), '--replication-role', 'primary', '--http', '0', '--serve', '0', '--pg', '0', '--bolt', '0']);
    base = `http://${address}:${srv.ports.http}`;
  });

  it.skipIf(address === undefined)('warns loudly at start-up', () => {
    expect(srv.stderr()).toMatch(new RegExp(`WARNING: listening on ${address!.replace(/\./g, '\\.')} with no --api-key`));
  });

  it.skipIf(address === undefined)('may read and write, not administer, on HTTP, TCP, PG and Bolt', async () => {
    const w = await post(base, 'CREATE (:Remote) RETURN 1 AS one');
    expect(w.status).toBe(200);
    const admin = await post(base, "CALL graphdb.replication.registerReplica('far') YIELD name RETURN name");
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe('FORBIDDEN');
    const [tcp] = await tcpLines(address!, srv.ports.tcp!, ["CALL graphdb.replication.demote('http://127.0.0.1:9/')"]);
    expect(tcp).toMatchObject({ error: true, code: 'FORBIDDEN' });
    const pg = await psql(address!, srv.ports.pg!, 'CALL db.checkpoint()');
    expect(pg.code).not.toBe(0);
    expect(pg.stderr).toMatch(/42501/);
    // Inside an explicit transaction the grant is the same.
    const inTx = await tcpLines(address!, srv.ports.tcp!, ['BEGIN', "CALL graphdb.replication.demote('http://127.0.0.1:9/')"]);
    expect(inTx[1]).toMatchObject({ error: true, code: 'FORBIDDEN' });
    const pgTx = await psql(address!, srv.ports.pg!, 'BEGIN; CALL db.checkpoint(); COMMIT;');
    expect(pgTx.stderr).toMatch(/42501/);
    // Bolt, with Neo4j's own driver, in a single query and in an explicit transaction.
    const driver = neo4j.driver(`bolt://${address}:${srv.ports.bolt}`, neo4j.auth.basic('anyone', ''));
    try {
      await expect(driver.executeQuery('CALL db.checkpoint()')).rejects.toMatchObject({ code: 'Neo.ClientError.Security.Forbidden' });
      const session = driver.session();
      try {
        await expect(session.executeWrite((tx) => tx.run("CALL graphdb.replication.registerReplica('bolt') YIELD name RETURN name"))).rejects.toMatchObject({
          code: 'Neo.ClientError.Security.Forbidden',
        });
      } finally {
        await session.close();
      }
      const wrote = await driver.executeQuery('CREATE (:ViaBolt) RETURN 1 AS one');
      expect(wrote.records.length).toBe(1);
    } finally {
      await driver.close();
    }
    const pgRead = await psql(address!, srv.ports.pg!, 'MATCH (n:Remote) RETURN count(n)');
    expect(pgRead.stdout.trim()).toBe('1');
  });

  it.skipIf(address === undefined)('the MCP route runs its tools under the same grant', async () => {
    const call = async (cypher: string): Promise<{ isError?: boolean; content: { text: string }[] }> => {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_query', arguments: { cypher } } }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { isError?: boolean; content: { text: string }[] } }).result;
    };
    const admin = await call("CALL graphdb.replication.registerReplica('via-mcp') YIELD name RETURN name");
    expect(admin.isError).toBe(true);
    expect(admin.content[0].text).toMatch(/FORBIDDEN|administers the server/);
    const write = await call('CREATE (:ViaMcp) RETURN 1 AS one');
    expect(write.isError ?? false).toBe(false);
  });

  it.skipIf(address === undefined)('a primary with no secret refuses the stream and fences to other machines', async () => {
    const stream = await fetch(`${base}/api/replication/stream?name=far&from=0&fingerprint=none`);
    expect(stream.status).toBe(403);
    expect(((await stream.json()) as { message: string }).message).toMatch(/--replication-secret/);
    const fence = await fetch(`${base}/api/replication/fence`, { method: 'POST', body: JSON.stringify({ term: 7 }) });
    expect(fence.status).toBe(403);
    const mode = await post(base, 'CALL graphdb.replication.contract() YIELD mode RETURN mode');
    expect(mode.body.rows).toEqual([{ mode: 'primary' }]);
  });

  it.skipIf(address === undefined)('--replication-insecure serves replicas elsewhere (still not web pages)', async () => {
    const open = await start(['--host', address!, '--replication-role', 'primary', '--replication-insecure', '--http', '0']);
    const url = `http://${address}:${open.ports.http}`;
    expect(open.stderr()).toMatch(/--replication-insecure: anyone who reaches its HTTP port/);
    const ac = new AbortController();
    const ok = await fetch(`${url}/api/replication/stream?name=far&from=0&fingerprint=none`, { signal: ac.signal });
    expect(ok.status).toBe(200);
    ac.abort();
    const page = await fetch(`${url}/api/replication/stream?name=far&from=0&fingerprint=none`, { headers: CROSS_SITE });
    expect(page.status).toBe(403);
  });
});

describe('sync routes', () => {
  let base: string;
  const payload = {
    peer_id: 'page',
    seq_start: 1,
    seq_end: 1,
    queries: ['CREATE NODE {"gid":"page:1","hlc":"000001700000000.000000.page","labels":["Pushed"],"props":[]}'],
    fingerprint: 0,
  };

  beforeAll(async () => {
    const srv = await start(['--sync', '--http', '0']);
    base = `http://127.0.0.1:${srv.ports.http}`;
  });

  it("a web page's text/plain POST to /api/sync/push is refused and changes nothing; its pull too", async () => {
    const res = await fetch(`${base}/api/sync/push`, { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'text/plain', ...CROSS_SITE } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN');
    const pull = await fetch(`${base}/api/sync/pull?since=999&peer_id=page`, { headers: CROSS_SITE });
    expect(pull.status).toBe(403);
    const n = await post(base, 'MATCH (n:Pushed) RETURN count(n) AS n');
    expect(n.body.rows).toEqual([{ n: '0' }]);
  });

  it('a local sync client (not a web page) pushes as before', async () => {
    const res = await fetch(`${base}/api/sync/push`, { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const n = await post(base, 'MATCH (n:Pushed) RETURN count(n) AS n');
    expect(n.body.rows).toEqual([{ n: '1' }]);
  });
});

describe('--api-key on every door', () => {
  let srv: SpawnedServers;
  let base: string;

  beforeAll(async () => {
    srv = await start(['--api-key', KEY, '--http', '0', '--serve', '0', '--pg', '0']);
    base = `http://127.0.0.1:${srv.ports.http}`;
  });

  it('PG asks for the key as password: none or a wrong one is refused (28P01), the key works with any user', async () => {
    expect(srv.stderr()).toMatch(/PostgreSQL wire server listening on .*SCRAM-SHA-256 password required: the API key/);
    const none = await psql('127.0.0.1', srv.ports.pg!, 'RETURN 1');
    expect(none.code).not.toBe(0);
    const wrong = await psql('127.0.0.1', srv.ports.pg!, 'RETURN 1', 'not-the-key');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain('password authentication failed for user "anyone"');
    // psql does not print a connection error's SQLSTATE: the driver shows it.
    const client = new pg.Client({ host: '127.0.0.1', port: srv.ports.pg!, user: 'anyone', database: 'graphdb', password: 'not-the-key' });
    await expect(client.connect()).rejects.toMatchObject({ code: '28P01' });
    await client.end().catch(() => undefined);
    // The key is asked for by SCRAM-SHA-256, so it never crosses the wire.
    const params = Buffer.from('user\0anyone\0database\0graphdb\0\0');
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8 + params.length, 0);
    startup.writeInt32BE(196608, 4);
    const offer = await converse(srv.ports.pg!, [Buffer.concat([startup, params])], { quietMs: 500 });
    expect(offer.text.slice(0, 1)).toBe('R');
    expect(offer.text.slice(9)).toBe('SCRAM-SHA-256\0\0');
    const right = await psql('127.0.0.1', srv.ports.pg!, 'CALL db.checkpoint() YIELD success RETURN success', KEY);
    expect(right.code).toBe(0);
    expect(right.stdout.trim()).toBe('t');
  });

  it('with the key, a caller may administer on HTTP (even from a page that holds it) and TCP; GET still only reads', async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    const a = await post(base, 'CALL db.clearQueryCaches() YIELD value RETURN value', { ...auth, ...CROSS_SITE });
    expect(a.status).toBe(200);
    const g = await get(base, 'CALL db.clearQueryCaches() YIELD value RETURN value', auth);
    expect(g.status).toBe(403);
    const [ok, cleared] = await tcpLines('127.0.0.1', srv.ports.tcp!, [`AUTH ${KEY}`, 'CALL db.clearQueryCaches() YIELD value RETURN value']);
    expect(ok).toEqual({ auth: 'ok' });
    expect(cleared).toMatchObject({ columns: ['value'] });
  });
});

describe('the rule table', () => {
  const caller = (c: Partial<Caller>): Caller => ({ keyRequired: false, keyGiven: false, page: 'none', local: false, readOnlyRoute: false, ...c });

  it('maps each kind of caller to what it may do', () => {
    expect(grantFor(caller({ readOnlyRoute: true, keyRequired: true, keyGiven: true, local: true }))).toEqual(['read']);
    expect(grantFor(caller({ keyRequired: true, keyGiven: true, page: 'foreign' }))).toEqual(ALL_ACCESS);
    expect(grantFor(caller({ keyRequired: true, keyGiven: false, local: true }))).toEqual([]);
    expect(grantFor(caller({ page: 'foreign', local: true }))).toEqual(['read']);
    expect(grantFor(caller({ page: 'allowed', local: true }))).toEqual(['read', 'write', 'files']);
    expect(grantFor(caller({ local: false }))).toEqual(['read', 'write', 'files']);
    expect(grantFor(caller({ local: true }))).toEqual(ALL_ACCESS);
  });

  it('tells loopback peers and web pages apart', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.1', '::ffff:192.0.2.1', 'fd00::2', '128.0.0.1', undefined]) expect(isLoopback(a), String(a)).toBe(false);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    const allowed = new Set(['https://app.example']);
    expect(pageOrigin({}, allowed)).toBe('none');
    expect(pageOrigin({ 'sec-fetch-site': 'none' }, allowed)).toBe('none');
    expect(pageOrigin({ 'sec-fetch-site': 'same-origin' }, allowed)).toBe('foreign');
    expect(pageOrigin({ origin: 'https://APP.example' }, allowed)).toBe('allowed');
    expect(pageOrigin({ origin: 'null' }, allowed)).toBe('foreign');
  });

  it('warns of a server open to other machines only when it is', () => {
    expect(openDoorsWarning({ host: '127.0.0.1', http: 1 })).toBeUndefined();
    expect(openDoorsWarning({ host: '0.0.0.0', http: 1, apiKey: 'k' })).toBeUndefined();
    expect(openDoorsWarning({ host: '0.0.0.0', pg: 1, pgPassword: 'p' })).toBeUndefined();
    expect(openDoorsWarning({ host: '0.0.0.0', http: 1, pg: 2 })).toMatch(/HTTP, PostgreSQL wire/);
  });

  it('escapes controls and bidirectional characters for the log, and nothing else', () => {
    expect(escapeForLog('a\nb\r\u001b[1m\u202e\u2066\u200f\u0085')).toBe('a\\nb\\r\\x1b[1m\\u202e\\u2066\\u200f\\x85');
    expect(escapeForLog('plain ünïcode 漢字 → ok')).toBe('plain ünïcode 漢字 → ok');
  });
});

describe('what each procedure declares', () => {
  const db = Database.openInMemory();
  const access = new Map(db.procedures.list().map((p) => [p.name, procedureAccess(p)]));

  it('every procedure has an access kind; the ones the issue names are administration or file writes', () => {
    expect(access.size).toBeGreaterThanOrEqual(188);
    for (const name of ['graphdb.replication.promote', 'graphdb.replication.demote', 'graphdb.replication.registerReplica', 'graphdb.replication.unregisterReplica', 'skills.register', 'skills.remove', 'db.index.vector.createNodeIndex', 'db.index.vector.createRelationshipIndex', 'db.checkpoint', 'db.clearQueryCaches']) {
      expect(access.get(name), name).toBe('admin');
    }
    for (const name of ['apoc.export.json.all', 'apoc.export.json.query', 'apoc.export.csv.query']) expect(access.get(name), name).toBe('files');
    expect(access.get('apoc.create.node')).toBe('write');
    expect(access.get('db.labels')).toBe('read');
  });

  it('a dbms procedure is administration unless it is one of the reports declared readable', () => {
    const readable = new Set([
      'dbms.components', 'dbms.info', 'dbms.clientConfig', 'dbms.listConfig', 'dbms.showCurrentUser', 'dbms.procedures', 'db.procedures', 'dbms.functions',
      'tx.setMetaData', 'tx.getMetaData', 'graphdb.replication.contract', 'graphdb.replication.walTailing', 'graphdb.replication.objectStoreFanout', 'db.replicationStatus',
    ]);
    for (const p of db.procedures.list().filter((d) => d.mode === 'dbms' || d.mode === 'schema')) {
      expect(procedureAccess(p), p.name).toBe(readable.has(p.name) ? 'read' : 'admin');
    }
  });

  it('the engine refuses a call beyond the grant wherever it hides, and schema commands without admin', async () => {
    const allow = ['read', 'write', 'files'] as const;
    await expect(db.execute('CALL db.clearQueryCaches()', undefined, { allow: [...allow] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(db.execute("CALL apoc.cypher.run('CALL db.clearQueryCaches() YIELD value RETURN value', {}) YIELD value RETURN value", undefined, { allow: [...allow] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(db.execute('CREATE INDEX FOR (n:X) ON (n.p)', undefined, { allow: [...allow] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(db.execute("CALL apoc.export.json.all('', {})", undefined, { allow: ['read'] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const ok = await db.execute('CALL db.clearQueryCaches() YIELD value RETURN value');
    expect(ok.records.length).toBe(1);
  });
});

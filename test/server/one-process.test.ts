/**
 * The real `graphdb` binary serving HTTP, TCP and PostgreSQL wire at once on one store
 * (`graphdb --http … --serve … --pg …`): a write through any door is seen through the
 * others, the start-up lines name every server, and SIGTERM closes them all with status 0.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { converse, spawnGraphdb, type SpawnedServers } from './helpers.js';

describe('one process, three doors, one store', () => {
  let srv: SpawnedServers;

  beforeAll(async () => {
    srv = await spawnGraphdb(['--http', '0', '--serve', '0', '--pg', '0', '--api-key', 'k3y']);
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('prints every server and that the key is required', () => {
    expect(srv.ports.http).toBeGreaterThan(0);
    expect(srv.ports.tcp).toBeGreaterThan(0);
    expect(srv.ports.pg).toBeGreaterThan(0);
    expect(srv.stderr()).toMatch(/API key: required/);
  });

  it('a write over TCP is read over HTTP and PostgreSQL wire', async () => {
    // With --api-key the TCP door wants `AUTH <key>` first.
    const tcp = await converse(srv.ports.tcp!, ["AUTH k3y\nCREATE (:City {name: 'Lisbon', pop: 545000}) RETURN 1 AS ok\n"], { end: true });
    expect(tcp.text.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([{ auth: 'ok' }, { columns: ['ok'], rows: [{ ok: '1' }] }]);

    const http = await fetch(`http://127.0.0.1:${srv.ports.http}/query?q=MATCH+(c:City)+RETURN+c.name+AS+name,+c.pop+AS+pop`, {
      headers: { authorization: 'Bearer k3y' },
    });
    expect(await http.json()).toEqual({ columns: ['name', 'pop'], rows: [{ name: 'Lisbon', pop: '545000' }] });

    // And the PG door takes the key as password (any user name).
    const client = new pg.Client({ host: '127.0.0.1', port: srv.ports.pg, user: 'test', database: 'graph', password: 'k3y' });
    await client.connect();
    const res = await client.query('MATCH (c:City) RETURN c.name AS name, c.pop AS pop');
    expect(res.rows).toEqual([{ name: 'Lisbon', pop: '545000' }]);
    await client.query("MATCH (c:City) SET c.visited = true");
    await client.end();

    const status = await fetch(`http://127.0.0.1:${srv.ports.http}/status`, { headers: { authorization: 'Bearer k3y' } });
    expect(await status.json()).toMatchObject({ name: 'graphdb', nodes: 1, relationships: 0 });
    const tcp2 = await converse(srv.ports.tcp!, ['AUTH k3y\nMATCH (c:City) RETURN c.visited AS v\n'], { end: true });
    expect(JSON.parse(tcp2.text.trim().split('\n')[1])).toEqual({ columns: ['v'], rows: [{ v: 'true' }] });
  });

  it('probes answer without the key while the others need it', async () => {
    const base = `http://127.0.0.1:${srv.ports.http}`;
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await fetch(`${base}/status`)).status).toBe(401);
    // The TCP door too: no AUTH line, no data (and a wrong key the same).
    for (const first of ['MATCH (n) RETURN count(n) AS n\n', 'AUTH wrong\nMATCH (n) RETURN count(n) AS n\n']) {
      const tcp = await converse(srv.ports.tcp!, [first], { end: true });
      const lines = tcp.text.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0])).toMatchObject({ error: true, code: 'UNAUTHORIZED' });
      expect(tcp.closedByServer).toBe(true);
    }
  });

  it('SIGTERM closes every server and exits 0', async () => {
    const other = await spawnGraphdb(['--http', '0', '--serve', '0']);
    expect(await other.stop()).toBe(0);
    expect(other.stderr()).toMatch(/SIGTERM received, closing the servers/);
  });

  it('a port already taken is a clear error with status 1', async () => {
    const { spawnSync } = await import('node:child_process');
    const { GRAPHDB_BIN } = await import('./helpers.js');
    const run = spawnSync(process.execPath, [GRAPHDB_BIN, '--serve', '0', '--http', String(srv.ports.http)], { encoding: 'utf8', timeout: 20000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/cannot start the HTTP server on port \d+: the address is already in use/);
  });
});

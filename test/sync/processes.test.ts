/**
 * Sync between separate `graphdb` processes over HTTP on loopback: a hub serving the sync
 * routes and spokes auto-syncing with it (`graphdb sync start`), writes sent to every process
 * through POST /query, a spoke and then the hub SIGKILLed mid-sync and restarted from their
 * data directories; at quiescence every fingerprint is equal, every acknowledged write is
 * everywhere, and every process answers the same content.
 */

import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';

const KEY = 'sync-test-key';
const auth = { authorization: `Bearer ${KEY}` };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-proc-'));
const running = new Set<SpawnedServers>();

afterAll(async () => {
  for (const s of running) s.child.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function start(args: string[]): Promise<SpawnedServers> {
  const s = await spawnGraphdb(args);
  running.add(s);
  s.child.once('exit', () => running.delete(s));
  return s;
}

const url = (s: SpawnedServers): string => `http://127.0.0.1:${s.ports.http}`;

async function query(s: SpawnedServers, q: string): Promise<{ ok: boolean; rows: Record<string, string>[] }> {
  try {
    const res = await fetch(`${url(s)}/query`, { method: 'POST', body: q, headers: auth, signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as { rows?: Record<string, string>[] };
    return { ok: res.ok, rows: body.rows ?? [] };
  } catch {
    return { ok: false, rows: [] };
  }
}

async function fingerprint(s: SpawnedServers): Promise<string> {
  const res = await fetch(`${url(s)}/api/sync/pull?since=999999999999`, { headers: auth });
  return String(((await res.json()) as { fingerprint: number }).fingerprint);
}

async function content(s: SpawnedServers): Promise<string> {
  const nodes = await query(s, 'MATCH (n) RETURN labels(n) AS l, properties(n) AS p');
  const rels = await query(s, 'MATCH (a)-[r]->(b) RETURN a.uid AS a, type(r) AS t, properties(r) AS p, b.uid AS b');
  return [...nodes.rows, ...rels.rows].map((r) => JSON.stringify(r)).sort().join('\n');
}

async function kill(s: SpawnedServers): Promise<void> {
  await new Promise<void>((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.kill('SIGKILL');
  });
}

describe('sync between graphdb processes over HTTP', () => {
  it('converges after SIGKILL of a spoke and of the hub mid-sync', async () => {
    const hubPort = await freePort();
    const hubArgs = ['--data-dir', path.join(root, 'hub'), '--peer-id', 'hub', '--http', String(hubPort), '--api-key', KEY];
    const spokeArgs = (i: number): string[] => [
      '--data-dir', path.join(root, `s${i}`), '--peer-id', `s${i}`, '--http', '0', '--api-key', KEY,
      'sync', 'start', '--peer', `http://127.0.0.1:${hubPort}`, '--peer-key', KEY, '--interval', '100', '--max-backoff', '800',
    ];
    let hub = await start(hubArgs);
    const spokes = [await start(spokeArgs(0)), await start(spokeArgs(1))];
    const acknowledged: string[] = [];
    let uid = 0;
    const writeSome = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        const target = [hub, ...spokes][i % 3];
        const id = `u${++uid}`;
        const prev = `u${Math.max(1, uid - 1)}`;
        const r = await query(target, `CREATE (x:Item {uid: '${id}', v: ${i}}) WITH x MATCH (p:Item {uid: '${prev}'}) CREATE (p)-[:NEXT]->(x)`);
        if (r.ok) acknowledged.push(id);
        if (i % 5 === 0) await query(target, `MATCH (n:Item) WHERE n.v = ${i % 7} SET n.tag = '${target === hub ? 'hub' : 'spoke'}${i}'`);
      }
    };
    await writeSome(20);
    await kill(spokes[0]);
    await writeSome(10);
    spokes[0] = await start(spokeArgs(0));
    await writeSome(10);
    await kill(hub);
    await writeSome(10); // only the spokes answer these; their auto-sync backs off meanwhile
    hub = await start(hubArgs);
    await writeSome(10);
    const all = (): SpawnedServers[] => [hub, ...spokes];
    const deadline = Date.now() + 30_000;
    let fps: string[] = [];
    while (Date.now() < deadline) {
      fps = await Promise.all(all().map(fingerprint));
      if (new Set(fps).size === 1) {
        const again = await Promise.all(all().map(fingerprint));
        if (again.every((f) => f === fps[0])) break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    if (new Set(fps).size !== 1) for (const s of all()) console.error(s.stderr().slice(-3000));
    expect(new Set(fps).size, fps.join(' ')).toBe(1);
    const texts = await Promise.all(all().map(content));
    for (const t of texts) expect(t).toBe(texts[0]);
    for (const id of acknowledged) expect(texts[0]).toContain(`uid: '${id}'`);
    expect(acknowledged.length).toBeGreaterThan(35);
  }, 180_000);
});

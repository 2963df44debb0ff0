import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import type { SyncHandle } from '../../src/sync/attach.js';
import { exportSyncedGraph } from '../../src/sync/export.js';
import { HttpTransport } from '../../src/sync/transport.js';

const open: { db: Database; server: RunningServer }[] = [];

async function serve(id: string, apiKey?: string): Promise<{ db: Database; url: string }> {
  const db = Database.openInMemory({ sync: { peerId: id } });
  const server = await startHttpServer(db, { port: 0, apiKey, log: () => undefined });
  open.push({ db, server });
  return { db, url: `http://127.0.0.1:${server.port}` };
}
const h = (db: Database): SyncHandle => db.sync as SyncHandle;

afterEach(async () => {
  for (const { db, server } of open.splice(0)) {
    await server.close();
    db.close();
  }
});

describe('sync routes over HTTP', () => {
  it('pushes, pulls and converges between two servers, behind --api-key', async () => {
    const a = await serve('a', 'k1');
    const b = await serve('b', 'k1');
    await a.db.mutate("CREATE (:P {name: 'a1'})-[:R]->(:P {name: 'a2'})");
    await b.db.mutate("CREATE (:P {name: 'b1', when: date('2024-01-02')})");
    const toB = new HttpTransport(b.url, { apiKey: 'k1' });
    const r = await h(a.db).syncWith(toB);
    expect(r.consistent).toBe(true);
    expect(exportSyncedGraph(a.db)).toEqual(exportSyncedGraph(b.db));
    expect(a.db.syncPending()).toBe(0);
    const noKey = await fetch(`${b.url}/api/sync/pull?since=0`);
    expect(noKey.status).toBe(401);
    await expect(h(a.db).push(new HttpTransport(b.url, { apiKey: 'wrong' }))).rejects.toThrow(/401/);
  });

  it('refuses bad payloads with 400 and changes nothing', async () => {
    const b = await serve('b');
    await b.db.mutate("CREATE (:Keep {v: 1})");
    const before = { fp: b.db.fingerprint(), export: exportSyncedGraph(b.db) };
    const post = (body: string): Promise<Response> => fetch(`${b.url}/api/sync/push`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const ok = { peer_id: 'x', seq_start: 1, seq_end: 1, queries: [], fingerprint: 0 };
    const good = 'CREATE NODE {"gid":"x:1","hlc":"000001700000000.000000.x","labels":["N"],"props":[]}';
    const cases: unknown[] = [
      'not json',
      [],
      { ...ok, peer_id: 7 },
      { ...ok, seq_start: 'one' },
      { ...ok, seq_start: 5, seq_end: 2 },
      { ...ok, seq_start: 3, seq_end: 3, queries: [good] },
      { ...ok, queries: [good, 'DROP EVERYTHING'] },
      { ...ok, queries: [good, 'MERGE NODE {"gid":"x:1"}'] },
      { ...ok, queries: [good, 42] },
      { ...ok, queries: [good, 'CREATE REL {"gid":"x:1","hlc":"000001700000000.000001.x","type":"T","start":"x:1","end":"x:1","props":[]}'] },
      { ...ok, fingerprint: -1 },
    ];
    for (const c of cases) {
      const res = await post(typeof c === 'string' ? c : JSON.stringify(c));
      expect(res.status, JSON.stringify(c)).toBe(400);
      const body = (await res.json()) as { error: boolean; code: string; message: string };
      expect(body.error).toBe(true);
      expect(body.code).toBe('SYNC_BAD_PAYLOAD');
      expect(typeof body.message).toBe('string');
    }
    const huge = await post(JSON.stringify({ ...ok, queries: ['x'.repeat(70 * 1024 * 1024)] }));
    expect(huge.status).toBe(400);
    expect(b.db.fingerprint()).toBe(before.fp);
    expect(exportSyncedGraph(b.db)).toEqual(before.export);
    const bad = await fetch(`${b.url}/api/sync/pull?since=-1`);
    expect(bad.status).toBe(400);
    // A good payload still goes through afterwards.
    const res = await post(JSON.stringify({ ...ok, queries: [good] }));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { acked_seq: number }).acked_seq).toBe(1);
  });
});

/**
 * Replication within one test process, over real HTTP on loopback: a primary Database with
 * its HTTP server and replica Databases following it. Covers the procedures' columns, the
 * READ_ONLY refusal, the secret, strict ordering in the applier, a far-behind replica's
 * snapshot bootstrap (its own divergent content replaced), resuming from the primary's
 * ring, and a synchronous write that no replica acknowledges.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { ReplicaApplier } from '../../src/replication/applier.js';
import { attachReplication } from '../../src/replication/cli-options.js';
import type { ReplicationManager } from '../../src/replication/manager.js';
import { DEFAULT_SYNC_TIMEOUT_MS, type ReplicationSettings } from '../../src/replication/settings.js';
import { freePort, until } from './harness.js';

const SECRET = 'in-process-secret';
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function settings(over: Partial<ReplicationSettings>): ReplicationSettings {
  return { role: 'standalone', mode: 'async', factor: 1, name: 'r', syncTimeoutMs: DEFAULT_SYNC_TIMEOUT_MS, ringSize: 1000, secret: SECRET, log: () => undefined, ...over };
}

async function primary(over: Partial<ReplicationSettings> = {}): Promise<{ db: Database; manager: ReplicationManager; url: string }> {
  const db = Database.openInMemory();
  const manager = attachReplication(db, settings({ role: 'primary', name: 'primary', ...over }));
  const server: RunningServer = await startHttpServer(db, { port: 0, host: '127.0.0.1', log: () => undefined });
  cleanups.push(() => db.close(), () => manager.close(), () => server.close());
  return { db, manager, url: `http://127.0.0.1:${server.port}` };
}

function replica(url: string, name: string, db = Database.openInMemory(), secret = SECRET): { db: Database; manager: ReplicationManager } {
  const manager = attachReplication(db, settings({ role: 'replica', primaryUrl: url, name, secret }));
  cleanups.push(() => db.close(), () => manager.close());
  return { db, manager };
}

const rows = (db: Database, q: string): unknown[][] => db.executeSync(q).records;
const caughtUp = (a: Database, b: Database) => async (): Promise<boolean> => a.fingerprint() === b.fingerprint();

describe('replication procedures', () => {
  it('answer as standalone when no role is configured', () => {
    const db = Database.openInMemory();
    expect(db.executeSync('CALL graphdb.replication.contract()').columns).toEqual(['mode', 'writes_enabled', 'replication_factor', 'description']);
    expect(rows(db, 'CALL graphdb.replication.contract() YIELD mode, writes_enabled, replication_factor RETURN mode, writes_enabled, replication_factor')).toEqual([['standalone', true, 1]]);
    expect(db.executeSync('CALL graphdb.replication.walTailing()').columns).toEqual(['field', 'value', 'description']);
    expect(db.executeSync('CALL graphdb.replication.objectStoreFanout()').columns).toEqual(['field', 'value', 'description']);
    const status = db.executeSync('CALL db.replicationStatus()');
    expect(status.columns).toEqual(['name', 'address', 'role', 'state', 'mode', 'applied_seq', 'lag_records', 'lag_ms', 'last_error']);
    expect(status.records).toEqual([]);
    expect(() => db.executeSync('CALL graphdb.replication.promote()')).toThrow(/not configured/);
    db.close();
  });
});

describe('WAL streaming to replicas', () => {
  it('replicates writes and schema in order, serves reads, refuses writes with READ_ONLY', async () => {
    const p = await primary();
    await p.db.execute("CREATE (:City {name: 'Oslo'})-[:ROAD {km: 500}]->(:City {name: 'Bergen'})");
    const r = replica(p.url, 'r1');
    await p.db.execute('CREATE INDEX city_name FOR (c:City) ON (c.name)');
    await p.db.execute("MATCH (c:City {name: 'Oslo'}) SET c.pop = 700000");
    await p.db.execute("MATCH (c:City {name: 'Bergen'}) DETACH DELETE c");
    expect(await until(caughtUp(p.db, r.db), 20_000)).toBe(true);
    expect(rows(r.db, 'MATCH (c:City) RETURN c.name, c.pop')).toEqual([['Oslo', 700000]]);
    expect(rows(r.db, 'SHOW INDEXES YIELD name RETURN name')).toEqual([['city_name']]);
    let err: unknown;
    try {
      await r.db.execute("CREATE (:City {name: 'Trondheim'})");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GraphDbError);
    expect((err as GraphDbError).code).toBe('READ_ONLY');
    expect(() => r.db.executeSync('CREATE INDEX x FOR (c:City) ON (c.pop)')).toThrow(/read replica/);
    expect(rows(r.db, 'CALL graphdb.replication.contract() YIELD mode, writes_enabled RETURN mode, writes_enabled')).toEqual([['replica', false]]);
    await until(async () => rows(p.db, 'CALL db.replicationStatus() YIELD name, state, lag_records RETURN name, state, lag_records').some((row) => row[0] === 'r1' && row[2] === 0), 20_000);
    expect(rows(p.db, 'CALL db.replicationStatus() YIELD name, role, state RETURN name, role, state')).toEqual([['r1', 'replica', 'streaming']]);
  });

  it('refuses a stream without the secret', async () => {
    const p = await primary();
    const res = await fetch(`${p.url}/api/replication/stream?name=x&from=0&fingerprint=f`);
    expect(res.status).toBe(401);
    const wrong = await fetch(`${p.url}/api/replication/stream?name=x&from=0&fingerprint=f`, { headers: { 'x-replication-secret': 'nope' } });
    expect(wrong.status).toBe(401);
    await p.db.execute('CREATE (:A)');
    const r = replica(p.url, 'intruder', Database.openInMemory(), 'wrong-secret');
    await until(async () => (r.manager.status()[0]?.lastError ?? '').includes('401'), 20_000);
    expect(r.manager.status()[0].lastError).toContain('HTTP 401');
    expect(r.db.graph.nodeCount).toBe(0);
  });

  it('bootstraps a far-behind, divergent replica from a snapshot, then tails', async () => {
    const p = await primary({ ringSize: 3 });
    for (let i = 0; i < 10; i++) await p.db.execute('CREATE (:N {i: $i})', { i });
    const own = Database.openInMemory();
    own.executeSync("CREATE (:Mine {x: 'diverged'}), (:Mine), (:Mine)");
    const r = replica(p.url, 'late', own);
    expect(await until(caughtUp(p.db, r.db), 20_000)).toBe(true);
    expect(rows(r.db, 'MATCH (m:Mine) RETURN count(m)')).toEqual([[0]]);
    await p.db.execute('CREATE (:N {i: 10})');
    expect(await until(caughtUp(p.db, r.db), 20_000)).toBe(true);
    expect(rows(r.db, 'MATCH (n:N) RETURN count(n), max(n.i)')).toEqual([[11, 10]]);
  });

  it('resumes a reconnecting replica from the ring without a snapshot, and survives a durable replica restart', async () => {
    const p = await primary();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-repl-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    let rdb = await Database.open({ dataDir: dir, storage: { log: null } });
    let r = attachReplication(rdb, settings({ role: 'replica', primaryUrl: p.url, name: 'durable' }));
    await p.db.execute('UNWIND range(1, 5) AS i CREATE (:N {i: i})');
    expect(await until(caughtUp(p.db, rdb), 20_000)).toBe(true);
    r.close();
    rdb.close();
    await p.db.execute('UNWIND range(6, 8) AS i CREATE (:N {i: i})');
    rdb = await Database.open({ dataDir: dir, storage: { log: null } });
    let snapshots = 0;
    r = attachReplication(rdb, settings({ role: 'replica', primaryUrl: p.url, name: 'durable', log: (l) => void (l.includes('snapshot') && snapshots++) }));
    cleanups.push(() => rdb.close(), () => r.close());
    expect(await until(caughtUp(p.db, rdb), 20_000)).toBe(true);
    expect(snapshots).toBe(0);
    expect(rows(rdb, 'MATCH (n:N) RETURN count(n)')).toEqual([[8]]);
  });

  it('snapshots a replica holding a write its restarted primary lost (position and fingerprint match by chance), so a synchronous write is acknowledged only once a replica holds it', async () => {
    // The primary's process before and after a crash, on one port. Both hold 'kept' (the durable
    // history); the first also published 'lost' to the replica before the crash took it from its
    // log (a group commit not yet written; never acknowledged). Then the restarted primary's own next
    // write has the same shape: the replica's position and fingerprint (counts and sequence, not
    // content) equal the primary's, and it must not be taken to hold that write.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const kept = "CREATE (:Item {uid: 'kept'})";
    const sync = { role: 'primary' as const, name: 'primary', mode: 'sync' as const, factor: 2, syncTimeoutMs: 30_000 };
    const first = Database.openInMemory();
    first.executeSync(kept);
    const firstManager = attachReplication(first, settings(sync));
    const firstServer = await startHttpServer(first, { port, host: '127.0.0.1', log: () => undefined });
    const r = replica(url, 'r1');
    const late = Database.openInMemory();
    const lateManager = attachReplication(late, settings({ role: 'replica', primaryUrl: url, name: 'r2' }));
    expect(await until(caughtUp(first, late), 20_000)).toBe(true);
    // r2 stops following at 'kept', where the restarted primary starts.
    lateManager.close();
    await first.execute("CREATE (:Item {uid: 'lost'})");
    expect(rows(r.db, 'MATCH (n:Item) RETURN n.uid AS uid ORDER BY uid')).toEqual([['kept'], ['lost']]);
    await firstServer.close();
    await firstManager.close();
    first.close();

    const second = Database.openInMemory();
    second.executeSync(kept);
    const secondManager = attachReplication(second, settings(sync));
    cleanups.push(() => second.close(), () => secondManager.close());
    // Committed here before any replica is back; acknowledged once a replica holds it.
    const acked = second.execute("CREATE (:Item {uid: 'acked'})");
    expect(r.db.fingerprint()).toBe(second.fingerprint());
    const secondServer = await startHttpServer(second, { port, host: '127.0.0.1', log: () => undefined });
    cleanups.push(() => secondServer.close());
    await acked;
    expect(rows(r.db, 'MATCH (n:Item) RETURN n.uid AS uid ORDER BY uid')).toEqual([['acked'], ['kept']]);

    // A replica standing exactly where the restarted primary started resumes from its ring, without a snapshot.
    let snapshots = 0;
    const resumed = attachReplication(late, settings({ role: 'replica', primaryUrl: url, name: 'r2', log: (l) => void (l.includes('snapshot') && snapshots++) }));
    cleanups.push(() => late.close(), () => resumed.close());
    expect(await until(caughtUp(second, late), 20_000)).toBe(true);
    expect(snapshots).toBe(0);
    expect(rows(late, 'MATCH (n:Item) RETURN n.uid AS uid ORDER BY uid')).toEqual([['acked'], ['kept']]);
  });

  it('fails a synchronous write that no replica acknowledges in time, after committing it on the primary', async () => {
    const p = await primary({ mode: 'sync', factor: 2, syncTimeoutMs: 300 });
    await expect(p.db.execute('CREATE (:Lonely)')).rejects.toMatchObject({ code: 'REPLICATION_ERR' });
    expect(rows(p.db, 'MATCH (n:Lonely) RETURN count(n)')).toEqual([[1]]);
    const r = replica(p.url, 'r1');
    expect(await until(caughtUp(p.db, r.db), 20_000)).toBe(true);
    await p.db.execute('CREATE (:Acknowledged)');
    expect(rows(r.db, 'MATCH (n:Acknowledged) RETURN count(n)')).toEqual([[1]]);
  });
});

describe('fencing', () => {
  const notice = (url: string, body: unknown, secret: string | null = SECRET): Promise<Response> =>
    fetch(`${url}/api/replication/fence`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret === null ? {} : { 'x-replication-secret': secret }) },
      body: JSON.stringify(body),
    });

  it('a fence notice of a newer term fails the synchronous write in flight, then refuses writes; an old term or no secret changes nothing', async () => {
    const p = await primary({ mode: 'sync', factor: 2, syncTimeoutMs: 60_000 });
    expect((await notice(p.url, { term: 1 }, null)).status).toBe(401);
    expect(p.manager.role).toBe('primary');
    // Committed here, waiting for a replica acknowledgement that will not come.
    const inFlight = p.db.execute("CREATE (:InFlight {uid: 'w'})").then(
      () => 'acknowledged',
      (err: unknown) => err,
    );
    const fenced = await notice(p.url, { term: 1, primary: 'http://127.0.0.1:9' });
    expect(fenced.status).toBe(200);
    expect(await fenced.json()).toEqual({ fenced: true, previous_role: 'primary', role: 'fenced', term: 1 });
    expect(await inFlight).toMatchObject({ code: 'REPLICATION_ERR', detail: 'SyncReplicationAborted' });
    expect(rows(p.db, 'MATCH (n:InFlight) RETURN count(n)')).toEqual([[1]]);
    await expect(p.db.execute('CREATE (:After)')).rejects.toMatchObject({ code: 'READ_ONLY', detail: 'FencedPrimary' });
    const stale = await notice(p.url, { term: 1 });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { message: string }).message).toContain('not newer');
    // A stream request answers 409 with the term and the successor, which a replica follows.
    const refused = await fetch(`${p.url}/api/replication/stream?name=x&from=0&fingerprint=f&term=0`, { headers: { 'x-replication-secret': SECRET } });
    expect(refused.status).toBe(409);
    expect(refused.headers.get('x-replication-term')).toBe('1');
    expect(refused.headers.get('x-replication-successor')).toBe('http://127.0.0.1:9');
    // Promoting the fenced instance takes a newer term still.
    expect(p.manager.promote()).toBe('fenced');
    expect(p.manager.term).toBe(2);
    // Synchronous, no replica: committed, then its acknowledgement waits; what matters is that it was accepted.
    void p.db.execute('CREATE (:Again)').catch(() => undefined);
    expect(rows(p.db, 'MATCH (n:Again) RETURN count(n)')).toEqual([[1]]);
  });
});

describe('ReplicaApplier', () => {
  it('applies batches only in order: a gap changes nothing', () => {
    const db = Database.openInMemory();
    const applier = new ReplicaApplier(db);
    const node = (id: number) => ({ op: 'createNode' as const, id, labels: ['L'], props: new Map() });
    applier.apply([{ n: 1, before: 0, after: 1, at: 0, changes: [node(0)] }]);
    expect(() => applier.apply([{ n: 3, before: 2, after: 3, at: 0, changes: [node(2)] }])).toThrow(/a batch is missing/);
    expect(db.graph.nodeCount).toBe(1);
    // A batch the replica already holds is skipped, not applied twice.
    expect(applier.apply([{ n: 1, before: 0, after: 1, at: 0, changes: [node(0)] }])).toEqual([]);
    applier.apply([{ n: 2, before: 1, after: 2, at: 0, changes: [node(1)] }]);
    expect(db.graph.nodeCount).toBe(2);
    db.close();
  });
});

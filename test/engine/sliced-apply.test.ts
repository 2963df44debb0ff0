/**
 * A worker's commit applied by the primary a slice per turn of the event loop
 * (`Database.applyWorkerWrite`): a bulk write through the router leaves the main thread free
 * to answer (timers, an HTTP probe) while it is applied; a read sent meanwhile sees none or all
 * of it; a synchronous entry to the Database meanwhile finishes it first and sees all of it; a
 * write that fails when applied leaves nothing, on the primary or on any replica; its payloads
 * cross packed as bytes and come back exactly; and with a data directory it is durable before
 * its answer, through a reopen and through WAL replay.
 */

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { decodeInSlices, packPayloads } from '../../src/engine/workers/commit-slices.js';
import { WAL_FILE } from '../../src/store/persist/durable-store.js';
import { encodeTransactionRecords, type LoggedChange } from '../../src/store/persist/record-codec.js';
import { STORE_FILE } from '../../src/store/persist/record-store.js';
import type { Value } from '../../runtime/values.js';
import { routedDatabase } from './routed-database.js';
import { buildHttpApp } from '../../src/server/http/app.js';
import { resolveLimits } from '../../src/server/limits.js';

/** Nodes of a bulk write: enough that decoding and applying them takes many slices. */
const N = 40_000;
const bulk = (label: string): string => `UNWIND range(1, ${N}) AS i CREATE (:${label} {id: i, name: 'n' + toString(i)})`;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Wraps `db.applyWorkerWrite` so that `during` runs once the primary is in the middle of
 * applying (its transaction open between turns); returns how the apply went.
 */
function duringApply(db: Database, during: () => Promise<void> | void): { restore: () => void; calls: { applied: boolean; sawPending: boolean }[] } {
  const original = db.applyWorkerWrite.bind(db);
  const calls: { applied: boolean; sawPending: boolean }[] = [];
  db.applyWorkerWrite = async (before, packed, sliceMs) => {
    const applying = original(before, packed, sliceMs);
    let sawPending = false;
    let settled = false;
    void applying.then(
      () => (settled = true),
      () => (settled = true),
    );
    // Decoding first (no transaction open), then applying: wait for the latter.
    while (!settled && !db.applyPending) await nextTurn();
    if (db.applyPending) {
      sawPending = true;
      await during();
    }
    const call = { applied: false, sawPending };
    calls.push(call);
    const outcome = await applying;
    call.applied = outcome !== undefined;
    return outcome;
  };
  return { restore: () => (db.applyWorkerWrite = original), calls };
}

describe('a worker\'s commit applied in slices', () => {
  const { db, pool, router, everywhere } = routedDatabase((seeded) => {
    seeded.executeSync('CREATE INDEX FOR (b:Bulk) ON (b.id)');
    seeded.executeSync('UNWIND range(1, 10) AS i CREATE (:Seed {i: i})');
  });

  let probe: Server;
  let probeUrl: string;
  beforeAll(async () => {
    probe = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    probeUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/health`;
    // The first request loads the HTTP client: not part of what is measured.
    expect(await (await fetch(probeUrl)).text()).toBe('ok');
  });
  afterAll(() => new Promise<void>((resolve) => probe.close(() => resolve())));

  it('runs a bulk write on a worker and applies it while timers and an HTTP probe are answered', async () => {
    let ticks = 0;
    let probeAnswered = false;
    const wrapped = duringApply(db, async () => {
      const timer = setInterval(() => ticks++, 1);
      try {
        const res = await fetch(probeUrl);
        probeAnswered = (await res.text()) === 'ok' && db.applyPending;
        // Ticks counted while the apply still holds its transaction open.
        while (db.applyPending && ticks < 3) await new Promise((r) => setTimeout(r, 1));
      } finally {
        clearInterval(timer);
      }
    });
    let r;
    try {
      r = await router().execute(bulk('Bulk'));
    } finally {
      wrapped.restore();
    }
    expect(r.stats.nodesCreated).toBe(N);
    expect(r.stats.propertiesSet).toBe(2 * N);
    expect(wrapped.calls).toEqual([{ applied: true, sawPending: true }]);
    expect(probeAnswered).toBe(true);
    expect(ticks).toBeGreaterThan(0);
    expect(db.applyPending).toBe(false);
    expect(await everywhere('MATCH (b:Bulk) RETURN count(b) AS c, sum(b.id) AS s, min(b.name) AS first')).toEqual([[N, (N * (N + 1)) / 2, 'n1']]);
    // The index followed the slices.
    expect(db.executeSync(`MATCH (b:Bulk {id: ${N - 7}}) RETURN b.name AS name`).records).toEqual([[`n${N - 7}`]]);
    // A second run of the same text stays on the workers (there is no bulk heuristic sending it to the main thread).
    const again = duringApply(db, () => undefined);
    try {
      expect((await router().execute(bulk('Bulk'))).stats.nodesCreated).toBe(N);
    } finally {
      again.restore();
    }
    expect(again.calls).toEqual([{ applied: true, sawPending: true }]);
    expect(await everywhere('MATCH (b:Bulk) RETURN count(b) AS c')).toEqual([[2 * N]]);
  }, 60_000);

  it("answers graphdb's own /status and /ready during the apply from the last commit, without finishing it", async () => {
    const app = await buildHttpApp(db, { limits: resolveLimits(), queries: router() });
    const before = db.committedCounts();
    const seen: { path: string; status: number; body: { nodes?: number; relationships?: number; memory?: unknown }; pendingAfter: boolean }[] = [];
    const wrapped = duringApply(db, async () => {
      for (const path of ['/status', '/ready']) {
        const res = await app.inject({ method: 'GET', url: path });
        seen.push({ path, status: res.statusCode, body: res.json(), pendingAfter: db.applyPending });
      }
    });
    try {
      await router().execute(bulk('Probed'));
    } finally {
      wrapped.restore();
      await app.close();
    }
    expect(wrapped.calls).toEqual([{ applied: true, sawPending: true }]);
    for (const s of seen) {
      expect(s.status, s.path).toBe(200);
      expect(s.pendingAfter, `${s.path} left the apply pending`).toBe(true);
      expect(s.body.nodes, s.path).toBe(before.nodes);
    }
    expect(seen.find((s) => s.path === '/status')?.body.memory).toBeDefined();
    expect(db.committedCounts().nodes).toBe(before.nodes + N);
  });

  it('answers a read sent during the apply with none or all of the write, from a worker', async () => {
    const COUNT = 'MATCH (n:Seen) RETURN count(n) AS c';
    // Proved short: outside an apply the router runs it on the main thread.
    for (let i = 0; i < 6; i++) expect((await router().execute(COUNT)).records).toEqual([[0]]);
    const reads: Promise<Value>[] = [];
    let pendingAfterReads = false;
    const wrapped = duringApply(db, async () => {
      for (let i = 0; i < 5; i++) reads.push(router().execute(COUNT).then((r) => r.records[0][0]));
      reads.push(router().execute('MATCH (n:Seen) RETURN n.id AS id ORDER BY id').then((r) => r.records.length));
      // Texts the router runs on the primary (one that looks like a write, sent as a read; a listing): they wait for the apply.
      reads.push(router().execute('MATCH (n:Seen) RETURN count(n) AS c, max(n.set) AS s', undefined, { readOnly: true }).then((r) => r.records[0][0]));
      reads.push(router().execute('SHOW INDEXES', undefined, { readOnly: true }).then(() => 0));
      // No read finished the apply on the main thread (which it would have done as it was sent): they went to a worker or wait.
      pendingAfterReads = db.applyPending;
    });
    try {
      expect((await router().execute(bulk('Seen'))).stats.nodesCreated).toBe(N);
    } finally {
      wrapped.restore();
    }
    expect(wrapped.calls[0].sawPending).toBe(true);
    for (const seen of await Promise.all(reads)) expect([0, N]).toContain(seen);
    expect(pendingAfterReads).toBe(true);
    expect((await router().execute(COUNT)).records).toEqual([[N]]);
  }, 60_000);

  it('finishes the apply first when the Database is entered synchronously: the caller sees all of the write', async () => {
    const seen: Value[][] = [];
    const wrapped = duringApply(db, () => {
      seen.push(db.executeSync('MATCH (n:Sync) RETURN count(n) AS c').records[0]);
      expect(db.applyPending).toBe(false);
      // A direct transaction meanwhile: after the whole write, not into the middle of it.
      db.writeTransaction((graph) => void graph.createNode(['SyncAfter'], new Map([['v', 1]])));
      seen.push([db.stats().nodes]);
    });
    const before = db.stats().nodes;
    try {
      expect((await router().execute(bulk('Sync'))).stats.nodesCreated).toBe(N);
    } finally {
      wrapped.restore();
    }
    expect(wrapped.calls).toEqual([{ applied: true, sawPending: true }]);
    expect(seen).toEqual([[N], [before + N + 1]]);
    expect(await everywhere('MATCH (n) WHERE n:Sync OR n:SyncAfter RETURN labels(n)[0] AS l, count(*) AS c ORDER BY l')).toEqual([['Sync', N], ['SyncAfter', 1]]);
  }, 60_000);

  it('keeps nothing of a write that fails when applied, on the primary or on any replica', async () => {
    db.executeSync('CREATE (:Uniq {k: 777})');
    // A constraint the replicas do not know of (made around the commit path): the worker's write passes there and fails here.
    db.schema.createConstraint('uniq_k', 'Uniq', 'k', 'unique', false);
    const before = db.stats().nodes;
    const wrapped = duringApply(db, () => undefined);
    try {
      await expect(router().execute(`UNWIND range(1, ${N}) AS i CREATE (:Uniq {k: i})`)).rejects.toMatchObject({ code: 'CONSTRAINT_ERR' });
    } finally {
      wrapped.restore();
    }
    expect(wrapped.calls[0].sawPending).toBe(true);
    expect(db.applyPending).toBe(false);
    expect(db.stats().nodes).toBe(before);
    expect(db.executeSync('MATCH (u:Uniq) RETURN count(u) AS c, collect(u.k) AS ks').records).toEqual([[1, [777]]]);
    // The worker that ran it was reloaded: every replica agrees with the primary.
    for (let i = 0; i < 200 && pool().readyWorkers < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await everywhere('MATCH (u:Uniq) RETURN count(u) AS c')).toEqual([[1]]);
    // Writes go on.
    expect((await router().execute('UNWIND range(1, 3) AS i CREATE (:AfterFail {i: i})')).stats.nodesCreated).toBe(3);
    expect(await everywhere('MATCH (a:AfterFail) RETURN count(a) AS c')).toEqual([[3]]);
  }, 60_000);
});

describe('a worker\'s commit packed for the main thread', () => {
  it('unpacks every payload as it was, multi-byte characters included, a turn between slices', async () => {
    const records: LoggedChange[] = Array.from({ length: 5000 }, (_, i) => ({ op: 'createNode', id: i, labels: ['Ü'], props: new Map<string, Value>([['s', `ñ日本😀${i}`], ['i', i]]) }));
    const payloads = encodeTransactionRecords(records, 700);
    expect(payloads.length).toBe(8);
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    let decoded;
    try {
      decoded = await decodeInSlices(packPayloads(payloads), 0);
    } finally {
      clearInterval(counting);
    }
    expect(decoded.payloads).toEqual(payloads);
    expect(decoded.changes).toEqual(records);
    expect(turns).toBeGreaterThan(0);
  });
});

describe('a worker\'s commit applied in slices, with a data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-sliced-apply-'));
  const copy = mkdtempSync(join(tmpdir(), 'graphdb-sliced-apply-copy-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(copy, { recursive: true, force: true });
  });

  it('is durable before its answer: replayed from the WAL after a stop without checkpoint, and there after a reopen', async () => {
    // No checkpoint while it runs: the copy taken below holds the write in the WAL only.
    const db = await Database.open({ dataDir: dir, storage: { log: null, checkpoint: { records: 1e9, walBytes: 1e12, intervalMs: 1e9 } } });
    const pool = await QueryWorkerPool.start(db, 1);
    const router = new QueryRouter(db, pool);
    try {
      const r = await router.execute(bulk('Durable'));
      expect(r.stats.nodesCreated).toBe(N);
      // Acknowledged: on disk now. A copy of the files as they are stands for a crash here.
      copyFileSync(join(dir, WAL_FILE), join(copy, WAL_FILE));
      copyFileSync(join(dir, STORE_FILE), join(copy, STORE_FILE));
    } finally {
      await pool.close();
      db.close();
    }
    for (const at of [copy, dir]) {
      const reopened = await Database.open({ dataDir: at, storage: { log: null } });
      try {
        expect(reopened.executeSync('MATCH (d:Durable) RETURN count(d) AS c, sum(d.id) AS s').records, at).toEqual([[N, (N * (N + 1)) / 2]]);
        if (at === copy) expect(reopened.storage?.recovery.walRecordsReplayed).toBeGreaterThan(1);
      } finally {
        reopened.close();
      }
    }
  }, 60_000);
});

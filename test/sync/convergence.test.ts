/**
 * Randomised convergence: 3–5 peers with data directories, random writes on every peer,
 * sync rounds over a faulty in-process network (drops, duplicates, delays, reordering,
 * partitions that heal, peers restarted from their data directory), then quiescence: every
 * fingerprint equal, every export equal, the incremental fingerprint equal to one recomputed
 * from the store, nothing pending. SYNC_TRIALS=<n> runs the long form.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import type { SyncHandle } from '../../src/sync/attach.js';
import { syncWith } from '../../src/sync/client.js';
import { exportSyncedGraph, recomputedFingerprint } from '../../src/sync/export.js';
import type { SyncTransport } from '../../src/sync/transport.js';
import { FaultyNetwork, NO_FAULTS, seededRandom } from './faulty-network.js';

const h = (db: Database): SyncHandle => db.sync as SyncHandle;

const WRITES: ((r: () => number) => [string, Record<string, unknown>])[] = [
  (r) => [`CREATE (:${pick(r, ['A', 'B'])} {k: $v, n: $n})`, { v: word(r), n: Math.floor(r() * 100) }],
  (r) => ['MATCH (n) WITH n ORDER BY id(n) SKIP $i LIMIT 1 SET n.k = $v', { i: Math.floor(r() * 6), v: word(r) }],
  (r) => ['MATCH (n) WITH n ORDER BY id(n) SKIP $i LIMIT 1 SET n.f = $f REMOVE n.n', { i: Math.floor(r() * 6), f: r() }],
  (r) => [`MATCH (n) WITH n ORDER BY id(n) SKIP $i LIMIT 1 SET n:${pick(r, ['C', 'D'])}`, { i: Math.floor(r() * 6) }],
  (r) => [`MATCH (n) WITH n ORDER BY id(n) SKIP $i LIMIT 1 REMOVE n:${pick(r, ['A', 'C'])}`, { i: Math.floor(r() * 6) }],
  (r) => ['MATCH (n) WITH n ORDER BY id(n) SKIP $i LIMIT 1 DETACH DELETE n', { i: Math.floor(r() * 8) }],
  (r) => [
    'MATCH (a) WITH a ORDER BY id(a) SKIP $i LIMIT 1 MATCH (b) WITH a, b ORDER BY id(b) SKIP $j LIMIT 1 CREATE (a)-[:T {w: $w}]->(b)',
    { i: Math.floor(r() * 5), j: Math.floor(r() * 5), w: Math.floor(r() * 10) },
  ],
  (r) => ['MATCH ()-[e]->() WITH e ORDER BY id(e) SKIP $i LIMIT 1 SET e.w = $w', { i: Math.floor(r() * 4), w: word(r) }],
  (r) => ['MATCH ()-[e]->() WITH e ORDER BY id(e) SKIP $i LIMIT 1 DELETE e', { i: Math.floor(r() * 4) }],
  (r) => ['CREATE (:A {k: $v})-[:T]->(:B {list: [1, 2.5, "x"]})', { v: word(r) }],
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}
function word(r: () => number): string {
  return pick(r, ['red', 'green', 'blue', 'amber', 'teal']);
}

/** What the running trial is doing, for the long form's hang report. */
let step = '';

async function trial(seed: number, rounds: number): Promise<void> {
  const r = seededRandom(seed);
  const count = 3 + Math.floor(r() * 3);
  const names = Array.from({ length: count }, (_, i) => `p${i}`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `graphdb-sync-conv-${seed}-`));
  const dbs = new Map<string, Database>();
  const openPeer = async (name: string): Promise<Database> =>
    // Frequent background checkpoints, so that restarts meet one in flight (the long form once froze on that).
    Database.open({ dataDir: path.join(root, name), storage: { log: null, checkpoint: { intervalMs: 15 } }, sync: { peerId: name, compactAfter: 20, batchEntries: 7 } });
  try {
    for (const n of names) dbs.set(n, await openPeer(n));
    const net = new FaultyNetwork(r, { dropRequest: 0.1, dropAnswer: 0.1, duplicate: 0.15, reorder: 0.15, delay: 0.1 }, (n) =>
      h(dbs.get(n) as Database).node,
    );
    const links = new Map<string, SyncTransport>();
    const link = (a: string, b: string): SyncTransport => {
      const key = `${a}>${b}`;
      let t = links.get(key);
      if (!t) links.set(key, (t = net.transport(a, b)));
      return t;
    };
    for (let round = 0; round < rounds; round++) {
      const who = pick(r, names);
      const roll = r();
      step = `round ${round}, peer ${who}, roll ${roll.toFixed(2)}`;
      if (roll < 0.55) {
        const [q, params] = pick(r, WRITES)(r);
        await (dbs.get(who) as Database).mutate(q, params);
      } else if (roll < 0.85) {
        const other = pick(r, names.filter((n) => n !== who));
        await syncWith(h(dbs.get(who) as Database).node, link(who, other)).catch(() => undefined);
      } else if (roll < 0.92) {
        net.partition(who, pick(r, names.filter((n) => n !== who)));
      } else if (roll < 0.95) {
        net.healAll();
      } else {
        (dbs.get(who) as Database).close();
        dbs.set(who, await openPeer(who));
      }
    }
    // Quiescence: no faults, everyone syncs with everyone until nothing changes.
    step = 'quiescence';
    net.healAll();
    net.rates = NO_FAULTS;
    for (let pass = 0; pass < 4; pass++) {
      for (const a of names) for (const b of names) if (a !== b) await syncWith(h(dbs.get(a) as Database).node, link(a, b));
    }
    const all = names.map((n) => dbs.get(n) as Database);
    const fps = all.map((d) => d.fingerprint());
    if (process.env.SYNC_DEBUG) console.log(seed, count, JSON.stringify(net.counts), all.map((d) => `${d.stats().nodes}/${d.stats().relationships}`).join(" "), exportSyncedGraph(all[0]).length, fs.readdirSync(path.join(root, names[0])).join(","));
    expect(new Set(fps).size, `seed ${seed}: fingerprints ${fps.join(', ')}`).toBe(1);
    const exports = all.map((d) => exportSyncedGraph(d).join('\n'));
    for (const e of exports) expect(e, `seed ${seed}`).toBe(exports[0]);
    for (const d of all) {
      expect(recomputedFingerprint(d), `seed ${seed}`).toBe(d.fingerprint());
      expect(d.syncPending(), `seed ${seed}`).toBe(0);
    }
    // And once more after every peer restarts from its data directory.
    for (const n of names) {
      (dbs.get(n) as Database).close();
      dbs.set(n, await openPeer(n));
    }
    for (const n of names) {
      const d = dbs.get(n) as Database;
      expect(d.fingerprint(), `seed ${seed} after restart`).toBe(fps[0]);
      expect(exportSyncedGraph(d).join('\n')).toBe(exports[0]);
    }
  } finally {
    for (const d of dbs.values()) d.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const LONG = Number(process.env.SYNC_TRIALS ?? 0);
/** First seed of the long form (to replay a failing one: SYNC_FIRST_SEED=<seed> SYNC_TRIALS=1). */
const FIRST = Number(process.env.SYNC_FIRST_SEED ?? 1000);

describe('sync converges under faults', () => {
  it.each([1, 2, 3, 4])('seed %i', async (seed) => {
    await trial(seed, 120);
  }, 120_000);

  it.runIf(LONG > 0)(`long form: ${LONG} trials`, async () => {
    for (let seed = FIRST; seed < FIRST + LONG; seed++) {
      let timer: NodeJS.Timeout | undefined;
      const hung = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`seed ${seed} made no progress for 5 minutes at ${step}`)), 300_000);
      });
      try {
        await Promise.race([trial(seed, 150), hung]);
      } finally {
        clearTimeout(timer);
      }
      if ((seed - FIRST + 1) % 25 === 0) process.stderr.write(`sync convergence: ${seed - FIRST + 1}/${LONG} trials passed\n`);
    }
  }, 24 * 3600_000);
});

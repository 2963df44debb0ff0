/**
 * Sync throughput over HTTP on loopback, in one process (each peer its own Database and HTTP
 * server): how fast a peer's entries are pushed to and applied by 1 and 5 receivers, how fast
 * a fresh peer pulls and applies them, the cost of capturing writes in the sync WAL (writes/s
 * with sync on versus off, in the same run), and the sync lag p50/p99 under a steady write
 * load with a puller polling. In-memory peers (no fsync), so this measures sync itself.
 *
 *   node --import tsx bench/sync-throughput.ts [--entries <n>] [--rate <writes/s>] [--seconds <s>]
 */

import { Database } from '../src/engine/database.js';
import { startHttpServer } from '../src/server/http/server.js';
import type { SyncHandle } from '../src/sync/attach.js';
import { HttpTransport } from '../src/sync/transport.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const ENTRIES = arg('entries', 5000);
const RATE = arg('rate', 200);
const SECONDS = arg('seconds', 5);
const h = (db: Database): SyncHandle => db.sync as SyncHandle;

async function writeEntries(db: Database, n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    if (i % 3 === 2) await db.mutate('CREATE (n:Item {i: $i}) SET n.v = $i, n:Tagged', { i });
    else await db.mutate('CREATE (:Item {i: $i, name: $name})', { i, name: `item-${i}` });
  }
  return n / ((performance.now() - t0) / 1000);
}

async function serve(id: string): Promise<{ db: Database; url: string; close: () => Promise<void> }> {
  const db = Database.openInMemory({ sync: { peerId: id, batchEntries: 1000 } });
  const server = await startHttpServer(db, { port: 0, log: () => undefined });
  return { db, url: `http://127.0.0.1:${server.port}`, close: async () => { await server.close(); db.close(); } };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  // Warm-up: compile the queries and let the JIT settle on both paths before measuring.
  for (const setting of [undefined, { peerId: 'warm' }]) {
    const w = Database.openInMemory({ sync: setting });
    await writeEntries(w, 600);
    w.close();
  }
  const plain = Database.openInMemory();
  const plainRate = await writeEntries(plain, ENTRIES);
  plain.close();
  const source = Database.openInMemory({ sync: { peerId: 'source', batchEntries: 1000 } });
  const syncedRate = await writeEntries(source, ENTRIES);
  rows.push(['local writes, sync off', `${plainRate.toFixed(0)} writes/s`, '1.00']);
  rows.push(['local writes, sync on (captured)', `${syncedRate.toFixed(0)} writes/s`, (syncedRate / plainRate).toFixed(2)]);

  // Warm-up of the push/apply path with a throwaway receiver.
  const warm = await serve('warm-receiver');
  await h(source).push(new HttpTransport(warm.url));
  await warm.close();

  for (const receivers of [1, 5]) {
    const peers = await Promise.all(Array.from({ length: receivers }, (_, i) => serve(`r${receivers}-${i}`)));
    const t0 = performance.now();
    await Promise.all(peers.map((p) => h(source).push(new HttpTransport(p.url))));
    const secs = (performance.now() - t0) / 1000;
    for (const p of peers) if (p.db.fingerprint() !== source.fingerprint()) throw new Error('receiver did not converge');
    rows.push([`push + apply to ${receivers} receiver(s)`, `${((ENTRIES * receivers) / secs).toFixed(0)} entries/s applied in total`, `${(ENTRIES / secs).toFixed(0)} entries/s per receiver`]);
    await Promise.all(peers.map((p) => p.close()));
  }

  const origin = await serve('origin');
  await writeEntries(origin.db, ENTRIES);
  const fresh = Database.openInMemory({ sync: { peerId: 'fresh' } });
  const t1 = performance.now();
  await h(fresh).pull(new HttpTransport(origin.url));
  const pullSecs = (performance.now() - t1) / 1000;
  if (fresh.fingerprint() !== origin.db.fingerprint()) throw new Error('puller did not converge');
  rows.push(['pull + apply by a fresh peer', `${(ENTRIES / pullSecs).toFixed(0)} entries/s`, '']);

  // Lag: `origin` takes RATE writes/s; `follower` pulls every 20 ms; lag = apply time − write time.
  const follower = Database.openInMemory({ sync: { peerId: 'follower' } });
  await h(follower).pull(new HttpTransport(origin.url));
  const writtenAt = new Map<number, number>();
  const lags: number[] = [];
  let stop = false;
  const transport = new HttpTransport(origin.url);
  const puller = (async () => {
    let seen = h(follower).node.applied.get('origin') ?? 0;
    while (!stop || seen < h(origin.db).node.lastSequence) {
      await h(follower).pull(transport);
      const now = performance.now();
      const upTo = h(follower).node.applied.get('origin') ?? 0;
      for (let s = seen + 1; s <= upTo; s++) {
        const w = writtenAt.get(s);
        if (w !== undefined) lags.push(now - w);
      }
      seen = upTo;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const end = performance.now() + SECONDS * 1000;
  let i = ENTRIES;
  while (performance.now() < end) {
    await origin.db.mutate('CREATE (:Live {i: $i})', { i: i++ });
    writtenAt.set(h(origin.db).node.lastSequence, performance.now());
    await new Promise((r) => setTimeout(r, 1000 / RATE));
  }
  stop = true;
  await puller;
  rows.push([`sync lag at ~${RATE} writes/s, pull every 20 ms`, `p50 ${pct(lags, 50).toFixed(1)} ms, p99 ${pct(lags, 99).toFixed(1)} ms`, `${lags.length} writes`]);
  follower.close();
  fresh.close();
  source.close();
  await origin.close();

  console.log(`| sync over HTTP (${ENTRIES} entries) | result | ratio / note |\n|---|---|---|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

await main();

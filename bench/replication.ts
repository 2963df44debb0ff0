/**
 * Replication benchmarks, each compared with its baseline in the same run:
 *
 * 1. throughput: transactions/s a fresh replica applies catching up from the primary's ring
 *    (in one process, in-memory primary and replica over HTTP on loopback), against the
 *    primary's own write rate;
 * 2. lag p50/p99 (ms from the primary's commit to the replica having applied it) under 1, 8
 *    and 64 concurrent writers (primary and replica share one event loop here, so this is
 *    the streaming path's own latency plus scheduling, not network or fsync);
 * 3. read QPS over HTTP across a primary and 2 replicas (separate `graphdb` processes, needs
 *    `npm run build`) against the primary alone, with the same client concurrency.
 *
 *   node --import tsx bench/replication.ts [--writes <n>] [--seconds <s>]
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { Database } from '../src/engine/database.js';
import { startHttpServer } from '../src/server/http/server.js';
import { attachReplication } from '../src/replication/cli-options.js';
import { DEFAULT_SYNC_TIMEOUT_MS, type ReplicationSettings } from '../src/replication/settings.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const WRITES = arg('writes', 5000);
const SECONDS = arg('seconds', 5);
const SECRET = 'bench-secret';

function settings(over: Partial<ReplicationSettings>): ReplicationSettings {
  return { role: 'standalone', mode: 'async', factor: 1, name: 'r', syncTimeoutMs: DEFAULT_SYNC_TIMEOUT_MS, ringSize: 100_000, secret: SECRET, log: () => undefined, ...over };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function until(check: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1));
}

interface Pair {
  primary: Database;
  replica: Database;
  /** (time, mutation sequence) after each replica transaction. */
  applied: { t: number; seq: number }[];
  /** Starts the replica following the primary. */
  follow(): void;
  close(): Promise<void>;
}

async function pair(): Promise<Pair> {
  const primary = Database.openInMemory();
  const pm = attachReplication(primary, settings({ role: 'primary' }));
  const server = await startHttpServer(primary, { port: 0, host: '127.0.0.1', log: () => undefined });
  const replica = Database.openInMemory();
  const applied: { t: number; seq: number }[] = [];
  // Observe the replica's transactions (the applier's only way in) to time each one.
  const write = replica.writeTransaction.bind(replica);
  replica.writeTransaction = <T>(fn: Parameters<Database['writeTransaction']>[0]): T => {
    const r = write(fn) as T;
    applied.push({ t: performance.now(), seq: replica.graph.mutationSeq });
    return r;
  };
  let rm: { close(): void } | undefined;
  return {
    primary,
    replica,
    applied,
    follow: () => {
      rm = attachReplication(replica, settings({ role: 'replica', primaryUrl: `http://127.0.0.1:${server.port}`, name: 'bench' }));
    },
    close: async () => {
      rm?.close();
      pm.close();
      await server.close();
      replica.close();
      primary.close();
    },
  };
}

async function writeAll(db: Database, n: number, writers: number, onCommit?: (seq: number, t: number) => void): Promise<number> {
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < n) {
        const i = next++;
        await db.mutate('CREATE (:Item {i: $i, name: $name})', { i, name: `item-${i}` });
        onCommit?.(db.graph.mutationSeq, performance.now());
        // Let I/O in between writes, as a server does between requests (primary and replica share this process).
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

/** Records/s a replica applies catching up from the primary's ring, against the primary's own write rate. */
async function throughput(rows: string[][]): Promise<void> {
  const warm = Database.openInMemory();
  await writeAll(warm, 1000, 1);
  warm.close();
  const p = await pair();
  const writeRate = await writeAll(p.primary, WRITES, 1);
  const t0 = performance.now();
  p.follow();
  await until(() => p.replica.graph.mutationSeq >= p.primary.graph.mutationSeq);
  const applyRate = WRITES / ((performance.now() - t0) / 1000);
  await p.close();
  rows.push(['primary writes/s (1 writer, streaming on)', writeRate.toFixed(0), '1.00']);
  rows.push(['replica catch-up, transactions applied/s', applyRate.toFixed(0), (applyRate / writeRate).toFixed(2)]);
}

async function lag(rows: string[][], writers: number): Promise<void> {
  const p = await pair();
  p.follow();
  const commits: { seq: number; t: number }[] = [];
  await writeAll(p.primary, Math.min(WRITES, 3000), writers, (seq, t) => commits.push({ seq, t }));
  await until(() => p.replica.graph.mutationSeq >= p.primary.graph.mutationSeq);
  const lags: number[] = [];
  let k = 0;
  for (const c of [...commits].sort((a, b) => a.seq - b.seq)) {
    while (k < p.applied.length && p.applied[k].seq < c.seq) k++;
    if (k < p.applied.length) lags.push(Math.max(0, p.applied[k].t - c.t));
  }
  await p.close();
  rows.push([`lag with ${writers} writer${writers === 1 ? '' : 's'}`, `p50 ${pct(lags, 50).toFixed(2)} ms, p99 ${pct(lags, 99).toFixed(2)} ms`, '']);
}

// ---- read QPS with separate processes

const BIN = new URL('../bin/graphdb.js', import.meta.url).pathname;

function startProcess(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /HTTP server listening on http:\/\/[^:]+:(\d+)/.exec(err);
      if (m && err.includes('graphdb: serving')) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`graphdb exited with ${code}: ${err}`)));
  });
}

async function readLoad(ports: number[], concurrency: number): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      const port = ports[w % ports.length];
      while (performance.now() < end) {
        const res = await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', body: 'MATCH (n:Item) WHERE n.i % 7 = 3 RETURN count(n) AS c' });
        await res.text();
        if (res.ok) done++;
      }
    }),
  );
  return done / SECONDS;
}

async function reads(rows: string[][]): Promise<void> {
  const p = await startProcess(['--http', '0', '--replication-role', 'primary', '--replication-secret', SECRET]);
  const url = `http://127.0.0.1:${p.port}`;
  const replicas = [
    await startProcess(['--http', '0', '--replica-of', url, '--replication-secret', SECRET]),
    await startProcess(['--http', '0', '--replica-of', url, '--replication-secret', SECRET]),
  ];
  try {
    await fetch(`${url}/query`, { method: 'POST', body: 'UNWIND range(1, 20000) AS i CREATE (:Item {i: i})' });
    for (const r of replicas) {
      for (;;) {
        const res = await fetch(`http://127.0.0.1:${r.port}/query`, { method: 'POST', body: 'MATCH (n:Item) RETURN count(n) AS c' });
        const body = (await res.json()) as { rows?: { c: string }[] };
        if (body.rows?.[0]?.c === '20000') break;
        await new Promise((res2) => setTimeout(res2, 100));
      }
    }
    await readLoad([p.port], 8);
    const alone = await readLoad([p.port], 24);
    const spread = await readLoad([p.port, ...replicas.map((r) => r.port)], 24);
    rows.push(['read QPS, primary alone (24 clients)', alone.toFixed(0), '1.00']);
    rows.push(['read QPS, primary + 2 replicas (24 clients)', spread.toFixed(0), (spread / alone).toFixed(2)]);
  } finally {
    for (const c of [p, ...replicas]) c.child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  await throughput(rows);
  for (const w of [1, 8, 64]) await lag(rows, w);
  await reads(rows);
  console.log('| measure | value | ratio to baseline |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

await main();

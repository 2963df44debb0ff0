/**
 * Sync throughput between separate `graphdb` processes over HTTP on loopback (run
 * `npm run build` first; the processes are `bin/graphdb.js`):
 *
 * - push + apply: a source process holding N entries in its data directory runs
 *   `graphdb sync start --peer …` against 1 and then 5 receiver processes; the time from the
 *   moment the last receiver is up until every receiver's fingerprint equals the source's
 *   gives entries/s applied (in total and per receiver);
 * - pull + apply: a fresh process pulls the same N entries from the source;
 * - sync lag: a source process takes a steady write load (POST /query at --rate writes/s for
 *   --seconds) while 1 and then 5 follower processes auto-sync with it every 20 ms; the lag of
 *   a write is the time from its acknowledgement to the moment a follower answers it (each
 *   follower is polled every 20 ms, so the figures include up to one poll period; a write a
 *   follower shows before the bench got its acknowledgement counts 0);
 * - in process, the cost of capturing writes in the sync WAL (writes/s with sync on vs off).
 *
 * Receivers and followers keep their graph in memory; the source of the push phase has a
 * data directory (it must outlive a restart between loading and pushing). Ratios are against
 * the same run's 1-receiver figure.
 *
 *   npm run build && node --import tsx bench/sync-throughput.ts [--entries <n>] [--rate <writes/s>] [--seconds <s>]
 */

import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Database } from '../src/engine/database.js';
import { GRAPHDB_BIN } from '../test/server/helpers.js';

interface Spawned {
  url: string;
  stop(): Promise<void>;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const ENTRIES = arg('entries', 5000);
const RATE = arg('rate', 100);
const SECONDS = arg('seconds', 10);
/** Longest wait for convergence before the bench gives up. */
const PATIENCE_MS = 300_000;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-bench-'));
const running = new Set<ChildProcess>();

/**
 * Starts `bin/graphdb.js` and waits for its HTTP port. The test helper's 15 s start-up bound
 * is too tight for a machine under heavy load, so the bench has its own (two minutes), and a
 * process that misses it is killed rather than left behind.
 */
function start(args: string[]): Promise<Spawned> {
  const child = spawn(process.execPath, [GRAPHDB_BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`graphdb ${args.join(' ')} did not start in 2 minutes:\n${err}`));
    }, 120_000);
    child.stderr.on('data', (d: Buffer) => {
      if (err.includes('graphdb: serving')) return;
      err += d.toString('utf8');
      const port = /HTTP server listening on http:\/\/[^:]+:(\d+)/.exec(err);
      if (!err.includes('graphdb: serving') || !port) return;
      clearTimeout(timer);
      resolve({
        url: `http://127.0.0.1:${port[1]}`,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`graphdb exited with ${code}:\n${err}`));
    });
  });
}

async function stopAll(list: Spawned[]): Promise<void> {
  await Promise.all(list.map((s) => s.stop()));
}

const url = (s: Spawned): string => s.url;

async function query(s: Spawned, q: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${url(s)}/query`, { method: 'POST', body: q, signal: AbortSignal.timeout(30_000) });
  const body = (await res.json()) as { rows?: Record<string, unknown>[]; message?: string };
  if (!res.ok) throw new Error(`query failed (${res.status}): ${body.message ?? ''}`);
  return body.rows ?? [];
}

async function fingerprint(s: Spawned): Promise<string> {
  const res = await fetch(`${url(s)}/api/sync/pull?since=999999999999`, { signal: AbortSignal.timeout(30_000) });
  return String(((await res.json()) as { fingerprint: number }).fingerprint);
}

/** Writes `n` entries (one mutating query each), `concurrency` requests at a time. */
async function load(s: Spawned, n: number, concurrency = 8): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        await query(s, i % 3 === 2 ? `CREATE (n:Item {i: ${i}}) SET n.v = ${i}, n:Tagged` : `CREATE (:Item {i: ${i}, name: 'item-${i}'})`);
      }
    }),
  );
}

/** Milliseconds from now until each of `peers` answers `target`'s fingerprint. */
async function timeToConverge(target: string, peers: Spawned[], t0: number): Promise<number[]> {
  const done: (number | undefined)[] = peers.map(() => undefined);
  while (done.some((d) => d === undefined)) {
    if (performance.now() - t0 > PATIENCE_MS) throw new Error('the receivers did not converge in time');
    await Promise.all(
      peers.map(async (p, i) => {
        if (done[i] === undefined && (await fingerprint(p)) === target) done[i] = performance.now() - t0;
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
  }
  return done as number[];
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

const rows: string[][] = [];
const row = (...cells: string[]): void => void rows.push(cells);

/** In process: writes/s with sync capturing every commit versus sync off. */
async function captureCost(): Promise<void> {
  const write = async (db: Database, n: number): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await db.mutate('CREATE (:Item {i: $i, name: $name})', { i, name: `item-${i}` });
    return n / ((performance.now() - t0) / 1000);
  };
  for (const setting of [undefined, { peerId: 'warm' }]) await write(Database.openInMemory({ sync: setting }), 600);
  const off = await write(Database.openInMemory(), ENTRIES);
  const on = await write(Database.openInMemory({ sync: { peerId: 'capture' } }), ENTRIES);
  row('local writes in process, sync off', `${off.toFixed(0)} writes/s`, '1.00');
  row('local writes in process, sync on (captured)', `${on.toFixed(0)} writes/s`, (on / off).toFixed(2));
}

async function pushAndPull(): Promise<void> {
  const sourceDir = path.join(root, 'source');
  const loader = await start(['--data-dir', sourceDir, '--peer-id', 'source', '--http', '0']);
  await load(loader, ENTRIES);
  const target = await fingerprint(loader);
  await loader.stop();

  let single = NaN;
  for (const k of [1, 5]) {
    // The source starts first, pushing to ports where nobody listens yet (retrying every ≤ 200 ms);
    // the clock starts when the last receiver is up, so no process start-up is timed.
    const ports = await Promise.all(Array.from({ length: k }, freePort));
    const peerArgs = ports.flatMap((p) => ['--peer', `http://127.0.0.1:${p}`]);
    const source = await start(['--data-dir', sourceDir, '--peer-id', 'source', '--http', '0', 'sync', 'start', ...peerArgs, '--interval', '20', '--max-backoff', '200']);
    const receivers = await Promise.all(ports.map((p, i) => start(['--sync', '--peer-id', `r${k}x${i}`, '--http', String(p)])));
    const t0 = performance.now();
    const times = await timeToConverge(target, receivers, t0);
    const total = (ENTRIES * k) / (Math.max(...times) / 1000);
    if (k === 1) single = total;
    row(
      `push + apply, 1 source → ${k} receiver process(es)`,
      `${total.toFixed(0)} entries/s applied in total; ${(ENTRIES / (Math.max(...times) / 1000)).toFixed(0)} per receiver (slowest)`,
      `${(total / single).toFixed(2)} × the 1-receiver total`,
    );
    await stopAll([source, ...receivers]);
  }

  const source = await start(['--data-dir', sourceDir, '--peer-id', 'source', '--http', '0']);
  const t0 = performance.now();
  const fresh = await start(['--sync', '--peer-id', 'fresh', '--http', '0', 'sync', 'start', '--peer', url(source), '--interval', '20']);
  const [ms] = await timeToConverge(target, [fresh], t0);
  row('pull + apply by a fresh process', `${(ENTRIES / (ms / 1000)).toFixed(0)} entries/s`, 'includes its start-up');
  await stopAll([fresh, source]);
}

async function lag(): Promise<void> {
  for (const k of [1, 5]) {
    const source = await start(['--sync', '--peer-id', `live${k}`, '--http', '0']);
    const followers = await Promise.all(
      Array.from({ length: k }, (_, i) => start(['--sync', '--peer-id', `f${k}x${i}`, '--http', '0', 'sync', 'start', '--peer', url(source), '--interval', '20'])),
    );
    const ackedAt: number[] = [];
    const seen = followers.map(() => -1);
    const lags: number[] = [];
    let writing = true;
    const poller = (async () => {
      const deadline = (): boolean => !writing && performance.now() - (ackedAt.at(-1) ?? 0) > 60_000;
      while ((writing || seen.some((s) => s < ackedAt.length - 1)) && !deadline()) {
        await Promise.all(
          followers.map(async (f, j) => {
            const [r] = await query(f, 'MATCH (n:Live) RETURN max(n.i) AS m');
            // The HTTP door answers values as text; no Live node yet reads as "null".
            const parsed = Number.parseInt(String(r?.m ?? ''), 10);
            const m = Number.isFinite(parsed) ? parsed : -1;
            const now = performance.now();
            // A write a follower shows before its acknowledgement reached the bench (a loaded machine) counts as lag 0.
            for (let i = seen[j] + 1; i <= m; i++) lags.push(Math.max(0, now - (ackedAt[i] ?? now)));
            seen[j] = Math.max(seen[j], m);
          }),
        );
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const end = performance.now() + SECONDS * 1000;
    for (let i = 0; performance.now() < end; i++) {
      const due = performance.now() + 1000 / RATE;
      await query(source, `CREATE (:Live {i: ${i}})`);
      ackedAt[i] = performance.now();
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
    writing = false;
    await poller;
    const missing = seen.filter((s) => s < ackedAt.length - 1).length;
    row(
      `sync lag, ${k} follower process(es) pulling every 20 ms, ~${RATE} writes/s`,
      `p50 ${pct(lags, 50).toFixed(0)} ms, p99 ${pct(lags, 99).toFixed(0)} ms`,
      `${ackedAt.length} writes × ${k}${missing > 0 ? `, ${missing} follower(s) never caught up` : ''}`,
    );
    await stopAll([source, ...followers]);
  }
}

try {
  await captureCost();
  await pushAndPull();
  await lag();
  console.log(`| sync between graphdb processes over HTTP (${ENTRIES} entries) | result | ratio / note |\n|---|---|---|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
} finally {
  for (const child of running) child.kill('SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
}

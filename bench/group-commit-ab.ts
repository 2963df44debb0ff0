/**
 * Group commit before and after a change, in one process: two builds' `Database` (each a
 * dist/ folder) open a data directory each, and 64 writers (`--writers`) write small durable
 * nodes through `mutate` into one and then the other, in alternated windows of `--ms`
 * milliseconds (`--rounds` each). On a shared disk an fsync's latency moves several-fold from
 * one second to the next; windows this short, alternated, give both builds the same disk.
 * Prints each build's median and best writes/s, its median fsyncs/s and writes per fsync (from
 * `storage.walActivity`), its median CPU time per write (the process's user and system time,
 * fsync threads included, over the window: the other build is idle meanwhile), and the ratio
 * of medians. `--wal-sync C,G` opens both with
 * `storage.walSync: { concurrent: C, group: G }` (a build from before that option ignores it),
 * to compare settings of one build or a setting against the build before it.
 *
 *   npm run build && node dist/bench/group-commit-ab.js --before /path/to/main/dist --after dist [--writers 64] [--rounds 12] [--ms 700] [--wal-sync 4,16] [--before-wal-sync 1,16]
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Database } from '../src/engine/database.js';

type DatabaseClass = typeof Database;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

async function databaseOf(dist: string): Promise<DatabaseClass> {
  const file = path.resolve(dist, 'src', 'engine', 'database.js');
  return ((await import(file)) as { Database: DatabaseClass }).Database;
}

const writers = Number(arg('writers', '64'));
const rounds = Number(arg('rounds', '12'));
const ms = Number(arg('ms', '700'));
/** `storage.walSync` from a `C,G` argument (undefined: the build's defaults). */
function walSync(name: string): { concurrent: number; group: number } | undefined {
  const text = arg(name, '');
  if (text === '') return undefined;
  const [concurrent, group] = text.split(',').map(Number);
  return { concurrent, group };
}
const syncs = { before: walSync('before-wal-sync') ?? walSync('wal-sync'), after: walSync('wal-sync') };

interface Window {
  writes: number;
  syncs: number;
  /** CPU µs (user + system) per write. */
  cpu: number;
}

/** Records and fsyncs so far (zeros from a build from before `storage.walActivity`). */
function activity(db: Database): { syncs: number } {
  return db.storage?.walActivity ?? { syncs: 0 };
}

/** Writes/s and fsyncs/s of `writers` writers for one window. */
async function window(db: Database): Promise<Window> {
  let done = 0;
  const before = activity(db);
  const cpu = process.cpuUsage();
  const t = performance.now();
  const until = t + ms;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = 0; performance.now() < until; i++) {
        await db.mutate('CREATE (:Event {at: timestamp(), n: $i})', { i });
        done++;
      }
    }),
  );
  const secs = (performance.now() - t) / 1000;
  const after = activity(db);
  const used = process.cpuUsage(cpu);
  return { writes: done / secs, syncs: (after.syncs - before.syncs) / secs, cpu: (used.user + used.system) / done };
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-group-commit-ab-'));
try {
  const builds = { before: await databaseOf(arg('before', '')), after: await databaseOf(arg('after', 'dist')) };
  const dbs = {
    before: await builds.before.open({ dataDir: path.join(root, 'before'), storage: { log: null, walSync: syncs.before } }),
    after: await builds.after.open({ dataDir: path.join(root, 'after'), storage: { log: null, walSync: syncs.after } }),
  };
  const rates = { before: [] as Window[], after: [] as Window[] };
  await window(dbs.before);
  await window(dbs.after);
  for (let r = 0; r < rounds; r++) for (const k of r % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) rates[k].push(await window(dbs[k]));
  const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  const writes = (k: 'before' | 'after'): number[] => rates[k].map((w) => w.writes);
  const show = (k: 'before' | 'after'): string => {
    const syncs = median(rates[k].map((w) => w.syncs));
    const perSync = median(rates[k].map((w) => w.writes / w.syncs));
    const cpu = median(rates[k].map((w) => w.cpu));
    const fsyncs = syncs > 0 ? `${syncs.toFixed(0)} fsyncs/s, ${perSync.toFixed(1)} writes per fsync` : 'fsyncs not counted by this build';
    return `${median(writes(k)).toFixed(0)}/s median, ${Math.max(...writes(k)).toFixed(0)}/s best, ${fsyncs}, ${cpu.toFixed(1)} µs CPU per write (medians)`;
  };
  const settings = (k: 'before' | 'after'): string => (syncs[k] ? ` (walSync ${syncs[k].concurrent},${syncs[k].group})` : '');
  console.log(`small durable writes, ${writers} in flight, ${rounds} alternated windows of ${ms} ms, load average ${os.loadavg()[0].toFixed(1)}: before${settings('before')} ${show('before')}; after${settings('after')} ${show('after')}; after / before (medians) ${(median(writes('after')) / median(writes('before'))).toFixed(2)}×`);
  dbs.before.close();
  dbs.after.close();
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}

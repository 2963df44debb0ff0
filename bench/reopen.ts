/**
 * Reopen time of a large data directory (issue 33): how long a fresh process takes from its
 * start to the first query's answer on a directory graphdb wrote. The parent writes the peer
 * bench's dataset (bench/data/<name>, made by bench/run) into a new directory through the
 * bulk import, creates the peer bench's `id` indexes and closes it; then it starts fresh
 * processes that open the directory and answer one point lookup, each timed from its own
 * start (module loading included), and one more after a writer process left small write
 * transactions in the WAL and exited without closing (so that open replays them).
 *
 *   npm run build && node dist/bench/reopen.js bench/data/snb-200k [--runs 3] [--writes 2000] [--keep <dir>]
 *
 * `--keep <dir>` leaves the directory in place, and a later run with the same `--keep` reuses it.
 *
 * Each child prints one JSON line; the parent prints a Markdown table with the medians.
 * A clean close leaves `graphdb.image` (docs/STORAGE.md, the open image), so a clean open
 * reads it rather than the store's blocks (`fromImage` in the child's line); the parent says
 * how long writing it took at the close and how large it is. A child's `closeMs` is its own
 * close after the answer (nothing to write when the image is already of the store).
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { DatasetMeta } from './peer/data.js';

const SELF = fileURLToPath(import.meta.url);

interface OpenTimes {
  /** Milliseconds since the process started: graphdb's modules loaded, directory open, first answer. */
  importedMs: number;
  openMs: number;
  answeredMs: number;
  /** The process's CPU time (all threads, user + system) up to the answer: steadier than wall time on a loaded machine. */
  cpuMs: number;
  rssMB: number;
  nodes: number;
  rels: number;
  /** Whether the open read graphdb.image; the time the close took after the answer. */
  fromImage?: boolean;
  closeMs?: number;
}

const quiet = { log: null };

/** Child: open `dir`, answer a point lookup, print the times. */
async function openChild(dir: string): Promise<void> {
  const { Database } = await import('../src/engine/database.js');
  const importedMs = performance.now();
  const db = await Database.open({ dataDir: dir, storage: quiet });
  const openMs = performance.now();
  const rows = db.executeSync('MATCH (p:Person {id: $id}) RETURN p.firstName', { id: 7 }).records;
  const answeredMs = performance.now();
  if (rows.length !== 1) throw new Error(`the point lookup found ${rows.length} persons`);
  const cpu = process.cpuUsage();
  const times: OpenTimes = { importedMs, openMs, answeredMs, cpuMs: (cpu.user + cpu.system) / 1000, rssMB: process.memoryUsage().rss / 2 ** 20, nodes: db.graph.nodeCount, rels: db.graph.relCount };
  times.fromImage = db.storage?.recovery.fromImage;
  const closing = performance.now();
  await db.close();
  times.closeMs = performance.now() - closing;
  console.log(JSON.stringify(times));
}

/** Child: commit `writes` small transactions and exit without closing, leaving them in the WAL. */
async function writeChild(dir: string, writes: number): Promise<void> {
  const { Database } = await import('../src/engine/database.js');
  const db = await Database.open({ dataDir: dir, storage: { ...quiet, snapshotOnClose: false } });
  // 64 in flight, as many clients would write (they share fsyncs through the group commit).
  for (let i = 0; i < writes; i += 64) {
    const batch = Array.from({ length: Math.min(64, writes - i) }, (_, k) => db.execute('CREATE (:Person {id: $id, firstName: $name})', { id: 900_000_000 + i + k, name: `w${i + k}` }));
    await Promise.all(batch);
  }
  process.exit(0);
}

/** Parent, step 1: the dataset into a new directory (the bulk import's store path), then the indexes. */
async function writeDirectory(meta: DatasetMeta, data: string, dir: string): Promise<number> {
  const { Database } = await import('../src/engine/database.js');
  const { importCsv } = await import('../src/engine/csv-import.js');
  const { importInputs } = await import('./peer/engines/graphdb.js');
  const t0 = performance.now();
  const db = await Database.open({ dataDir: dir, storage: quiet });
  await importCsv(db, importInputs(meta, data), { idType: 'integer' });
  await db.close();
  const indexed = await Database.open({ dataDir: dir, storage: quiet });
  for (const n of meta.nodes) indexed.executeSync(`CREATE INDEX FOR (n:${n.label}) ON (n.id)`);
  const storage = indexed.storage;
  const closing = performance.now();
  await indexed.close();
  const closeMs = performance.now() - closing;
  const image = storage?.imageWrite;
  process.stderr.write(
    `[reopen] the close after the indexes took ${(closeMs / 1000).toFixed(2)} s` +
      (image ? `, of which writing graphdb.image ${(image.ms / 1000).toFixed(2)} s (${(image.bytes / 2 ** 20).toFixed(0)} MiB)\n` : ' (no graphdb.image written)\n'),
  );
  return performance.now() - t0;
}

function child(args: string[]): string {
  return execFileSync(process.execPath, ['--max-old-space-size=8192', SELF, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child-open') return openChild(argv[1]);
  if (argv[0] === '--child-write') return writeChild(argv[1], Number(argv[2]));
  const data = resolve(argv.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? 'bench/data/snb-200k');
  const flag = (name: string, fallback: number): number => {
    const at = argv.indexOf(name);
    return at < 0 ? fallback : Number(argv[at + 1]);
  };
  const runs = flag('--runs', 3);
  const writes = flag('--writes', 2000);
  const keepAt = argv.indexOf('--keep');
  const meta = JSON.parse(readFileSync(join(data, 'meta.json'), 'utf8')) as DatasetMeta;
  const dir = keepAt >= 0 ? resolve(argv[keepAt + 1]) : mkdtempSync(join(tmpdir(), 'graphdb-reopen-'));
  const load = (): string => loadavg()[0].toFixed(1);
  try {
    // A kept directory that holds a store already is reused as it is (for profiling the open).
    const startLoad = load();
    const reuse = keepAt >= 0 && existsSync(join(dir, 'graphdb.lmdb'));
    if (!reuse) process.stderr.write(`[reopen] writing ${meta.name} to ${dir} (load average ${load()}) …\n`);
    const writeMs = reuse ? NaN : await writeDirectory(meta, data, dir);
    process.stderr.write(reuse ? `[reopen] reusing ${dir}\n` : `[reopen] written in ${(writeMs / 1000).toFixed(1)} s\n`);
    const clean: OpenTimes[] = [];
    for (let r = 0; r < runs; r++) {
      clean.push(JSON.parse(child(['--child-open', dir])) as OpenTimes);
      process.stderr.write(`[reopen] clean open ${r + 1}: ${JSON.stringify(clean[clean.length - 1])}\n`);
    }
    child(['--child-write', dir, String(writes)]);
    const replay = JSON.parse(child(['--child-open', dir])) as OpenTimes;
    process.stderr.write(`[reopen] open after ${writes} writes left in the WAL: ${JSON.stringify(replay)}\n`);
    const row = (what: string, ts: OpenTimes[]): string => {
      const m = (f: (t: OpenTimes) => number): string => (median(ts.map(f)) / 1000).toFixed(2);
      return `| ${what} | ${ts.length} | ${m((t) => t.importedMs)} s | ${m((t) => t.openMs - t.importedMs)} s | ${m((t) => t.answeredMs - t.openMs)} s | **${m((t) => t.answeredMs)} s** | ${m((t) => t.cpuMs)} s | ${median(ts.map((t) => t.rssMB)).toFixed(0)} MB |`;
    };
    console.log(`# Reopen of ${meta.name} (${clean[0].nodes} nodes, ${clean[0].rels} relationships)\n`);
    const written = reuse ? 'a directory written before was reused' : `the directory was written in ${(writeMs / 1000).toFixed(1)} s (bulk import, then an index on id per label)`;
    console.log(`Node ${process.version}; load average ${startLoad} at the start, ${load()} at the end; ${written}. Times are medians, from each process's start.\n`);
    console.log('| open | runs | modules loaded | open | first answer | process start → first answer | CPU time to the answer | RSS |\n| --- | --- | --- | --- | --- | --- | --- | --- |');
    console.log(row('clean (store of record / snapshot)', clean));
    console.log(row(`after ${writes} small writes left in the WAL`, [replay]));
    const imageFile = join(dir, 'graphdb.image');
    const imageSize = existsSync(imageFile) ? `${(statSync(imageFile).size / 2 ** 20).toFixed(0)} MiB` : 'none';
    console.log(`\nClean opens read graphdb.image: ${clean.map((t) => String(t.fromImage ?? false)).join(', ')}; the open after the writes: ${String(replay.fromImage ?? false)}. graphdb.image now: ${imageSize}. Closes after the answer (clean opens): ${clean.map((t) => ((t.closeMs ?? NaN) / 1000).toFixed(2) + ' s').join(', ')}; after the writes (checkpoint, snapshot, image): ${((replay.closeMs ?? NaN) / 1000).toFixed(2)} s.`);
  } finally {
    if (keepAt < 0) rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);

/**
 * One engine in one process: loads one dataset, measures memory after the load, then runs
 * every query workload (or every algorithm, for the algorithm graph) and sends a
 * `WorkerReport` to the parent over IPC. Each workload's first run is the cold time (for
 * graphdb it includes parsing, planning and code generation; for Kuzu, preparing); after
 * untimed warm-up runs (`measure`), further runs, up to the run count or the time cap, give
 * the warm median. Read answers of every run must equal the first one's.
 */

import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetMeta } from './data.js';
import type { Engine } from './engine.js';
import { normaliseRows, same, toPlain, type Plain } from './answers.js';
import { ALGORITHMS, QUERIES, summarise, type EngineName } from './workloads.js';

/** What the parent asks a worker to do. */
export interface WorkerTask {
  engine: EngineName;
  dir: string;
  /** Timed runs after the cold one (at most). */
  runs: number;
  /** Stop repeating a workload once its runs took this long in total (at least one warm run). */
  capMs: number;
  /** Workload name filters (substring); empty runs all. */
  only: string[];
}

/** One workload's measurement. */
export interface Measurement {
  workload: string;
  status: 'ok' | 'error' | 'n/a';
  coldMs?: number;
  warmMs?: number;
  /** Median process CPU time (all threads, user + system) of the warm runs. */
  cpuMs?: number;
  times?: number[];
  answer?: Plain;
  error?: string;
}

export interface WorkerReport {
  engine: EngineName;
  dataset: string;
  loadMs: number;
  rssBeforeMB: number;
  rssAfterMB: number;
  heapAfterMB: number;
  results: Measurement[];
}

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function memory(): { rss: number; heap: number } {
  // Twice: V8 frees dead array buffers on a background thread after a full collection and
  // waits for that sweep only at the start of the next one, so one call can read an RSS that
  // still holds buffers already dead (graphdb's load reservations, columns/buffers.ts).
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss / 2 ** 20, heap: m.heapUsed / 2 ** 20 };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function makeEngine(name: EngineName): Promise<Engine> {
  switch (name) {
    case 'graphdb':
      return new (await import('./engines/graphdb.js')).GraphdbEngine();
    case 'kuzu':
      return new (await import('./engines/kuzu.js')).KuzuEngine();
    case 'grafeo':
      return new (await import('./engines/grafeo.js')).GrafeoEngine();
    case 'graphology':
      return new (await import('./engines/graphology.js')).GraphologyEngine();
  }
}

/** Untimed runs after the cold one, at most (see `measure`), reads and writes alike. */
const WARMUPS = 10_000;
/** No warm-up for a workload whose cold run took longer, and none past this much warm-up time. */
const WARMUP_MS = 1000;

/**
 * Times `fn` until `runs` warm runs or the cap; returns cold, warm median and all times.
 * Between the cold run and the timed ones every engine gets up to a second of untimed runs
 * (at most WARMUPS; none when the cold run took over a second): graphdb's generated query code
 * and its write path reach V8's optimizing tier only after some runs, and on a loaded machine
 * the background compiler thread finishes that late, so without them a "warm" median mixes
 * unoptimized runs in (IC6 on snb-10k at load average 9: runs 1–10 at 14–30 ms, then 2.5 ms;
 * a small write: 25 µs after 30 runs, 8–10 µs after 2000, 3.5–5 µs after 10 000: its path
 * is some thirty functions each called once per write, and V8 optimizes a function only once
 * it has run enough of its own bytecode). The warm-up runs use run
 * numbers after the timed ones', so no timed run repeats their parameters (a write's warm-up
 * runs add their own nodes and relationships, the same for every engine).
 */
async function measure(
  task: WorkerTask,
  fn: (run: number) => Promise<Plain>,
  stable: boolean,
): Promise<Measurement & { status: 'ok' }> {
  const t0 = performance.now();
  const answer = await fn(0);
  const coldMs = performance.now() - t0;
  const warmStart = performance.now();
  for (let w = 1; w <= WARMUPS && coldMs < WARMUP_MS && performance.now() - warmStart < WARMUP_MS; w++) {
    const a = await fn(task.runs + w);
    if (stable && !same(a, answer)) throw new Error(`warm-up run ${w} answered differently from the first run`);
  }
  const times: number[] = [];
  const cpu: number[] = [];
  let total = coldMs;
  for (let run = 1; run <= task.runs && (run === 1 || total < task.capMs); run++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const a = await fn(run);
    const ms = performance.now() - t;
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    times.push(ms);
    total += ms;
    if (stable && !same(a, answer)) throw new Error(`run ${run} answered differently from the first run`);
  }
  return { workload: '', status: 'ok', coldMs, warmMs: median(times), cpuMs: median(cpu), times, answer };
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2]) as WorkerTask;
  const meta = JSON.parse(readFileSync(join(task.dir, 'meta.json'), 'utf8')) as DatasetMeta;
  const selected = (name: string): boolean => task.only.length === 0 || task.only.some((f) => name.toLowerCase().includes(f.toLowerCase()));
  const before = memory();
  const engine = await makeEngine(task.engine);
  const l0 = performance.now();
  await engine.load(meta, task.dir);
  const loadMs = performance.now() - l0;
  const after = memory();
  const results: Measurement[] = [];
  const log = (msg: string): void => void process.stderr.write(`  [${task.engine}/${meta.name}] ${msg}\n`);
  log(`loaded in ${(loadMs / 1000).toFixed(2)} s, RSS ${after.rss.toFixed(0)} MB`);

  if (meta.kind === 'snb' && task.engine !== 'graphology') {
    const p = meta.snb;
    if (!p) throw new Error('snb dataset without parameters');
    for (const w of QUERIES) {
      if (!selected(w.name)) continue;
      try {
        const m = await measure(task, async (run) => normaliseRows(await engine.query(w, w.params(p, run)), w.ordered), !w.write);
        results.push({ ...m, workload: w.name });
        log(`${w.name}: cold ${m.coldMs?.toFixed(2)} ms, warm ${m.warmMs?.toFixed(3)} ms`);
      } catch (e) {
        results.push({ workload: w.name, status: 'error', error: e instanceof Error ? e.message.split('\n')[0] : String(e) });
        log(`${w.name}: ERROR ${results[results.length - 1].error}`);
      }
    }
  }
  if (meta.kind === 'graph') {
    const g = meta.graph;
    if (!g) throw new Error('graph dataset without parameters');
    for (const algo of ALGORITHMS) {
      if (!selected(algo)) continue;
      const a = engine.algorithm(algo, g.source);
      if (!a) {
        results.push({ workload: algo, status: 'n/a' });
        continue;
      }
      try {
        let raw: unknown;
        const m = await measure(
          { ...task, runs: Math.min(task.runs, 3) },
          async () => {
            raw = await a.run();
            return null;
          },
          false,
        );
        const answer = toPlain(summarise(algo, a.values(raw), g.vertices));
        results.push({ ...m, workload: algo, answer });
        log(`${algo}: cold ${m.coldMs?.toFixed(1)} ms, warm ${m.warmMs?.toFixed(1)} ms`);
      } catch (e) {
        results.push({ workload: algo, status: 'error', error: e instanceof Error ? e.message.split('\n')[0] : String(e) });
        log(`${algo}: ERROR ${results[results.length - 1].error}`);
      }
    }
  }
  const report: WorkerReport = {
    engine: task.engine,
    dataset: meta.name,
    loadMs,
    rssBeforeMB: before.rss,
    rssAfterMB: after.rss,
    heapAfterMB: after.heap,
    results,
  };
  await engine.close();
  await new Promise<void>((resolve) => (process.send ? process.send(report, () => resolve()) : (console.log(JSON.stringify(report)), resolve())));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`worker failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);

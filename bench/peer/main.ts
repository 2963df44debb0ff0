/**
 * The peer benchmark's driver (`bench/run`): generates the datasets once under bench/data/,
 * runs every engine on every dataset in its own child process (one at a time, so they do not
 * compete for the two cores), cross-checks the answers, and writes the report: Markdown on
 * stdout and in bench/results/<date>-<mode>.md, the raw reports as JSON, and an SVG chart of
 * the ratios per dataset.
 *
 *   bench/run [--quick] [--engines graphdb,kuzu,…] [--only <workload>[,…]] [--runs <n>] [--snb <persons>[,…]] [--no-algorithms]
 */

import { fork } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateKronecker, generateSnb, type DatasetMeta } from './data.js';
import { buildRows, markdown, svgChart, type RunInfo } from './report.js';
import type { WorkerReport, WorkerTask } from './worker.js';
import { ENGINES, type EngineName } from './workloads.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const BENCH = resolve(HERE, '..');
const SEED = 20240611;
/** The largest SNB-like size Grafeo is run on (see `datasets`). */
const GRAFEO_MAX_PERSONS = 200_000;

interface Options {
  quick: boolean;
  engines: EngineName[];
  only: string[];
  runs?: number;
  /** Persons of each SNB-like dataset, overriding the mode's sizes (`--snb 10000,50000,200000`). */
  snb?: number[];
  /** Leave out the Kronecker graph and its algorithms (`--no-algorithms`), for repeated query runs. */
  noAlgorithms: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const o: Options = { quick: false, engines: [...ENGINES], only: [], noAlgorithms: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') o.quick = true;
    else if (a === '--engines') o.engines = next().split(',') as EngineName[];
    else if (a === '--only') o.only.push(...next().split(','));
    else if (a === '--runs') o.runs = Number.parseInt(next(), 10);
    else if (a === '--snb') o.snb = next().split(',').map((n) => Number.parseInt(n, 10));
    else if (a === '--no-algorithms') o.noAlgorithms = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: bench/run [--quick] [--engines graphdb,kuzu,grafeo,graphology] [--only <workload>[,…]] [--runs <n>] [--snb <persons>[,…]] [--no-algorithms]');
      process.exit(0);
    } else throw new Error(`unknown argument: ${a}`);
  }
  for (const e of o.engines) if (!ENGINES.includes(e)) throw new Error(`unknown engine: ${e}`);
  for (const n of o.snb ?? []) if (!Number.isInteger(n) || n < 1000 || n % 1000 !== 0) throw new Error(`--snb takes persons in whole thousands, got ${n}`);
  return o;
}

interface Dataset {
  meta: DatasetMeta;
  dir: string;
  description: string;
  engines: EngineName[];
}

function datasets(quick: boolean, sizes?: number[], noAlgorithms = false): Dataset[] {
  const data = join(BENCH, 'data');
  const snbSizes = sizes ?? (quick ? [1_000, 10_000] : [10_000, 50_000]);
  const kron = quick ? { scale: 14, ef: 16 } : { scale: 17, ef: 16 };
  const out: Dataset[] = [];
  for (const persons of snbSizes) {
    const name = `snb-${persons / 1000}k`;
    const dir = join(data, name);
    const meta = generateSnb(dir, name, persons, SEED);
    const nodes = meta.nodes.reduce((s, n) => s + (meta.counts[n.file] ?? 0), 0);
    const rels = meta.rels.reduce((s, r) => s + (meta.counts[r.file] ?? 0), 0);
    // Grafeo's loader (batched calls from JavaScript) and its slowest queries take minutes past
    // 200k persons, so larger sizes leave it out, and the dataset's line says so.
    const withGrafeo = persons <= GRAFEO_MAX_PERSONS;
    out.push({
      meta,
      dir,
      description: `LDBC-SNB-like social network, ${persons} persons, ${nodes} nodes, ${rels} relationships${withGrafeo ? '' : ` (Grafeo not run above ${GRAFEO_MAX_PERSONS} persons: too slow)`}`,
      engines: withGrafeo ? ['graphdb', 'kuzu', 'grafeo'] : ['graphdb', 'kuzu'],
    });
  }
  if (noAlgorithms) return out;
  const name = `kron-${kron.scale}`;
  const dir = join(data, name);
  const meta = generateKronecker(dir, name, kron.scale, kron.ef, SEED);
  out.push({
    meta,
    dir,
    description: `Graph500 Kronecker graph, scale ${kron.scale}, edge factor ${kron.ef}: ${meta.graph?.vertices} vertices, ${meta.graph?.edges} undirected weighted edges (stored both ways in the databases)`,
    engines: ['graphdb', 'kuzu', 'grafeo', 'graphology'],
  });
  return out;
}

/**
 * graphdb's worker runs the compiled JavaScript in dist/ (bench/run builds it first): under
 * the tsx loader, which transfers ArrayBuffers, V8 adds a detach check to every typed-array
 * access in the process, which slows graphdb's column and CSR loops. The peers' adapters run
 * from source under tsx, as they always did (their engines are native code).
 */
const COMPILED_WORKER = resolve(BENCH, '..', 'dist', 'bench', 'peer', 'worker.js');

/** Runs one engine on one dataset in a child process; resolves with its report (or null if it died). */
function runWorker(task: WorkerTask): Promise<WorkerReport | null> {
  return new Promise((resolveReport) => {
    let report: WorkerReport | null = null;
    const compiled = task.engine === 'graphdb';
    const child = fork(compiled ? COMPILED_WORKER : join(HERE, 'worker.ts'), [JSON.stringify(task)], {
      execArgv: ['--expose-gc', '--max-old-space-size=8192', ...(compiled ? [] : ['--import', 'tsx'])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (m) => {
      report = m as WorkerReport;
    });
    child.on('exit', (code) => {
      if (code !== 0) process.stderr.write(`[bench] ${task.engine} on ${task.dir} exited with ${code}\n`);
      resolveReport(report);
    });
  });
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: BENCH, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.engines.includes('graphdb') && !existsSync(COMPILED_WORKER)) throw new Error(`${COMPILED_WORKER} is missing: run npm run build (bench/run does)`);
  const started = Date.now();
  const loadBefore = loadavg()[0];
  const log = (msg: string): void => void process.stderr.write(`[bench] ${msg}\n`);
  log('generating data (once per seed and size) …');
  const sets = datasets(opts.quick, opts.snb, opts.noAlgorithms);
  const reports: WorkerReport[] = [];
  for (const d of sets) {
    for (const engine of d.engines.filter((e) => opts.engines.includes(e))) {
      log(`${engine} on ${d.meta.name} …`);
      const r = await runWorker({
        engine,
        dir: d.dir,
        runs: opts.runs ?? (opts.quick ? 5 : 15),
        capMs: opts.quick ? 1500 : 10_000,
        only: opts.only,
      });
      if (r) reports.push(r);
    }
  }
  const rows = buildRows(reports);
  const now = new Date();
  const stamp = now.toISOString().slice(0, 16).replace(':', '');
  const mode = opts.quick ? 'quick' : 'full';
  const info: RunInfo = {
    date: now.toISOString().slice(0, 10),
    mode,
    commit: git(['rev-parse', '--short', 'HEAD']),
    machine:
      `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}; ` +
      `1-minute load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end` +
      (Math.max(loadBefore, loadavg()[0]) > cpus().length ? ' (above the core count: other processes competed for the CPUs, so times are noisy)' : ''),
    datasets: sets.map((d) => ({ name: d.meta.name, description: d.description })),
  };
  const md = `${markdown(rows, reports, info)}\nTotal wall time ${((Date.now() - started) / 1000).toFixed(0)} s.\n`;
  const outDir = join(BENCH, 'results');
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, `${stamp}-${mode}`);
  writeFileSync(`${base}.md`, md);
  writeFileSync(`${base}.json`, JSON.stringify({ info, reports, rows }, null, 1));
  for (const d of sets.filter((s) => s.meta.kind === 'snb')) {
    writeFileSync(`${base}-${d.meta.name}.svg`, svgChart(rows, d.meta.name, `graphdb vs peers, ${d.meta.name} (${mode}, ${info.date})`));
  }
  process.stdout.write(md);
  log(`wrote ${base}.md, .json and .svg charts`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

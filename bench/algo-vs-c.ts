/**
 * graphdb's PageRank, WCC, BFS, SSSP and triangle-count kernels against the same algorithms in C (`cc -O3`, one
 * thread; bench/algo-c/kernels.c), on the same Kronecker CSR: the ratio graphdb / C says how
 * close the TypeScript kernels come to the physical limit of the machine. Kernels only (no
 * query, no projection): both sides get the CSR and, for PageRank, its transpose, already
 * built, as graphdb's projection cache hands them out on a warm call. PageRank and BFS run on
 * the undirected graph (every edge both ways), WCC on the edges as generated. The C program
 * is compiled into a temporary directory at start; without a C compiler (`cc`) the benchmark
 * says so and exits. Each C kernel then runs in a long-lived process of its own (`kernels
 * serve`, see CServer), started before the graph is built; `--fork-c` forks a fresh one per
 * run instead, as the benchmark once did, which costs graphdb's next run page faults (the
 * table's last column counts them per graphdb run). Results are compared (scores within 1e-12 (graphdb adds the dangling mass per block of nodes, C in one running sum), the same components, the same
 * depths) so that a fast wrong kernel cannot win.
 *
 *   node --expose-gc dist/bench/algo-vs-c.js [--scale 17] [--runs 5] [--threads 2] [--only pagerank,wcc,bfs,sssp,triangles] [--fork-c] [--no-wasm]
 *   node --expose-gc --max-old-space-size=8000 dist/bench/algo-vs-c.js --scales 17,19,20
 *
 * `--scales` runs one table per graph (each 4× the edges of the one two scales below) and ends
 * with the CPU ratios side by side, to show how they grow with the graph.
 * `--threads` adds rows with graphdb's PageRank, WCC (Afforest) and direction-optimising BFS on
 * that many threads (the worker pool). WCC's Afforest and the direction-optimising BFS also get
 * a one-thread row each, against the same algorithm in C (`afforest`, `bfsdo` in kernels.c).
 *
 * Kernels with a WebAssembly form (procedures/algo/wasm/) run it, and get a second row with
 * their JavaScript form against the same C; `--no-wasm` runs the JavaScript forms only.
 *
 * `--only sssp,triangles`: SSSP from vertex 0 on the undirected graph, weights derived from each
 * edge's ends (`edgeWeight`, the same function as kernels.c's edge_weight: integers 1..64, so
 * distances are exact sums and must agree bit for bit), by Dijkstra and by delta-stepping on
 * one thread (and on `--threads`), each against its C twin; triangle count per node on the
 * undirected simple graph, on one thread (and `--threads`), against C's same ordering and
 * intersection. Delta-stepping's split rows and the simple graph are made once, outside the
 * timing, on both sides (graphdb keeps them per cached projection).
 */

import { execFileSync, spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { bfs } from '../procedures/algo/bfs.js';
import type { Csr } from '../procedures/algo/csr.js';
import { pageRank } from '../procedures/algo/pagerank.js';
import { transpose } from '../procedures/algo/simple.js';
import { useWasmKernels, wasmKernelsOn } from '../procedures/algo/wasm/instance.js';
import { afforest, weaklyConnected } from '../procedures/algo/wcc.js';
import { bfsDirectionOptimising } from '../procedures/algo/bfs-parallel.js';
import { deltaStepping } from '../procedures/algo/delta-stepping.js';
import { simpleUndirected } from '../procedures/algo/csr.js';
import { dijkstra } from '../procedures/algo/sssp.js';
import { trianglesPerNode } from '../procedures/algo/triangles.js';
import { arg, kronecker, warmUp } from './algo-graphs.js';
import { csrOf } from './algo-kernels.js';

const HERE = dirname(fileURLToPath(import.meta.url));
/** The C source: next to this file, or in the source tree when this runs compiled from dist/bench. */
const KERNELS_C = [join(HERE, 'algo-c', 'kernels.c'), join(HERE, '..', '..', 'bench', 'algo-c', 'kernels.c')].find((f) => existsSync(f)) ?? join(HERE, 'algo-c', 'kernels.c');

/** The CSR file kernels.c reads: n, m, offsets, targets, then the transpose's offsets and targets (int32, little-endian). */
function writeCsr(file: string, csr: Csr): void {
  const t = transpose(csr);
  const m = csr.targets.length;
  const all = new Int32Array(2 + 2 * (csr.n + 1) + 2 * m);
  all[0] = csr.n;
  all[1] = m;
  let k = 2;
  for (const part of [csr.offsets, csr.targets, t.offsets, t.targets]) {
    all.set(part, k);
    k += part.length;
  }
  writeFileSync(file, all);
}

/** The C kernels' names (kernels.c's `algo` argument). */
type Algo = 'pagerank' | 'wcc' | 'bfs' | 'afforest' | 'afforestskip' | 'bfsdo' | 'dijkstra' | 'deltastep' | 'triangles';

/** What one C run reports: its wall and CPU milliseconds, and the result file's bytes. */
interface CRun {
  ms: number;
  cpu: number;
  result: Buffer;
}

/**
 * One long-lived C process (`kernels serve`) for one kernel, started before the benchmark
 * builds its graph: each request (a line on its stdin) runs the kernel once and answers with
 * its timings (a line on its stdout). Starting a C process from this large Node process for
 * every run, as the benchmark once did, forks it: the fork marks the parent's pages
 * copy-on-write, so graphdb's next run took a page fault on each page of its arrays it wrote
 * (`--fork-c` still runs it that way, to show the difference).
 */
class CServer {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly replies: AsyncIterator<string>;
  /** Whether the kernel has run in this process yet: the first request asks for one untimed warm-up run. */
  private warm = new Set<string>();

  constructor(binary: string) {
    this.child = spawn(binary, ['serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.replies = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  async run(algo: Algo, csrFile: string, out: string): Promise<CRun> {
    const key = `${algo}\t${csrFile}`;
    const warmups = this.warm.has(key) ? 0 : 1;
    this.warm.add(key);
    this.child.stdin.write(`${algo}\t${csrFile}\t${warmups}\t${out}\n`);
    const reply = await this.replies.next();
    if (reply.done === true) throw new Error(`the C kernel process for ${algo} ended without an answer (exit code ${this.child.exitCode})`);
    const { ms, cpu } = JSON.parse(reply.value) as { ms: number; cpu: number };
    return { ms, cpu, result: readFileSync(out) };
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** The old way (`--fork-c`): a fresh C process per run, forked from this process, its kernel timed after one warm-up run. */
function forkC(binary: string, algo: Algo, csrFile: string, out: string): CRun {
  const text = execFileSync(binary, [csrFile, algo, '1', out], { encoding: 'utf8' });
  const { ms, cpu } = JSON.parse(text) as { ms: number; cpu: number };
  return { ms, cpu, result: readFileSync(out) };
}

/** Runs one C kernel once: in its own long-lived process, or forked fresh under `--fork-c`. */
type RunC = (algo: Algo, csrFile: string) => Promise<CRun>;

/** Wall and CPU milliseconds (medians). */
interface Timing {
  wall: number;
  cpu: number;
  /** The least CPU time of any run: the run the machine's other load disturbed least. */
  best: number;
  /** Minor page faults during the run (graphdb's side only; median). */
  faults: number;
}

function floats(b: Buffer): Float64Array {
  return new Float64Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

/** `--only pagerank,bfs`: the kernels to run (all when absent). */
let only: string[] | undefined;
const wanted = (kernel: string): boolean => only === undefined || only.includes(kernel);

/** One kernel's CPU ratio graphdb / C on one graph. */
type Ratios = Map<string, number>;

async function main(): Promise<void> {
  const scales = process.argv.includes('--scales') ? process.argv[process.argv.indexOf('--scales') + 1].split(',').map(Number) : [arg('scale', 17)];
  const runs = arg('runs', 5);
  const threads = arg('threads', 0);
  if (process.argv.includes('--no-wasm')) useWasmKernels(false);
  if (process.argv.includes('--only')) only = process.argv[process.argv.indexOf('--only') + 1].toLowerCase().split(',');
  if (spawnSync('cc', ['--version']).status !== 0) {
    console.log('bench/algo-vs-c: no C compiler (`cc`) on this machine; the C reference is skipped.');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-algo-c-'));
  const servers = new Map<Algo, CServer>();
  try {
    const binary = join(dir, 'kernels');
    execFileSync('cc', ['-O3', '-o', binary, KERNELS_C, '-lm']);
    // One C process per kernel, started now, while this process's heap is still small (see CServer).
    const fork = process.argv.includes('--fork-c');
    const runC: RunC = async (algo, csrFile) => {
      const out = join(dir, `${algo}.out`);
      if (fork) return forkC(binary, algo, csrFile, out);
      const server = servers.get(algo);
      if (server === undefined) throw new Error(`no C process was started for ${algo}`);
      return server.run(algo, csrFile, out);
    };
    if (!fork) for (const algo of ALGOS) if (wanted(KERNEL_OF[algo])) servers.set(algo, new CServer(binary));
    const all: { scale: number; ratios: Ratios }[] = [];
    for (const scale of scales) {
      const { lines, ratios } = await compare(scale, runs, threads, runC, dir);
      console.log(lines.join('\n') + '\n');
      all.push({ scale, ratios });
    }
    if (all.length > 1) console.log(growth(all).join('\n'));
  } finally {
    for (const server of servers.values()) server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Which `--only` name each C kernel belongs to. */
const KERNEL_OF: Record<Algo, string> = {
  pagerank: 'pagerank', wcc: 'wcc', afforest: 'wcc', afforestskip: 'wcc', bfs: 'bfs', bfsdo: 'bfs', dijkstra: 'sssp', deltastep: 'sssp', triangles: 'triangles',
};
const ALGOS = Object.keys(KERNEL_OF) as Algo[];

/** How the CPU ratio graphdb / C moves with the graph's size (`--scales`). */
function growth(all: { scale: number; ratios: Ratios }[]): string[] {
  const lines = ['graphdb / C (CPU) by graph size:', '', `| kernel | ${all.map((a) => `kron-${a.scale}`).join(' | ')} |`, `|---|${all.map(() => '---:').join('|')}|`];
  for (const kernel of all[0].ratios.keys()) lines.push(`| ${kernel} | ${all.map((a) => a.ratios.get(kernel)?.toFixed(2) ?? '–').join(' | ')} |`);
  return lines;
}

/** The table for one Kronecker graph, results checked against C's before any time is kept. */
async function compare(scale: number, runs: number, threads: number, runC: RunC, dir: string): Promise<{ lines: string[]; ratios: Ratios }> {
  const n = 2 ** scale;
  const edges = kronecker(scale, 16, 20240611);
  const both = csrOf(n, edges, 'both');
  const out = csrOf(n, edges, 'out');
  // Named by scale: a C process reads a file again only when the name changes.
  const bothFile = join(dir, `both-${scale}.csr`);
  const outFile = join(dir, `out-${scale}.csr`);
  writeCsr(bothFile, both);
  writeCsr(outFile, out);
  const none = (): void => undefined;
  const opts = { dampingFactor: 0.85, maxIterations: 200, tolerance: 1e-7 };
  const load = loadavg()[0];
  const ratios: Ratios = new Map();
  const lines = [
    `kron-${scale} (${n} vertices, ${edges.length} edges; PageRank and BFS on ${both.targets.length} directed entries), median of ${runs} runs, load average ${load.toFixed(1)} at the start.`,
    '',
    '| kernel | graphdb wall ms | C wall ms | graphdb / C (wall) | graphdb CPU ms | C CPU ms | graphdb / C (CPU) | graphdb / C (least CPU) | graphdb page faults per run |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];

  // The two sides alternate run by run, so that a change in the machine's load (other
  // processes share the cores) hits both medians alike.
  const pair = async (algo: Algo, file: string, ours: () => unknown): Promise<{ ours: Timing; c: Timing; result: Buffer }> => {
    const o: Timing[] = [];
    const c: Timing[] = [];
    let result: Buffer = Buffer.alloc(0);
    await warmUp(ours);
    for (let i = 0; i < runs; i++) {
      const r = await runC(algo, file);
      c.push({ wall: r.ms, cpu: r.cpu, best: r.cpu, faults: 0 });
      result = r.result;
      const faults0 = process.resourceUsage().minorPageFault;
      const cpu0 = process.cpuUsage();
      const t = performance.now();
      ours();
      const wall = performance.now() - t;
      const d = process.cpuUsage(cpu0);
      const faults = process.resourceUsage().minorPageFault - faults0;
      o.push({ wall, cpu: (d.user + d.system) / 1000, best: (d.user + d.system) / 1000, faults });
    }
    const mid = (xs: Timing[]): Timing => {
      const at = (k: 'wall' | 'cpu' | 'faults'): number => xs.map((x) => x[k]).sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      return { wall: at('wall'), cpu: at('cpu'), best: Math.min(...xs.map((x) => x.best)), faults: at('faults') };
    };
    return { ours: mid(o), c: mid(c), result };
  };
  const cells = (t: { ours: Timing; c: Timing }): string =>
    `${t.ours.wall.toFixed(1)} | ${t.c.wall.toFixed(1)} | ${(t.ours.wall / t.c.wall).toFixed(2)} | ${t.ours.cpu.toFixed(1)} | ${t.c.cpu.toFixed(1)} | ${(t.ours.cpu / t.c.cpu).toFixed(2)} | ${(t.ours.best / t.c.best).toFixed(2)} | ${t.ours.faults} |`;

  if (wanted('pagerank')) {
    let pr = pageRank(both, opts, none);
    const prT = await pair('pagerank', bothFile, () => (pr = pageRank(both, opts, none)));
    const cScores = floats(prT.result);
    let worst = 0;
    for (let v = 0; v < n; v++) worst = Math.max(worst, Math.abs(cScores[v] - pr.scores[v]));
    if (worst > 1e-12) throw new Error(`PageRank scores differ from C's by ${worst}`);
    lines.push(`| PageRank (to total change 1e-7, ${pr.iterations} rounds)${wasmKernelsOn() ? ', WebAssembly rounds' : ''} | ${cells(prT)}`);
    ratios.set('PageRank', prT.ours.cpu / prT.c.cpu);
    if (wasmKernelsOn()) {
      // The JavaScript rounds (the fallback where WebAssembly cannot run), against the same C.
      useWasmKernels(false);
      try {
        const js = await pair('pagerank', bothFile, () => (pr = pageRank(both, opts, none)));
        lines.push(`| PageRank, JavaScript rounds | ${cells(js)}`);
        ratios.set('PageRank, JavaScript', js.ours.cpu / js.c.cpu);
      } finally {
        useWasmKernels(true);
      }
    }
    if (threads > 1) {
      const many = await pair('pagerank', bothFile, () => pageRank(both, opts, none, threads));
      lines.push(`| PageRank, graphdb on ${threads} threads | ${cells(many)}`);
      ratios.set(`PageRank, ${threads} threads`, many.ours.cpu / many.c.cpu);
    }
  }

  if (wanted('wcc')) {
    let roots = weaklyConnected(out, none);
    const wccT = await pair('wcc', outFile, () => (roots = weaklyConnected(out, none)));
    if (Buffer.compare(Buffer.from(roots.buffer, roots.byteOffset, roots.byteLength), wccT.result) !== 0) throw new Error('WCC roots differ from C');
    lines.push(`| WCC (union-find) | ${cells(wccT)}`);
    ratios.set('WCC', wccT.ours.cpu / wccT.c.cpu);
    const same = (what: string, ours: Int32Array, theirs: Buffer): void => {
      if (Buffer.compare(Buffer.from(ours.buffer, ours.byteOffset, ours.byteLength), theirs) !== 0) throw new Error(`${what} differ from C's`);
    };
    // Afforest (the parallel path) on one thread against C's one-thread Afforest, then on `threads` threads against the same C.
    const aff1 = await pair('afforest', outFile, () => (roots = afforest(out, none, 1)));
    same('Afforest roots on 1 thread', roots, aff1.result);
    lines.push(`| WCC Afforest, 1 thread${wasmKernelsOn() ? ', WebAssembly phases' : ''} (C: Afforest) | ${cells(aff1)}`);
    ratios.set('WCC Afforest', aff1.ours.cpu / aff1.c.cpu);
    if (wasmKernelsOn()) {
      useWasmKernels(false);
      try {
        const js = await pair('afforest', outFile, () => (roots = afforest(out, none, 1)));
        same('Afforest roots on 1 thread (JavaScript phases)', roots, js.result);
        lines.push(`| WCC Afforest, 1 thread, JavaScript phases | ${cells(js)}`);
        ratios.set('WCC Afforest, JavaScript', js.ours.cpu / js.c.cpu);
      } finally {
        useWasmKernels(true);
      }
    }
    if (threads > 1) {
      const many = await pair('afforest', outFile, () => (roots = weaklyConnected(out, none, threads)));
      same(`WCC roots on ${threads} threads`, roots, many.result);
      lines.push(`| WCC Afforest, graphdb on ${threads} threads (C: Afforest, 1 thread) | ${cells(many)}`);
      ratios.set(`WCC, ${threads} threads`, many.ours.cpu / many.c.cpu);
    }
    // What algo.wcc runs on the pool: the undirected CSR, the largest component's rows skipped (the same roots).
    const skip1 = await pair('afforestskip', bothFile, () => (roots = afforest(both, none, 1, true)));
    same('Afforest roots on the undirected CSR', roots, wccT.result);
    lines.push(`| WCC Afforest on the undirected CSR, largest component skipped, 1 thread (C: the same) | ${cells(skip1)}`);
    ratios.set('WCC Afforest, skipping', skip1.ours.cpu / skip1.c.cpu);
    if (threads > 1) {
      const many = await pair('afforestskip', bothFile, () => (roots = weaklyConnected(both, none, threads, true)));
      same(`Afforest roots on the undirected CSR on ${threads} threads`, roots, wccT.result);
      lines.push(`| WCC Afforest on the undirected CSR, largest component skipped, graphdb on ${threads} threads (C: 1 thread) | ${cells(many)}`);
      ratios.set(`WCC Afforest, skipping, ${threads} threads`, many.ours.cpu / many.c.cpu);
    }
  }

  if (wanted('bfs')) {
    let depth = bfs(both, 0, 2 ** 31 - 1, none).depth;
    const bfsT = await pair('bfs', bothFile, () => (depth = bfs(both, 0, 2 ** 31 - 1, none).depth));
    if (Buffer.compare(Buffer.from(depth.buffer, depth.byteOffset, depth.byteLength), bfsT.result) !== 0) throw new Error('BFS depths differ from C');
    lines.push(`| BFS from vertex 0 | ${cells(bfsT)}`);
    ratios.set('BFS', bfsT.ours.cpu / bfsT.c.cpu);
    // Direction-optimising (the undirected graph is its own transpose), against C's one-thread form; depths equal the plain BFS's.
    const same = (what: string): void => {
      if (Buffer.compare(Buffer.from(depth.buffer, depth.byteOffset, depth.byteLength), bfsT.result) !== 0) throw new Error(`${what} depths differ from C's`);
    };
    const do1 = await pair('bfsdo', bothFile, () => (depth = bfsDirectionOptimising(both, both, 0, 2 ** 31 - 1, none, 1).depth));
    same('direction-optimising BFS');
    lines.push(`| BFS direction-optimising, 1 thread${wasmKernelsOn() ? ', WebAssembly steps' : ''} (C: the same) | ${cells(do1)}`);
    ratios.set('BFS direction-optimising', do1.ours.cpu / do1.c.cpu);
    if (wasmKernelsOn()) {
      useWasmKernels(false);
      try {
        const js = await pair('bfsdo', bothFile, () => (depth = bfsDirectionOptimising(both, both, 0, 2 ** 31 - 1, none, 1).depth));
        same('direction-optimising BFS (JavaScript steps)');
        lines.push(`| BFS direction-optimising, 1 thread, JavaScript steps | ${cells(js)}`);
        ratios.set('BFS direction-optimising, JavaScript', js.ours.cpu / js.c.cpu);
      } finally {
        useWasmKernels(true);
      }
    }
    if (threads > 1) {
      const many = await pair('bfsdo', bothFile, () => (depth = bfsDirectionOptimising(both, both, 0, 2 ** 31 - 1, none, threads).depth));
      same(`direction-optimising BFS on ${threads} threads`);
      lines.push(`| BFS direction-optimising, graphdb on ${threads} threads (C: 1 thread) | ${cells(many)}`);
      ratios.set(`BFS direction-optimising, ${threads} threads`, many.ours.cpu / many.c.cpu);
    }
  }
  if (wanted('sssp')) await ssspRows(both, bothFile, threads, pair, cells, lines, ratios);
  if (wanted('triangles')) {
    const simple = simpleUndirected(both);
    const simpleFile = join(dir, `simple-${scale}.csr`);
    writeCsr(simpleFile, simple);
    let tri = trianglesPerNode(simple, 1, none);
    const one = await pair('triangles', simpleFile, () => (tri = trianglesPerNode(simple, 1, none)));
    sameFloats('Triangle counts', tri, one.result);
    let total = 0;
    for (let v = 0; v < n; v++) total += tri[v];
    lines.push(`| Triangle count (${total / 3} triangles), 1 thread${wasmKernelsOn() ? ', WebAssembly' : ''} (C: the same) | ${cells(one)}`);
    ratios.set('Triangles', one.ours.cpu / one.c.cpu);
    if (wasmKernelsOn()) {
      useWasmKernels(false);
      try {
        const js = await pair('triangles', simpleFile, () => (tri = trianglesPerNode(simple, 1, none)));
        sameFloats('Triangle counts (JavaScript)', tri, one.result);
        lines.push(`| Triangle count, 1 thread, JavaScript | ${cells(js)}`);
        ratios.set('Triangles, JavaScript', js.ours.cpu / js.c.cpu);
      } finally {
        useWasmKernels(true);
      }
    }
    if (threads > 1) {
      const many = await pair('triangles', simpleFile, () => (tri = trianglesPerNode(simple, threads, none)));
      sameFloats(`Triangle counts on ${threads} threads`, tri, one.result);
      lines.push(`| Triangle count, graphdb on ${threads} threads (C: 1 thread) | ${cells(many)}`);
      ratios.set(`Triangles, ${threads} threads`, many.ours.cpu / many.c.cpu);
    }
  }
  lines.push('', `Each side ran alternately, one run at a time (C: ${process.argv.includes('--fork-c') ? 'a fresh process per run, forked from this one, its kernel timed inside after one warm-up run' : 'one long-lived process per kernel, started before the graph was built, its kernel warmed up by one untimed run'}). CPU time is the process's (graphdb: every thread of it, GC included); on a loaded machine it is the steadier figure, and the ratio of each side's least CPU time (the run least disturbed by other processes) the steadiest.`);
  return { lines, ratios };
}

/** The weight of edge u → v: kernels.c's edge_weight (a 32-bit mix of the ends), an integer 1..64. */
function edgeWeight(u: number, v: number): number {
  let h = (Math.imul(u, 0x9e3779b1) ^ Math.imul(v, 0x85ebca77)) >>> 0;
  h = (h ^ (h >>> 15)) >>> 0;
  h = Math.imul(h, 0x2c1b3c6d) >>> 0;
  h = (h ^ (h >>> 12)) >>> 0;
  return 1 + (h % 64);
}

/** `ours` must hold exactly the doubles of C's result file. */
function sameFloats(what: string, ours: Float64Array, theirs: Buffer): void {
  if (Buffer.compare(Buffer.from(ours.buffer, ours.byteOffset, ours.byteLength), theirs) !== 0) throw new Error(`${what} differ from C's`);
}

type Pair = (algo: Algo, file: string, ours: () => unknown) => Promise<{ ours: Timing; c: Timing; result: Buffer }>;

/** The SSSP rows (`bothFile`: the CSR file C reads): Dijkstra, delta-stepping on one thread and on `threads`, each checked against C's distances. */
async function ssspRows(both: Csr, bothFile: string, threads: number, pair: Pair, cells: (t: { ours: Timing; c: Timing }) => string, lines: string[], ratios: Ratios): Promise<void> {
  const { n, offsets, targets } = both;
  const weights = new Float64Array(targets.length);
  for (let v = 0; v < n; v++) for (let e = offsets[v]; e < offsets[v + 1]; e++) weights[e] = edgeWeight(v, targets[e]);
  const weighted: Csr = { ...both, weights };
  const none = (): void => undefined;
  let dist = dijkstra(weighted, 0, none).dist;
  const dj = await pair('dijkstra', bothFile, () => (dist = dijkstra(weighted, 0, none).dist));
  sameFloats('Dijkstra distances', dist, dj.result);
  let reached = 0;
  for (let v = 0; v < n; v++) if (dist[v] < Infinity) reached++;
  lines.push(`| SSSP Dijkstra from vertex 0 (weights 1..64, ${reached} reached), binary heap (C: the same) | ${cells(dj)}`);
  ratios.set('SSSP Dijkstra', dj.ours.cpu / dj.c.cpu);
  const ds1 = await pair('deltastep', bothFile, () => (dist = deltaStepping(weighted, 0, none, 1).dist));
  sameFloats('Delta-stepping distances', dist, ds1.result);
  sameFloats('Delta-stepping distances (against C\'s Dijkstra)', dist, dj.result);
  lines.push(`| SSSP delta-stepping, 1 thread${wasmKernelsOn() ? ', WebAssembly rounds' : ''} (C: the same) | ${cells(ds1)}`);
  ratios.set('SSSP delta-stepping', ds1.ours.cpu / ds1.c.cpu);
  if (wasmKernelsOn()) {
    useWasmKernels(false);
    try {
      const js = await pair('deltastep', bothFile, () => (dist = deltaStepping(weighted, 0, none, 1).dist));
      sameFloats('Delta-stepping distances (JavaScript rounds)', dist, ds1.result);
      lines.push(`| SSSP delta-stepping, 1 thread, JavaScript rounds | ${cells(js)}`);
      ratios.set('SSSP delta-stepping, JavaScript', js.ours.cpu / js.c.cpu);
    } finally {
      useWasmKernels(true);
    }
  }
  if (threads > 1) {
    const many = await pair('deltastep', bothFile, () => (dist = deltaStepping(weighted, 0, none, threads).dist));
    sameFloats(`Delta-stepping distances on ${threads} threads`, dist, ds1.result);
    lines.push(`| SSSP delta-stepping, graphdb on ${threads} threads (C: 1 thread) | ${cells(many)}`);
    ratios.set(`SSSP delta-stepping, ${threads} threads`, many.ours.cpu / many.c.cpu);
  }
}

await main();

/**
 * The measuring side of the micro-benchmarks: a seeded PRNG, command-line options, a
 * timer that warms up and then takes the median of several runs, heap readings, and the
 * Markdown table the results are printed as. Nothing here knows about graphs or queries.
 */

/** Options of one `bench:micro` invocation. */
export interface BenchOptions {
  /** Multiplies every default size (1 = the sizes in bench/README.md). */
  scale: number;
  /** Benchmark name filters (substring match); empty runs everything. */
  only: string[];
  /** Overrides the number of measured runs of every benchmark. */
  runs?: number;
  /** Alters a benchmark's answer before its check (`--corrupt-check`), to show that the check fails. */
  corruptCheck?: boolean;
}

/** Parses `--scale <f>`, `--only <name>[,<name>…]` (repeatable) and `--runs <n>`. */
export function parseArgs(argv: readonly string[]): BenchOptions {
  const opts: BenchOptions = { scale: 1, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--scale') {
      opts.scale = Number(value());
      if (!(opts.scale > 0)) throw new Error('--scale must be a positive number');
    } else if (arg === '--only') {
      opts.only.push(...value().split(',').filter((s) => s.length > 0));
    } else if (arg === '--runs') {
      opts.runs = Number.parseInt(value(), 10);
      if (!(opts.runs >= 1)) throw new Error('--runs must be at least 1');
    } else if (arg === '--corrupt-check') {
      opts.corruptCheck = true;
    } else if (arg === '--help' || arg === '-h') {
      console.log('usage: npm run bench:micro -- [--scale <factor>] [--only <name>[,<name>]] [--runs <n>] [--corrupt-check]');
      process.exit(0);
    } else if (arg !== '--') {
      throw new Error(`unknown argument: ${arg}`);
    }
  }
  return opts;
}

/** Mulberry32 (the generator the randomised algorithms use): reproducible benchmark graphs for a given seed. */
export { seededRandom as mulberry32 } from '../../procedures/algo/random.js';

/** A random integer in [0, n) drawn from `rand`. */
export function randInt(rand: () => number, n: number): number {
  return Math.floor(rand() * n);
}

type GcFunction = () => void;

/** Runs a full collection when node was started with `--expose-gc`; a no-op otherwise. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: GcFunction }).gc;
  if (gc) gc();
}

/** Heap in use right now (after a collection when possible), in bytes. */
export function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

/** One benchmark's outcome: a row of the table. */
export interface BenchResult {
  name: string;
  /** Human-readable size, e.g. "1M nodes". */
  size: string;
  runs: number;
  /** Median wall time of one run, in milliseconds. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Units of work per run (rows, relationships, queries…). */
  work: number;
  /** What `work` counts, e.g. "rows" or "ops". */
  unit: string;
  /** Heap in use after the last run (everything the process holds, graphs included), in bytes. */
  heapBytes: number;
  /** Heap retained by the last run: after it minus before it (both after a full GC), in bytes. */
  heapDeltaBytes: number;
  note?: string;
}

/** How to run one timed benchmark. */
export interface TimedSpec<S> {
  name: string;
  size: string;
  unit: string;
  /** Units of work one run performs (for the throughput column). */
  work: number;
  runs: number;
  /** Untimed warm-up runs (default 1). */
  warmup?: number;
  /** Untimed preparation before each run (warm-up runs included); its result goes to `run`. */
  setup: () => S;
  /** The timed part. Returns a value that `check` may verify. */
  run: (state: S) => unknown;
  /** Throws when the result of a run is wrong, so a benchmark never times a broken answer. */
  check?: (result: unknown) => void;
  /** Warm-up runs use this instead of `setup`/`run`, e.g. a smaller size for expensive writes. */
  warm?: () => void;
  note?: string;
}

/** Warms up, then times `runs` runs of `spec.run`, each after a fresh untimed `setup`. */
export function timed<S>(spec: TimedSpec<S>): BenchResult {
  const warmups = spec.warmup ?? 1;
  for (let i = 0; i < warmups; i++) {
    if (spec.warm) spec.warm();
    else spec.check?.(spec.run(spec.setup()));
  }
  const times: number[] = [];
  let before = 0;
  for (let i = 0; i < spec.runs; i++) {
    const state = spec.setup();
    before = heapUsed();
    const t0 = performance.now();
    const result = spec.run(state);
    times.push(performance.now() - t0);
    spec.check?.(result);
  }
  const after = heapUsed();
  return {
    name: spec.name,
    size: spec.size,
    runs: spec.runs,
    medianMs: median(times),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    work: spec.work,
    unit: spec.unit,
    heapBytes: after,
    heapDeltaBytes: after - before,
    note: spec.note,
  };
}

/** The median of a non-empty list of numbers. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** 1234567 → "1.23M", 12000 → "12k". */
export function compact(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${trim(n / 1e9)}G`;
  if (abs >= 1e6) return `${trim(n / 1e6)}M`;
  if (abs >= 1e3) return `${trim(n / 1e3)}k`;
  return trim(n);
}

function trim(x: number): string {
  return Number(x.toPrecision(3)).toString();
}

/** A duration in the most readable unit. */
export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

/** Renders results as a GitHub-flavoured Markdown table. */
export function markdownTable(results: readonly BenchResult[]): string {
  const header = ['benchmark', 'size', 'runs', 'median', 'min … max', 'throughput', 'heap used', 'heap Δ', 'notes'];
  const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;
  const rows = results.map((r) => [
    r.name,
    r.size,
    String(r.runs),
    formatMs(r.medianMs),
    `${formatMs(r.minMs)} … ${formatMs(r.maxMs)}`,
    `${compact(r.work / (r.medianMs / 1000))} ${r.unit}/s`,
    mb(r.heapBytes),
    `${r.heapDeltaBytes >= 0 ? '+' : ''}${mb(r.heapDeltaBytes)}`,
    r.note ?? '',
  ]);
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

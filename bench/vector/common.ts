/**
 * Helpers shared by the vector and full-text benchmarks: numeric command-line options, the
 * seeded PRNG that makes every run generate the same data, the full-text benchmarks' Zipf
 * corpus, elapsed seconds, the longest event-loop stall while something runs, and Kuzu's bulk
 * load through a CSV file.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type kuzu from 'kuzu';

/** The number after `--name` on the command line, or `fallback`. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** mulberry32: a small seeded PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Word number `rank` spelled as consonant-vowel syllables. Every word has at least two
 * syllables and ends in a, o or u, so no stop-word list or stemmer changes it and every
 * engine sees the same terms.
 */
function word(rank: number): string {
  const consonants = 'bdfgklmnprstvz';
  const vowels = 'aou';
  let n = rank;
  let out = '';
  do {
    out += consonants[n % consonants.length] + vowels[Math.floor(n / consonants.length) % vowels.length];
    n = Math.floor(n / (consonants.length * vowels.length));
  } while (n > 0);
  return out.length < 4 ? out + 'ka' : out;
}

/** `docs` seeded texts of `minWords`–`maxWords` words drawn from a Zipf (s = 1) vocabulary of `vocab` words (word rank r with weight 1 / (r + 1)). */
export function zipfCorpus(docs: number, vocab: number, minWords: number, maxWords: number): { vocabulary: string[]; texts: string[] } {
  const vocabulary = Array.from({ length: vocab }, (_, r) => word(r));
  const cumulative = new Float64Array(vocab);
  for (let r = 0, total = 0; r < vocab; r++) cumulative[r] = total += 1 / (r + 1);
  // Sampled by binary search in the cumulative weights.
  const zipfRank = (rnd: () => number): number => {
    const x = rnd() * cumulative[vocab - 1];
    let lo = 0;
    let hi = vocab - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const rnd = mulberry32(7);
  const texts: string[] = [];
  for (let i = 0; i < docs; i++) {
    const length = minWords + Math.floor(rnd() * (maxWords - minWords + 1));
    texts.push(Array.from({ length }, () => vocabulary[zipfRank(rnd)]).join(' '));
  }
  return { vocabulary, texts };
}

/** Seconds since `start` (a `performance.now()` reading). */
export const seconds = (start: number): number => (performance.now() - start) / 1000;

/** Bulk-loads CSV lines into a Kuzu node table with COPY from a temporary file (a parameterised UNWIND takes minutes at 100k rows). */
export async function kuzuCopy(conn: kuzu.Connection, table: string, lines: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kuzubench-'));
  const file = join(dir, 'rows.csv');
  try {
    writeFileSync(file, lines.join('\n') + '\n');
    await conn.query(`COPY ${table} FROM '${file}' (header = false)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Garbage-collection pauses (observed from the first `stall`), to tell a stall the measured work causes from a collection of the whole (large) heap that happens to fall in it. */
const gcPauses: PerformanceEntry[] = [];
let gcObserved = false;

/** Runs `fn`, returning its wall time, the longest gap between 1 ms ticks meanwhile and the longest GC pause that began meanwhile (all ms). */
export async function stall(fn: () => unknown): Promise<{ ms: number; maxGap: number; maxGc: number }> {
  if (!gcObserved) {
    gcObserved = true;
    new PerformanceObserver((list) => void gcPauses.push(...list.getEntries())).observe({ entryTypes: ['gc'] });
  }
  let last = performance.now();
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 5));
  last = performance.now();
  const t0 = performance.now();
  // The call itself is on the event loop: its synchronous part is a stall too.
  const before = performance.now();
  const pending = fn();
  maxGap = Math.max(maxGap, performance.now() - before);
  await pending;
  const ms = performance.now() - t0;
  const t1 = performance.now();
  await new Promise((r) => setTimeout(r, 5));
  clearInterval(ticker);
  const maxGc = Math.max(0, ...gcPauses.filter((g) => g.startTime >= t0 && g.startTime <= t1).map((g) => g.duration));
  return { ms, maxGap: Math.max(maxGap, performance.now() - last), maxGc };
}

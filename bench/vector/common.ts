/**
 * Helpers shared by the vector and full-text benchmarks: numeric command-line options, the
 * seeded PRNG that makes every run generate the same data, elapsed seconds, and Kuzu's bulk
 * load through a CSV file.
 */

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

/** Helpers for the persistence tests: temporary data directories and "crash images" of them. */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Database } from '../../src/engine/database.js';
import type { CheckpointLimits } from '../../src/store/persist/checkpoint-policy.js';

const made: string[] = [];

export function tempDir(prefix = 'graphdb-persist-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory `tempDir` made (call from afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A copy of a data directory as a crash would leave it (files as they are now, no lock owner alive). */
export function crashImage(dir: string): string {
  const copy = tempDir('graphdb-crash-');
  for (const name of fs.readdirSync(dir)) {
    if (name === 'graphdb.lock' || name.endsWith('-lock')) continue;
    fs.copyFileSync(path.join(dir, name), path.join(copy, name));
  }
  return copy;
}

/**
 * Where each record of a WAL file starts, and where its records end: the file may go on with
 * zeros the writer took ahead (wal-writer.ts), which are no records.
 */
export function walLayout(file: string): { offsets: number[]; end: number } {
  const buf = fs.readFileSync(file);
  const offsets: number[] = [];
  let off = 8;
  for (; off + 16 <= buf.length && buf.readUInt32LE(off) !== 0; off += 16 + buf.readUInt32LE(off)) offsets.push(off);
  return { offsets, end: off };
}

export const quiet = { log: null } as const;

/** Opens a database on `dir` with logging captured into `lines`. */
export async function openDb(dir: string, lines: string[] = [], checkpoint: Partial<CheckpointLimits> = { records: 1e9, walBytes: 1e12, intervalMs: 1e9 }): Promise<Database> {
  return Database.open({ dataDir: dir, storage: { log: { write: (t: string) => lines.push(t) }, checkpoint } });
}

export function rows(db: Database, q: string): unknown[][] {
  return db.executeSync(q).records as unknown[][];
}

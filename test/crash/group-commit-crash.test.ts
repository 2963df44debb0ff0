/**
 * Group commit under SIGKILL: a child process (group-commit-child.ts) runs 64 concurrent
 * writers through the library's async door on a data directory and reports each write once it
 * is acknowledged; it is killed with SIGKILL at a random moment. After a restart every
 * acknowledged write must be there, whole, and at most the one write in flight per writer
 * besides. Each trial runs in both group-commit modes: serial (`storage.walSync.concurrent: 1`,
 * one fsync at a time) and overlapping (the default, 4 in flight, groups of 16). The child's own
 * counts prove the grouping was active: serially, with 64 writers in flight one fsync must
 * cover 48 writes on average (measured: 64-65; before fsyncs were put off one event-loop turn to
 * gather the writers just acknowledged, the writers split into groups that took turns: 32 per
 * fsync here, 21 in bench/durability.ts); overlapping, one must cover 12 on average (groups of
 * 16, the last one the rest) and fsyncs must have started while others were in flight.
 * GRAPHDB_CRASH_TRIALS sets the number of trials per mode (2 by default).
 */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childLoader, childModule } from '../compiled-child.js';
import { Database } from '../../src/engine/database.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { consistencyProblems } from './crash-harness.js';

afterAll(removeTempDirs);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TRIALS = Number(process.env.GRAPHDB_CRASH_TRIALS ?? 2);
const WRITERS = 64;

interface Acks {
  /** Acknowledged i's per writer. */
  acked: number[][];
  records: number;
  syncs: number;
  overlapped: number;
}

async function trial(n: number, concurrent: number): Promise<void> {
  const dir = tempDir(`graphdb-group-crash-${n}-`);
  const program = childModule('test/crash/group-commit-child.ts');
  const child = spawn(process.execPath, [...childLoader(program), program, dir, String(WRITERS), String(concurrent)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: Acks = { acked: Array.from({ length: WRITERS }, () => []), records: 0, syncs: 0, overlapped: 0 };
  let out = '';
  let err = '';
  let total = 0;
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const [tag, c, i, records, syncs, overlapped] = out.slice(0, nl).split(' ');
      out = out.slice(nl + 1);
      if (tag !== 'ack') continue;
      acks.acked[Number(c)].push(Number(i));
      acks.records = Math.max(acks.records, Number(records));
      acks.syncs = Math.max(acks.syncs, Number(syncs));
      acks.overlapped = Math.max(acks.overlapped, Number(overlapped));
      total++;
    }
  });
  // Kill at a random moment once a few thousand writes are acknowledged (a loaded machine takes longer to get there).
  const by = Date.now() + 60_000;
  while (total < 3000 && Date.now() < by && child.exitCode === null) await new Promise((r) => setTimeout(r, 10));
  expect(child.exitCode, `child ended early: ${err}`).toBeNull();
  await new Promise((r) => setTimeout(r, Math.random() * 300));
  // Every ack the child wrote before the kill is still in the pipe: read it to its end ('close',
  // not 'exit', which can come first while a loaded machine has not yet read the pipe).
  const closed = new Promise((r) => child.once('close', r));
  child.kill('SIGKILL');
  await closed;

  expect(total).toBeGreaterThan(0);
  const counts = `trial ${n}, concurrent ${concurrent}: ${acks.records} records in ${acks.syncs} fsyncs, ${acks.overlapped} started beside another`;
  expect(acks.records / acks.syncs, counts).toBeGreaterThanOrEqual(concurrent === 1 ? 48 : 12);
  if (concurrent === 1) expect(acks.overlapped, counts).toBe(0);
  else expect(acks.overlapped, counts).toBeGreaterThan(0);

  const db = await Database.open({ dataDir: dir, storage: { log: null } });
  try {
    const present: Set<number>[] = Array.from({ length: WRITERS }, () => new Set());
    for (const [c, i] of db.executeSync('MATCH (g:G)-[:R]->(h:H) WHERE h.c = g.c AND h.i = g.i RETURN g.c, g.i').records) present[Number(c)].add(Number(i));
    const whole = db.executeSync('MATCH (g:G) RETURN count(g)').records[0][0];
    let sum = 0;
    for (let c = 0; c < WRITERS; c++) {
      const lost = acks.acked[c].filter((i) => !present[c].has(i));
      expect(lost, `trial ${n}, writer ${c}: acknowledged writes lost`).toEqual([]);
      // Writes are acknowledged in order per writer; beyond them only the one in flight may have reached the disk.
      const extra = [...present[c]].filter((i) => i >= acks.acked[c].length);
      expect(extra.length, `trial ${n}, writer ${c}: unacknowledged writes ${extra}`).toBeLessThanOrEqual(1);
      if (extra.length === 1) expect(extra[0]).toBe(acks.acked[c].length);
      sum += present[c].size;
    }
    expect(whole).toBe(sum);
    expect(consistencyProblems(db)).toEqual([]);
  } finally {
    db.close();
  }
}

describe('group commit survives SIGKILL', () => {
  for (const [mode, concurrent] of [['serial fsyncs', 1], ['overlapping fsyncs', 4]] as const) {
    for (let n = 0; n < TRIALS; n++) it(`${mode}, trial ${n}: 64 writers in flight, killed at a random moment`, () => trial(n, concurrent), 120_000);
  }
});

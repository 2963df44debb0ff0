/**
 * Regression for the long convergence run that froze with no CPU use (seeds 1071, 1094):
 * a peer restarted from its data directory while a background checkpoint was committing.
 * LMDB's write thread held the store's write lock and waited for the main thread to run the
 * transaction's callback, while the main thread, reopening the same directory, blocked in
 * a synchronous LMDB write transaction on that same lock. Reopening must wait for the old
 * store to finish closing instead.
 *
 * A deadlock would freeze this test's own worker, so the scenario runs in a child process
 * that the test kills if it does not finish within a generous bound.
 */

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { childLoader, childModule } from '../compiled-child.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BOUND_MS = 90_000;

/**
 * Each round: write, start a checkpoint, let LMDB's write thread begin its transaction (one
 * `setImmediate` lets it start; a synchronous sleep keeps the main thread from running the
 * callback it waits for), then close and reopen at once — as the convergence test's peer
 * restart does. Sync is on, as in the trial that froze.
 */
const DATABASE_MODULE = childModule('src/engine/database.ts');
const SCRIPT = `
import { Database } from '${DATABASE_MODULE}';
const dir = process.argv[1];
const open = () => Database.open({ dataDir: dir, storage: { log: null }, sync: { peerId: 'p0' } });
const sleep = new Int32Array(new SharedArrayBuffer(4));
let db = await open();
for (let round = 0; round < 8; round++) {
  await db.mutate('CREATE (:A {round: $round})', { round });
  const checkpoint = db.checkpoint().catch(() => undefined);
  await new Promise((resolve) => setImmediate(resolve));
  Atomics.wait(sleep, 0, 0, 50);
  db.close();
  db = await open();
  await checkpoint;
}
const nodes = db.stats().nodes;
const fingerprint = db.fingerprint();
db.close();
console.log(JSON.stringify({ nodes, fingerprint }));
`;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('restarting a peer while a checkpoint commits', () => {
  it('reopens the data directory without deadlocking on the store', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-restart-'));
    dirs.push(dir);
    const child = spawn(process.execPath, [...childLoader(DATABASE_MODULE), '--input-type=module', '-e', SCRIPT, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, BOUND_MS);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    clearTimeout(timer);
    expect(timedOut, 'the reopen deadlocked (the child was killed after the bound)').toBe(false);
    expect(code, err).toBe(0);
    const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { nodes: number };
    expect(result.nodes).toBe(8);
  }, BOUND_MS + 30_000);
});

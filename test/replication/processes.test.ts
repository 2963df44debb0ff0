/**
 * The replication proof with separate `graphdb` processes on loopback: a primary and two
 * replicas (synchronous mode, replication factor 2) under a steady write load; SIGKILL of a
 * replica, of the primary, and of both replicas in turn, each restarted from its data
 * directory. After each primary crash, every acknowledged write must already be on a
 * replica (synchronous mode loses none); at quiescence every process has the primary's
 * position, fingerprint and content. Then a replica is promoted, the old primary and the
 * other replica follow it, and writing continues.
 *
 * CI runs one trial. The long form: REPLICATION_TRIALS=100 npx vitest run test/replication/processes.test.ts
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpawnedServers } from '../server/helpers.js';
import { content, converge, freePort, kill, position, Processes, query, SECRET, uids, until, urlOf, Writer } from './harness.js';

const TRIALS = Number(process.env.REPLICATION_TRIALS ?? 1);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-replication-'));

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const SYNC = ['--replication-mode', 'sync', '--replication-factor', '2', '--replication-sync-timeout', '3000', '--replication-secret', SECRET];

/**
 * One trial, which leaves nothing behind even when it fails: its writers stop and its
 * processes are killed. (A failed trial that left a primary, two replicas and a writer
 * running loaded the machine for every later trial, so one failure became a run of them.)
 */
async function trial(t: number): Promise<void> {
  const procs = new Processes();
  const writers: Writer[] = [];
  try {
    await trialSteps(t, procs, writers);
  } finally {
    await Promise.all(writers.map((w) => w.stop()));
    await procs.killAllAndWait();
  }
}

async function trialSteps(t: number, procs: Processes, writers: Writer[]): Promise<void> {
  const started = Date.now();
  const dir = (name: string): string => path.join(root, `t${t}-${name}`);
  const primaryPort = await freePort();
  const primaryUrl = `http://127.0.0.1:${primaryPort}`;
  const primaryArgs = ['--data-dir', dir('p'), '--http', String(primaryPort), '--replication-role', 'primary', ...SYNC];
  const replicaArgs = (name: string): string[] => ['--data-dir', dir(name), '--http', '0', '--replica-of', primaryUrl, '--replica-name', name, ...SYNC];

  let primary = await procs.start(primaryArgs);
  const replicas: SpawnedServers[] = [await procs.start(replicaArgs('r1')), await procs.start(replicaArgs('r2'))];
  const writer = new Writer(() => primary, `t${t}-`);
  writers.push(writer);
  writer.start();
  await writer.more(20);

  // Reads work on a replica; writes there are refused with READ_ONLY.
  const refused = await query(replicas[0], "CREATE (:Item {uid: 'nope'})");
  expect(refused.code).toBe('READ_ONLY');

  /** With the primary dead: every acknowledged write must be on at least one replica. */
  const checkAcknowledgedOnReplicas = async (): Promise<void> => {
    // A replica busy catching up may answer late: wait for both answers (a hang catcher), then judge.
    let held: (Set<string> | undefined)[] = [];
    await until(async () => {
      held = await Promise.all(replicas.map(uids));
      return held.every((set) => set !== undefined);
    }, 60_000);
    expect(held.map((set) => set !== undefined), 'both replicas answer').toEqual([true, true]);
    const missing = writer.acknowledged.filter((u) => !held.some((set) => set?.has(u)));
    expect(missing, `acknowledged writes on no replica after the primary died`).toEqual([]);
  };

  // 1. A replica dies and comes back (the other one keeps synchronous writes going).
  await kill(replicas[0]);
  await writer.more(15);
  replicas[0] = await procs.start(replicaArgs('r1'));
  await writer.more(15);

  // 2. The primary dies under load, and comes back on the same port.
  await kill(primary);
  await checkAcknowledgedOnReplicas();
  primary = await procs.start(primaryArgs);
  await writer.more(15);

  // 3. Both replicas die in turn (writes then time out: not acknowledged), and come back.
  await kill(replicas[1]);
  await writer.more(10);
  await kill(replicas[0]);
  replicas[1] = await procs.start(replicaArgs('r2'));
  replicas[0] = await procs.start(replicaArgs('r1'));
  await writer.more(15);

  // 4. The primary dies once more; again nothing acknowledged may be missing from the replicas.
  await kill(primary);
  await checkAcknowledgedOnReplicas();
  primary = await procs.start(primaryArgs);
  await writer.more(10);
  await writer.stop();

  const all = [primary, ...replicas];
  const fps = await converge(all, 60_000);
  if (new Set(fps).size !== 1) for (const s of all) console.error(s.stderr().slice(-3000));
  expect(new Set(fps).size, fps.join(' ')).toBe(1);
  const texts = await Promise.all(all.map(content));
  for (const text of texts) expect(text).toBe(texts[0]);
  const onPrimary = await uids(primary);
  expect(writer.acknowledged.filter((u) => !onPrimary?.has(u))).toEqual([]);
  expect(writer.acknowledged.length).toBeGreaterThanOrEqual(100);

  // 5. Promote r1; the old primary and r2 follow it; writing continues on r1.
  const promoted = await query(replicas[0], 'CALL graphdb.replication.promote()');
  expect(promoted.rows).toEqual([{ previous_role: 'replica', role: 'primary' }]);
  const newPrimary = replicas[0];
  for (const follower of [primary, replicas[1]]) {
    const r = await query(follower, `CALL graphdb.replication.demote('${urlOf(newPrimary)}')`);
    expect(r.ok).toBe(true);
  }
  expect((await query(primary, "CREATE (:Item {uid: 'late'})")).code).toBe('READ_ONLY');
  const after = new Writer(() => newPrimary, `t${t}-after-`);
  writers.push(after);
  after.start();
  await after.more(20);
  await after.stop();
  const followers = [newPrimary, primary, replicas[1]];
  const fps2 = await converge(followers, 60_000);
  expect(new Set(fps2).size, fps2.join(' ')).toBe(1);
  const texts2 = await Promise.all(followers.map(content));
  for (const text of texts2) expect(text).toBe(texts2[0]);
  const held = await uids(primary);
  expect([...writer.acknowledged, ...after.acknowledged].filter((u) => !held?.has(u))).toEqual([]);
  const status = await query(newPrimary, 'CALL db.replicationStatus() YIELD name, state RETURN name, state ORDER BY name');
  expect(status.rows.map((r) => r.name).sort()).toEqual(['primary', 'r2']);
  expect((await position(newPrimary))?.fingerprint).toBe((await position(primary))?.fingerprint);

  for (const s of followers) await s.stop();
  for (const name of ['p', 'r1', 'r2']) fs.rmSync(dir(name), { recursive: true, force: true });
  // One line per trial, so a long run shows its progress.
  console.log(`replication trial ${t}: ${writer.acknowledged.length + after.acknowledged.length} acknowledged, ${writer.failed.length} refused or timed out, ${Date.now() - started} ms`);
}

describe('replication between graphdb processes', () => {
  for (let t = 0; t < TRIALS; t++) {
    it(`primary + 2 replicas survive SIGKILLs, converge, lose no acknowledged write, and fail over (trial ${t + 1} of ${TRIALS})`, () => trial(t), 300_000);
  }
});

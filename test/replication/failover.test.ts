/**
 * Role changes and fencing between separate `graphdb` processes on loopback, each on a fixed
 * port and data directory so it can be restarted with its original command line:
 *
 * - A replica is promoted while the old primary still runs: the promotion starts a new
 *   replication term, the old primary is told and fenced (its writes are refused with
 *   READ_ONLY), and the other replica, streaming from the old primary, is sent on to the new
 *   one and converges with it while writes continue there.
 * - After SIGKILL and a restart with the original options (`--replication-role primary`,
 *   `--replica-of <old primary>`), every process comes back in the role the transitions set:
 *   the old primary fenced, the promoted replica primary, the redirected replica following
 *   the new primary. `--replication-reset-role` gives the command line back its say.
 * - A replica that has seen the newer term, pointed at a primary of an older term, is
 *   refused and says it must be re-pointed; that primary, having heard of the newer term
 *   from the replica, is fenced.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpawnedServers } from '../server/helpers.js';
import { content, converge, freePort, kill, Processes, query, SECRET, uids, until, Writer } from './harness.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-replication-failover-'));
const procs = new Processes();

afterAll(() => {
  procs.killAll();
  fs.rmSync(root, { recursive: true, force: true });
});

const COMMON = ['--replication-secret', SECRET];

/** walTailing() as a field → value map. */
async function facts(s: SpawnedServers): Promise<Record<string, string>> {
  const r = await query(s, 'CALL graphdb.replication.walTailing() YIELD field, value RETURN field, value');
  return Object.fromEntries(r.rows.map((row) => [row.field, row.value]));
}

async function contract(s: SpawnedServers): Promise<{ mode: string; writes_enabled: string }> {
  const r = await query(s, 'CALL graphdb.replication.contract() YIELD mode, writes_enabled RETURN mode, writes_enabled');
  return r.rows[0] as { mode: string; writes_enabled: string };
}

function keptRole(dir: string): { term: number; kept?: { role: string; primary?: string; setBy: string } } {
  return JSON.parse(fs.readFileSync(path.join(dir, 'replication', 'role.json'), 'utf8')) as { term: number; kept?: { role: string; primary?: string; setBy: string } };
}

describe('promotion, fencing and kept roles between graphdb processes', () => {
  it('fences the old primary, moves its replicas to the new one, and keeps every role across restarts', async () => {
    const dir = (name: string): string => path.join(root, name);
    const [pPort, r1Port, r2Port] = [await freePort(), await freePort(), await freePort()];
    const pUrl = `http://127.0.0.1:${pPort}`;
    const r1Url = `http://127.0.0.1:${r1Port}`;
    const pArgs = ['--data-dir', dir('p'), '--http', String(pPort), '--replication-role', 'primary', ...COMMON];
    const replicaArgs = (name: string, port: number): string[] => ['--data-dir', dir(name), '--http', String(port), '--replica-of', pUrl, '--replica-name', name, ...COMMON];

    let p = await procs.start(pArgs);
    let r1 = await procs.start(replicaArgs('r1', r1Port));
    let r2 = await procs.start(replicaArgs('r2', r2Port));
    const before = new Writer(() => p, 'before-');
    before.start();
    await before.more(20);
    await before.stop();
    expect(new Set(await converge([p, r1, r2], 60_000)).size).toBe(1);
    expect((await facts(p)).term).toBe('0');

    // Promote r1 while p still runs and r2 still streams from p.
    expect((await query(r1, 'CALL graphdb.replication.promote()')).rows).toEqual([{ previous_role: 'replica', role: 'primary' }]);
    expect((await facts(r1)).term).toBe('1');
    expect(keptRole(dir('r1'))).toMatchObject({ term: 1, kept: { role: 'primary', setBy: 'promote' } });

    // p hears of term 1 and is fenced: its writes are refused with READ_ONLY, naming the term and the new primary.
    expect(await until(async () => (await contract(p))?.mode === 'fenced', 30_000)).toBe(true);
    expect(await contract(p)).toEqual({ mode: 'fenced', writes_enabled: 'false' });
    const refused = await fetch(`${pUrl}/query`, { method: 'POST', body: "CREATE (:Item {uid: 'on-old-primary'})" });
    expect(refused.status).toBe(409);
    const refusal = (await refused.json()) as { code: string; message: string };
    expect(refusal.code).toBe('READ_ONLY');
    expect(refusal.message).toContain('term 1');
    expect(refusal.message).toContain(r1Url);
    expect(keptRole(dir('p'))).toMatchObject({ term: 1, kept: { role: 'fenced', primary: r1Url, setBy: 'fence' } });

    // r2 is sent on to r1 and follows it while writes continue there.
    expect(await until(async () => (await facts(r2)).primary === r1Url, 30_000)).toBe(true);
    const after = new Writer(() => r1, 'after-');
    after.start();
    await after.more(20);
    await after.stop();
    const fps = await converge([r1, r2], 60_000);
    expect(new Set(fps).size, fps.join(' ')).toBe(1);
    expect(await content(r2)).toBe(await content(r1));
    const onR2 = await uids(r2);
    expect([...before.acknowledged, ...after.acknowledged].filter((u) => !onR2?.has(u))).toEqual([]);
    expect((await facts(r2)).term).toBe('1');
    expect(keptRole(dir('r2'))).toMatchObject({ term: 1, kept: { role: 'replica', primary: r1Url, setBy: 'redirect' } });

    // SIGKILL all three and restart each with its original command line: the kept roles win.
    for (const s of [p, r1, r2]) await kill(s);
    p = await procs.start(pArgs);
    r1 = await procs.start(replicaArgs('r1', r1Port));
    r2 = await procs.start(replicaArgs('r2', r2Port));
    expect(p.stderr()).toContain('starting as fenced');
    expect(await contract(p)).toEqual({ mode: 'fenced', writes_enabled: 'false' });
    expect((await query(p, "CREATE (:Item {uid: 'still-refused'})")).code).toBe('READ_ONLY');
    expect(await contract(r1)).toEqual({ mode: 'primary', writes_enabled: 'true' });
    expect((await query(r1, "CREATE (:Item {uid: 'after-restart'})")).ok).toBe(true);
    expect(await contract(r2)).toEqual({ mode: 'replica', writes_enabled: 'false' });
    expect((await facts(r2)).primary).toBe(r1Url);
    const fps2 = await converge([r1, r2], 60_000);
    expect(new Set(fps2).size, fps2.join(' ')).toBe(1);

    // The old primary follows the new one (demote): its content becomes r1's; the kept role is now replica of r1.
    expect((await query(p, `CALL graphdb.replication.demote('${r1Url}')`)).rows).toEqual([{ previous_role: 'fenced', role: 'replica' }]);
    const fps3 = await converge([r1, r2, p], 60_000);
    expect(new Set(fps3).size, fps3.join(' ')).toBe(1);
    expect(keptRole(dir('p'))).toMatchObject({ term: 1, kept: { role: 'replica', primary: r1Url, setBy: 'demote' } });

    // A primary of an older term (a fresh directory, term 0): a replica that has seen term 1 is refused
    // there and says so, and that primary, hearing of term 1 from it, is fenced.
    const stalePort = await freePort();
    const stale = await procs.start(['--data-dir', dir('stale'), '--http', String(stalePort), '--replication-role', 'primary', ...COMMON]);
    expect((await query(stale, "CREATE (:Item {uid: 'stale-write'})")).ok).toBe(true);
    expect((await query(r2, `CALL graphdb.replication.demote('http://127.0.0.1:${stalePort}')`)).ok).toBe(true);
    expect(await until(async () => (await facts(r2)).state === 'refused', 30_000)).toBe(true);
    expect((await facts(r2)).last_error).toContain('term');
    expect((await contract(stale)).mode).toBe('fenced');
    expect((await query(stale, "CREATE (:Item {uid: 'stale-again'})")).code).toBe('READ_ONLY');
    expect((await query(r2, "MATCH (n:Item {uid: 'stale-write'}) RETURN n")).rows).toEqual([]);
    expect((await query(r2, `CALL graphdb.replication.demote('${r1Url}')`)).ok).toBe(true);
    const fps4 = await converge([r1, r2], 60_000);
    expect(new Set(fps4).size, fps4.join(' ')).toBe(1);

    // --replication-reset-role: the command line decides again; the term stays.
    await kill(stale);
    const reset = await procs.start(['--data-dir', dir('stale'), '--http', String(stalePort), '--replication-role', 'primary', '--replication-reset-role', ...COMMON]);
    expect(await contract(reset)).toEqual({ mode: 'primary', writes_enabled: 'true' });
    expect((await facts(reset)).term).toBe('1');
    expect(keptRole(dir('stale')).kept).toBeUndefined();
    for (const s of [p, r1, r2, reset]) await s.stop();
  }, 300_000);
});

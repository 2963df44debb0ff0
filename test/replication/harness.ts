/**
 * Helpers for the replication tests: `graphdb` processes on loopback (spawned through
 * test/server/helpers.ts), queries over HTTP, each process's position and fingerprint
 * (graphdb.replication.walTailing), its content as sorted text, and bounded polling.
 */

import * as net from 'node:net';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';

export const SECRET = 'replication-test-secret';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export class Processes {
  private readonly running = new Set<SpawnedServers>();

  async start(args: string[]): Promise<SpawnedServers> {
    const s = await spawnGraphdb(args);
    this.running.add(s);
    s.child.once('exit', () => this.running.delete(s));
    return s;
  }

  killAll(): void {
    for (const s of this.running) s.child.kill('SIGKILL');
  }

  /** SIGKILLs every process still running and waits until each has exited. */
  async killAllAndWait(): Promise<void> {
    await Promise.all([...this.running].map(kill));
  }
}

export const urlOf = (s: SpawnedServers): string => `http://127.0.0.1:${s.ports.http}`;

export interface Answer {
  ok: boolean;
  code?: string;
  rows: Record<string, string>[];
}

export async function query(s: SpawnedServers, q: string, timeoutMs = 20_000): Promise<Answer> {
  try {
    const res = await fetch(`${urlOf(s)}/query`, { method: 'POST', body: q, signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json()) as { rows?: Record<string, string>[]; code?: string };
    return { ok: res.ok, code: body.code, rows: body.rows ?? [] };
  } catch {
    return { ok: false, rows: [] };
  }
}

/** mutation_seq and fingerprint from graphdb.replication.walTailing(). */
export async function position(s: SpawnedServers): Promise<{ seq: string; fingerprint: string } | undefined> {
  const r = await query(s, 'CALL graphdb.replication.walTailing() YIELD field, value RETURN field, value');
  if (!r.ok) return undefined;
  const get = (f: string): string => r.rows.find((row) => row.field === f)?.value ?? '';
  return { seq: get('mutation_seq'), fingerprint: get('fingerprint') };
}

/** Every node and relationship as sorted text: equal text means equal content. */
export async function content(s: SpawnedServers): Promise<string> {
  const nodes = await query(s, 'MATCH (n) RETURN labels(n) AS l, properties(n) AS p');
  const rels = await query(s, 'MATCH (a)-[r]->(b) RETURN a.uid AS a, type(r) AS t, properties(r) AS p, b.uid AS b');
  if (!nodes.ok || !rels.ok) return '<unavailable>';
  return [...nodes.rows, ...rels.rows].map((r) => JSON.stringify(r)).sort().join('\n');
}

export async function kill(s: SpawnedServers): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    s.child.once('exit', () => resolve());
    s.child.kill('SIGKILL');
  });
}

export const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it is true or `ms` pass; returns whether it became true. */
export async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await pause(200);
  }
  return check();
}

/** Waits until every process reports the same position and fingerprint as the first; returns the fingerprints seen last. */
export async function converge(all: SpawnedServers[], ms: number): Promise<string[]> {
  let seen: string[] = [];
  await until(async () => {
    const ps = await Promise.all(all.map(position));
    seen = ps.map((p) => (p ? `${p.seq}/${p.fingerprint}` : 'unavailable'));
    return ps.every((p) => p !== undefined) && new Set(seen).size === 1;
  }, ms);
  return seen;
}

/** A steady writer: one write after another to whatever `target()` is, recording the acknowledged ones. */
export class Writer {
  readonly acknowledged: string[] = [];
  readonly failed: string[] = [];
  private stopped = false;
  private loop: Promise<void> | undefined;
  private n = 0;

  constructor(
    private readonly target: () => SpawnedServers,
    private readonly prefix: string,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const uid = `${this.prefix}${++this.n}`;
        const r = await query(this.target(), `CREATE (:Item {uid: '${uid}', n: ${this.n}})`, 15_000);
        if (r.ok) this.acknowledged.push(uid);
        else {
          this.failed.push(uid);
          await pause(50);
        }
      }
    })();
  }

  /**
   * Resolves once `count` more writes have been acknowledged. `ms` only catches a hang: it
   * throws there rather than let the trial go on as if the writes had happened.
   */
  async more(count: number, ms = 120_000): Promise<void> {
    const goal = this.acknowledged.length + count;
    if (!(await until(async () => this.acknowledged.length >= goal, ms))) {
      throw new Error(`the writer got ${this.acknowledged.length} of ${goal} acknowledgements in ${ms} ms (${this.failed.length} refused or timed out)`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }
}

/** The uids present on `s`. */
export async function uids(s: SpawnedServers): Promise<Set<string> | undefined> {
  const r = await query(s, 'MATCH (n:Item) RETURN n.uid AS uid');
  return r.ok ? new Set(r.rows.map((row) => row.uid)) : undefined;
}

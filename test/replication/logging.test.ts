/**
 * Replication says what it is doing (issue 28): the role (and a replica's primary) at start,
 * each change of a replica's connection state, and an auth failure at the replica once per
 * state change with the fix, not on every retry; `graphdb query` refuses the replication
 * options as docs/REPLICATION.md says. Real HTTP on loopback, real processes for the CLI.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import { attachReplication } from '../../src/replication/cli-options.js';
import { DEFAULT_SYNC_TIMEOUT_MS, type ReplicationSettings } from '../../src/replication/settings.js';
import { runCli } from '../cli/run-cli.js';
import { pause, until } from './harness.js';

const SECRET = 'logging-secret';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function settings(over: Partial<ReplicationSettings>): ReplicationSettings {
  return { role: 'standalone', mode: 'async', factor: 1, name: 'r', syncTimeoutMs: DEFAULT_SYNC_TIMEOUT_MS, ringSize: 1000, secret: SECRET, log: () => undefined, ...over };
}

async function primary(log: string[]): Promise<string> {
  const db = Database.openInMemory();
  const manager = attachReplication(db, settings({ role: 'primary', name: 'primary', log: (l) => void log.push(l) }));
  const server = await startHttpServer(db, { port: 0, host: '127.0.0.1', log: () => undefined });
  cleanups.push(() => db.close(), () => manager.close(), () => server.close());
  return `http://127.0.0.1:${server.port}`;
}

function replica(url: string, secret: string, log: string[]): void {
  const db = Database.openInMemory();
  const manager = attachReplication(db, settings({ role: 'replica', primaryUrl: url, name: 'r1', secret, log: (l) => void log.push(l) }));
  cleanups.push(() => db.close(), () => manager.close());
}

describe('replication logging', () => {
  it('logs the role at start, and a replica logs its primary and each state change', async () => {
    const primaryLog: string[] = [];
    const url = await primary(primaryLog);
    expect(primaryLog[0]).toMatch(/^graphdb: replication: role primary \(replication term \d+, async\)/);
    const log: string[] = [];
    replica(url, SECRET, log);
    expect(log).toContain(`graphdb: replication: role replica of ${url} (replication term 0, name r1); writes are refused with READ_ONLY`);
    expect(log).toContain(`graphdb: replica r1: connecting to the primary ${url}`);
    await until(async () => log.some((l) => l.includes('→ streaming')), 20_000);
    expect(log.find((l) => l.includes('→ streaming'))).toMatch(new RegExp(`^graphdb: replica r1: (connecting|snapshot) → streaming \\(primary ${url}\\)$`));
  });

  it('logs a refused secret once, with the fix, however often the replica retries', async () => {
    const url = await primary([]);
    const log: string[] = [];
    replica(url, 'wrong-secret', log);
    await until(async () => log.some((l) => l.includes('HTTP 401')), 20_000);
    await pause(1500); // several retries (backoff from 100 ms)
    const auth = log.filter((l) => l.includes('HTTP 401'));
    expect(auth).toHaveLength(1);
    expect(auth[0]).toMatch(/^graphdb: replica r1: the primary refused the stream \(HTTP 401\).*: the primary refused this replica's secret; start the replica with the primary's --replication-secret/);
  });
});

describe('graphdb query', () => {
  it('refuses the replication options, as docs/REPLICATION.md says', () => {
    for (const args of [['--replica-of', 'http://127.0.0.1:1'], ['--replication-role', 'primary']]) {
      const r = runCli(['query', 'RETURN 1', ...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('graphdb: the replication options apply to the servers');
    }
  });
});

/**
 * Query workers under node flags: the worker threads inherit the flags the process was started
 * with, including V8 flags (`--expose-gc`) that an explicit worker `execArgv` would have been
 * refused for, so a server started that way still runs its queries on workers.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from './helpers.js';

describe('query workers under node flags', () => {
  let servers: SpawnedServers | undefined;
  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--workers', '2'], ['--expose-gc', '--stack-size=4000', '--max-old-space-size=2000']);
  }, 30_000);
  afterAll(async () => {
    await servers?.stop();
  });

  it('starts every worker and answers through them', async () => {
    expect(servers!.stderr()).toContain('2 query worker threads');
    expect(servers!.stderr()).not.toContain('cannot start the query workers');
    const base = `http://127.0.0.1:${servers!.ports.http}`;
    const write = await fetch(`${base}/query`, { method: 'POST', body: "CREATE (:F {k: 'flags'})" });
    expect(write.status).toBe(200);
    const read = await fetch(`${base}/query`, { method: 'POST', body: 'MATCH (f:F) RETURN f.k AS k' });
    expect(((await read.json()) as { rows: unknown[] }).rows).toEqual([{ k: 'flags' }]);
  }, 30_000);
});

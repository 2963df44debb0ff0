/**
 * Health probes are exempt from the HTTP connection limit (issue 26): with one client holding
 * the limit's worth of sockets (1 024) on the real binary, /health, /livez, /ready and
 * /readyz still answer 200, while any other request beyond the limit gets the 503 refusal;
 * and the listen queue is deep enough that opening those sockets at once drops no probe's SYN.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/server/limits.js';
import { spawnGraphdb, type SpawnedServers } from './helpers.js';

let server: SpawnedServers;
const held: Socket[] = [];

function request(path: string): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port: server.ports.http, path, agent: false, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer in 5 s`)));
    req.on('error', reject);
  });
}

beforeAll(async () => {
  server = await spawnGraphdb(['--http', '0', '--workers', '0']);
  await Promise.all(
    Array.from(
      { length: DEFAULT_LIMITS.maxConnections },
      () =>
        new Promise<void>((resolve, reject) => {
          const s = connect(server.ports.http!, '127.0.0.1', () => resolve());
          s.on('error', reject);
          held.push(s);
        }),
    ),
  );
  // Let the server accept every one of them.
  await new Promise((r) => setTimeout(r, 500));
}, 30_000);

afterAll(async () => {
  for (const s of held) s.destroy();
  await server?.stop();
});

describe('probes past the HTTP connection limit (real binary)', () => {
  it('a query past the limit is refused with 503', async () => {
    const r = await request('/query?q=RETURN%201');
    expect(r.status).toBe(503);
    expect(r.body).toMatch(/TOO_MANY_CONNECTIONS/);
  });

  it('/health, /livez, /ready and /readyz still answer 200, each on a closed connection', async () => {
    for (const path of ['/health', '/livez', '/ready', '/readyz', '/health?verbose=1']) {
      const r = await request(path);
      expect(r.status, path).toBe(200);
      expect(r.connection).toBe('close');
    }
    // Many probes in a row: each frees its reserved slot.
    for (let i = 0; i < 40; i++) expect((await request('/health')).status).toBe(200);
  });

  // ss (iproute2) reads the queue's size; a machine without it cannot check this.
  // Under CI (.ci/run installs iproute2) a missing ss fails the test instead of skipping it.
  it.skipIf(!process.env.CI && !existsSync('/usr/bin/ss') && !existsSync('/bin/ss'))("the listen queue holds a burst of the limit's worth of connects, so a probe's SYN is not dropped meanwhile", () => {
    // With Node's default queue (511), opening the 1 024 sockets at once overflowed it and a
    // probe arriving then waited a second for its SYN to be sent again (the attack matrix's find).
    // For a listening socket, ss reports the queue's size as Send-Q.
    const line = execFileSync('ss', ['-ltnH', `sport = :${server.ports.http}`], { encoding: 'utf8' }).trim();
    const sendQ = Number(line.split(/\s+/)[2]);
    expect(sendQ, line).toBeGreaterThanOrEqual(Math.min(2 * DEFAULT_LIMITS.maxConnections, Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'))));
  });
});

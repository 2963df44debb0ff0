/**
 * `--tx-timeout` on the real binary (bin/graphdb.js, after `npm run build`): an explicit
 * transaction idle past it is rolled back (TCP door, with the query workers of a server), and a
 * value that is not a number of milliseconds is a usage error.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { GRAPHDB_BIN, spawnGraphdb, type SpawnedServers } from './helpers.js';

let servers: SpawnedServers | undefined;
afterAll(async () => {
  await servers?.stop();
});

/** Sends `lines` one at a time on one connection, each after the previous answer, pausing `pauseMs` before the line at `pauseAt`. */
function converseInTurn(port: number, lines: string[], pauseAt: number, pauseMs: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const answers: Record<string, unknown>[] = [];
    let buffer = '';
    const next = (): void => {
      const i = answers.length;
      if (i === lines.length) {
        socket.end();
        resolve(answers);
        return;
      }
      setTimeout(() => socket.write(lines[i] + '\n'), i === pauseAt ? pauseMs : 0);
    };
    socket.on('connect', next);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        answers.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
        buffer = buffer.slice(nl + 1);
        next();
      }
    });
  });
}

describe('--tx-timeout', () => {
  it('rolls back a transaction idle past it', async () => {
    servers = await spawnGraphdb(['--serve', '0', '--workers', '1', '--tx-timeout', '200']);
    const answers = await converseInTurn(servers.ports.tcp!, ['BEGIN', 'CREATE (:Idle)', 'RETURN 1 AS one', 'MATCH (n:Idle) RETURN count(n) AS c'], 2, 600);
    expect(answers[0]).toEqual({ transaction: 'open', mode: 'write' });
    expect(answers[2]).toMatchObject({ error: true, code: 'TX_TIMEOUT' });
    expect(answers[3]).toEqual({ columns: ['c'], rows: [{ c: '0' }] });
  }, 30_000);

  it('refuses a value that is not a number of milliseconds', async () => {
    const code = await new Promise<number>((resolve) => {
      execFile(process.execPath, [GRAPHDB_BIN, '--serve', '0', '--tx-timeout', 'soon'], { timeout: 20_000 }, (err) => resolve(err ? Number((err as { code?: number }).code) : 0));
    });
    expect(code).toBe(2);
  }, 30_000);
});

/**
 * A replica does not trust its primary with its memory (issue 26): a fake primary (a small
 * HTTP server here speaking the replication stream of src/replication/protocol.ts) serves a
 * real `bin/graphdb.js --replica-of` process a snapshot with node id 4e9, a snapshot whose
 * entity lies outside the ids it announced, and a batch creating node id 4e9. Each time the
 * replica refuses before allocating, logs the refusal, reports it in db.replicationStatus(),
 * stays small, and exits promptly on SIGTERM.
 */

import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ACK_PATH, STREAM_PATH } from '../../src/replication/protocol.js';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';

afterAll(removeTempDirs);

/** A primary that answers every stream request with `lines`, then pings until the replica hangs up. */
async function fakePrimary(lines: (from: number) => (object | string)[]): Promise<{ url: string; streams: () => number; close: () => Promise<void> }> {
  let streams = 0;
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === ACK_PATH) {
      req.resume();
      res.end('{}');
      return;
    }
    if (url.pathname !== STREAM_PATH) {
      res.statusCode = 404;
      res.end();
      return;
    }
    streams++;
    open.add(res);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    // A string is written as it is (no line end added); an object as one JSON line.
    for (const m of lines(Number(url.searchParams.get('from') ?? 0))) res.write(typeof m === 'string' ? m : JSON.stringify(m) + '\n');
    const ping = setInterval(() => res.write(JSON.stringify({ t: 'ping', n: 0, seq: 0 }) + '\n'), 500);
    res.on('close', () => {
      clearInterval(ping);
      open.delete(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    streams: () => streams,
    close: () =>
      new Promise<void>((r) => {
        for (const res of open) res.destroy();
        server.close(() => r());
      }),
  };
}

const hello = { t: 'hello', epoch: 'fake', term: 1, mode: 'async', n: 0, seq: 0, fingerprint: 'fake' };
const meta = (over: object): object => ({ mutationSeq: 2, generation: 1, nextNodeId: 1, nextRelId: 0, nodeCount: 1, relCount: 0, schema: null, ...over });

let replica: SpawnedServers | undefined;
let primary: Awaited<ReturnType<typeof fakePrimary>> | undefined;

afterEach(async () => {
  if (replica && replica.child.exitCode === null && replica.child.signalCode === null) replica.child.kill('SIGKILL');
  replica = undefined;
  await primary?.close();
  primary = undefined;
});

async function status(s: SpawnedServers): Promise<Record<string, string>> {
  const res = await fetch(`http://127.0.0.1:${s.ports.http}/query`, { method: 'POST', body: 'CALL db.replicationStatus() YIELD state, last_error RETURN state, last_error' });
  const body = (await res.json()) as { rows: Record<string, string>[] };
  return body.rows[0];
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

async function refusedBy(lines: (from: number) => (object | string)[], expected: RegExp): Promise<void> {
  primary = await fakePrimary(lines);
  const dir = tempDir('graphdb-hostile-');
  replica = await spawnGraphdb(['--data-dir', dir, '--http', '0', '--replica-of', primary.url, '--replica-name', 'r1', '--workers', '0']);
  let row: Record<string, string> = {};
  for (let i = 0; i < 100; i++) {
    row = await status(replica);
    if (row.state === 'refused') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(row.state).toBe('refused');
  expect(row.last_error).toMatch(/Refused the primary's replication stream/);
  expect(row.last_error).toMatch(expected);
  expect(replica.stderr()).toMatch(/replica r1: Refused the primary's replication stream/);
  expect(rssBytes(replica.child.pid!)).toBeLessThan(600 * 1024 * 1024);
  // It goes on asking (the primary may be fixed), and stays small doing so.
  const before = primary.streams();
  for (let i = 0; i < 60 && primary.streams() === before; i++) await new Promise((r) => setTimeout(r, 100));
  expect(rssBytes(replica.child.pid!)).toBeLessThan(600 * 1024 * 1024);
  const started = Date.now();
  const code = await replica.stop();
  expect(Date.now() - started).toBeLessThan(5000);
  expect(code).toBe(0);
}

describe('a replica refuses what a hostile primary sends (real process, fake primary)', () => {
  it('a snapshot announcing node ids up to 4e9', async () => {
    await refusedBy(
      () => [hello, { t: 'snapshot', meta: meta({ nextNodeId: 4e9 + 1 }) }, { t: 'node', e: { id: 4e9, labels: ['X'], props: [] } }, { t: 'snapshotEnd', n: 0 }],
      /nextNodeId 4000000001/,
    );
  }, 30_000);

  it('a snapshot entity with id 4e9 outside the ids it announced', async () => {
    await refusedBy(
      () => [hello, { t: 'snapshot', meta: meta({}) }, { t: 'node', e: { id: 4e9, labels: ['X'], props: [] } }, { t: 'snapshotEnd', n: 0 }],
      /node with id 4000000000, outside the ids below 1/,
    );
  }, 30_000);

  it('a snapshot announcing more ids than the memory of this machine allows', async () => {
    await refusedBy(() => [hello, { t: 'snapshot', meta: meta({ nextNodeId: 2 ** 31 - 1, nextRelId: 2 ** 31 - 1 }) }], /this machine's memory allows a replica/);
  }, 30_000);

  it('a streamed batch creating node id 4e9', async () => {
    await refusedBy(
      (from) => [hello, { t: 'batch', n: 1, before: from, after: from + 1, at: Date.now(), changes: [{ op: 'createNode', id: 4e9, labels: ['X'], props: [] }] }],
      /a batch creates an entity with id 4000000000/,
    );
  }, 30_000);

  it('a line longer than the stream allows (no line end in 70 MB)', async () => {
    const long = '{"t":"node","e":"' + 'x'.repeat(70 * 1024 * 1024);
    await refusedBy(() => [hello, { t: 'snapshot', meta: meta({}) }, long], /a line is longer than 67108864 characters/);
  }, 60_000);
});

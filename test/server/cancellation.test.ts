/**
 * Queries off the event loop, through the real `graphdb` process and real clients: while a
 * long read or write runs, probes and short reads on other connections are answered (a long
 * read delays them by less than 50 ms); and every way a client can give up stops its query —
 * an HTTP client that disconnects (fetch aborted), a TCP
 * connection reset, psql's CancelRequest (Ctrl-C), an MCP client's notifications/cancelled
 * (the SDK's AbortSignal), and Ctrl-C in the shell on a terminal (a pty made by `script`).
 *
 * The servers run with one query worker and a two-minute query time limit, so a query that
 * was not stopped would hold the only worker far longer than these tests' own time limits:
 * the short read that follows each cancellation can only be answered if it worked.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import { execFile, execFileSync, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { GRAPHDB_BIN, MCP_BIN, spawnGraphdb, type SpawnedServers } from './helpers.js';

/** Checks its deadline all along, and runs for minutes. */
const LONG = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c';
const SHORT = "MATCH (c:City {name: 'Lisbon'}) RETURN c.name AS name";
/** A write that counts for minutes (checking its deadline) before it creates its one node. */
const LONG_WRITE = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y WITH count(*) AS c CREATE (:Never {c: c})';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function httpQuery(port: number, query: string, signal?: AbortSignal): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', body: query, signal });
  return { status: res.status, body: await res.text() };
}

/** A long read over HTTP: `settled()` tells whether it has ended; `stop()` disconnects and waits for it. */
function longHttpRead(port: number): { settled: () => boolean; stop: () => Promise<unknown> } {
  const gone = new AbortController();
  let settled = false;
  const long = httpQuery(port, LONG, gone.signal)
    .catch((err: unknown) => err)
    .finally(() => (settled = true));
  return {
    settled: () => settled,
    stop: () => {
      gone.abort();
      return long;
    },
  };
}

/** The real binary with its three doors, `workers` query workers and a two-minute query limit, for one describe block. */
function serversWith(workers: number): () => SpawnedServers {
  let servers: SpawnedServers | undefined;
  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--serve', '0', '--pg', '0', '--workers', String(workers), '--query-timeout', '120000', '--playground']);
  }, 30_000);
  afterAll(async () => {
    await servers?.stop();
  });
  return () => servers!;
}

/** One query over TCP; resolves with the answer line. */
function tcpQuery(port: number, query: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(query + '\n'));
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      if (text.includes('\n')) {
        socket.destroy();
        resolve(text.trim());
      }
    });
    socket.on('error', reject);
  });
}

function psql(port: number, query: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'test', '-X', '-At', '-c', query], { timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('one query worker: every cancellation path frees it', () => {
  const running = serversWith(1);

  it('an HTTP client that disconnects stops its query', async () => {
    const port = running().ports.http!;
    const gone = new AbortController();
    const long = httpQuery(port, LONG, gone.signal).catch((err: unknown) => err);
    await sleep(500);
    gone.abort();
    expect(await long).toBeInstanceOf(Error);
    const short = await httpQuery(port, SHORT);
    expect(short.status).toBe(200);
    expect(JSON.parse(short.body).rows).toEqual([{ name: 'Lisbon' }]);
  }, 20_000);

  it('an HTTP client that disconnects stops its query sent as a JSON body with parameters (the web console\'s Stop)', async () => {
    const port = running().ports.http!;
    const gone = new AbortController();
    const long = fetch(`http://127.0.0.1:${port}/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'UNWIND range(1, $n) AS x UNWIND range(1, $n) AS y RETURN count(*) AS c', params: { n: 10000000 } }),
      signal: gone.signal,
    }).catch((err: unknown) => err);
    await sleep(500);
    gone.abort();
    expect(await long).toBeInstanceOf(Error);
    const short = await httpQuery(port, SHORT);
    expect(JSON.parse(short.body).rows).toEqual([{ name: 'Lisbon' }]);
  }, 20_000);

  it('a TCP connection reset stops its query', async () => {
    const socket = connect(running().ports.tcp!, '127.0.0.1', () => socket.write(LONG + '\n'));
    socket.on('error', () => undefined);
    await sleep(500);
    socket.resetAndDestroy();
    const answer = JSON.parse(await tcpQuery(running().ports.tcp!, SHORT));
    expect(answer.rows).toEqual([{ name: 'Lisbon' }]);
  }, 20_000);

  it("psql's cancel request (Ctrl-C) stops the statement with SQLSTATE 57014, and the session's next statement runs", async () => {
    const child = spawn('psql', ['-h', '127.0.0.1', '-p', String(running().ports.pg!), '-U', 'test', '-X', '-At', '-v', 'ON_ERROR_STOP=0', '-c', LONG, '-c', SHORT], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    // psql sends a cancel request only while its statement runs: give it time to connect and send it.
    await sleep(1500);
    child.kill('SIGINT');
    await exited;
    expect(stderr).toMatch(/Cancel request sent/);
    expect(stderr).toMatch(/cancelled/);
    const after = await psql(running().ports.pg!, SHORT);
    expect(after.stdout.trim()).toBe('Lisbon');
  }, 20_000);

  it('/health, /ready and short reads on other connections answer while a long read runs', async () => {
    const port = running().ports.http!;
    const long = longHttpRead(port);
    await sleep(300);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/ready`);
    expect((await ready.json()) as object).toMatchObject({ status: 'ready' });
    // A write runs on the main thread while the only worker is busy, and is seen by the next read.
    const write = await httpQuery(port, "CREATE (:Probe {at: 'during'})");
    expect(write.status).toBe(200);
    expect(long.settled()).toBe(false);
    await long.stop();
    const read = await httpQuery(port, 'MATCH (p:Probe) RETURN p.at AS at');
    expect(JSON.parse(read.body).rows).toEqual([{ at: 'during' }]);
  }, 20_000);
});

describe('two query workers', () => {
  const running = serversWith(2);

  it('a long read on one connection does not hold up short reads on HTTP, TCP and PG', async () => {
    const servers = running();
    const long = longHttpRead(servers.ports.http!);
    await sleep(300);
    for (let i = 0; i < 5; i++) {
      expect(JSON.parse((await httpQuery(servers.ports.http!, SHORT)).body).rows).toEqual([{ name: 'Lisbon' }]);
      expect(JSON.parse(await tcpQuery(servers.ports.tcp!, SHORT)).rows).toEqual([{ name: 'Lisbon' }]);
      expect((await psql(servers.ports.pg!, SHORT)).stdout.trim()).toBe('Lisbon');
    }
    expect(long.settled()).toBe(false);
    await long.stop();
  }, 30_000);

  it('a long read delays short reads on other HTTP and TCP connections by less than 50 ms', async () => {
    const servers = running();
    /** Round trips of 20 short reads, each on a new connection, alternating HTTP and TCP. */
    const roundTrips = async (): Promise<number[]> => {
      const out: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        if (i % 2 === 0) expect(JSON.parse((await httpQuery(servers.ports.http!, SHORT)).body).rows).toEqual([{ name: 'Lisbon' }]);
        else expect(JSON.parse(await tcpQuery(servers.ports.tcp!, SHORT)).rows).toEqual([{ name: 'Lisbon' }]);
        out.push(performance.now() - t);
      }
      return out.sort((a, b) => a - b);
    };
    // Warm-up: both workers and the main thread compile the query first.
    await Promise.all(Array.from({ length: 8 }, () => httpQuery(servers.ports.http!, SHORT)));
    const alone = await roundTrips();
    const long = longHttpRead(servers.ports.http!);
    await sleep(300);
    const beside = await roundTrips();
    expect(long.settled()).toBe(false);
    await long.stop();
    // Against the same reads without the long one: the median, the 90th percentile and the slowest.
    expect(beside[10] - alone[10]).toBeLessThan(50);
    expect(beside[18] - alone[18]).toBeLessThan(50);
    expect(beside[19] - alone[19]).toBeLessThan(50);
  }, 30_000);

  it('a long write runs off the main thread: probes and reads answer meanwhile, and psql\'s cancel request stops it leaving nothing', async () => {
    const servers = running();
    const child = spawn('psql', ['-h', '127.0.0.1', '-p', String(servers.ports.pg!), '-U', 'test', '-X', '-At', '-c', LONG_WRITE], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await sleep(1000);
    expect((await fetch(`http://127.0.0.1:${servers.ports.http!}/health`)).status).toBe(200);
    expect(JSON.parse((await httpQuery(servers.ports.http!, SHORT)).body).rows).toEqual([{ name: 'Lisbon' }]);
    expect(JSON.parse(await tcpQuery(servers.ports.tcp!, SHORT)).rows).toEqual([{ name: 'Lisbon' }]);
    child.kill('SIGINT');
    await exited;
    expect(stderr).toMatch(/cancelled/);
    expect((await psql(servers.ports.pg!, 'MATCH (n:Never) RETURN count(n) AS c')).stdout.trim()).toBe('0');
  }, 30_000);
});

describe('graphdb-mcp: notifications/cancelled stops the call', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'graphdb-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--workers', '1', '--query-timeout', '120000'], stderr: 'pipe' }));
  }, 30_000);
  afterAll(async () => client?.close());

  it('a cancelled read_query stops, and the next call is answered', async () => {
    const stop = new AbortController();
    const long = client.callTool({ name: 'read_query', arguments: { cypher: LONG } }, undefined, { signal: stop.signal, timeout: 200_000 }).catch((err: unknown) => err);
    await sleep(800);
    stop.abort('the user gave up');
    expect(await long).toBeInstanceOf(Error);
    const next = (await client.callTool({ name: 'read_query', arguments: { cypher: 'RETURN 1 AS one' } })) as { content: { text: string }[] };
    expect(JSON.parse(next.content[0].text).rows).toEqual([{ one: '1' }]);
  }, 20_000);
});

describe('the shell on a terminal', () => {
  function scriptAvailable(): boolean {
    try {
      execFileSync('script', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  it('Ctrl-C stops a running query and the shell stays, with its in-memory graph', async () => {
    if (!scriptAvailable()) throw new Error('script (util-linux) is needed to give the shell a terminal');
    // `script` runs the shell on a pseudo-terminal and copies our bytes to it: \x03 is Ctrl-C.
    const child = spawn('script', ['-qfec', `${process.execPath} ${GRAPHDB_BIN}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', TERM: 'dumb' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const waitFor = async (pattern: RegExp, what: string): Promise<void> => {
      for (let i = 0; i < 200 && !pattern.test(out); i++) await sleep(50);
      if (!pattern.test(out)) throw new Error(`the shell never showed ${what}; output so far:\n${out}`);
    };
    try {
      await waitFor(/graphdb> /, 'its prompt');
      child.stdin.write("CREATE (:Kept {v: 'still here'});\r");
      await waitFor(/Nodes created: 1|1 node/i, 'the write');
      child.stdin.write(LONG + ';\r');
      await sleep(1000);
      child.stdin.write('\x03');
      await waitFor(/stopping the query/, 'the stop notice');
      await waitFor(/CANCELLED|cancelled/, 'the cancellation error');
      child.stdin.write('MATCH (k:Kept) RETURN k.v AS v;\r');
      await waitFor(/still here/, 'the graph after the cancellation');
      child.stdin.write(':quit\r');
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});

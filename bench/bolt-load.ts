/**
 * Bolt beside the line TCP door under load (report only; issue 29's goal: Bolt within 1.2×
 * the TCP door's per-query cost, ≥ 20k point reads/s with 64 sessions on 2 cores). Starts the
 * built `graphdb --bolt 0 --serve 0` on an in-memory graph of NODES :Person nodes with DEGREE
 * :KNOWS each (id indexed), then for each query (point: a point lookup, twohop: a 2-hop
 * count; random ids among IDS distinct ones, inline in the text on both doors so the plan
 * cache behaves the same) runs CONNS clients for SECS seconds on each door — neo4j-driver
 * sessions (one connection each) over Bolt, raw sockets over TCP — each sending its next
 * query when the last is answered, and prints queries/s and latency percentiles. A third run,
 * `raw`, speaks Bolt over raw sockets (RUN and PULL in one write, the answer's summary
 * awaited): the server's Bolt cost without the driver's, which shares the same cores. Each
 * line also gives the CPU spent per query by the client (this process) and by the server (from
 * /proc, Linux only): per-query cost that a loaded machine's throughput hides.
 *
 *   npm run build && node dist/bench/bolt-load.js
 *   NODES=20000 CONNS=64 SECS=5 WORKERS=2 node dist/bench/bolt-load.js
 *   GRAPHDB_BINS='/tmp/before/bin/graphdb.js bin/graphdb.js' node dist/bench/bolt-load.js
 *   SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' node dist/bench/bolt-load.js
 */

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { chunked } from '../src/server/bolt/chunking.js';
import { Packer, Structure } from '../src/server/bolt/packstream.js';

const NODES = Number(process.env.NODES ?? 20000);
const DEGREE = Number(process.env.DEGREE ?? 5);
const CONNS = Number(process.env.CONNS ?? 64);
const SECS = Number(process.env.SECS ?? 5);
const IDS = Number(process.env.IDS ?? 500);
const WORKERS = process.env.WORKERS;
/** Extra node flags for the server process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it). */
const SERVER_NODE_ARGS = (process.env.SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
const BIN = fileURLToPath(new URL('../../bin/graphdb.js', import.meta.url));
/** Servers to compare in one run (space-separated `graphdb.js` paths, e.g. a build of another commit); default: this one. */
/** Which runs to make (space-separated among tcp, bolt, raw); default all. */
const RUNS = new Set((process.env.RUNS ?? 'tcp bolt raw').split(' '));
const BINS = (process.env.GRAPHDB_BINS ?? BIN).split(' ').filter((b) => b !== '');

const QUERIES: Record<string, (id: number) => string> = {
  point: (id) => `MATCH (p:Person {id: ${id}}) RETURN p.name AS name`,
  twohop: (id) => `MATCH (p:Person {id: ${id}})-[:KNOWS]->()-[:KNOWS]->(f) RETURN count(DISTINCT f) AS fof`,
};

interface Run {
  count: number;
  latencies: number[];
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** CPU time (user + system) the process `pid` has used, in µs; NaN where /proc is not there. */
function serverCpuMicros(pid: number | undefined): number {
  try {
    // Fields 14 and 15 (utime, stime) in clock ticks, counted after the parenthesised command name.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

async function report(door: string, query: string, serverPid: number | undefined, go: () => Promise<Run>): Promise<void> {
  const client0 = process.cpuUsage();
  const server0 = serverCpuMicros(serverPid);
  const run = await go();
  const client = process.cpuUsage(client0);
  const server = serverCpuMicros(serverPid) - server0;
  const sorted = run.latencies.sort((a, b) => a - b);
  const perQuery = (micros: number): string => (micros / run.count).toFixed(0).padStart(4);
  console.log(
    `${query.padEnd(7)} ${door.padEnd(5)} ${CONNS} clients: ${(run.count / SECS).toFixed(0).padStart(7)} q/s  p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p99 ${percentile(sorted, 0.99).toFixed(2)} ms` +
      `  cpu/query: client ${perQuery(client.user + client.system)} µs, server ${perQuery(server)} µs`,
  );
}

async function start(bin: string): Promise<{ stop(): void; bolt: number; tcp: number; pid: number | undefined }> {
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, bin, '--bolt', '0', '--serve', '0', ...(WORKERS === undefined ? [] : ['--workers', WORKERS])], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('graphdb: serving')) resolve();
    });
    child.once('exit', () => reject(new Error(err)));
  });
  const port = (re: RegExp): number => Number(re.exec(err)![1]);
  return { pid: child.pid, stop: () => child.kill('SIGTERM'), bolt: port(/Bolt server listening on bolt:\/\/[^:]+:(\d+)/), tcp: port(/TCP server listening on [^:]+:(\d+)/) };
}

async function boltRun(port: number, make: (id: number) => string, secs = SECS): Promise<Run> {
  const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic('u', 'x'), { maxConnectionPoolSize: CONNS });
  const run: Run = { count: 0, latencies: [] };
  const deadline = performance.now() + secs * 1000;
  await Promise.all(
    Array.from({ length: CONNS }, async () => {
      const session = driver.session();
      try {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          await session.run(make(Math.floor(Math.random() * IDS)));
          run.latencies.push(performance.now() - t0);
          run.count++;
        }
      } finally {
        await session.close();
      }
    }),
  );
  await driver.close();
  return run;
}

/** One TCP client: a query per line, the answer one line. */
function tcpClient(port: number): Promise<{ ask(q: string): Promise<void>; close(): void }> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let pending: (() => void) | undefined;
    let buffered = '';
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => {
      buffered += d.toString('utf8');
      const nl = buffered.indexOf('\n');
      if (nl >= 0) {
        buffered = buffered.slice(nl + 1);
        const done = pending;
        pending = undefined;
        done?.();
      }
    });
    socket.once('error', reject);
    socket.once('connect', () =>
      resolve({
        ask: (q) =>
          new Promise<void>((done) => {
            pending = done;
            socket.write(q + '\n');
          }),
        close: () => socket.destroy(),
      }),
    );
  });
}

async function tcpRun(port: number, make: (id: number) => string, secs = SECS): Promise<Run> {
  const run: Run = { count: 0, latencies: [] };
  const deadline = performance.now() + secs * 1000;
  const clients = await Promise.all(Array.from({ length: CONNS }, () => tcpClient(port)));
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await c.ask(make(Math.floor(Math.random() * IDS)));
        run.latencies.push(performance.now() - t0);
        run.count++;
      }
      c.close();
    }),
  );
  return run;
}

/** Bolt by hand: one RUN+PULL pipeline per query, answered once the PULL's summary (the second SUCCESS or a FAILURE) is in. */
function rawBoltClient(port: number): Promise<{ ask(q: string): Promise<void>; close(): void }> {
  const packer = new Packer();
  const message = (tag: number, fields: ConstructorParameters<typeof Structure>[1]): Buffer => {
    packer.pack(new Structure(tag, fields));
    return chunked(packer.take());
  };
  const SUCCESS = 0x70;
  const FAILURE = 0x7f;
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let pending: (() => void) | undefined;
    let buffered: Buffer = Buffer.alloc(0);
    let summaries = 0;
    let handshaken = false;
    let wanted = 2; // HELLO and LOGON
    socket.on('data', (d: Buffer) => {
      buffered = buffered.length === 0 ? d : Buffer.concat([buffered, d]);
      if (!handshaken) {
        if (buffered.length < 4) return;
        handshaken = true;
        buffered = buffered.subarray(4);
      }
      // Only each message's first chunk is looked at: its second byte is the tag.
      let at = 0;
      let first = true;
      while (buffered.length - at >= 2) {
        const n = buffered.readUInt16BE(at);
        if (buffered.length - at < 2 + n) break;
        if (n === 0) first = true;
        else if (first) {
          first = false;
          const tag = buffered[at + 3];
          if (tag === SUCCESS || tag === FAILURE) summaries++;
        }
        at += 2 + n;
      }
      buffered = buffered.subarray(at);
      if (summaries >= wanted) {
        summaries = 0;
        const done = pending;
        pending = undefined;
        done?.();
      }
    });
    socket.once('error', reject);
    const ask = (bytes: Buffer, expect: number): Promise<void> =>
      new Promise<void>((done) => {
        pending = done;
        wanted = expect;
        socket.write(bytes);
      });
    socket.once('connect', () => {
      const hello = Buffer.from([0x60, 0x60, 0xb0, 0x17, 0, 0, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
      const meta = new Map([['user_agent', 'bench/1']]);
      const auth = new Map([['scheme', 'basic'], ['principal', 'u'], ['credentials', 'x']]);
      void ask(Buffer.concat([hello, message(0x01, [meta]), message(0x6a, [auth])]), 2).then(() =>
        resolve({
          ask: (q) => ask(Buffer.concat([message(0x10, [q, new Map(), new Map()]), message(0x3f, [new Map([['n', 1000]])])]), 2),
          close: () => socket.destroy(),
        }),
      );
    });
  });
}

async function rawBoltRun(port: number, make: (id: number) => string, secs = SECS): Promise<Run> {
  const run: Run = { count: 0, latencies: [] };
  const clients = await Promise.all(Array.from({ length: CONNS }, () => rawBoltClient(port)));
  const deadline = performance.now() + secs * 1000;
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        await c.ask(make(Math.floor(Math.random() * IDS)));
        run.latencies.push(performance.now() - t0);
        run.count++;
      }
      c.close();
    }),
  );
  return run;
}

async function main(bin: string): Promise<void> {
  const server = await start(bin);
  try {
    const driver = neo4j.driver(`bolt://127.0.0.1:${server.bolt}`, neo4j.auth.basic('u', 'x'));
    console.error(`seeding ${NODES} :Person nodes, ${DEGREE} :KNOWS each`);
    await driver.executeQuery('CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)');
    await driver.executeQuery(`UNWIND range(0, ${NODES} - 1) AS i CREATE (:Person {id: i, name: 'person ' + toString(i)})`);
    for (let k = 1; k <= DEGREE; k++) {
      await driver.executeQuery(`MATCH (a:Person) WITH a, (a.id * 7919 + ${k} * 104729) % ${NODES} AS j MATCH (b:Person {id: j}) CREATE (a)-[:KNOWS]->(b)`);
    }
    await driver.close();
    console.log(`${bin}: graphdb --bolt/--serve, workers: ${WORKERS ?? 'default'}, ${NODES} nodes, ${SECS} s per run`);
    for (const [name, make] of Object.entries(QUERIES)) {
      // Every text compiled on every worker first, through both doors, so neither run pays for it.
      await tcpRun(server.tcp, make, 1);
      await boltRun(server.bolt, make, 1);
      if (RUNS.has('tcp')) await report('tcp', name, server.pid, () => tcpRun(server.tcp, make));
      if (RUNS.has('bolt')) await report('bolt', name, server.pid, () => boltRun(server.bolt, make));
      if (RUNS.has('raw')) await report('raw', name, server.pid, () => rawBoltRun(server.bolt, make));
    }
  } finally {
    server.stop();
  }
}

for (const bin of BINS) await main(bin);

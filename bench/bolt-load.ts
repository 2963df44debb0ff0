/**
 * Bolt beside the line TCP door under load (report only; issue 29's goal: Bolt within 1.2×
 * the TCP door's per-query cost, ≥ 20k point reads/s with 64 sessions on 2 cores). Starts the
 * built `graphdb --bolt 0 --serve 0` on an in-memory graph of NODES :Person nodes with DEGREE
 * :KNOWS each (id indexed), then for each query (point: a point lookup, twohop: a 2-hop
 * count; random ids among IDS distinct ones, inline in the text on both doors so the plan
 * cache behaves the same) runs CONNS clients for SECS seconds on each door — neo4j-driver
 * sessions (one connection each) over Bolt, raw sockets over TCP — each sending its next
 * query when the last is answered, and prints queries/s and latency percentiles.
 *
 *   npm run build && node dist/bench/bolt-load.js
 *   NODES=20000 CONNS=64 SECS=5 WORKERS=2 node dist/bench/bolt-load.js
 */

import { spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';

const NODES = Number(process.env.NODES ?? 20000);
const DEGREE = Number(process.env.DEGREE ?? 5);
const CONNS = Number(process.env.CONNS ?? 64);
const SECS = Number(process.env.SECS ?? 5);
const IDS = Number(process.env.IDS ?? 500);
const WORKERS = process.env.WORKERS;
const BIN = fileURLToPath(new URL('../../bin/graphdb.js', import.meta.url));

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

function report(door: string, query: string, run: Run): void {
  const sorted = run.latencies.sort((a, b) => a - b);
  console.log(`${query.padEnd(7)} ${door.padEnd(5)} ${CONNS} clients: ${(run.count / SECS).toFixed(0).padStart(7)} q/s  p50 ${percentile(sorted, 0.5).toFixed(2)} ms  p99 ${percentile(sorted, 0.99).toFixed(2)} ms`);
}

async function start(): Promise<{ stop(): void; bolt: number; tcp: number }> {
  const child = spawn(process.execPath, [BIN, '--bolt', '0', '--serve', '0', ...(WORKERS === undefined ? [] : ['--workers', WORKERS])], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('graphdb: serving')) resolve();
    });
    child.once('exit', () => reject(new Error(err)));
  });
  const port = (re: RegExp): number => Number(re.exec(err)![1]);
  return { stop: () => child.kill('SIGTERM'), bolt: port(/Bolt server listening on bolt:\/\/[^:]+:(\d+)/), tcp: port(/TCP server listening on [^:]+:(\d+)/) };
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

async function main(): Promise<void> {
  const server = await start();
  try {
    const driver = neo4j.driver(`bolt://127.0.0.1:${server.bolt}`, neo4j.auth.basic('u', 'x'));
    console.error(`seeding ${NODES} :Person nodes, ${DEGREE} :KNOWS each`);
    await driver.executeQuery('CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)');
    await driver.executeQuery(`UNWIND range(0, ${NODES} - 1) AS i CREATE (:Person {id: i, name: 'person ' + toString(i)})`);
    for (let k = 1; k <= DEGREE; k++) {
      await driver.executeQuery(`MATCH (a:Person) WITH a, (a.id * 7919 + ${k} * 104729) % ${NODES} AS j MATCH (b:Person {id: j}) CREATE (a)-[:KNOWS]->(b)`);
    }
    await driver.close();
    console.log(`graphdb --bolt/--serve, workers: ${WORKERS ?? 'default'}, ${NODES} nodes, ${SECS} s per run`);
    for (const [name, make] of Object.entries(QUERIES)) {
      // Every text compiled on every worker first, through both doors, so neither run pays for it.
      await tcpRun(server.tcp, make, 1);
      await boltRun(server.bolt, make, 1);
      report('tcp', name, await tcpRun(server.tcp, make));
      report('bolt', name, await boltRun(server.bolt, make));
    }
  } finally {
    server.stop();
  }
}

await main();

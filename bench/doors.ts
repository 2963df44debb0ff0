/**
 * HTTP reads per second with the door on the main thread alone (`--workers 0`), through the
 * query router's workers (`--workers N`, today's default), and with the workers serving the
 * door themselves (`--workers N --worker-doors`), in one run: each configuration is a real
 * `graphdb --http` process (the built binary: `npm run build` first) on the graph
 * bench/http-load.sh builds (NODES :Person, DEGREE :KNOWS each, id indexed), loaded by
 * CLIENTS generator threads holding CONNS keep-alive connections between them, sending
 * plain-text POST /query point lookups and 2-hop counts of random ids (IDS distinct ones).
 * Every answer is checked (status, and the lookup's name), and the answering threads are
 * counted from the x-graphdb-thread header. Each figure follows WARM seconds of the same load,
 * unmeasured (each thread has a plan cache of its own to fill). With worker doors, the latency
 * of one connection answered by each thread follows (sequential point lookups, threads in
 * turns). Configurations alternate ROUNDS times; the load
 * average is printed beside each figure (the generator shares the machine's cores).
 *
 *   npx tsx bench/doors.ts
 *   npx tsx bench/doors.ts --nodes 100000 --secs 10 --conns 64 --clients 4 --workers 15 --rounds 2
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const NODES = arg('nodes', 20_000);
const DEGREE = arg('degree', 5);
const SECS = arg('secs', 5);
const CONNS = arg('conns', 32);
const CLIENTS = arg('clients', 2);
const WORKERS = arg('workers', 2);
const IDS = arg('ids', 500);
const ROUNDS = arg('rounds', 1);
/** Seconds of unmeasured load before each figure: every thread compiles the texts that land on it (a plan cache each). */
const WARM = arg('warm', 3);
/** Sequential requests per connection and turn in the per-thread latency figure. */
const LATENCY_REQUESTS = arg('latency', 500);

// bench/doors.ts under tsx, or dist/bench/doors.js compiled: the package's bin either way.
const BIN = fileURLToPath(new URL(import.meta.url.includes('/dist/bench/') ? '../../bin/graphdb.js' : '../bin/graphdb.js', import.meta.url));

const CONFIGS: { name: string; args: string[] }[] = [
  { name: 'main thread (--workers 0)', args: ['--workers', '0'] },
  { name: `router (--workers ${WORKERS})`, args: ['--workers', String(WORKERS)] },
  { name: `worker doors (--workers ${WORKERS} --worker-doors)`, args: ['--workers', String(WORKERS), '--worker-doors'] },
];

const QUERIES = {
  point: 'MATCH (p:Person {id: ID}) RETURN p.name AS name',
  twohop: 'MATCH (p:Person {id: ID})-[:KNOWS]->()-[:KNOWS]->(f) RETURN count(DISTINCT f) AS fof',
};

/** One generator thread: `conns` closed-loop keep-alive connections for `secs`; counts answers, failures and answering threads. */
const GENERATOR = `
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
const { port, conns, secs, template, ids, point } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: conns });
let ok = 0, bad = 0, firstBad;
const threads = {};
const end = Date.now() + secs * 1000;
function one() {
  if (Date.now() >= end) return Promise.resolve();
  const id = Math.floor(Math.random() * ids);
  const body = template.replace('ID', String(id));
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/query', agent, headers: { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        const t = String(res.headers['x-graphdb-thread'] || 'main');
        threads[t] = (threads[t] || 0) + 1;
        const good = res.statusCode === 200 && (!point || text === JSON.stringify({ columns: ['name'], rows: [{ name: 'person ' + id }] }));
        if (good) ok++; else { bad++; firstBad = firstBad || (res.statusCode + ' ' + text.slice(0, 200)); }
        resolve();
      });
    });
    req.on('error', (e) => { bad++; firstBad = firstBad || e.message; resolve(); });
    req.end(body);
  }).then(one);
}
Promise.all(Array.from({ length: conns }, one)).then(() => { agent.destroy(); parentPort.postMessage({ ok, bad, firstBad, threads }); });
`;

interface Tally {
  ok: number;
  bad: number;
  firstBad?: string;
  threads: Record<string, number>;
}

function load(port: number, template: string, point: boolean, secs = SECS): Promise<Tally[]> {
  return Promise.all(
    Array.from({ length: CLIENTS }, (_, i) => {
      const conns = Math.floor(CONNS / CLIENTS) + (i < CONNS % CLIENTS ? 1 : 0);
      const w = new Worker(GENERATOR, { eval: true, workerData: { port, conns, secs, template, ids: IDS, point } });
      return new Promise<Tally>((resolve, reject) => {
        w.once('message', (t: Tally) => resolve(t));
        w.once('error', reject);
      });
    }),
  );
}

async function startServer(args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [BIN, '--http', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /HTTP server listening on http:\/\/[^:]+:(\d+)/.exec(err);
      if (m && err.includes('graphdb: serving')) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`graphdb exited with ${code}: ${err}`)));
  });
  return { child, port };
}

async function post(port: number, text: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', body: text });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${text}: ${res.status} ${body}`);
  return body;
}

async function seed(port: number): Promise<void> {
  await post(port, 'CREATE INDEX person_id IF NOT EXISTS FOR (p:Person) ON (p.id)');
  await post(port, `UNWIND range(0, ${NODES} - 1) AS i CREATE (:Person {id: i, name: 'person ' + toString(i)})`);
  for (let k = 1; k <= DEGREE; k++) {
    await post(port, `MATCH (a:Person) WITH a, (a.id * 7919 + ${k} * 104729) % ${NODES} AS j MATCH (b:Person {id: j}) CREATE (a)-[:KNOWS]->(b)`);
  }
  // Every thread warm: each query text compiled, the replicas caught up with the load.
  for (let id = 0; id < IDS; id++) await Promise.all(Object.values(QUERIES).map((q) => post(port, q.replace('ID', String(id)))));
}

/** One POST /query on `agent`'s connection: the answering thread and the body. */
function postOn(agent: Agent, port: number, text: string): Promise<{ thread: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/query', agent }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ thread: String(res.headers['x-graphdb-thread'] ?? 'main'), body }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/**
 * Latency of one keep-alive connection answered by each thread of a worker-doors server, in
 * turns (so the machine's load falls alike on each): the main thread's connection goes
 * through the router, a worker's is answered where it landed.
 */
async function perConnection(port: number): Promise<void> {
  const pinned = new Map<string, Agent>();
  for (let i = 0; i < 100 && pinned.size < WORKERS + 1; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { thread } = await postOn(agent, port, 'RETURN 1');
    if (pinned.has(thread)) agent.destroy();
    else pinned.set(thread, agent);
  }
  const text = (i: number): string => QUERIES.point.replace('ID', String(i % IDS));
  const micros = new Map<string, number[]>();
  for (let round = 0; round < 3; round++) {
    for (const [thread, agent] of pinned) {
      const t0 = performance.now();
      for (let i = 0; i < LATENCY_REQUESTS; i++) {
        const a = await postOn(agent, port, text(i));
        if (a.thread !== thread || !a.body.includes(`person ${i % IDS}`)) throw new Error(`unexpected answer on ${thread}'s connection: ${a.thread} ${a.body}`);
      }
      micros.set(thread, [...(micros.get(thread) ?? []), ((performance.now() - t0) * 1000) / LATENCY_REQUESTS]);
    }
  }
  for (const agent of pinned.values()) agent.destroy();
  console.log(`  one connection each, ${LATENCY_REQUESTS} sequential point lookups x 3 turns (µs per request; load avg ${loadavg()[0].toFixed(2)}):`);
  for (const [thread, v] of [...micros].sort()) console.log(`    ${thread.padEnd(10)} ${v.map((x) => x.toFixed(0)).join(' / ')}`);
}

const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

const results = new Map<string, number[]>();
console.log(`graph: ${NODES} :Person, ${DEGREE} :KNOWS each; ${CONNS} connections from ${CLIENTS} generator threads, ${SECS} s per figure, ${ROUNDS} round(s)`);
console.log(`${'configuration'.padEnd(48)} ${'query'.padEnd(7)} ${'req/s'.padStart(9)}  load avg  answered by`);
for (let round = 0; round < ROUNDS; round++) {
  for (const config of CONFIGS) {
    const { child, port } = await startServer(config.args);
    try {
      await seed(port);
      for (const [name, template] of Object.entries(QUERIES)) {
        if (WARM > 0) await load(port, template, name === 'point', WARM);
        const tallies = await load(port, template, name === 'point');
        const ok = tallies.reduce((s, t) => s + t.ok, 0);
        const bad = tallies.reduce((s, t) => s + t.bad, 0);
        const threads: Record<string, number> = {};
        for (const t of tallies) for (const [k, v] of Object.entries(t.threads)) threads[k] = (threads[k] ?? 0) + v;
        const rps = ok / SECS;
        const key = `${config.name}|${name}`;
        results.set(key, [...(results.get(key) ?? []), rps]);
        const spread = Object.entries(threads).sort().map(([k, v]) => `${k} ${Math.round((100 * v) / (ok + bad))}%`).join(', ');
        console.log(`${config.name.padEnd(48)} ${name.padEnd(7)} ${rps.toFixed(0).padStart(9)}  ${loadavg()[0].toFixed(2).padStart(8)}  ${spread}`);
        if (bad > 0) {
          console.log(`  ${bad} failed answers, first: ${tallies.find((t) => t.firstBad)?.firstBad}`);
          process.exitCode = 1;
        }
      }
      if (config.args.includes('--worker-doors')) await perConnection(port);
    } finally {
      await stop(child);
    }
  }
}
console.log('\nratios (mean of the rounds) against the main thread alone:');
for (const name of Object.keys(QUERIES)) {
  const mean = (c: string): number => {
    const v = results.get(`${c}|${name}`) ?? [];
    return v.reduce((s, x) => s + x, 0) / Math.max(1, v.length);
  };
  const base = mean(CONFIGS[0].name);
  console.log(`  ${name.padEnd(7)} ${CONFIGS.slice(1).map((c) => `${c.name}: ${(mean(c.name) / base).toFixed(2)}x`).join('; ')}`);
}

/**
 * Issue 26, "nothing holds the main thread without a bound", through the real `graphdb`
 * binary with its three doors and the default number of query workers. While each attack
 * runs, a probe process polls `/health` every 50 ms and the test fails if any answer takes
 * more than 250 ms (`freeze-probe.ts`); short queries over TCP and psql must answer too.
 *
 * Before the fix each attack held the main thread for seconds (until the query time limit,
 * or for good): a read calling a primary-only procedure ran whole on the main thread (with a
 * backtracking regular expression, forever, deaf to SIGTERM); a read proved cheap stayed
 * there when its data made it expensive; results nested thousands deep never answered; results
 * over the row limit were moved whole to the main thread before being refused.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_MS } from '../../src/cli/serve.js';
import { withoutFreeze } from './freeze-probe.js';
import { spawnGraphdb, stopSpawned, type SpawnedServers } from './helpers.js';

/** The servers' query time limit: long enough for every attack to be glaring before the fix. */
const TIME_LIMIT_MS = 4000;
const SHORT = "MATCH (c:City {name: 'Lisbon'}) RETURN c.name AS name";
/** Counts for minutes, checking its deadline all along. */
const COUNT_FOR_MINUTES = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y';
/** Polynomial backtracking (a backreference after ten `(.*)`, which the shape test lets through): on 60 characters, half an hour or more. */
const BACKTRACKING = `'${'a'.repeat(60)}' =~ '${'(.*)'.repeat(10)}\\\\1x'`;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function httpQuery(port: number, query: string, signal?: AbortSignal): Promise<{ status: number; body: { code?: string; rows?: unknown[] } }> {
  const res = await fetch(`http://127.0.0.1:${port}/query`, { method: 'POST', body: query, signal });
  return { status: res.status, body: (await res.json()) as { code?: string; rows?: unknown[] } };
}

function tcpQuery(port: number, query: string): Promise<{ code?: string; rows?: unknown[] }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(query + '\n'));
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString('utf8');
      if (text.includes('\n')) {
        socket.destroy();
        resolve(JSON.parse(text.trim()) as { code?: string; rows?: unknown[] });
      }
    });
    socket.on('error', reject);
  });
}

function psql(port: number, query: string): Promise<string> {
  return new Promise((resolve) => {
    execFile('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'test', '-X', '-At', '-c', query], { timeout: 20_000 }, (_err, stdout, stderr) => resolve(stdout.trim() || stderr.trim()));
  });
}

/** How long `work` takes, in ms. */
async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** Short queries over TCP and psql, answered while an attack runs: each within a second. */
async function otherDoorsAnswer(s: SpawnedServers): Promise<void> {
  const tcp = await timed(() => tcpQuery(s.ports.tcp!, SHORT));
  expect(tcp.value.rows).toEqual([{ name: 'Lisbon' }]);
  expect(tcp.ms).toBeLessThan(1000);
  const pg = await timed(() => psql(s.ports.pg!, SHORT));
  expect(pg.value).toBe('Lisbon');
  // psql itself starts in about 100 ms.
  expect(pg.ms).toBeLessThan(1500);
}

function spawnServers(timeLimitMs = TIME_LIMIT_MS): Promise<SpawnedServers> {
  return spawnGraphdb(['--http', '0', '--serve', '0', '--pg', '0', '--query-timeout', String(timeLimitMs), '--playground'], [], { defaultWorkers: true });
}


describe('main-thread freeze: attacks through the doors, default workers', () => {
  let s: SpawnedServers | undefined;
  beforeAll(async () => {
    s = await spawnServers();
  }, 30_000);
  afterAll(() => stopSpawned(s), 20_000);
  const servers = (): SpawnedServers => s!;

  it('a read calling a primary-only procedure runs on a worker: the doors answer while it runs to its time limit', async () => {
    const { http } = servers().ports;
    const { value } = await withoutFreeze(http!, async () => {
      const long = httpQuery(http!, `CALL db.info() YIELD id ${COUNT_FOR_MINUTES} RETURN id, count(*) AS c`);
      await sleep(300);
      await otherDoorsAnswer(servers());
      return long;
    });
    expect(value.body.code).toBe('TIMEOUT');
  }, 30_000);

  it('the procedure part still comes from the primary: db.info(), db.indexes(), a filtered vector search, skills.run and graph_rag answer through a worker', async () => {
    const { http, tcp } = servers().ports;
    const info = await httpQuery(http!, "CALL db.info() YIELD name MATCH (c:City {name: 'Lisbon'}) RETURN name, c.name AS city");
    expect(info.body.rows).toEqual([{ name: 'neo4j', city: 'Lisbon' }]);
    await httpQuery(http!, 'CREATE VECTOR INDEX freezeVec FOR (n:Vec) ON (n.e) OPTIONS {indexConfig: {`vector.dimensions`: 2}}');
    await httpQuery(http!, "UNWIND range(1, 20) AS i CREATE (:Vec {i: i, e: [toFloat(i), 1.0], odd: i % 2 = 1})");
    await httpQuery(http!, 'CREATE INDEX freezeIdx FOR (n:Vec) ON (n.i)');
    await httpQuery(http!, 'CALL db.awaitIndex("freezeVec")');
    const indexes = await tcpQuery(tcp!, "CALL db.indexes() YIELD name WHERE name = 'freezeIdx' RETURN name");
    expect(indexes.rows).toEqual([{ name: 'freezeIdx' }]);
    // The rest of the query (the MATCH from the found nodes, the YIELD … WHERE) runs on the worker, over its replica's nodes.
    const found = await httpQuery(
      http!,
      "CALL db.index.vector.queryNodes('freezeVec', 3, [1.0, 0.0]) YIELD node, score WHERE node.odd MATCH (c:City {name: 'Lisbon'}) RETURN node.i AS i, c.name AS city ORDER BY i",
    );
    expect(found.status).toBe(200);
    // The three nearest of the odd ones, by cosine similarity to [1, 0] (integers come as text over HTTP).
    expect(found.body.rows).toEqual([15, 17, 19].map((i) => ({ i: String(i), city: 'Lisbon' })));
    // skills.run takes the skill from the primary and runs its query on the worker; graph_rag runs on the primary for it.
    await httpQuery(http!, "CALL skills.register('city', 'finds a city', 'MATCH (c:City {name: $name}) RETURN c.name AS name', {parameters: {name: 'STRING'}})");
    const skill = await tcpQuery(tcp!, "CALL skills.run('city', {name: 'Lisbon'}) YIELD value MATCH (c:City {name: value.name}) RETURN value.name AS name");
    expect(skill.rows).toEqual([{ name: 'Lisbon' }]);
    expect((await tcpQuery(tcp!, "CALL skills.run('none', {}) YIELD value RETURN value")).code).toBe('PROCEDURE_ERR');
    const rag = await httpQuery(http!, "CALL graphdb.rag.retrieve('Lisbon', {k: 1}) YIELD name RETURN name");
    expect(rag.body.rows).toEqual([{ name: 'Lisbon' }]);
  }, 30_000);

  it('a read calling a primary-only procedure with a backtracking regex ends at its time limit, and the doors answer meanwhile', async () => {
    const { http } = servers().ports;
    const { value } = await withoutFreeze(http!, async () => {
      const stuck = httpQuery(http!, `CALL db.info() YIELD id WITH id WHERE ${BACKTRACKING} RETURN id`);
      await sleep(300);
      await otherDoorsAnswer(servers());
      return stuck;
    });
    expect(value.body.code).toBe('TIMEOUT');
    // Its worker was replaced: the doors still run queries.
    expect((await httpQuery(http!, SHORT)).body.rows).toEqual([{ name: 'Lisbon' }]);
  }, 30_000);

  it('a read proved cheap that its data makes expensive is cut on the main thread and finishes on a worker', async () => {
    const { http } = servers().ports;
    const read = 'MATCH (k:Knob) UNWIND range(1, k.n) AS x UNWIND range(1, k.n) AS y RETURN count(*) AS c';
    await httpQuery(http!, 'CREATE (:Knob {n: 3})');
    // Cheap eight times: from then on the router runs it on the main thread. (Spaced out: a main
    // thread busy more than half of the last 50 ms sends even short reads to the workers.)
    for (let i = 0; i < 8; i++) {
      expect((await httpQuery(http!, read)).body.rows).toEqual([{ c: '9' }]);
      await sleep(60);
    }
    await httpQuery(http!, 'MATCH (k:Knob) SET k.n = 10000000');
    const { value } = await withoutFreeze(http!, async () => {
      await sleep(120);
      const expensive = httpQuery(http!, read);
      await sleep(300);
      await otherDoorsAnswer(servers());
      return expensive;
    });
    expect(value.body.code).toBe('TIMEOUT');
    await httpQuery(http!, 'MATCH (k:Knob) DELETE k');
  }, 30_000);

  it('a write proved cheap that its data makes expensive is cut on the main thread, rolled back, and runs on a worker', async () => {
    const { http } = servers().ports;
    const write = 'MATCH (k:WriteKnob) UNWIND range(1, k.n) AS x UNWIND range(1, k.n) AS y WITH k, count(*) AS c SET k.c = c RETURN c';
    await httpQuery(http!, 'CREATE (:WriteKnob {n: 3})');
    // Twelve cheap runs: the first on each worker compiles it, and a write's recent eight are judged with compilation in.
    for (let i = 0; i < 12; i++) {
      expect((await httpQuery(http!, write)).body.rows).toEqual([{ c: '9' }]);
      await sleep(60);
    }
    await httpQuery(http!, 'MATCH (k:WriteKnob) SET k.n = 10000000');
    const { value } = await withoutFreeze(http!, async () => {
      await sleep(120);
      const expensive = httpQuery(http!, write);
      await sleep(300);
      await otherDoorsAnswer(servers());
      return expensive;
    });
    expect(value.body.code).toBe('TIMEOUT');
    // Nothing of the stopped runs was applied.
    expect((await httpQuery(http!, 'MATCH (k:WriteKnob) RETURN k.c AS c')).body.rows).toEqual([{ c: '9' }]);
    await httpQuery(http!, 'MATCH (k:WriteKnob) DELETE k');
  }, 30_000);

  it('results nested thousands deep are refused with LIMIT_EXCEEDED at once, four at a time, on every door', async () => {
    const { http, tcp } = servers().ports;
    const deep = 'RETURN reduce(a = [], i IN range(1, 9000) | [a]) AS deep';
    const { value } = await withoutFreeze(http!, () => timed(() => Promise.all([1, 2, 3, 4].map(() => httpQuery(http!, deep)))));
    for (const answer of value.value) {
      expect(answer.status).toBe(413);
      expect(answer.body.code).toBe('LIMIT_EXCEEDED');
    }
    expect(value.ms).toBeLessThan(3000);
    expect((await tcpQuery(tcp!, deep)).code).toBe('LIMIT_EXCEEDED');
    // Nesting within the bound still answers.
    expect((await httpQuery(http!, 'RETURN reduce(a = [], i IN range(1, 100) | [a]) AS ok')).status).toBe(200);
    expect((await httpQuery(http!, SHORT)).body.rows).toEqual([{ name: 'Lisbon' }]);
  }, 30_000);

  it('results over the row limit are stopped on the worker as they pass it, four at a time', async () => {
    const { http } = servers().ports;
    const many = 'UNWIND range(1, 5000000) AS x RETURN x';
    const { value } = await withoutFreeze(http!, () => timed(() => Promise.all([1, 2, 3, 4].map(() => httpQuery(http!, many)))));
    for (const answer of value.value) {
      expect(answer.status).toBe(413);
      expect(answer.body.code).toBe('LIMIT_EXCEEDED');
    }
    expect(value.ms).toBeLessThan(TIME_LIMIT_MS);
    expect((await httpQuery(http!, SHORT)).body.rows).toEqual([{ name: 'Lisbon' }]);
  }, 30_000);
});

describe('SIGTERM while the worst query runs', () => {
  it('a server busy in a primary-only call with a backtracking regex exits within its grace', async () => {
    // A time limit far beyond the grace: the query does not end by itself before the process must.
    const s = await spawnServers(120_000);
    try {
      const stuck = httpQuery(s.ports.http!, `CALL db.info() YIELD id WITH id WHERE ${BACKTRACKING} RETURN id`).catch((err: unknown) => err);
      await sleep(500);
      const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)));
      const { ms } = await timed(async () => {
        s.child.kill('SIGTERM');
        await Promise.race([exited, sleep(20_000)]);
      });
      expect(s.child.exitCode !== null || s.child.signalCode !== null, s.stderr()).toBe(true);
      // The grace is the drain period, 5 s (src/cli/serve.ts DRAIN_MS), which the stuck query uses up; then its worker is stopped.
      expect(ms).toBeLessThan(DRAIN_MS + 3000);
      await stuck;
    } finally {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    }
  }, 40_000);

  it('with --workers 0 the backtracking regex on the main thread stops at the time limit, and SIGTERM then ends the process', async () => {
    const s = await spawnGraphdb(['--http', '0', '--workers', '0', '--query-timeout', '2000', '--playground']);
    try {
      const stuck = httpQuery(s.ports.http!, `RETURN ${BACKTRACKING} AS m`);
      await sleep(300);
      const exited = new Promise<number | null>((resolve) => s.child.once('exit', (code) => resolve(code)));
      const { ms } = await timed(async () => {
        s.child.kill('SIGTERM');
        await Promise.race([exited, sleep(20_000)]);
      });
      expect(s.child.exitCode !== null || s.child.signalCode !== null, s.stderr()).toBe(true);
      // The rest of the 2 s limit, then a drain with nothing left to wait for.
      expect(ms).toBeLessThan(2000 + 2000);
      expect((await stuck).body.code).toBe('TIMEOUT');
    } finally {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    }
  }, 40_000);
});

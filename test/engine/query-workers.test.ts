/**
 * The query worker pool and router in process: worker threads holding replicas answer reads
 * exactly as the primary does (every value type), writes are visible to every read that
 * starts after them, the replicas follow every commit path, a replica that falls out of
 * step is reloaded, readers run while another is busy, and a query is stopped by its
 * signal or — when it runs code that never checks — by replacing its thread.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { routedDatabase } from './routed-database.js';
import { codeOnly, isPointWrite, placement } from '../../src/engine/workers/query-kind.js';
import { formatValue } from '../../runtime/format.js';
import type { QueryResult } from '../../src/engine/types.js';

/** A regular expression the backtracking engine needs (a backreference) and cannot finish on this text: no deadline check runs inside it. */
const STUCK_QUERY = `RETURN '${'a'.repeat(300)}' =~ '(.*)(.*)(.*)(.*)(.*)\\\\1y' AS m`;
/** Runs for minutes, checking its deadline all the while. */
const LONG_QUERY = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c';

function shown(r: QueryResult): string[] {
  return r.records.map((row) => row.map((v) => formatValue(v)).join(' | '));
}

describe('query workers', () => {
  const { db, pool, router } = routedDatabase((seeded) => {
    seeded.executeSync(
      "UNWIND range(1, 2000) AS i CREATE (:P {id: i, name: 'p' + i, born: date('2000-01-01') + duration({days: i}), at: datetime('2020-01-01T10:00:00+02:00'), loc: point({x: i, y: 1.5}), f: 1.0 * i, big: 9007199254740993, tags: ['a', toString(i)]})",
    );
    seeded.executeSync('CREATE INDEX FOR (p:P) ON (p.id)');
    seeded.executeSync('MATCH (a:P), (b:P) WHERE b.id = a.id + 1 CREATE (a)-[:NEXT {w: a.id * 0.5, since: localdatetime("2021-03-04T05:06:07")}]->(b)');
  });

  it('answers reads exactly as the primary does, for every value type', async () => {
    const queries = [
      'MATCH (p:P {id: 7}) RETURN p',
      'MATCH (p:P {id: 7})-[r:NEXT]->(q) RETURN r, q.born, r.since, p.at, p.loc, p.f, p.big, p.tags, {k: p.id} AS m',
      'MATCH path = (p:P {id: 7})-[:NEXT*3]->() RETURN path',
      'MATCH (p:P) WHERE p.id % 500 = 0 RETURN p.id, p.f / 3, toString(p.born) ORDER BY p.id',
      'RETURN 1.0 AS one, -0.0 AS nz, 1e300 * 1e300 AS inf, 0.0 / 0.0 AS nan, [1, 2.5, null, {a: [true]}] AS l, duration("P1Y2M3DT4H") AS d, time("10:11:12+01:00") AS t',
      'MATCH (p:P) RETURN count(*) AS n, sum(p.id) AS s, avg(p.f) AS a',
    ];
    for (const q of queries) {
      const expected = db.executeSync(q);
      const got = await pool().run(q, undefined);
      expect(got.columns, q).toEqual(expected.columns);
      expect(shown(got), q).toEqual(shown(expected));
    }
  });

  it('passes parameters of every kind to the worker', async () => {
    const params = { id: 9, ids: [1, 2], m: { k: 'v' }, big: 2n ** 60n, f: 2.5 };
    const q = 'MATCH (p:P) WHERE p.id = $id OR p.id IN $ids RETURN p.id AS id, $m.k AS k, $big AS big, $f AS f ORDER BY id';
    expect(shown(await pool().run(q, params))).toEqual(shown(db.executeSync(q, params)));
  });

  it('makes each write visible to every read that starts after it', async () => {
    for (let i = 0; i < 30; i++) {
      await router().execute('MATCH (p:P {id: 1}) SET p.counter = $i', { i });
      const r = await router().execute('MATCH (p:P {id: 1}) RETURN p.counter AS c');
      expect(r.records).toEqual([[i]]);
    }
    // Both workers saw every write.
    const a = pool().run('MATCH (p:P {id: 1}) RETURN p.counter AS c', undefined);
    const b = pool().run('MATCH (p:P {id: 1}) RETURN p.counter AS c', undefined);
    expect((await a).records).toEqual([[29]]);
    expect((await b).records).toEqual([[29]]);
  });

  it('shows a read sent alongside a write the graph before the write or after it, never part of it', async () => {
    const write = router().execute('UNWIND range(1, 500) AS i CREATE (:Batch {i: i})');
    const read = router().execute('MATCH (b:Batch) RETURN count(b) AS c');
    expect((await write).stats.nodesCreated).toBe(500);
    expect([[[0]], [[500]]]).toContainEqual((await read).records);
    expect((await router().execute('MATCH (b:Batch) RETURN count(b) AS c')).records).toEqual([[500]]);
  });

  it('follows explicit transactions, write transactions and schema changes', async () => {
    await db.executeInTransaction([{ query: 'CREATE (:Tx {v: 1})' }, { query: 'CREATE (:Tx {v: 2})' }], { commit: true });
    db.writeTransaction((graph) => {
      graph.createNode(['Tx'], new Map([['v', 3]]));
    });
    await router().execute('CREATE INDEX FOR (t:Tx) ON (t.v)');
    const r = await pool().run('MATCH (t:Tx) RETURN t.v AS v ORDER BY v', undefined);
    expect(r.records).toEqual([[1], [2], [3]]);
  });

  it('reloads a replica that a change bypassing the commit observer left behind', async () => {
    // A direct graph transaction tells no observer: the workers must notice and catch up.
    db.graph.begin();
    db.graph.createNode(['Hidden'], new Map([['v', 1]]));
    db.graph.commit();
    const r = await pool().run('MATCH (h:Hidden) RETURN h.v AS v', undefined);
    expect(r.records).toEqual([[1]]);
  });

  it('runs a read that has proved short on the main thread, and sends it back to the workers once a run is long', async () => {
    const isolated = new QueryRouter(db, pool());
    const q = 'MATCH (p:P {id: $id}) RETURN p.name AS n';
    for (let i = 1; i <= 6; i++) expect((await isolated.execute(q, { id: i })).records).toEqual([[`p${i}`]]);
    // A text whose runs were short runs inline until one run is long; then it goes back to a worker, where a signal stops it.
    const grid = 'UNWIND range(1, $n) AS x UNWIND range(1, $n) AS y RETURN count(*) AS c';
    for (let i = 0; i < 4; i++) expect((await isolated.execute(grid, { n: 3 })).records).toEqual([[9]]);
    expect((await isolated.execute(grid, { n: 2000 })).records).toEqual([[4_000_000]]);
    const stop = new AbortController();
    const huge = isolated.execute(grid, { n: 10_000_000 }, { signal: stop.signal });
    await new Promise((r) => setTimeout(r, 200));
    stop.abort();
    await expect(huge).rejects.toMatchObject({ code: 'CANCELLED' });
  }, 30_000);

  it('tells which runs compiled their text on a worker, which the router leaves out of a text\'s timing', async () => {
    const text = 'MATCH (p:P {id: $id}) RETURN p.id * 7 AS sevenfold';
    const first = await pool().run(text, { id: 1 });
    expect(pool().compiledOnWorker(first)).toBe(true);
    // Eight at once reach both workers (each takes at most two at a time): only the other one compiles it now.
    const spread = await Promise.all(Array.from({ length: 8 }, (_, i) => pool().run(text, { id: i + 1 })));
    expect(spread.filter((r) => pool().compiledOnWorker(r)).length).toBeLessThanOrEqual(1);
    const warm = await Promise.all(Array.from({ length: 8 }, (_, i) => pool().run(text, { id: i + 1 })));
    expect(warm.some((r) => pool().compiledOnWorker(r))).toBe(false);
    expect(warm.map((r) => r.records[0][0])).toEqual([7, 14, 21, 28, 35, 42, 49, 56]);
  });

  it('sends SHOW, schema commands and primary-only procedures to the primary', async () => {
    const created = await router().execute('CREATE (:Routed) RETURN 1 AS one');
    expect(created.stats.nodesCreated).toBe(1);
    expect(db.executeSync('MATCH (r:Routed) RETURN count(r) AS c').records).toEqual([[1]]);
    expect((await router().execute('SHOW INDEXES')).records.length).toBeGreaterThan(0);
    expect((await router().execute('CALL dbms.components() YIELD name RETURN name')).records).toEqual(db.executeSync('CALL dbms.components() YIELD name RETURN name').records);
    // A read-only request that would write is refused, not rerouted.
    await expect(router().execute('CREATE (:No)', undefined, { readOnly: true })).rejects.toMatchObject({ detail: 'WriteInReadOnlyCall' });
  });

  it('answers vector and full-text queries from the primary, which alone builds those indexes', async () => {
    await router().execute("CREATE VECTOR INDEX pv FOR (p:Vec) ON (p.v) OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'euclidean'}}");
    await router().execute('CREATE FULLTEXT INDEX pt FOR (p:Vec) ON EACH [p.text]');
    await router().execute("UNWIND range(1, 50) AS i CREATE (:Vec {i: i, v: [toFloat(i), 0.0], text: 'item ' + toString(i)})");
    const near = await router().execute("CALL db.index.vector.queryNodes('pv', 2, [10.2, 0.0]) YIELD node RETURN node.i AS i");
    expect(near.records).toEqual([[10], [11]]);
    const found = await router().execute("CALL db.index.fulltext.queryNodes('pt', 'item AND 42') YIELD node RETURN node.i AS i");
    expect(found.records).toEqual([[42]]);
    // The workers follow the same writes without those indexes.
    expect((await pool().run('MATCH (p:Vec) RETURN count(p) AS c', undefined)).records).toEqual([[50]]);
  });

  it('reports compile and runtime errors with their code, text and position', async () => {
    await expect(pool().run('MATCH (n RETURN n', undefined)).rejects.toMatchObject({ code: 'COMPILE_ERR', position: { line: 1, column: 10 } });
    await expect(pool().run('RETURN 1 / 0 AS x', undefined)).rejects.toMatchObject({ code: 'ARITHMETIC_ERR' });
  });

  it('runs a short read while another worker is busy with a long one, and stops the long one on its signal', async () => {
    const stop = new AbortController();
    let longDone = false;
    const long = pool().run(LONG_QUERY, undefined, { signal: stop.signal }).finally(() => {
      longDone = true;
    });
    const short = await pool().run('MATCH (p:P {id: 3}) RETURN p.name AS n', undefined);
    expect(short.records).toEqual([['p3']]);
    expect(longDone).toBe(false);
    stop.abort();
    await expect(long).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('moves a query waiting behind a long one to a worker that becomes idle', async () => {
    const stop = new AbortController();
    let longDone = false;
    const long = pool().run(LONG_QUERY, undefined, { signal: stop.signal }).finally(() => {
      longDone = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    // Both workers hold one query now; the third waits behind one of them until the other is free.
    const shorts = await Promise.all([1, 2, 3].map((id) => pool().run('MATCH (p:P {id: $id}) RETURN p.name AS n', { id })));
    expect(shorts.map((r) => r.records[0][0])).toEqual(['p1', 'p2', 'p3']);
    expect(longDone).toBe(false);
    stop.abort();
    await expect(long).rejects.toMatchObject({ code: 'CANCELLED' });
  }, 30_000);

  it('replaces a worker stuck in code that never checks its deadline, and goes on answering', async () => {
    await expect(pool().run(STUCK_QUERY, undefined, { timeoutMs: 2000 })).rejects.toThrow(/time limit of 2000 ms.*worker thread was stopped and replaced/);
    // The replacement starts from the other worker's replica; a write made meanwhile reaches it too.
    await router().execute('CREATE (:AfterStuck)');
    for (let i = 0; i < 200 && pool().readyWorkers < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(pool().readyWorkers).toBe(2);
    const counts = await Promise.all(Array.from({ length: 8 }, () => pool().run('MATCH (a:AfterStuck) RETURN count(a) AS c', undefined)));
    expect(counts.map((r) => r.records[0][0])).toEqual(Array(8).fill(1));
    const answers = await Promise.all([1, 2, 3, 4].map((id) => pool().run('MATCH (p:P {id: $id}) RETURN p.name AS n', { id })));
    expect(answers.map((r) => r.records[0][0])).toEqual(['p1', 'p2', 'p3', 'p4']);
  }, 30_000);

  it('a cancelled query that never checks is stopped by replacing its thread', async () => {
    const stop = new AbortController();
    const stuck = pool().run(STUCK_QUERY, undefined, { signal: stop.signal, timeoutMs: 0 });
    setTimeout(() => stop.abort(), 200);
    await expect(stuck).rejects.toMatchObject({ code: 'CANCELLED', message: expect.stringMatching(/replaced/) });
    expect((await pool().run('RETURN 1 AS one', undefined)).records).toEqual([[1]]);
  }, 30_000);
});

describe('a cancel that arrives while the query compiles', () => {
  it('stops it with CANCELLED, not as a syntax error', () => {
    const db = Database.openInMemory();
    const words = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(words, 0, 7);
    const text = 'RETURN ' + Array.from({ length: 5000 }, (_, i) => `${i} AS c${i}`).join(', ');
    expect(() => db.executeSync(text, undefined, { cancel: { words, index: 0, ticket: 7 } })).toThrow(expect.objectContaining({ code: 'CANCELLED' }));
    // Another ticket in the word does not stop it.
    expect(db.executeSync(text, undefined, { cancel: { words, index: 0, ticket: 8 } }).records[0]).toHaveLength(5000);
    db.close();
  });
});

describe('query kind', () => {
  const db = Database.openInMemory();

  it('blanks strings, quoted names and comments', () => {
    expect(codeOnly("MATCH (n) WHERE n.s = 'CREATE' // DELETE\nRETURN `SET` /* MERGE */")).toBe('MATCH (n) WHERE n.s =          ' + ' '.repeat(9) + '\nRETURN ' + ' '.repeat(5) + ' ' + ' '.repeat(11));
  });

  it('sends reads and writes to workers, schema commands and non-read procedures to the primary', () => {
    const place = (q: string): string => placement(q, db.procedures);
    expect(place("MATCH (n {s: 'CREATE'}) RETURN n")).toBe('read');
    expect(place('CALL db.labels() YIELD label RETURN label')).toBe('read');
    expect(place('MATCH (n) SET n.x = 1')).toBe('write');
    expect(place('MATCH (n) DETACH DELETE n')).toBe('write');
    expect(place('UNWIND $rows AS r MERGE (p:P {id: r.id}) ON CREATE SET p.new = true')).toBe('write');
    expect(place('CREATE INDEX FOR (n:A) ON (n.x)')).toBe('primary');
    expect(place("create vector index v for (n:A) on (n.e) options {indexConfig: {`vector.dimensions`: 2}}")).toBe('primary');
    expect(place('DROP INDEX i')).toBe('primary');
    expect(place('SHOW PROCEDURES')).toBe('primary');
    expect(place('CALL db.checkpoint()')).toBe('primary');
    // Reads of what only the primary holds stay on a worker, which asks the primary for just that call's rows.
    expect(place("CALL db.index.vector.queryNodes('v', 3, [1.0])")).toBe('read');
    expect(place('CALL db.info() YIELD id RETURN id')).toBe('read');
    // Write procedures that change only the graph run on a worker as writes.
    expect(place('CALL apoc.create.node(["A"], {})')).toBe('write');
    expect(place("CALL algo.pageRank.write({writeProperty: 'pr'}) YIELD nodePropertiesWritten RETURN *")).toBe('write');
    expect(place("CALL algo.pageRank.stats({}) YIELD ranIterations RETURN ranIterations")).toBe('read');
    expect(place("CALL graphdb.embed.nodes({label: 'A', textProperty: 't', vectorProperty: 'v'})")).toBe('write');
    expect(place("CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'SET n.x = 1', {})")).toBe('primary');
    expect(place("MATCH (n) CALL db.create.setNodeVectorProperty(n, 'e', [1.0])")).toBe('primary');
  });

  it('tells writes that only create from given values', () => {
    for (const text of ["CREATE (:A {k: 1})", 'CREATE (a:A {k: $k})-[:R {w: 0.5}]->(b:B) RETURN id(a) AS id', "create (:A {s: 'MATCH (n) | x IN y'}) // UNWIND"]) {
      expect(isPointWrite(text), text).toBe(true);
    }
    for (const text of [
      'MATCH (a:A) CREATE (a)-[:R]->(:B)',
      'MERGE (:A {k: 1})',
      'UNWIND range(1, 10) AS i CREATE (:A {i: i})',
      'CREATE (:A {xs: range(1, 100000000)})',
      'CREATE (:A {xs: [x IN $list WHERE x > 1]})',
      'CREATE (:A {n: size([(a)-->(b) | b])})',
      'CREATE (:A {n: COUNT { (x)-->() }})',
      'CREATE (a:A) WITH a CREATE (:B)',
      'CREATE (a:A) SET a.k = 1',
      'FOREACH (i IN [1, 2] | CREATE (:A))',
      'MATCH (n) RETURN n',
    ]) {
      expect(isPointWrite(text), text).toBe(false);
    }
  });
});

describe('while its only worker is being replaced', () => {
  const { pool, router } = routedDatabase((seeded) => seeded.executeSync('UNWIND range(1, 100) AS i CREATE (:Q {id: i})'), 1);

  it('a long read waits for the replacement instead of holding the main thread', async () => {
    await expect(pool().run(STUCK_QUERY, undefined, { timeoutMs: 1000 })).rejects.toThrow(/replaced/);
    expect(pool().readyWorkers).toBe(0);
    expect(pool().servingWorkers).toBe(1);
    // The main thread's turns: with the long read run here they stop until its time limit.
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 20);
    try {
      const long = router().execute(LONG_QUERY, undefined, { timeoutMs: 4000 });
      await expect(long).rejects.toMatchObject({ code: 'TIMEOUT' });
    } finally {
      clearInterval(ticker);
      longestGap = Math.max(longestGap, performance.now() - last);
    }
    expect(longestGap).toBeLessThan(1500);
    // Served by the replacement once it is in.
    expect((await router().execute('MATCH (q:Q) RETURN count(q) AS c')).records).toEqual([[100]]);
    expect(pool().readyWorkers).toBe(1);
  }, 60_000);
});

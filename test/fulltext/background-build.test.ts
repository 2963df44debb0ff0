/**
 * A full-text index over many documents is built in the background: SHOW FULLTEXT INDEXES
 * reports POPULATING with the share done; writes made meanwhile (before and after the build
 * reaches their entities, deletions, relabelling, a rollback) are in the finished index; a
 * query meanwhile completes the build and answers exactly as an index built at once over the
 * same history does (ids and BM25 scores), and an asynchronous one (Database.execute, an
 * HTTP request) waits for the build with the event loop free, /health answering meanwhile; db.awaitIndex completes it; a drop and closing the
 * database stop it; a checkpoint saves it only once built, and a data directory closed mid-build
 * opens with the index whole. The threshold and slice length are lowered so that a few
 * thousand documents take that path in many slices.
 */

import * as fs from 'node:fs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { FULLTEXT_FILES, FulltextIndex } from '../../src/fulltext/fulltext-index.js';
import { indexFiles } from '../../src/vector/persistence.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { plain, rows, seeded } from '../vector/helpers.js';

const N = 4000;
const WORDS = ['graph', 'store', 'vector', 'index', 'query', 'node', 'edge', 'label', 'search', 'rank', 'graphs', 'grape', 'path', 'match', 'the'];
const DDL = 'CREATE FULLTEXT INDEX texts FOR (n:Article|Note) ON EACH [n.title, n.body]';
const QUERIES = ['graph', 'graph store', '"graph store"', 'gra*', 'grapf~', 'title:graph', 'body:"vector index"', 'graph AND NOT store', '+vector -index', 'late OR rank^2', 'the'];

function text(rnd: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
}

/** Articles and Notes (every tenth node both, every seventh neither), with a title and a body, and lists of strings on some. */
function load(db: Database): void {
  const rnd = seeded(5);
  const docs = Array.from({ length: N }, (_, i) => ({
    i,
    labels: i % 7 === 0 ? 'Other' : i % 10 === 0 ? 'both' : i % 2 === 0 ? 'Article' : 'Note',
    title: text(rnd, 2),
    body: i % 11 === 0 ? [text(rnd, 3), text(rnd, 4)] : text(rnd, 3 + Math.floor(rnd() * 10)),
  }));
  db.executeSync(
    `UNWIND $docs AS d
     FOREACH (_ IN CASE WHEN d.labels = 'Article' THEN [1] ELSE [] END | CREATE (:Article {i: d.i, title: d.title, body: d.body}))
     FOREACH (_ IN CASE WHEN d.labels = 'Note' THEN [1] ELSE [] END | CREATE (:Note {i: d.i, title: d.title, body: d.body}))
     FOREACH (_ IN CASE WHEN d.labels = 'both' THEN [1] ELSE [] END | CREATE (:Article:Note {i: d.i, title: d.title, body: d.body}))
     FOREACH (_ IN CASE WHEN d.labels = 'Other' THEN [1] ELSE [] END | CREATE (:Other {i: d.i, title: d.title, body: d.body}))`,
    { docs },
  );
}

/** Writes on entities the build has reached (low i) and not yet reached (high i), of every kind, and one rolled back. */
const WRITES = [
  "MATCH (n) WHERE n.i IN [2, 3, 3901, 3903] SET n.body = 'late vector index graph'",
  'MATCH (n) WHERE n.i IN [4, 5, 3905, 3907] DETACH DELETE n',
  'MATCH (n:Article) WHERE n.i IN [6, 3906] REMOVE n:Article',
  'MATCH (n:Other) WHERE n.i IN [7, 3913] SET n:Note',
  "MATCH (n) WHERE n.i IN [8, 3908] SET n.title = 'the graph'",
  "UNWIND range(1, 30) AS k CREATE (:Note {i: 10000 + k, title: 'late', body: 'graph late store ' + k})",
];
const FAILING = "MATCH (n) WHERE n.i IN [9, 3909] SET n.body = 'rolled back graph' WITH n RETURN 1 / 0";

function write(db: Database): void {
  for (const w of WRITES) db.executeSync(w);
  expect(() => db.executeSync(FAILING)).toThrow();
}

type Answer = [number, number][];
function answers(db: Database): Answer[] {
  return QUERIES.map((q) => rows(db, "CALL db.index.fulltext.queryNodes('texts', $q) YIELD node, score RETURN node.i AS i, score", { q }) as Answer);
}

function state(db: Database): { state: unknown; percent: number; size: unknown } {
  const [row] = rows(db, 'SHOW FULLTEXT INDEXES');
  return { state: row[1], percent: row[2] as number, size: (row[7] as { size: unknown }).size };
}

/** Lets slices run until `done` holds (bounded, to catch a hang). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 20_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

/** The same data and history with the index built at once when it is created (the reference). */
function reference(writesBeforeBuild: boolean): Database {
  const ref = Database.openInMemory();
  load(ref);
  if (writesBeforeBuild) write(ref);
  const threshold = FulltextIndex.backgroundBuildFrom;
  FulltextIndex.backgroundBuildFrom = Infinity;
  try {
    ref.executeSync(DDL);
  } finally {
    FulltextIndex.backgroundBuildFrom = threshold;
  }
  if (!writesBeforeBuild) write(ref);
  expect(state(ref).state).toBe('ONLINE');
  return ref;
}

describe('a full-text index built in the background', () => {
  const saved = { from: FulltextIndex.backgroundBuildFrom, slice: FulltextIndex.buildSliceMs };
  beforeEach(() => {
    FulltextIndex.backgroundBuildFrom = 100;
    FulltextIndex.buildSliceMs = 1;
  });
  afterEach(() => {
    // Every build ended: finished, dropped or stopped by a close (so no query waits for one).
    expect(FulltextIndex.buildsRunning).toBe(0);
    FulltextIndex.backgroundBuildFrom = saved.from;
    FulltextIndex.buildSliceMs = saved.slice;
  });
  afterAll(removeTempDirs);

  it('is POPULATING at first; a query part-way through answers as the index built at once does, writes made meanwhile included', async () => {
    const db = Database.openInMemory();
    load(db);
    db.executeSync(DDL);
    expect(state(db)).toMatchObject({ state: 'POPULATING', percent: 0 });
    await until(() => state(db).percent >= 20);
    const part = state(db);
    expect(part.state).toBe('POPULATING');
    expect(part.percent).toBeLessThan(80);
    // The build has passed the low ids and not reached the high ones.
    write(db);
    expect(state(db).state).toBe('POPULATING');
    const ref = reference(false);
    // The first query completes the build and answers from the finished index.
    expect(answers(db)).toEqual(answers(ref));
    expect(state(db)).toEqual({ state: 'ONLINE', percent: 100, size: state(ref).size });
    expect(answers(ref).every((a) => a.length > 0)).toBe(true);
    db.close();
    ref.close();
  });

  it('an asynchronous query (Database.execute, what the servers run) waits for the build with the event loop free, then answers from the finished index', async () => {
    const db = Database.openInMemory();
    load(db);
    db.executeSync(DDL);
    const ref = reference(false);
    write(db);
    const pending = QUERIES.map((q) => db.execute("CALL db.index.fulltext.queryNodes('texts', $q) YIELD node, score RETURN node.i AS i, score", { q }));
    // Run synchronously, the first search would have completed the build before execute returned.
    expect(state(db)).toMatchObject({ state: 'POPULATING', percent: 0 });
    // The event loop turns meanwhile: slices run, and other queries answer.
    await until(() => state(db).percent > 0);
    expect(state(db).state).toBe('POPULATING');
    expect((await db.execute('MATCH (n:Note) RETURN count(n) AS c')).records).toEqual(ref.executeSync('MATCH (n:Note) RETURN count(n) AS c').records);
    const got = (await Promise.all(pending)).map((r) => r.records.map((row) => row.map(plain)));
    expect(state(db).state).toBe('ONLINE');
    // db.awaitIndex likewise waits with the event loop free.
    db.executeSync('DROP INDEX texts');
    db.executeSync(DDL);
    const awaited = db.execute("CALL db.awaitIndex('texts')");
    expect(state(db).state).toBe('POPULATING');
    await awaited;
    expect(state(db).state).toBe('ONLINE');
    expect(got).toEqual(answers(ref));
    db.close();
    ref.close();
  });

  it('over HTTP: a search waits for the build while the event loop turns, /health answers meanwhile, and the answer is the finished index\'s', async () => {
    FulltextIndex.buildSliceMs = 0; // 8 documents a slice: hundreds of turns of the event loop
    const db = Database.openInMemory();
    load(db);
    const server: RunningServer = await startHttpServer(db, { port: 0, log: () => undefined });
    try {
      const SEARCH = "CALL db.index.fulltext.queryNodes('texts', 'graph store') YIELD node, score RETURN node.i AS i, score";
      db.executeSync(DDL);
      const search = fetch(`http://127.0.0.1:${server.port}/query`, { method: 'POST', body: SEARCH });
      // Long after the search has reached the server: completed on arrival, the build would be done.
      await until(() => state(db).percent > 20);
      expect(state(db).state).toBe('POPULATING');
      expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
      const body = (await (await search).json()) as { rows: { i: unknown }[] };
      expect(state(db).state).toBe('ONLINE');
      const ids = rows(db, `${SEARCH} ORDER BY score DESC, i`).map((r) => r[0]);
      expect(ids.length).toBeGreaterThan(100);
      expect(body.rows.map((r) => Number(r.i)).sort((x, y) => x - y)).toEqual([...(ids as number[])].sort((x, y) => x - y));
    } finally {
      await server.close();
      db.close();
    }
  });

  it('a synchronous search stopped by its deadline while it completes the build leaves the build going on', async () => {
    const db = Database.openInMemory();
    load(db);
    const SEARCH = "CALL db.index.fulltext.queryNodes('texts', 'graph') YIELD node RETURN count(*) AS c";
    // Compiled before the index exists, so that the deadline below is spent in the search.
    expect(() => db.executeSync(SEARCH)).toThrow(/no full-text index/);
    db.executeSync(DDL);
    expect(() => db.executeSync(SEARCH, undefined, { timeoutMs: 2 })).toThrow(expect.objectContaining({ code: 'TIMEOUT' }));
    expect(state(db).state).toBe('POPULATING');
    await until(() => state(db).state === 'ONLINE');
    const ref = reference(false);
    write(db);
    expect(answers(db)).toEqual(answers(ref));
    db.close();
    ref.close();
  });

  it('indexes writes made before the build reaches them and after, and comes ONLINE by itself equal to the index built at once', async () => {
    const db = Database.openInMemory();
    load(db);
    db.executeSync(DDL);
    write(db); // nothing built yet
    await until(() => state(db).percent >= 50);
    expect(state(db).state).toBe('POPULATING');
    // Undo the body writes and make them again, now that the build has passed the low ids.
    db.executeSync("MATCH (n) WHERE n.i IN [2, 3, 3901, 3903] SET n.body = 'graph'");
    db.executeSync("MATCH (n) WHERE n.i IN [2, 3, 3901, 3903] SET n.body = 'late vector index graph'");
    await until(() => state(db).state === 'ONLINE');
    const ref = reference(true);
    expect(state(db)).toEqual({ state: 'ONLINE', percent: 100, size: state(ref).size });
    expect(answers(db)).toEqual(answers(ref));
    db.close();
    ref.close();
  });

  it('is completed at once by db.awaitIndex; a drop stops it, and a relationship index builds the same way', async () => {
    const db = Database.openInMemory();
    load(db);
    db.executeSync(DDL);
    expect(state(db).state).toBe('POPULATING');
    db.executeSync("CALL db.awaitIndex('texts')");
    expect(state(db)).toMatchObject({ state: 'ONLINE', percent: 100 });
    db.executeSync('DROP INDEX texts');
    db.executeSync(DDL);
    await until(() => state(db).percent > 0);
    db.executeSync('DROP INDEX texts');
    // The dropped build's slices find it gone and stop; nothing fails meanwhile.
    await new Promise((r) => setTimeout(r, 30));
    expect(rows(db, 'SHOW FULLTEXT INDEXES')).toEqual([]);

    db.executeSync('MATCH (a:Article) WITH a ORDER BY a.i LIMIT 600 MATCH (b:Note) WHERE b.i = a.i + 1 CREATE (a)-[:SAID {text: a.title + " " + b.title}]->(b)');
    db.executeSync('CREATE FULLTEXT INDEX said FOR ()-[r:SAID]-() ON EACH [r.text]');
    expect(state(db).state).toBe('POPULATING');
    db.executeSync('CALL db.awaitIndexes()');
    const said = (q: string): unknown[][] => rows(db, "CALL db.index.fulltext.queryRelationships('said', $q) YIELD relationship, score RETURN count(*) AS c", { q });
    const expected = rows(db, "MATCH ()-[r:SAID]->() WHERE r.text CONTAINS 'vector' RETURN count(*) AS c");
    expect(said('vector')).toEqual(expected);
    db.close();
  });

  it('stops when the database closes: no slice runs on afterwards', async () => {
    const db = Database.openInMemory();
    load(db);
    db.executeSync(DDL);
    await until(() => state(db).percent > 0);
    const index = db.schema.extensionIndex('texts') as FulltextIndex;
    db.close();
    const at = index.populationPercent;
    await new Promise((r) => setTimeout(r, 50));
    expect(index.populating).toBe(true);
    expect(index.populationPercent).toBe(at);
  });

  it('on a data directory: a checkpoint saves it only once built; closed mid-build, it opens whole', async () => {
    const dir = tempDir('graphdb-ftbuild-');
    const file = indexFiles(dir, 'texts', FULLTEXT_FILES).graph;
    let db = await Database.open({ dataDir: dir });
    load(db);
    db.executeSync(DDL);
    await until(() => state(db).percent > 0);
    write(db);
    // The saves a checkpoint and a close make, while the build runs (no turn of the event loop in between).
    expect(state(db).state).toBe('POPULATING');
    const index = db.schema.extensionIndex('texts') as FulltextIndex;
    index.save(1);
    const saving = index.saveAsync(1);
    db.close();
    await saving;
    expect(fs.existsSync(file)).toBe(false);

    db = await Database.open({ dataDir: dir });
    expect(state(db).state).toBe('POPULATING');
    await until(() => state(db).state === 'ONLINE');
    const ref = reference(true);
    expect(answers(db)).toEqual(answers(ref));
    await db.checkpoint();
    expect(fs.existsSync(file)).toBe(true);
    db.close();

    db = await Database.open({ dataDir: dir });
    expect(state(db).state).toBe('ONLINE');
    expect(rows(db, 'SHOW FULLTEXT INDEXES')[0][7]).toMatchObject({ populatedFrom: 'file', caughtUp: 0 });
    expect(answers(db)).toEqual(answers(ref));
    db.close();
    ref.close();
  });
});

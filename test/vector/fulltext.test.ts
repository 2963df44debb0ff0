/**
 * Full-text indexes through the query language: DDL over several labels and properties,
 * the Lucene query forms, BM25 ordering, analyzers, transactional maintenance, typed errors,
 * a data directory restart, and the HTTP door.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { parseFulltextQuery } from '../../src/fulltext/query-parser.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { rows } from './helpers.js';

afterAll(removeTempDirs);

const DDL = 'CREATE FULLTEXT INDEX texts FOR (n:Article|Note) ON EACH [n.title, n.body]';
const CORPUS = `CREATE (:Article {k: 1, title: 'Graph databases', body: 'A graph database stores nodes and relationships.'}),
  (:Article {k: 2, title: 'Vector search', body: 'Nearest neighbour search over embeddings in a vector index.'}),
  (:Note {k: 3, title: 'Shopping', body: 'Buy milk, eggs and graph paper.'}),
  (:Article {k: 4, title: 'Databases in practice', body: 'Relational databases and graph databases compared; graph graph graph.'}),
  (:Other {k: 5, title: 'Graph theory', body: 'Not indexed: wrong label.'})`;

function fresh(): Database {
  const db = Database.openInMemory();
  db.executeSync(DDL);
  db.executeSync(CORPUS);
  return db;
}

const search = (db: Database, q: string): unknown[] =>
  rows(db, 'CALL db.index.fulltext.queryNodes($index, $q) YIELD node, score RETURN node.k', { index: 'texts', q }).map((r) => r[0]);

describe('full-text queries', () => {
  const db = fresh();
  it('terms match any label and property, ranked by BM25', () => {
    const r = search(db, 'graph');
    expect(new Set(r)).toEqual(new Set([1, 3, 4]));
    expect(r[0]).toBe(4); // most occurrences
    const scored = rows(db, "CALL db.index.fulltext.queryNodes('texts', 'graph') YIELD score RETURN score");
    const scores = scored.map((x) => x[0] as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(scores.every((s) => s > 0)).toBe(true);
  });
  it('phrases', () => {
    expect(search(db, '"graph database"')).toEqual([1]);
    expect(search(db, '"database graph"')).toEqual([]);
  });
  it('AND, OR, NOT, + and -', () => {
    expect(new Set(search(db, 'graph AND milk'))).toEqual(new Set([3]));
    expect(new Set(search(db, 'milk OR embeddings'))).toEqual(new Set([2, 3]));
    expect(new Set(search(db, 'graph NOT milk'))).toEqual(new Set([1, 4]));
    expect(new Set(search(db, '+graph -relational'))).toEqual(new Set([1, 3]));
    expect(new Set(search(db, '(milk OR embeddings) AND search'))).toEqual(new Set([2]));
  });
  it('prefix, fuzzy and field queries', () => {
    expect(new Set(search(db, 'databa*'))).toEqual(new Set([1, 4]));
    expect(new Set(search(db, 'embedings~'))).toEqual(new Set([2]));
    expect(new Set(search(db, 'embedings~1'))).toEqual(new Set([2]));
    expect(new Set(search(db, 'title:graph'))).toEqual(new Set([1]));
    expect(new Set(search(db, 'title:"vector search"'))).toEqual(new Set([2]));
    expect(search(db, 'nosuchfield:graph')).toEqual([]);
  });
  it('options skip and limit', () => {
    expect(rows(db, "CALL db.index.fulltext.queryNodes('texts', 'graph', {limit: 1}) YIELD node RETURN node.k")).toEqual([[4]]);
    expect(rows(db, "CALL db.index.fulltext.queryNodes('texts', 'graph', {skip: 2}) YIELD node RETURN count(*)")).toEqual([[1]]);
  });
  it('typed errors: bad query syntax, missing index, bad options', () => {
    const err = (q: string): { code: string; detail: string } => {
      try {
        db.executeSync(q);
      } catch (e) {
        return e as { code: string; detail: string };
      }
      throw new Error('expected an error');
    };
    expect(err("CALL db.index.fulltext.queryNodes('texts', '\"open') YIELD node RETURN node")).toMatchObject({ code: 'ARGUMENT_ERR', detail: 'InvalidFulltextQuery' });
    expect(err("CALL db.index.fulltext.queryNodes('texts', 'a AND') YIELD node RETURN node").detail).toBe('InvalidFulltextQuery');
    expect(err("CALL db.index.fulltext.queryNodes('none', 'a') YIELD node RETURN node")).toMatchObject({ code: 'PROCEDURE_ERR', detail: 'IndexNotFound' });
    expect(err("CALL db.index.fulltext.queryNodes('texts', 'a', {limit: -1}) YIELD node RETURN node").code).toBe('ARGUMENT_ERR');
    expect(err("CREATE FULLTEXT INDEX x FOR (n:A) ON EACH [n.t] OPTIONS {indexConfig: {`fulltext.analyzer`: 'klingon'}}").detail).toBe('InvalidIndexOptions');
  });
  it('the parser reads the forms users type', () => {
    expect(parseFulltextQuery('a AND b')).toEqual({
      kind: 'bool',
      boost: 1,
      clauses: [
        { occur: 'must', query: { kind: 'term', text: 'a', boost: 1 } },
        { occur: 'must', query: { kind: 'term', text: 'b', boost: 1 } },
      ],
    });
    expect(parseFulltextQuery('title:foo*^2')).toEqual({ kind: 'prefix', field: 'title', prefix: 'foo', boost: 2 });
    expect(() => parseFulltextQuery('(a')).toThrow(/not closed/);
    expect(() => parseFulltextQuery('')).toThrow(/empty/);
  });
});

describe('full-text indexes follow writes and rollbacks', () => {
  it('create, set, label changes, delete, rollback', () => {
    const db = fresh();
    db.executeSync("CREATE (:Note {k: 10, title: 'zebra'})");
    expect(search(db, 'zebra')).toEqual([10]);
    db.executeSync("MATCH (n {k: 10}) SET n.title = 'okapi'");
    expect(search(db, 'zebra')).toEqual([]);
    expect(search(db, 'okapi')).toEqual([10]);
    db.executeSync('MATCH (n {k: 10}) REMOVE n:Note');
    expect(search(db, 'okapi')).toEqual([]);
    db.executeSync('MATCH (n {k: 10}) SET n:Article');
    expect(search(db, 'okapi')).toEqual([10]);
    expect(() => db.executeSync("MATCH (n {k: 10}) SET n.title = 'giraffe' CREATE (:Note {title: 'giraffe'}) WITH 1 AS x RETURN 1 / 0")).toThrow();
    expect(search(db, 'giraffe')).toEqual([]);
    expect(search(db, 'okapi')).toEqual([10]);
    db.executeSync('MATCH (n {k: 10}) DELETE n');
    expect(search(db, 'okapi')).toEqual([]);
    // Seen by the writing query itself.
    expect(rows(db, "CREATE (:Note {title: 'quagga'}) WITH 1 AS x CALL db.index.fulltext.queryNodes('texts', 'quagga') YIELD node RETURN count(node)")).toEqual([[1]]);
  });

  it('relationship indexes, analyzers and SHOW FULLTEXT INDEXES', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE FULLTEXT INDEX rt FOR ()-[r:SAID]-() ON EACH [r.text] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}");
    db.executeSync("CREATE (a)-[:SAID {text: 'The cats are sleeping'}]->(b), (a)-[:SAID {text: 'A dog barks'}]->(b)");
    expect(rows(db, "CALL db.index.fulltext.queryRelationships('rt', 'cat') YIELD relationship RETURN relationship.text")).toEqual([['The cats are sleeping']]);
    expect(rows(db, "CALL db.index.fulltext.queryRelationships('rt', 'the') YIELD relationship RETURN relationship")).toEqual([]);
    const show = rows(db, 'SHOW FULLTEXT INDEXES');
    expect(show[0].slice(0, 7)).toEqual(['rt', 'ONLINE', 100, 'FULLTEXT', 'RELATIONSHIP', ['SAID'], ['text']]);
    const analyzers = rows(db, 'CALL db.index.fulltext.listAvailableAnalyzers() YIELD analyzer RETURN analyzer').map((r) => r[0]);
    expect(analyzers).toEqual(expect.arrayContaining(['standard', 'english', 'simple', 'whitespace', 'keyword']));
    expect(() => db.executeSync("CALL db.index.fulltext.queryNodes('rt', 'cat') YIELD node RETURN node")).toThrow(/indexes relationships/);
  });

  it('survives a restart of a data directory', async () => {
    const dir = tempDir('graphdb-fulltext-');
    let db = await Database.open({ dataDir: dir, storage: { log: null } });
    db.executeSync(DDL);
    db.executeSync(CORPUS);
    db.executeSync("MATCH (n {k: 3}) SET n.body = 'Buy bread.'");
    db.close();
    db = await Database.open({ dataDir: dir, storage: { log: null } });
    expect(new Set(search(db, 'graph'))).toEqual(new Set([1, 4]));
    expect(search(db, 'bread')).toEqual([3]);
    db.close();
  });
});

describe('full-text through HTTP', () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    server = await startHttpServer(Database.openInMemory(), { port: 0, log: () => undefined });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
  });
  it('creates, queries and reports a bad query', async () => {
    const post = (body: string): Promise<Response> => fetch(`${base}/query`, { method: 'POST', body });
    expect((await post(DDL)).status).toBe(200);
    expect((await post(CORPUS)).status).toBe(200);
    const r = await post("CALL db.index.fulltext.queryNodes('texts', '\"vector search\"') YIELD node RETURN node.k AS k");
    expect(await r.json()).toEqual({ columns: ['k'], rows: [{ k: '2' }] });
    const bad = await post("CALL db.index.fulltext.queryNodes('texts', 'a OR') YIELD node RETURN node");
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: true, code: 'ARGUMENT_ERR' });
  });
});

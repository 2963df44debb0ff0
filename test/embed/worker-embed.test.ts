/**
 * `graphdb.embed.nodes` through the real QueryRouter and worker pool: it runs on a query
 * worker as a write (the embedder's work off the main thread), the primary applies its commit,
 * and the vectors the primary ends up with — and its vector index — equal those of the same
 * call run on a primary directly; with the built-in hashing embedder and with an ONNX model
 * (the tiny BERT fixture, as the default `embeddingModel`). A worker that cannot load the
 * embedder sends the call back to the primary, which runs it (or reports why it cannot).
 */

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import type { Value } from '../../runtime/values.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';

const N = 300;
const WORDS = ['graph', 'vector', 'store', 'index', 'query', 'node', 'edge', 'label', 'search', 'rank', 'path', 'match'];

function seed(db: Database, dimensions: number): void {
  const texts = Array.from({ length: N }, (_, i) => `${WORDS[i % 12]} ${WORDS[(i * 7) % 12]} doc${i} ${WORDS[(i * 5 + 3) % 12]}`);
  db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:Doc {i: i, text: $texts[i]})', { n: N, texts });
  db.executeSync('MATCH (d:Doc) WHERE d.i % 10 = 0 DETACH DELETE d'); // holes in the label's id set
  db.executeSync("UNWIND range(1, 20) AS i CREATE (:Doc {i: 1000 + i, text: 'late ' + toString(i)})");
  db.executeSync(`CREATE VECTOR INDEX emb FOR (d:Doc) ON (d.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: ${dimensions}}}`);
}

const VECTORS = 'MATCH (d:Doc) RETURN d.i AS i, d.embedding AS v ORDER BY i';
const NEAREST = "CALL db.index.vector.queryNodes('emb', 8, $q) YIELD node, score RETURN node.i AS i, score";
const size = (db: Database): unknown => (db.executeSync('SHOW VECTOR INDEXES').records[0][7] as Map<string, Value>).get('size');

/** Counts the worker writes the primary applies (the real method runs). */
function countApplied(db: Database): { count: () => number; restore: () => void } {
  const original = db.applyWorkerWrite.bind(db);
  let applied = 0;
  db.applyWorkerWrite = (before, changes, encoded) => {
    const done = original(before, changes, encoded);
    if (done !== undefined) applied++;
    return done;
  };
  return { count: () => applied, restore: () => void (db.applyWorkerWrite = original) };
}

/** The primary and every replica hold `expected` (the vectors of a direct run). */
async function sameEverywhere(db: Database, pool: QueryWorkerPool, expected: Value[][]): Promise<void> {
  expect(db.executeSync(VECTORS).records).toEqual(expected);
  for (let k = 0; k < 4; k++) expect((await pool.run(VECTORS, undefined)).records).toEqual(expected);
}

afterAll(removeTempDirs);

describe('graphdb.embed.nodes through the query router', () => {
  let db: Database;
  let pool: QueryWorkerPool;
  let router: QueryRouter;
  beforeAll(async () => {
    db = Database.openInMemory();
    seed(db, 384);
    pool = await QueryWorkerPool.start(db, 2);
    router = new QueryRouter(db, pool);
  }, 60_000);
  afterAll(async () => {
    await pool.close();
    db.close();
  });

  it('runs on a worker with the hashing embedder; the primary applies its commit, holds the vectors of a direct run, and its vector index follows', async () => {
    const direct = Database.openInMemory();
    seed(direct, 384);
    const CALL = "CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'embedding', batchSize: 32}) YIELD nodes, batches, embedder RETURN nodes, batches, embedder";
    const expected = direct.executeSync(CALL).records;
    expect(expected).toEqual([[290, 10, 'hash:graphdb-hash-ngrams']]);
    const applied = countApplied(db);
    try {
      expect((await router.execute(CALL)).records).toEqual(expected);
    } finally {
      applied.restore();
    }
    expect(applied.count()).toBe(1);
    await sameEverywhere(db, pool, direct.executeSync(VECTORS).records);
    expect(size(db)).toBe(290);
    const q = direct.executeSync("RETURN genai.vector.encode('graph vector doc17')").records[0][0];
    expect(db.executeSync(NEAREST, { q }).records).toEqual(direct.executeSync(NEAREST, { q }).records);
    direct.close();
  }, 60_000);
});

describe('graphdb.embed.nodes with an ONNX model, through the query router', () => {
  let model: string;
  let db: Database;
  let direct: Database;
  let pool: QueryWorkerPool;
  let router: QueryRouter;
  const CALL = "CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'embedding', batchSize: 16}) YIELD nodes, embedder RETURN nodes";
  beforeAll(async () => {
    model = tempDir('graphdb-tinybert-');
    execFileSync('/usr/bin/python3', [path.join(import.meta.dirname, '..', 'vector', 'fixtures', 'make_tiny_bert.py'), model]);
    db = Database.openInMemory({ embeddingModel: model });
    seed(db, 8);
    direct = Database.openInMemory({ embeddingModel: model });
    seed(direct, 8);
    direct.executeSync(CALL);
    pool = await QueryWorkerPool.start(db, 1);
    router = new QueryRouter(db, pool);
  }, 60_000);
  afterAll(async () => {
    await pool.close();
    db.close();
    direct.close();
  });

  it('embeds with the configured model on a worker, exactly as the primary does', async () => {
    const applied = countApplied(db);
    try {
      expect((await router.execute(CALL)).records).toEqual([[290]]);
    } finally {
      applied.restore();
    }
    expect(applied.count()).toBe(1);
    await sameEverywhere(db, pool, direct.executeSync(VECTORS).records);
    const q = direct.executeSync("RETURN genai.vector.encode('graph doc3')").records[0][0];
    expect(db.executeSync(NEAREST, { q }).records).toEqual(direct.executeSync(NEAREST, { q }).records);
  }, 60_000);

  it('runs on the primary when the worker cannot load the model, and fails only when the primary cannot either', async () => {
    // A copy of the model the primary has loaded, then removed: the worker finds no files.
    const copy = tempDir('graphdb-tinybert-copy-');
    for (const f of fs.readdirSync(model)) fs.copyFileSync(path.join(model, f), path.join(copy, f));
    expect(db.executeSync("RETURN size(genai.vector.encode('x', 'onnx', {model: $m})) AS n", { m: copy }).records).toEqual([[8]]);
    fs.rmSync(copy, { recursive: true });
    db.executeSync('MATCH (d:Doc) REMOVE d.embedding');
    const applied = countApplied(db);
    try {
      const r = await router.execute(
        "CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'embedding', batchSize: 16, provider: 'onnx', configuration: {model: $m}}) YIELD nodes RETURN nodes",
        { m: copy },
      );
      expect(r.records).toEqual([[290]]);
      await expect(
        router.execute("CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'other', provider: 'onnx', configuration: {model: $m}}) YIELD nodes RETURN nodes", {
          m: path.join(copy, 'elsewhere'),
        }),
      ).rejects.toMatchObject({ detail: 'InvalidEmbeddingModel', message: expect.stringMatching(/has no model\.onnx/) });
    } finally {
      applied.restore();
    }
    expect(applied.count()).toBe(0);
    // The same model, so the same vectors as the default's direct run.
    await sameEverywhere(db, pool, direct.executeSync(VECTORS).records);
  }, 60_000);
});

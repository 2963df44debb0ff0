/**
 * Embeddings in queries: the built-in hashing embedder (deterministic, normalised, similar
 * texts closer), genai.vector.encode / encodeBatch, graphdb.embed.nodes feeding a vector
 * index, and the ONNX path end to end on a tiny BERT-shaped model generated here with
 * python3-onnx (tokenizer.json included), through the query language and HTTP.
 */

import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { HashingEmbedder } from '../../src/embed/hashing-embedder.js';
import { OnnxEmbedder } from '../../src/embed/onnx-embedder.js';
import { onnxRuntimeMissing } from '../../src/embed/onnx-availability.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_BIN } from '../server/helpers.js';
import { rows } from './helpers.js';

afterAll(removeTempDirs);

const cos = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

describe('the built-in embedder', () => {
  const e = new HashingEmbedder(384);
  it('is deterministic, unit length, and puts related texts closer', () => {
    const [a, a2, b, c] = e.embed(['graph databases store nodes', 'graph databases store nodes', 'a graph database stores a node', 'bananas are yellow fruit']);
    expect(Array.from(a)).toEqual(Array.from(a2));
    expect(cos(a, a)).toBeCloseTo(1, 5);
    expect(cos(a, b)).toBeGreaterThan(cos(a, c) + 0.1);
    expect(Array.from(e.embed([''])[0]).every((x) => x === 0)).toBe(true);
  });
  it('genai.vector.encode and encodeBatch through the query language', () => {
    const db = Database.openInMemory();
    const [[v]] = rows(db, "RETURN genai.vector.encode('hello world') AS v");
    expect((v as number[]).length).toBe(384);
    expect(Array.from(e.embed(['hello world'])[0])).toEqual((v as number[]).map((x) => Math.fround(x)));
    expect(rows(db, "RETURN size(genai.vector.encode('x', 'hash', {dimensions: 16}))")).toEqual([[16]]);
    expect(rows(db, 'RETURN genai.vector.encode(null)')).toEqual([[null]]);
    const batch = rows(db, "CALL genai.vector.encodeBatch(['a', 'b c']) YIELD index, resource, vector RETURN index, resource, size(vector)");
    expect(batch).toEqual([
      [0, 'a', 384],
      [1, 'b c', 384],
    ]);
    expect(() => db.executeSync("RETURN genai.vector.encode('x', 'openai')")).toThrow(/Unknown embedding provider 'openai'/);
    expect(() => db.executeSync('RETURN genai.vector.encode(42)')).toThrow(/expects a string/);
    expect(() => db.executeSync("RETURN genai.vector.encode('x', 'hash', {dimensions: 0})")).toThrow(/dimensions/);
    expect(() => db.executeSync("RETURN genai.vector.encode('x', 'onnx')")).toThrow(/needs `model`/);
    expect(rows(db, 'CALL graphdb.embed.info() YIELD provider, dimensions, executionProvider RETURN *')).toEqual([[384, 'js', 'hash']]);
  });
  it('graphdb.embed.nodes fills a vector index through the write path, and rolls back with its query', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}");
    db.executeSync("UNWIND ['graph databases and nodes', 'vector search with embeddings', 'cooking pasta at home', 'baking bread'] AS t CREATE (:Doc {text: t})");
    db.executeSync('CREATE (:Doc {text: 42})');
    const [[n, batches, dims]] = rows(db, "CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'emb', batchSize: 3}) YIELD nodes, batches, dimensions RETURN nodes, batches, dimensions");
    expect([n, batches, dims]).toEqual([4, 2, 384]);
    // With progress, a row per batch: nodes done so far of the total.
    expect(rows(db, "CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'emb', batchSize: 3, progress: true}) YIELD nodes, batches, total RETURN nodes, batches, total")).toEqual([
      [3, 1, 4],
      [4, 2, 4],
    ]);
    expect(() => db.executeSync("CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'emb', progress: 'yes'}) YIELD nodes RETURN nodes")).toThrow(/progress/);
    const hit = rows(db, "CALL db.index.vector.queryNodes('docs', 1, genai.vector.encode('searching vectors and embeddings')) YIELD node RETURN node.text");
    expect(hit).toEqual([['vector search with embeddings']]);
    db.executeSync("CREATE (:Doc {text: 'fresh'})");
    expect(() => db.executeSync("CALL graphdb.embed.nodes({label: 'Doc', textProperty: 'text', vectorProperty: 'emb'}) YIELD nodes RETURN nodes / 0")).toThrow();
    expect(rows(db, "MATCH (d:Doc {text: 'fresh'}) RETURN d.emb")).toEqual([[null]]);
    expect(() => db.executeSync("CALL graphdb.embed.nodes({label: 'Doc'}) YIELD nodes RETURN nodes")).toThrow(/textProperty/);
    expect(() => db.executeSync("CALL graphdb.embed.nodes({label: 'Doc', textProperty: 't', vectorProperty: 'v', colour: 1}) YIELD nodes RETURN nodes")).toThrow(/no setting/);
  });
});

// onnxruntime-node is optional: on a machine where it truly cannot be installed these tests
// skip with a notice; under CI (.ci/run makes sure it loads) its absence is a failure.
const onnxMissing = onnxRuntimeMissing();
if (onnxMissing !== null && !process.env.CI) console.warn(`SKIPPED: the ONNX embedding tests: ${onnxMissing}`);

describe.skipIf(onnxMissing !== null && !process.env.CI)('ONNX sentence-transformers models', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('graphdb-tinybert-');
    execFileSync('/usr/bin/python3', [path.join(import.meta.dirname, 'fixtures', 'make_tiny_bert.py'), dir]);
  });

  it('tokenises, runs, mean-pools and normalises', () => {
    const e = new OnnxEmbedder(dir);
    try {
      expect(e.dimensions).toBe(8);
      expect(e.executionProvider).toBe('cpu');
      const [a, a2, b, unk] = e.embed(['Graph databases', 'graph   DATABASES', 'the cats', 'zzz qqq']);
      expect(a.length).toBe(8);
      expect(cos(a, a)).toBeCloseTo(1, 5);
      // The tokenizer lower-cases (BertNormalizer), so case and spacing do not matter.
      expect(Array.from(a2)).toEqual(Array.from(a));
      expect(cos(a, b)).toBeLessThan(0.999);
      // Unknown words map to [UNK] and still give a unit vector.
      expect(cos(unk, unk)).toBeCloseTo(1, 5);
      // Batching pads; the padded positions must not change a text's vector.
      const [alone] = e.embed(['Graph databases']);
      const [padded] = e.embed(['Graph databases', 'the fast cats searching graph database nodes']);
      for (let i = 0; i < 8; i++) expect(padded[i]).toBeCloseTo(alone[i], 5);
    } finally {
      e.close();
    }
  });

  it('is the default embedder with embeddingModel, through the query language and HTTP', async () => {
    const db = Database.openInMemory({ embeddingModel: dir });
    expect(rows(db, 'CALL graphdb.embed.info() YIELD provider, dimensions, executionProvider RETURN provider, dimensions, executionProvider')).toEqual([['onnx', 8, 'cpu']]);
    db.executeSync("CREATE VECTOR INDEX t FOR (n:T) ON (n.v) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'cosine'}}");
    db.executeSync("UNWIND ['graph database', 'the cats', 'vector search'] AS s CREATE (:T {s: s})");
    db.executeSync("CALL graphdb.embed.nodes({label: 'T', textProperty: 's', vectorProperty: 'v'}) YIELD nodes RETURN nodes");
    const server: RunningServer = await startHttpServer(db, { port: 0, log: () => undefined });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/query`, {
        method: 'POST',
        body: "CALL db.index.vector.queryNodes('t', 1, genai.vector.encode('The CATS')) YIELD node, score RETURN node.s AS s, score > 0.999 AS exact",
      });
      expect(await res.json()).toEqual({ columns: ['s', 'exact'], rows: [{ s: 'the cats', exact: 'true' }] });
      const bad = await fetch(`http://127.0.0.1:${server.port}/query`, { method: 'POST', body: "RETURN genai.vector.encode('x', 'onnx', {model: '/nonexistent'})" });
      expect(bad.status).toBe(422);
      expect(((await bad.json()) as { message: string }).message).toMatch(/has no model.onnx/);
    } finally {
      await server.close();
      db.close();
    }
  });

  it('is the embedder of graphdb-mcp --embedding-model, through the MCP SDK client', async () => {
    const client = new Client({ name: 'graphdb-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--embedding-model', dir], stderr: 'pipe' }));
    try {
      const result = (await client.callTool({
        name: 'read_query',
        arguments: { cypher: "CALL graphdb.embed.info() YIELD provider, dimensions RETURN provider, dimensions, size(genai.vector.encode('graph')) AS n" },
      })) as { content: { text: string }[] };
      const text = result.content[0].text;
      expect(text).toMatch(/onnx/);
      expect(text).not.toMatch(/hashing/);
    } finally {
      await client.close();
    }
  }, 60_000);
});

/**
 * Retrieval indexes on a data directory: definitions survive a restart; a vector index is
 * loaded from its saved HNSW file and caught up with the recovered store (or rebuilt when
 * the file is missing, stale for another definition, or damaged), so after a clean stop or a
 * SIGKILL under write load it agrees exactly with the graph.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeVectorState, encodeVectorStateAsync, indexFiles, loadIndexFiles, splitHeaderFile } from '../../src/vector/persistence.js';
import { VectorIndex } from '../../src/vector/hnsw-index.js';
import type { ExtensionIndexDef } from '../../src/store/schema.js';
import { Database } from '../../src/engine/database.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { exited, startServer, writeLoop } from '../crash/crash-harness.js';
import { rows } from './helpers.js';

afterAll(removeTempDirs);

const VECTOR_DDL = "CREATE VECTOR INDEX emb FOR (n:Doc) ON (n.v) OPTIONS {indexConfig: {`vector.dimensions`: 4, `vector.similarity_function`: 'euclidean'}}";

/**
 * The index holds exactly the vector of every Doc that has one (read back from the HNSW graph)
 * and nothing else, and a search finds each among its nearest (a search is approximate, and
 * these vectors lie close to a line, so it looks at ten rather than one).
 */
function vectorIndexAgrees(db: Database): void {
  const docs = rows(db, 'MATCH (n:Doc) WHERE n.v IS NOT NULL RETURN id(n), n.v');
  const show = rows(db, 'SHOW VECTOR INDEXES');
  expect((show[0][7] as { size: number }).size).toBe(docs.length);
  const index = db.schema.extensionIndex('emb') as VectorIndex;
  for (const [id, v] of docs) {
    expect(Array.from(index.indexedVector(id as number) ?? []), `vector of node ${String(id)}`).toEqual(Array.from(Float32Array.from(v as number[])));
    const hits = rows(db, "CALL db.index.vector.queryNodes('emb', 10, $v) YIELD node, score RETURN id(node), score", { v });
    expect(hits[0][1]).toBe(1);
    expect(hits.map((h) => h[0])).toContain(id);
  }
}

/** How the vector index `emb` was populated at open (SHOW VECTOR INDEXES options). */
function population(db: Database): { from: unknown; caughtUp: unknown } {
  const options = rows(db, 'SHOW VECTOR INDEXES')[0][7] as { populatedFrom: unknown; caughtUp: unknown };
  return { from: options.populatedFrom, caughtUp: options.caughtUp };
}

describe('vector index files', () => {
  const open = (dir: string): Promise<Database> => Database.open({ dataDir: dir, storage: { log: null } });

  it('are loaded on open, and an older file is caught up element by element', async () => {
    const dir = tempDir('graphdb-vector-file-');
    const files = indexFiles(dir, 'emb');
    let db = await open(dir);
    db.executeSync(VECTOR_DDL);
    db.executeSync('UNWIND range(1, 60) AS i CREATE (:Doc {i: i, v: [toFloat(i), 1.0, 0.0, 2.0]})');
    db.close();
    expect(fs.existsSync(files.graph) && fs.existsSync(files.header)).toBe(true);

    db = await open(dir);
    expect(population(db)).toEqual({ from: 'file', caughtUp: 0 });
    vectorIndexAgrees(db);
    // Keep this file, then change the graph and let the close save a newer one.
    const older = { graph: fs.readFileSync(files.graph), header: fs.readFileSync(files.header) };
    db.executeSync('MATCH (n:Doc) WHERE n.i % 6 = 0 DELETE n'); // 10 removed
    db.executeSync('MATCH (n:Doc) WHERE n.i % 6 = 1 SET n.v = [0.0, toFloat(n.i), 3.0, 0.0]'); // 10 changed
    db.executeSync('MATCH (n:Doc) WHERE n.i % 6 = 2 REMOVE n.v'); // 10 without a vector now
    db.executeSync('UNWIND range(61, 65) AS i CREATE (:Doc {i: i, v: [toFloat(i), 5.0, 5.0, 5.0]})'); // 5 added
    db.close();

    // The file from before those writes, as a crash after its save would leave it.
    fs.writeFileSync(files.graph, older.graph);
    fs.writeFileSync(files.header, older.header);
    db = await open(dir);
    expect(population(db)).toEqual({ from: 'file', caughtUp: 35 });
    vectorIndexAgrees(db);
    db.close();

    // A damaged file is not used: the index is rebuilt from the store.
    const bytes = fs.readFileSync(files.graph);
    bytes[bytes.length >> 1] ^= 0xff;
    fs.writeFileSync(files.graph, bytes);
    const warnings: string[] = [];
    db = await Database.open({ dataDir: dir, storage: { log: { write: (s: string) => void warnings.push(s) } } });
    expect(population(db).from).toBe('built');
    expect(warnings.join('')).toMatch(/vector index emb: not loading its saved file, rebuilding it from the store: .*checksum/);
    vectorIndexAgrees(db);
    db.close();

    // A new index of the same name but another definition ignores the old file; DROP removes the files.
    db = await open(dir);
    db.executeSync('DROP INDEX emb');
    expect(fs.existsSync(files.graph) || fs.existsSync(files.header)).toBe(false);
    db.executeSync(VECTOR_DDL);
    db.close();
    db = await open(dir);
    expect(population(db).from).toBe('file');
    vectorIndexAgrees(db);
    db.close();
  });

  it('an index saved empty loads and takes vectors; a file of the former format is rebuilt with a warning', async () => {
    const dir = tempDir('graphdb-vector-empty-');
    const files = indexFiles(dir, 'emb');
    let db = await open(dir);
    db.executeSync(VECTOR_DDL);
    db.executeSync('CREATE (:Doc {i: 0})'); // no vector: the index is saved with no element
    db.close();
    db = await open(dir);
    expect(population(db)).toEqual({ from: 'file', caughtUp: 0 });
    // hnswlib loads an empty file with room for no element: the first put must make room.
    db.executeSync('UNWIND range(1, 30) AS i CREATE (:Doc {i: i, v: [toFloat(i), 1.0, 0.0, 2.0]})');
    vectorIndexAgrees(db);
    db.close();

    // Version 3 used entity ids as HNSW labels: such a file is not loaded, and the index is built again.
    const { json, state } = splitHeaderFile(fs.readFileSync(files.header));
    fs.writeFileSync(files.header, Buffer.concat([Buffer.from(json.replace('"version":4', '"version":3') + '\n'), state]));
    const warnings: string[] = [];
    db = await Database.open({ dataDir: dir, storage: { log: { write: (m: string) => void warnings.push(m) } } });
    expect(population(db).from).toBe('built');
    expect(warnings.join('')).toMatch(/vector index emb: not loading its saved file, .*graphdb-hnsw version 3; this build reads graphdb-hnsw version 4/);
    vectorIndexAgrees(db);
    db.close();
  });

  it('keep the element state in binary after the header line, and refuse it when it is damaged', async () => {
    const dir = tempDir('graphdb-vector-state-');
    const files = indexFiles(dir, 'emb');
    let db = await open(dir);
    db.executeSync(VECTOR_DDL);
    db.executeSync('UNWIND range(1, 40) AS i CREATE (:Doc {i: i, v: [toFloat(i), 1.0, 0.0, 2.0]})');
    db.close();
    const header = fs.readFileSync(files.header);
    // Two counts, then an (id, label, fingerprint) triple per live element, as float64s.
    expect(splitHeaderFile(header).state.length).toBe(8 * (2 + 3 * 40));
    header[header.length - 3] ^= 0x55;
    fs.writeFileSync(files.header, header);
    const warnings: string[] = [];
    db = await Database.open({ dataDir: dir, storage: { log: { write: (s: string) => void warnings.push(s) } } });
    expect(population(db).from).toBe('built');
    expect(warnings.join('')).toMatch(/the state in .* does not match its recorded length and checksum/);
    vectorIndexAgrees(db);
    db.close();
  });

  it('background saves over an earlier save leave only the index files (the previous body is unlinked off the event loop)', async () => {
    const dir = tempDir('graphdb-vector-resave-');
    const files = indexFiles(dir, 'emb');
    const db = await open(dir);
    try {
      db.executeSync(VECTOR_DDL);
      db.executeSync('UNWIND range(1, 50) AS i CREATE (:Doc {i: i, v: [toFloat(i), 1.0, 0.0, 2.0]})');
      const index = db.schema.extensionIndex('emb') as VectorIndex;
      await index.saveAsync(db.storage!.seq);
      const first = fs.statSync(files.graph).ino;
      db.executeSync('UNWIND range(51, 90) AS i CREATE (:Doc {i: i, v: [toFloat(i), 3.0, 0.0, 2.0]})');
      db.schema.extensionIndex('emb');
      await index.saveAsync(db.storage!.seq);
      expect(fs.statSync(files.graph).ino).not.toBe(first);
      expect(fs.readdirSync(path.dirname(files.graph)).sort()).toEqual(['emb.hnsw', 'emb.hnsw.json']);
      expect(loadIndexFiles(dir, index.def)?.live.length).toBe(90);
    } finally {
      db.close();
    }
  });

  it('encode the same state in slices (a checkpoint) as in one go (close)', async () => {
    // Entity id -> label; labels 0 to 2 are deleted elements.
    const live = new Map(Array.from({ length: 200_000 }, (_, i) => [i * 3, i + 3] as [number, number]));
    const prints = Float64Array.from({ length: 200_003 }, (_, l) => (l * 7919) % 2 ** 53);
    let pauses = 0;
    const sliced = await encodeVectorStateAsync(live, prints, 200_003, async () => void pauses++);
    const whole = encodeVectorState(live, prints, 200_003);
    expect(pauses).toBeGreaterThan(3);
    expect(Buffer.from(sliced.bytes).equals(Buffer.from(whole.bytes))).toBe(true);
    expect(sliced.crc).toBe(whole.crc);
  });
});

describe('vector index saves at checkpoints', () => {
  it('a policy checkpoint (no explicit one, no close) saves the index', async () => {
    const dir = tempDir('graphdb-vector-policy-');
    const db = await Database.open({ dataDir: dir, storage: { log: null, checkpoint: { records: 50 } } });
    try {
      db.executeSync(VECTOR_DDL);
      for (let i = 0; i < 40; i++) db.executeSync('UNWIND range(1, 5) AS j CREATE (:Doc {i: $i * 10 + j, v: [toFloat($i), toFloat(j), 0.5, 1.0]})', { i });
      const header = indexFiles(dir, 'emb').header;
      for (let t = 0; t < 1500 && !fs.existsSync(header); t++) await new Promise((r) => setTimeout(r, 20));
      expect(fs.existsSync(header)).toBe(true);
      const saved = loadIndexFiles(dir, (JSON.parse(splitHeaderFile(fs.readFileSync(header)).json) as { def: ExtensionIndexDef }).def);
      expect(saved?.live.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('while a background save reads the HNSW graph, writes are held back, searched exactly, and applied after it', async () => {
    const dir = tempDir('graphdb-vector-held-');
    let db = await Database.open({ dataDir: dir, storage: { log: null } });
    db.executeSync(VECTOR_DDL);
    db.executeSync('UNWIND range(1, 300) AS i CREATE (:Doc {i: i, v: [toFloat(i), toFloat(i % 7), 1.0, 0.0]})');
    const index = db.schema.extensionIndex('emb') as VectorIndex;
    const saving = index.saveAsync(db.storage!.seq);
    // All of this runs before the save's first step can: the index holds these changes back.
    db.executeSync('MATCH (n:Doc) WHERE n.i % 10 = 0 DELETE n');
    db.executeSync('MATCH (n:Doc) WHERE n.i % 10 = 1 SET n.v = [0.0, toFloat(n.i), 2.0, 2.0]');
    db.executeSync('MATCH (n:Doc) WHERE n.i % 10 = 2 REMOVE n:Doc');
    db.executeSync('UNWIND range(301, 320) AS i CREATE (:Doc {i: i, v: [toFloat(i), 9.0, 9.0, 9.0]})');
    expect(() => db.executeSync('MATCH (n:Doc) WHERE n.i = 5 SET n.v = [7.0, 7.0, 7.0, 7.0] WITH count(*) AS c RETURN 1 / 0')).toThrow();
    vectorIndexAgrees(db);
    const filtered = rows(db, "CALL db.index.vector.queryNodes('emb', 5, [0.0, 101.0, 2.0, 2.0]) YIELD node, score WHERE node.i % 10 = 1 RETURN node.i");
    expect(filtered.map((r) => r[0])).toEqual([101, 91, 111, 81, 121]);
    await saving;
    vectorIndexAgrees(db);
    db.close();
    db = await Database.open({ dataDir: dir, storage: { log: null } });
    expect(population(db).from).toBe('file');
    vectorIndexAgrees(db);
    db.close();
  });
});

describe('vector and full-text indexes on a data directory', () => {
  it('come back after a restart, rebuilt from the store and the log', async () => {
    const dir = tempDir('graphdb-vector-');
    let db = await Database.open({ dataDir: dir, storage: { log: null } });
    db.executeSync(VECTOR_DDL);
    db.executeSync('UNWIND range(1, 50) AS i CREATE (:Doc {i: i, v: [toFloat(i), 0.0, 1.0, 2.0]})');
    db.executeSync('MATCH (n:Doc) WHERE n.i % 7 = 0 DELETE n');
    db.executeSync('MATCH (n:Doc) WHERE n.i % 5 = 0 SET n.v = [0.0, toFloat(n.i), 0.0, 0.0]');
    expect(() => db.executeSync('MATCH (n:Doc) SET n.v = [9.0, 9.0, 9.0, 9.0] WITH count(*) AS c RETURN 1 / 0')).toThrow();
    db.close();
    db = await Database.open({ dataDir: dir, storage: { log: null } });
    expect(rows(db, 'SHOW VECTOR INDEXES').map((r) => r[0])).toEqual(['emb']);
    vectorIndexAgrees(db);
    await db.checkpoint({ snapshot: true });
    db.close();
    db = await Database.open({ dataDir: dir, storage: { log: null } });
    vectorIndexAgrees(db);
    db.executeSync('DROP INDEX emb');
    db.close();
    db = await Database.open({ dataDir: dir, storage: { log: null } });
    expect(rows(db, 'SHOW VECTOR INDEXES')).toEqual([]);
    db.close();
  });

  it('agree with the graph after SIGKILL under write load', async () => {
    for (let trial = 0; trial < 2; trial++) {
      const dir = tempDir('graphdb-vector-crash-');
      const server = await startServer(dir, trial === 0 ? 40 : 100_000);
      const ddl = writeLoop(server.port, (i) => (i === 0 ? VECTOR_DDL : 'RETURN 1'));
      for (let t = 0; t < 500 && ddl.writer.acked.length === 0; t++) await new Promise((r) => setTimeout(r, 20));
      expect(ddl.writer.acked.length).toBeGreaterThan(0);
      expect(ddl.writer.errors).toEqual([]);
      const loops = Array.from({ length: 3 }, (_, c) =>
        writeLoop(server.port, (i) =>
          i % 10 === 9
            ? 'CALL db.checkpoint()'
            : i % 4 === 3
              ? `MATCH (n:Doc {c: ${c}, i: ${i - 2}}) DELETE n`
              : i % 4 === 2
                ? `MATCH (n:Doc {c: ${c}, i: ${i - 1}}) SET n.v = [${c}.5, ${i}.5, 1.0, 1.0]`
                : `CREATE (:Doc {c: ${c}, i: ${i}, v: [${c}.0, ${i}.0, 0.0, 1.0]})`,
        ),
      );
      // Kill once writes are flowing (a loaded machine can be slow to start), at a random moment after that.
      const acked = (): number => loops.reduce((n, l) => n + l.writer.acked.length, 0);
      for (let t = 0; t < 1500 && acked() < 6; t++) await new Promise((r) => setTimeout(r, 20));
      // The first trial also waits for a saved HNSW file, so that the reopen loads one and must catch it up.
      const saved = indexFiles(dir, 'emb').header;
      for (let t = 0; trial === 0 && t < 1500 && !fs.existsSync(saved); t++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, Math.random() * 500));
      server.child.kill('SIGKILL');
      await Promise.all([ddl.done, ...loops.map((l) => l.done)]);
      await exited(server.child);
      // A sound saved file (present, complete, matching its checksum) must be the one the reopen loads.
      const header = indexFiles(dir, 'emb').header;
      const def = fs.existsSync(header) ? (JSON.parse(splitHeaderFile(fs.readFileSync(header)).json) as { def: ExtensionIndexDef }).def : undefined;
      const soundFile = def !== undefined && loadIndexFiles(dir, def) !== null;
      const db = await Database.open({ dataDir: dir, storage: { log: null } });
      try {
        for (const l of loops) expect(l.writer.errors).toEqual([]);
        expect(loops.reduce((n, l) => n + l.writer.acked.length, 0)).toBeGreaterThan(0);
        expect(population(db).from).toBe(soundFile ? 'file' : 'built');
        vectorIndexAgrees(db);
      } finally {
        db.close();
      }
    }
  }, 120_000);
});

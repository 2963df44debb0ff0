/**
 * Full-text index files on a data directory: the index is saved at checkpoints and on
 * close, loaded on open and caught up with the recovered store (an older file, the WAL
 * tail after a checkpoint's save, a SIGKILL), and a damaged or undecodable file is refused
 * with a warning and the index rebuilt. Every check compares the loaded index's answers —
 * ids and BM25 scores — with those of the same index rebuilt from the store.
 */

import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { FULLTEXT_FILES, FulltextIndex } from '../../src/fulltext/fulltext-index.js';
import { crc32 } from '../../src/store/persist/crc32.js';
import { indexFiles } from '../../src/vector/persistence.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { exited, startServer, writeLoop } from '../crash/crash-harness.js';
import { rows } from './helpers.js';

afterAll(removeTempDirs);

const DDL = "CREATE FULLTEXT INDEX texts FOR (n:Doc|Note) ON EACH [n.title, n.body] OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}";
const WORDS = ['graph', 'vector', 'store', 'index', 'query', 'node', 'edge', 'label', 'search', 'rank'];
const QUERIES = ['graph', 'vector AND store', '"graph store"', 'inde*', 'serch~', 'title:rank', 'node OR edge NOT label', 'w7', 'w31', 'w64 OR w65'];

/** A document's text: a unique word `w<i>` and a few corpus words picked by `i`. */
function text(i: number, salt = 0): string {
  return `w${i} ${WORDS[(i + salt) % 10]} ${WORDS[(i * 3 + salt) % 10]} ${WORDS[(i * 7 + salt) % 10]} store`;
}

const files = (dir: string): { graph: string; header: string } => indexFiles(dir, 'texts', FULLTEXT_FILES);

/** Every query's answer (ids with scores), best first. */
function answers(db: Database): unknown[][] {
  return QUERIES.map((q) => rows(db, "CALL db.index.fulltext.queryNodes('texts', $q) YIELD node, score RETURN id(node), score ORDER BY score DESC, id(node)", { q }));
}

function population(db: Database): { from: unknown; caughtUp: unknown; size: unknown } {
  const options = rows(db, 'SHOW FULLTEXT INDEXES')[0][7] as { populatedFrom: unknown; caughtUp: unknown; size: unknown };
  return { from: options.populatedFrom, caughtUp: options.caughtUp, size: options.size };
}

/** Opens `dir` collecting warnings. */
async function open(dir: string): Promise<{ db: Database; warnings: string[] }> {
  const warnings: string[] = [];
  const db = await Database.open({ dataDir: dir, storage: { log: { write: (s: string) => void warnings.push(s) } } });
  return { db, warnings };
}

/** The answers of the index rebuilt from the store (its files moved away and put back). */
async function rebuiltAnswers(dir: string): Promise<unknown[][]> {
  const f = files(dir);
  const saved = { graph: fs.readFileSync(f.graph), header: fs.readFileSync(f.header) };
  fs.rmSync(f.graph);
  fs.rmSync(f.header);
  const { db } = await open(dir);
  try {
    expect(population(db).from).toBe('built');
    return answers(db);
  } finally {
    db.close();
    fs.writeFileSync(f.graph, saved.graph);
    fs.writeFileSync(f.header, saved.header);
  }
}

describe('full-text index files', () => {
  it('are loaded on open and caught up; a damaged or undecodable file is refused with a warning', async () => {
    const dir = tempDir('graphdb-fulltext-file-');
    const f = files(dir);
    let { db } = await open(dir);
    db.executeSync(DDL);
    db.executeSync('UNWIND range(1, 80) AS i CREATE (n:Doc {i: i, title: $titles[i - 1], body: $bodies[i - 1]})', {
      titles: Array.from({ length: 80 }, (_, i) => WORDS[i % 10]),
      bodies: Array.from({ length: 80 }, (_, i) => text(i + 1)),
    });
    db.executeSync("CREATE (:Note {i: 0, title: ['graph', 'store'], body: 'the notes'}), (:Doc {i: -1, title: 42})");
    db.close();
    expect(fs.existsSync(f.graph) && fs.existsSync(f.header)).toBe(true);

    let opened = await open(dir);
    db = opened.db;
    expect(population(db)).toEqual({ from: 'file', caughtUp: 0, size: 81 });
    expect(opened.warnings).toEqual([]);
    const loaded = answers(db);
    expect(loaded[0].length).toBeGreaterThan(10);
    const older = { graph: fs.readFileSync(f.graph), header: fs.readFileSync(f.header) };
    db.executeSync('MATCH (n:Doc) WHERE n.i % 8 = 0 DELETE n'); // 10 removed
    db.executeSync('MATCH (n:Doc) WHERE n.i % 8 = 1 SET n.body = $t', { t: text(999, 3) }); // 10 changed
    db.executeSync('MATCH (n:Doc) WHERE n.i % 8 = 2 REMOVE n:Doc'); // 10 no longer covered
    db.executeSync('MATCH (n:Doc) WHERE n.i % 8 = 3 SET n.unrelated = 1'); // 10 touched, text unchanged
    db.executeSync('UNWIND range(81, 85) AS i CREATE (:Doc {i: i, body: $t})', { t: text(5, 1) }); // 5 added
    db.close();

    // The file from before those writes, as a crash right after its save would leave it.
    fs.writeFileSync(f.graph, older.graph);
    fs.writeFileSync(f.header, older.header);
    opened = await open(dir);
    db = opened.db;
    expect(population(db)).toEqual({ from: 'file', caughtUp: 35, size: 66 });
    const caughtUp = answers(db);
    db.close();
    expect(caughtUp).toEqual(await rebuiltAnswers(dir));

    // A flipped byte: the checksum refuses the file.
    const bytes = fs.readFileSync(f.graph);
    bytes[bytes.length >> 1] ^= 0xff;
    fs.writeFileSync(f.graph, bytes);
    opened = await open(dir);
    expect(population(opened.db).from).toBe('built');
    expect(opened.warnings.join('')).toMatch(/full-text index texts: not loading its saved file, rebuilding it from the store: .*checksum/);
    expect(answers(opened.db)).toEqual(caughtUp);
    opened.db.close();

    // Bytes that pass the checksum (the header rewritten to match) but do not decode.
    const header = JSON.parse(fs.readFileSync(f.header, 'utf8')) as { bytes: number; crc32: number };
    const cut = fs.readFileSync(f.graph).subarray(0, header.bytes - 7);
    fs.writeFileSync(f.graph, cut);
    fs.writeFileSync(f.header, JSON.stringify({ ...header, bytes: cut.length, crc32: crc32(cut) }));
    opened = await open(dir);
    expect(population(opened.db).from).toBe('built');
    expect(opened.warnings.join('')).toMatch(/cannot be decoded/);
    expect(answers(opened.db)).toEqual(caughtUp);
    // DROP INDEX removes the files.
    opened.db.executeSync('DROP INDEX texts');
    expect(fs.existsSync(f.graph) || fs.existsSync(f.header)).toBe(false);
    opened.db.close();
  });

  it('a background save encodes in slices while writes go on; the file it leaves is caught up at open', async () => {
    const dir = tempDir('graphdb-fulltext-slices-');
    const f = files(dir);
    let { db } = await open(dir);
    db.executeSync(DDL);
    db.executeSync('UNWIND range(1, 7000) AS i CREATE (:Doc {i: i, title: $words[i % 10], body: "w" + i + " store graph"})', { words: WORDS });
    const index = db.schema.extensionIndex('texts') as FulltextIndex;
    const saving = index.saveAsync(db.storage!.seq);
    // The first slice is encoded; these land between slices, before and after the encoder reaches them.
    db.executeSync('MATCH (n:Doc) WHERE n.i % 50 = 0 DELETE n');
    db.executeSync('MATCH (n:Doc) WHERE n.i % 50 = 1 SET n.body = "changed vector " + n.i');
    db.executeSync('UNWIND range(7001, 7100) AS i CREATE (:Doc {i: i, body: "late w" + i})');
    await new Promise((r) => setImmediate(r));
    db.executeSync('MATCH (n:Doc) WHERE n.i % 50 = 2 REMOVE n:Doc');
    await saving;
    // What a crash right after this save leaves: its files (the close saves again).
    const saved = { graph: fs.readFileSync(f.graph), header: fs.readFileSync(f.header) };
    db.close();
    fs.writeFileSync(f.graph, saved.graph);
    fs.writeFileSync(f.header, saved.header);
    const opened = await open(dir);
    db = opened.db;
    const p = population(db);
    expect(p.from).toBe('file');
    expect(p.caughtUp).toBeGreaterThan(0);
    expect(p.size).toBe(7000 - 140 - 140 + 100 - 2); // 7002 and 7052 lost the label too
    const loaded = answers(db);
    expect(rows(db, "CALL db.index.fulltext.queryNodes('texts', 'changed') YIELD node RETURN count(*)")).toEqual([[140]]);
    db.close();
    expect(loaded).toEqual(await rebuiltAnswers(dir));
  });

  it('a checkpoint saves it; after SIGKILL the saved file is loaded and the WAL tail after it replayed into it', async () => {
    const dir = tempDir('graphdb-fulltext-crash-');
    const f = files(dir);
    const server = await startServer(dir);
    const first = writeLoop(server.port, (i) =>
      i === 0 ? DDL : i <= 60 ? `CREATE (:Doc {i: ${i}, title: '${WORDS[i % 10]}', body: '${text(i)}'})` : i === 61 ? 'CALL db.checkpoint()' : 'RETURN 1',
    );
    for (let t = 0; t < 1500 && !fs.existsSync(f.header); t++) await new Promise((r) => setTimeout(r, 20));
    expect(fs.existsSync(f.header)).toBe(true);
    expect(first.writer.errors).toEqual([]);
    const savedHeader = fs.readFileSync(f.header);
    // The WAL tail: writes after the checkpoint's save, never checkpointed.
    const tail = writeLoop(server.port, (i) =>
      i % 3 === 0
        ? `CREATE (:Doc {i: ${100 + i}, body: '${text(100 + i, 2)}'})`
        : i % 3 === 1
          ? `MATCH (n:Doc {i: ${i}}) SET n.body = '${text(i, 5)}'`
          : `MATCH (n:Doc {i: ${i}}) DELETE n`,
    );
    for (let t = 0; t < 1500 && tail.writer.acked.length < 30; t++) await new Promise((r) => setTimeout(r, 20));
    server.child.kill('SIGKILL');
    await Promise.all([first.done, tail.done]);
    await exited(server.child);
    expect(tail.writer.errors).toEqual([]);
    expect(tail.writer.acked.length).toBeGreaterThanOrEqual(30);
    // No checkpoint ran after the save: the file is the one the checkpoint wrote.
    expect(fs.readFileSync(f.header)).toEqual(savedHeader);

    const { db, warnings } = await open(dir);
    let loaded: unknown[][];
    try {
      expect(warnings.filter((w) => /full-text/.test(w))).toEqual([]);
      expect(population(db)).toMatchObject({ from: 'file', caughtUp: 0 });
      expect(db.storage?.recovery.walRecordsReplayed).toBeGreaterThanOrEqual(30);
      // Each acknowledged tail write is in the index.
      for (const i of tail.writer.acked) {
        const hits = rows(db, "CALL db.index.fulltext.queryNodes('texts', $q) YIELD node RETURN node.i", { q: i % 3 === 0 ? `w${100 + i}` : `w${i}` });
        if (i % 3 === 0) expect(hits).toEqual([[100 + i]]);
        if (i % 3 === 2) expect(hits).toEqual([]);
      }
      loaded = answers(db);
    } finally {
      db.close();
    }
    expect(loaded).toEqual(await rebuiltAnswers(dir));
  }, 120_000);
});

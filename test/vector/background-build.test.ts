/**
 * A large vector index is built in the background: SHOW VECTOR INDEXES reports POPULATING with
 * the share done, queries meanwhile give the exact answer, writes made meanwhile are in the
 * index once it is built, db.awaitIndex completes the build at once, a drop stops it, a
 * data directory closed mid-build opens with the index whole, a rebuild after many updates
 * goes on answering from the graph it replaces, and writes move a build on even when the
 * event loop never turns. The threshold is lowered so that
 * a few hundred vectors take that path.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { VectorIndex } from '../../src/vector/hnsw-index.js';
import { rows } from './helpers.js';

const N = 3000;
const DDL = "CREATE VECTOR INDEX big FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {`vector.dimensions`: 8, `vector.similarity_function`: 'cosine'}}";
const LOAD = `UNWIND range(0, ${N - 1}) AS i CREATE (:Doc {i: i, emb: [x IN range(0, 7) | sin(i * 1.3 + x * 0.7) + 0.01 * x]})`;
const QUERY = [0.3, -0.2, 0.9, 0.1, -0.5, 0.4, 0.2, -0.1];

const state = (db: Database): { state: unknown; percent: number } => {
  const [row] = rows(db, 'SHOW VECTOR INDEXES');
  return { state: row[1], percent: row[2] as number };
};
const nearest = (db: Database, k: number): unknown[] =>
  rows(db, "CALL db.index.vector.queryNodes('big', $k, $q) YIELD node RETURN node.i AS i", { k, q: QUERY }).map((r) => r[0]);
const exact = (db: Database, k: number): unknown[] =>
  rows(db, 'MATCH (d:Doc) RETURN d.i AS i ORDER BY vector.similarity.cosine(d.emb, $q) DESC, i LIMIT $k', { k, q: QUERY }).map((r) => r[0]);
const untilOnline = async (db: Database): Promise<void> => {
  for (let i = 0; i < 2000 && state(db).state !== 'ONLINE'; i++) await new Promise((r) => setTimeout(r, 5));
};

describe('a vector index built in the background', () => {
  const before = { from: VectorIndex.backgroundBuildFrom, work: VectorIndex.syncRebuildWork };
  const dirs: string[] = [];
  beforeAll(() => {
    VectorIndex.backgroundBuildFrom = 500;
    VectorIndex.syncRebuildWork = 500 * 108;
  });
  afterAll(() => {
    VectorIndex.backgroundBuildFrom = before.from;
    VectorIndex.syncRebuildWork = before.work;
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is POPULATING at first, answers exactly meanwhile, follows writes made meanwhile, and comes ONLINE', async () => {
    const db = Database.openInMemory();
    db.executeSync(LOAD);
    db.executeSync(DDL);
    expect(state(db)).toEqual({ state: 'POPULATING', percent: 0 });
    expect(nearest(db, 10)).toEqual(exact(db, 10));
    // A filtered search still fills k from every covered entity.
    const filtered = rows(db, "CALL db.index.vector.queryNodes('big', 10, $q) YIELD node WHERE node.i % 7 = 3 RETURN node.i AS i", { q: QUERY }).map((r) => r[0]);
    const filteredExact = rows(db, 'MATCH (d:Doc) WHERE d.i % 7 = 3 RETURN d.i AS i ORDER BY vector.similarity.cosine(d.emb, $q) DESC, i LIMIT 10', { q: QUERY }).map((r) => r[0]);
    expect(filtered).toEqual(filteredExact);
    // A node made while the index is built, equal to the query: the best answer, then and after.
    db.executeSync('CREATE (:Doc {i: -1, emb: $q})', { q: QUERY });
    db.executeSync('MATCH (d:Doc) WHERE 0 <= d.i < 100 DETACH DELETE d');
    expect(nearest(db, 5)).toEqual(exact(db, 5));
    expect(nearest(db, 1)).toEqual([-1]);
    await untilOnline(db);
    expect(state(db)).toEqual({ state: 'ONLINE', percent: 100 });
    expect(rows(db, 'SHOW VECTOR INDEXES')[0][7]).toMatchObject({ size: N - 100 + 1 });
    expect(nearest(db, 1)).toEqual([-1]);
    // Approximate now, and good: the exact top 10 share at least 8 with it.
    const got = nearest(db, 10);
    expect(exact(db, 10).filter((i) => got.includes(i)).length).toBeGreaterThanOrEqual(8);
    db.close();
  });

  it('is completed at once by db.awaitIndex, and a drop stops it', async () => {
    const db = Database.openInMemory();
    db.executeSync(LOAD);
    db.executeSync(DDL);
    expect(state(db).state).toBe('POPULATING');
    db.executeSync("CALL db.awaitIndex('big')");
    expect(state(db)).toEqual({ state: 'ONLINE', percent: 100 });
    db.executeSync('DROP INDEX big');
    db.executeSync(DDL);
    expect(state(db).state).toBe('POPULATING');
    db.executeSync('DROP INDEX big');
    // The dropped build's slices find it gone and stop; nothing fails meanwhile.
    await new Promise((r) => setTimeout(r, 50));
    expect(rows(db, 'SHOW VECTOR INDEXES')).toEqual([]);
    expect(rows(db, 'MATCH (d:Doc) RETURN count(d) AS c')).toEqual([[N]]);
    db.close();
  });

  it('a data directory closed mid-build opens with the index whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-vbuild-'));
    dirs.push(dir);
    let db = await Database.open({ dataDir: dir });
    db.executeSync(LOAD);
    db.executeSync(DDL);
    expect(state(db).state).toBe('POPULATING');
    db.close();
    db = await Database.open({ dataDir: dir });
    await untilOnline(db);
    expect(rows(db, 'SHOW VECTOR INDEXES')[0][7]).toMatchObject({ size: N });
    expect(nearest(db, 3)).toEqual(exact(db, 3));
    db.close();
  });

  it('a rebuild after many updates goes on searching the graph it replaces, and the updates made meanwhile', async () => {
    const db = Database.openInMemory();
    db.executeSync(LOAD);
    db.executeSync(DDL);
    db.executeSync("CALL db.awaitIndex('big')");
    const index = db.schema.extensionIndex('big') as VectorIndex;
    // Every vector changed once: N deleted elements, then one more sets off the rebuild.
    db.executeSync('MATCH (d:Doc) SET d.emb = [x IN d.emb | x * 2.0 + 0.001]');
    db.executeSync('MATCH (d:Doc {i: 0}) SET d.emb = $q', { q: QUERY });
    expect(state(db).state).toBe('POPULATING');
    const exactSearch = vi.spyOn(index, 'exactSearch');
    const found = nearest(db, 10);
    expect(exactSearch).not.toHaveBeenCalled();
    expect(found[0]).toBe(0);
    // Approximate, on the replaced graph plus the held-back change: most of the exact answer.
    const truth = exact(db, 10);
    expect(found.filter((i) => truth.includes(i)).length).toBeGreaterThanOrEqual(8);
    db.executeSync('MATCH (d:Doc {i: 1}) DETACH DELETE d');
    expect(nearest(db, 50)).not.toContain(1);
    await untilOnline(db);
    expect(index.elements).toBe(N - 1);
    expect(nearest(db, 1)).toEqual([0]);
    expect(nearest(db, 50)).not.toContain(1);
    db.close();
  });

  it('writes made in a loop that never yields still bring a background build to its end', () => {
    const db = Database.openInMemory();
    db.executeSync(LOAD);
    db.executeSync(DDL);
    expect(state(db).state).toBe('POPULATING');
    // No await: the event loop never turns, so only the writes themselves move the build on.
    let writes = 0;
    while (state(db).state !== 'ONLINE' && writes < 20_000) db.executeSync('MATCH (d:Doc {i: $i}) SET d.seen = true', { i: writes++ % N });
    expect(state(db).state).toBe('ONLINE');
    expect(writes).toBeLessThan(20_000);
    expect(nearest(db, 10)).toEqual(exact(db, 10));
    db.close();
  });
});

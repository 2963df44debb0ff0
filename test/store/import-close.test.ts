// A bulk import into a data directory (importCsv through the library, as `graphdb import` does)
// followed by a close, a write, a reopen: what the directory holds afterwards must be the
// imported graph, never the graph as it was before the import (issue: stale snapshot at close).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { importCsv } from '../../src/engine/csv-import.js';
import { snapshotHeaderSeq } from '../../src/store/persist/snapshot-reader.js';
import { quiet, removeTempDirs, rows, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

const PEOPLE = 'id:ID,name,age:int\n1,Ann,30\n2,Bob,40\n3,Cy,50\n';
const KNOWS = ':START_ID,:END_ID,since:int\n1,2,2020\n2,3,2021\n';

function csvFiles(): { people: string; knows: string } {
  const dir = tempDir('graphdb-import-csv-');
  const people = path.join(dir, 'people.csv');
  const knows = path.join(dir, 'knows.csv');
  fs.writeFileSync(people, PEOPLE);
  fs.writeFileSync(knows, KNOWS);
  return { people, knows };
}

async function importInto(db: Database): Promise<void> {
  const { people, knows } = csvFiles();
  const summary = await importCsv(db, [
    { kind: 'nodes', path: people, defaults: ['Person'] },
    { kind: 'relationships', path: knows, defaults: ['KNOWS'] },
  ]);
  expect(summary.path).toBe('store');
}

const SHAPE = 'MATCH (a:Person)-[r:KNOWS]->(b) RETURN a.name, r.since, b.name ORDER BY r.since';
const IMPORTED = [
  ['Ann', 2020, 'Bob'],
  ['Bob', 2021, 'Cy'],
];

function counts(db: Database): unknown[][] {
  return rows(db, 'MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n), count(r)');
}

/** Opens `dir` from its snapshot alone (graphdb.lmdb moved aside), as start-up does when the store is lost. */
async function openFromSnapshot(dir: string): Promise<Database> {
  const copy = tempDir('graphdb-import-snap-');
  for (const name of ['graphdb.snapshot.json', 'graphdb.wal']) {
    if (fs.existsSync(path.join(dir, name))) fs.copyFileSync(path.join(dir, name), path.join(copy, name));
  }
  return Database.open({ dataDir: copy, storage: quiet });
}

describe('bulk import into a data directory, then close', () => {
  it('the graph in memory after the import is the imported one, and close writes its snapshot', async () => {
    const dir = tempDir();
    const before = await Database.open({ dataDir: dir, storage: quiet });
    before.executeSync("CREATE (:Person {name: 'Old'})");
    before.close();
    const db = await Database.open({ dataDir: dir, storage: quiet });
    await importInto(db);
    expect(counts(db)).toEqual([[4, 2]]);
    expect(rows(db, SHAPE)).toEqual(IMPORTED);
    db.close();
    expect(snapshotHeaderSeq(path.join(dir, 'graphdb.snapshot.json'))).toBeDefined();
    const reopened = await Database.open({ dataDir: dir, storage: quiet });
    expect(counts(reopened)).toEqual([[4, 2]]);
    expect(rows(reopened, SHAPE)).toEqual(IMPORTED);
    reopened.close();
    // The snapshot on its own holds the import too.
    const fromSnapshot = await openFromSnapshot(dir);
    expect(fromSnapshot.storage?.recovery.source).toBe('snapshot');
    expect(counts(fromSnapshot)).toEqual([[4, 2]]);
    expect(rows(fromSnapshot, SHAPE)).toEqual(IMPORTED);
    fromSnapshot.close();
  });

  it('a write after the import in the same process survives the close and a reopen, with the import', async () => {
    const dir = tempDir();
    const db = await Database.open({ dataDir: dir, storage: quiet });
    await importInto(db);
    db.executeSync("MATCH (c:Person {name: 'Cy'}) CREATE (c)-[:KNOWS {since: 2022}]->(:Person {name: 'Di'})");
    expect(counts(db)).toEqual([[4, 3]]);
    db.close();
    const expected = [...IMPORTED, ['Cy', 2022, 'Di']];
    const reopened = await Database.open({ dataDir: dir, storage: quiet });
    expect(rows(reopened, SHAPE)).toEqual(expected);
    reopened.executeSync("MATCH (d:Person {name: 'Di'}) SET d.age = 60");
    reopened.close();
    const again = await Database.open({ dataDir: dir, storage: quiet });
    expect(rows(again, SHAPE)).toEqual(expected);
    expect(rows(again, "MATCH (d:Person {name: 'Di'}) RETURN d.age")).toEqual([[60]]);
    again.close();
    const fromSnapshot = await openFromSnapshot(dir);
    expect(rows(fromSnapshot, SHAPE)).toEqual(expected);
    fromSnapshot.close();
  });

  it('as graphdb import runs it (no snapshot at close), the next open and close write the imported graph', async () => {
    const dir = tempDir();
    const db = await Database.open({ dataDir: dir, storage: { ...quiet, snapshotOnClose: false } });
    await importInto(db);
    db.close();
    const reopened = await Database.open({ dataDir: dir, storage: quiet });
    expect(rows(reopened, SHAPE)).toEqual(IMPORTED);
    reopened.close();
    const fromSnapshot = await openFromSnapshot(dir);
    expect(rows(fromSnapshot, SHAPE)).toEqual(IMPORTED);
    fromSnapshot.close();
  });
});

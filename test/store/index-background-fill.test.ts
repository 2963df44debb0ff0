/**
 * A served database fills a new property index over a large label in the background
 * (`Database.fillIndexesInBackground`, `Schema.addIndex`): SHOW INDEXES and db.indexes say
 * POPULATING, the planner leaves the index alone until it is online, writes made during the
 * fill (changed, removed and new values, deleted and relabelled nodes, a rolled-back
 * transaction) end up filed exactly as a scan sees them, db.awaitIndex completes it at once,
 * a uniqueness constraint on the same key waits for it, a DROP stops it, and a store closed
 * mid-fill opens with the index whole. The library without a server keeps building at once.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/index.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { Schema } from '../../src/store/schema.js';
import { openDb, removeTempDirs, tempDir } from './persist-helpers.js';

// Slices of 256 members, so that the fill takes many turns and the writes below land while it runs.
const sliceMs = Schema.fillSliceMs;
beforeAll(() => {
  Schema.fillSliceMs = 0;
});
afterAll(() => {
  Schema.fillSliceMs = sliceMs;
  removeTempDirs();
});

const MEMBERS = 6000;
const SEEK = 'MATCH (p:P) WHERE p.name = $name RETURN id(p) AS id ORDER BY id';
// The same question in a form no index can answer.
const SCAN = "MATCH (p:P) WHERE p.name + '' = $name RETURN id(p) AS id ORDER BY id";

function load(db: Database): void {
  db.executeSync(`UNWIND range(0, ${MEMBERS - 1}) AS i CREATE (:P {name: 'n' + toString(i % 1500), i: i})`);
}

function indexState(db: Database, name: string): string {
  const row = db.executeSync('SHOW INDEXES YIELD name, state, type, entityType, labelsOrTypes, properties, owningConstraint').records.find((r) => r[0] === name);
  return String(row?.[1]);
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function untilOnline(db: Database, name: string): Promise<number> {
  let turns = 0;
  while (indexState(db, name) !== 'ONLINE') {
    await turn();
    if (++turns > 100_000) throw new Error('the index never came online');
  }
  return turns;
}

const ids = (db: Database, q: string, name: string): number[] => db.executeSync(q, { name }).records.map((r) => Number(r[0]));

describe('background fill of a property index', () => {
  it('is POPULATING at first, unused by the planner, and ends up exactly as a scan after writes made meanwhile', async () => {
    const db = Database.openInMemory();
    load(db);
    db.fillIndexesInBackground(1000);
    db.executeSync('CREATE INDEX p_name FOR (p:P) ON (p.name)');
    expect(indexState(db, 'p_name')).toBe('POPULATING');
    const listed = db.executeSync('CALL db.indexes() YIELD name, state, populationPercent RETURN name, state, populationPercent').records;
    expect(listed[0].slice(0, 2)).toEqual(['p_name', 'POPULATING']);
    expect(db.explain(SEEK)).not.toContain('NodeIndexSeek');
    // Answers during the fill are right (the planner scans).
    expect(ids(db, SEEK, 'n7')).toEqual(ids(db, SCAN, 'n7'));

    // Writes while it fills, some to members it has not reached yet.
    db.executeSync("MATCH (p:P) WHERE p.i % 97 = 0 SET p.name = 'changed' + toString(p.i % 5)");
    db.executeSync('MATCH (p:P) WHERE p.i % 89 = 1 REMOVE p.name');
    db.executeSync('MATCH (p:P) WHERE p.i % 83 = 2 DETACH DELETE p');
    db.executeSync('MATCH (p:P) WHERE p.i % 79 = 3 REMOVE p:P SET p:Q');
    db.executeSync("UNWIND range(1, 50) AS k CREATE (:P {name: 'n' + toString(k), i: -k})");
    await turn();
    expect(indexState(db, 'p_name')).toBe('POPULATING');
    // A failed transaction leaves nothing of its writes in the index.
    expect(() => db.executeSync("MATCH (p:P) WHERE p.i % 71 = 4 SET p.name = 'rolled back' WITH count(*) AS c RETURN 1 / 0")).toThrow();
    db.executeSync("MATCH (p:P) WHERE p.i = 4000 SET p.i = 4000.5, p.name = 'late'");

    const turns = await untilOnline(db, 'p_name');
    expect(turns).toBeGreaterThan(0);
    expect(db.explain(SEEK)).toContain('NodeIndexSeek');
    const names = db.executeSync('MATCH (n) WHERE n.name IS NOT NULL RETURN DISTINCT n.name AS name').records.map((r) => String(r[0]));
    for (const name of [...names, 'rolled back', 'absent']) expect(ids(db, SEEK, name), name).toEqual(ids(db, SCAN, name));
    expect(ids(db, SEEK, 'rolled back')).toEqual([]);
    db.close();
  });

  it('db.awaitIndex completes the fill at once', () => {
    const db = Database.openInMemory();
    load(db);
    db.fillIndexesInBackground(1000);
    db.executeSync('CREATE INDEX p_name FOR (p:P) ON (p.name)');
    expect(indexState(db, 'p_name')).toBe('POPULATING');
    db.executeSync("CALL db.awaitIndex('p_name')");
    expect(indexState(db, 'p_name')).toBe('ONLINE');
    expect(db.explain(SEEK)).toContain('NodeIndexSeek');
    expect(ids(db, SEEK, 'n11')).toEqual(ids(db, SCAN, 'n11'));
    expect(ids(db, SEEK, 'n11')).toHaveLength(4);
    db.close();
  });

  it('a uniqueness constraint on the key completes the fill first, and then finds the duplicates', () => {
    const db = Database.openInMemory();
    load(db);
    db.fillIndexesInBackground(1000);
    db.executeSync('CREATE INDEX p_name FOR (p:P) ON (p.name)');
    expect(() => db.executeSync('CREATE CONSTRAINT p_unique FOR (p:P) REQUIRE p.name IS UNIQUE')).toThrow(/already exists with label `P` and property `name`/);
    expect(indexState(db, 'p_name')).toBe('ONLINE');
    db.executeSync('CREATE INDEX p_i FOR (p:P) ON (p.i)');
    // A column of 32-bit integers is built at once, whatever the size.
    expect(indexState(db, 'p_i')).toBe('ONLINE');
    db.close();
  });

  it('stops when the index is dropped', async () => {
    const db = Database.openInMemory();
    load(db);
    db.fillIndexesInBackground(1000);
    db.executeSync('CREATE INDEX p_name FOR (p:P) ON (p.name)');
    db.executeSync('DROP INDEX p_name');
    for (let i = 0; i < 20; i++) await turn();
    expect(db.executeSync('SHOW INDEXES').records).toEqual([]);
    expect(ids(db, SEEK, 'n3')).toEqual(ids(db, SCAN, 'n3'));
    db.close();
  });

  it('is what a query router turns on; the library alone builds at once', () => {
    const plain = Database.openInMemory();
    load(plain);
    plain.executeSync('CREATE INDEX p_name FOR (p:P) ON (p.name)');
    expect(indexState(plain, 'p_name')).toBe('ONLINE');
    plain.close();

    const served = Database.openInMemory();
    new QueryRouter(served, undefined);
    expect(served.schema.backgroundFillFrom).toBe(100_000);
    served.close();
  });

  it('a store closed during the fill opens with the index whole', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    load(db);
    db.fillIndexesInBackground(1000);
    db.executeSync('CREATE INDEX p_name FOR (p:P) ON (p.name)');
    expect(indexState(db, 'p_name')).toBe('POPULATING');
    db.close();
    const reopened = await openDb(dir);
    expect(indexState(reopened, 'p_name')).toBe('ONLINE');
    expect(reopened.explain(SEEK)).toContain('NodeIndexSeek');
    expect(ids(reopened, SEEK, 'n42')).toEqual(ids(reopened, SCAN, 'n42'));
    expect(ids(reopened, SEEK, 'n42')).toHaveLength(4);
    reopened.close();
  });
});

describe('a served uniqueness constraint over a large label', () => {
  const emails = (db: Database): void => {
    db.executeSync(`UNWIND range(0, ${MEMBERS - 1}) AS i CREATE (:P {email: 'user' + toString(i) + '@example.org', i: i})`);
  };
  const constraintIndex = (db: Database): unknown[] | undefined => db.executeSync('SHOW INDEXES YIELD name, state, type, entityType, labelsOrTypes, properties, owningConstraint').records.find((r) => r[0] === 'p_email') as unknown[] | undefined;

  it('fills its index in the background, with turns of the event loop between slices, then checks it', async () => {
    const db = Database.openInMemory();
    emails(db);
    db.fillIndexesInBackground(1000);
    let turns = 0;
    let seen: unknown[] | undefined;
    const creating = db.execute('CREATE CONSTRAINT p_email FOR (p:P) REQUIRE p.email IS UNIQUE');
    const ticker = async (): Promise<void> => {
      for (;;) {
        await turn();
        turns++;
        seen ??= constraintIndex(db);
        if (db.executeSync('SHOW CONSTRAINTS').records.length > 0) return;
      }
    };
    await Promise.all([creating, ticker()]);
    expect(turns).toBeGreaterThan(1);
    // While it filled, SHOW INDEXES listed it as the constraint's, populating.
    expect(seen).toEqual(['p_email', 'POPULATING', 'RANGE', 'NODE', ['P'], ['email'], 'p_email']);
    expect(constraintIndex(db)).toEqual(['p_email', 'ONLINE', 'RANGE', 'NODE', ['P'], ['email'], 'p_email']);
    await expect(db.execute("CREATE (:P {email: 'user7@example.org'})")).rejects.toThrow(/already exists with label `P` and property `email`/);
    db.executeSync('DROP CONSTRAINT p_email');
    expect(db.executeSync('SHOW INDEXES').records).toEqual([]);
    db.close();
  });

  it('fails on duplicates, including one written while the index filled, and leaves no index behind', async () => {
    const db = Database.openInMemory();
    emails(db);
    db.fillIndexesInBackground(1000);
    const creating = db.execute('CREATE CONSTRAINT p_email FOR (p:P) REQUIRE p.email IS UNIQUE');
    await turn();
    db.executeSync("MATCH (p:P {i: 5000}) SET p.email = 'user4999@example.org'");
    await expect(creating).rejects.toThrow(/^Node\(4999\) already exists with label `P` and property `email` = 'user4999@example.org'/);
    expect(db.executeSync('SHOW CONSTRAINTS').records).toEqual([]);
    expect(db.executeSync('SHOW INDEXES').records).toEqual([]);
    // The data fixed, the same command succeeds.
    db.executeSync("MATCH (p:P {i: 5000}) SET p.email = 'fixed@example.org'");
    await db.execute('CREATE CONSTRAINT p_email FOR (p:P) REQUIRE p.email IS UNIQUE');
    expect(db.executeSync('SHOW CONSTRAINTS').records).toHaveLength(1);
    db.close();
  });
});

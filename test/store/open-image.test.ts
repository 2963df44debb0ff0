// The open image (graphdb.image, src/store/persist/open-image.ts): written at a clean close,
// used at the next open only while it is of the store as it is, refused (one warning, then the
// store's own load) when stale, damaged or cut short; never left as the only copy of anything.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childLoader, childModule } from '../compiled-child.js';
import { Database } from '../../src/engine/database.js';
import { importCsv } from '../../src/engine/csv-import.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { IMAGE_FILE } from '../../src/store/persist/open-image.js';
import { parallelReadDefaults, type ParallelReadOptions } from '../../src/store/persist/parallel-read.js';
import { removeTempDirs, rows, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const checkpoint = { records: 1e9, walBytes: 1e12, intervalMs: 1e9 };

async function open(dir: string, lines: string[] = [], openImage?: boolean): Promise<Database> {
  return Database.open({ dataDir: dir, storage: { log: { write: (t: string) => lines.push(t) }, checkpoint, openImage } });
}

/** A graph with several labels and types, typed and mixed properties, deleted entities and an index. */
function build(db: Database): void {
  db.executeSync(
    "UNWIND range(0, 2999) AS i CREATE (:Person {id: i, name: 'p' + i, score: i / 7.0, tags: ['a', toString(i % 5)], born: date('2000-01-01') + duration({days: i})})",
  );
  db.executeSync("UNWIND range(0, 199) AS i CREATE (:City {id: i, name: 'c' + i, big: i % 3 = 0})");
  db.executeSync('MATCH (p:Person), (c:City) WHERE c.id = p.id % 200 CREATE (p)-[:LIVES_IN {since: p.id % 30}]->(c)');
  db.executeSync('MATCH (a:Person), (b:Person) WHERE b.id = (a.id * 7 + 1) % 3000 CREATE (a)-[:KNOWS {w: a.id % 11}]->(b)');
  db.executeSync('MATCH (p:Person) WHERE p.id % 97 = 0 DETACH DELETE p');
  db.executeSync("MATCH (p:Person) WHERE p.id % 13 = 0 SET p:Admin, p.extra = CASE WHEN p.id % 2 = 0 THEN p.id ELSE 'x' + toString(p.id) END");
  db.executeSync('CREATE INDEX FOR (p:Person) ON (p.id)');
}

const QUERIES = [
  'MATCH (n) RETURN count(n)',
  'MATCH ()-[r]->() RETURN type(r), count(r) ORDER BY type(r)',
  'MATCH (p:Person {id: 1234}) RETURN id(p), p.name, p.score, p.tags, toString(p.born)',
  'MATCH (p:Admin)-[k:KNOWS]->(q)-[:LIVES_IN]->(c:City) RETURN id(p), k.w, id(q), c.name, p.extra ORDER BY id(p) LIMIT 25',
  'MATCH (c:City)<-[r:LIVES_IN]-(p) WHERE c.big RETURN c.id, count(p), sum(r.since) ORDER BY c.id LIMIT 20',
  'MATCH (p:Person) WHERE p.id >= 2990 RETURN id(p), p.id ORDER BY p.id',
];

function answers(db: Database): unknown[][][] {
  return QUERIES.map((q) => rows(db, q));
}

function flipByte(file: string, offset: number): void {
  const fd = fs.openSync(file, 'r+');
  const b = Buffer.alloc(1);
  fs.readSync(fd, b, 0, 1, offset);
  b[0] ^= 0x5a;
  fs.writeSync(fd, b, 0, 1, offset);
  fs.closeSync(fd);
}

/** A directory holding the test graph, closed cleanly (so with an image), and the answers it gives. */
async function prepared(): Promise<{ dir: string; expected: unknown[][][] }> {
  const dir = tempDir('graphdb-image-');
  const db = await open(dir);
  build(db);
  const expected = answers(db);
  db.close();
  return { dir, expected };
}

describe('open image', () => {
  it('is written at close and used at open: same answers, same ids; writes after it survive', async () => {
    const { dir, expected } = await prepared();
    const image = path.join(dir, IMAGE_FILE);
    expect(fs.statSync(image).size).toBeGreaterThan(0);
    const lines: string[] = [];
    const db = await open(dir, lines);
    expect(db.storage?.recovery.fromImage).toBe(true);
    expect(answers(db)).toEqual(expected);
    expect(lines).toEqual([]);
    // Writes on the image-loaded graph: a new node, a new relationship on old nodes, a changed value, a delete.
    db.executeSync("MATCH (a:Person {id: 5}), (b:Person {id: 6}) CREATE (a)-[:KNOWS {w: 99}]->(b), (:Person {id: 5000, name: 'new'})");
    db.executeSync("MATCH (p:Person {id: 7}) SET p.name = 'seven', p.score = 0.5");
    db.executeSync('MATCH (p:Person {id: 8}) DETACH DELETE p');
    const after = answers(db);
    const probe = "MATCH (a:Person {id: 5})-[k:KNOWS {w: 99}]->(b) RETURN id(a), id(b), id(k)";
    const probeRows = rows(db, probe);
    expect(probeRows).toHaveLength(1);
    db.close();
    for (const openImage of [true, false]) {
      const again = await open(dir, [], openImage);
      expect(again.storage?.recovery.fromImage).toBe(openImage);
      expect(answers(again)).toEqual(after);
      expect(rows(again, probe)).toEqual(probeRows);
      expect(rows(again, "MATCH (p:Person) WHERE p.id IN [7, 8, 5000] RETURN p.id, p.name, p.score ORDER BY p.id")).toEqual([
        [7, 'seven', 0.5],
        [5000, 'new', null],
      ]);
      again.close();
    }
    // openImage: false removed it and wrote none; the next close writes it again.
    expect(fs.existsSync(image)).toBe(false);
    const last = await open(dir);
    expect(last.storage?.recovery.fromImage).toBe(false);
    last.close();
    expect(fs.existsSync(image)).toBe(true);
    const fromImage = await open(dir);
    expect(fromImage.storage?.recovery.fromImage).toBe(true);
    expect(answers(fromImage)).toEqual(after);
    fromImage.close();
  }, 60_000);

  it('a graph opened from the image serves a query worker: same answers, and its writes survive', async () => {
    const { dir, expected } = await prepared();
    const db = await open(dir);
    expect(db.storage?.recovery.fromImage).toBe(true);
    const pool = await QueryWorkerPool.start(db, 1);
    const router = new QueryRouter(db, pool);
    let after: unknown[][][];
    try {
      for (const [i, q] of QUERIES.entries()) expect((await router.execute(q)).records, q).toEqual(expected[i]);
      await router.execute("MATCH (p:Person {id: 42}) SET p.name = 'forty-two' CREATE (p)-[:KNOWS {w: 7}]->(:Person {id: 8000})");
      expect((await router.execute('MATCH (p:Person {id: 42})-[:KNOWS {w: 7}]->(q) RETURN p.name, q.id')).records).toEqual([['forty-two', 8000]]);
      after = answers(db);
    } finally {
      await pool.close();
      db.close();
    }
    for (const openImage of [true, false]) {
      const again = await open(dir, [], openImage);
      expect(again.storage?.recovery.fromImage).toBe(openImage);
      expect(answers(again)).toEqual(after);
      again.close();
    }
  }, 60_000);

  it('a stale image (of the store before a later write) is refused with a warning', async () => {
    const { dir, expected } = await prepared();
    const image = path.join(dir, IMAGE_FILE);
    const old = fs.readFileSync(image);
    const db = await open(dir);
    db.executeSync("CREATE (:Person {id: 7000, name: 'later'})");
    const after = answers(db);
    expect(after).not.toEqual(expected);
    db.close();
    fs.writeFileSync(image, old);
    const lines: string[] = [];
    const again = await open(dir, lines);
    expect(again.storage?.recovery.fromImage).toBe(false);
    expect(lines.join('')).toMatch(/graphdb\.image was taken from another state of the store.*stale/);
    expect(lines).toHaveLength(1);
    expect(answers(again)).toEqual(after);
    again.close();
  }, 60_000);

  it('a stale image is refused even while the WAL still holds the write (crash after a checkpoint)', async () => {
    const { dir } = await prepared();
    const image = path.join(dir, IMAGE_FILE);
    const old = fs.readFileSync(image);
    const db = await open(dir);
    db.executeSync("CREATE (:Person {id: 7001, name: 'later'})");
    await db.storage!.checkpointAsync();
    db.executeSync("CREATE (:Person {id: 7002, name: 'later still'})");
    const after = answers(db);
    // A crash image of the directory now, with the old graphdb.image put back.
    const copy = tempDir('graphdb-image-crash-');
    for (const name of fs.readdirSync(dir)) {
      if (name === 'graphdb.lock' || name.endsWith('-lock')) continue;
      fs.copyFileSync(path.join(dir, name), path.join(copy, name));
    }
    fs.writeFileSync(path.join(copy, IMAGE_FILE), old);
    db.close();
    const lines: string[] = [];
    const again = await open(copy, lines);
    expect(again.storage?.recovery.fromImage).toBe(false);
    expect(lines.join('')).toMatch(/stale/);
    expect(answers(again)).toEqual(after);
    again.close();
  }, 60_000);

  it('a damaged section, a damaged header or a cut-short file: one warning, then the store, with the right data', async () => {
    const { dir, expected } = await prepared();
    const image = path.join(dir, IMAGE_FILE);
    const good = fs.readFileSync(image);
    const headerLength = good.readUInt32LE(8);
    const cases: [string, () => void, RegExp][] = [
      ['section', () => flipByte(image, good.length - 100), /damaged section \d+ .*checksum/],
      ['header', () => flipByte(image, 16 + Math.floor(headerLength / 2)), /header that fails its checksum/],
      ['truncated', () => fs.truncateSync(image, Math.floor(good.length / 2)), /cut short/],
      ['header cut', () => fs.truncateSync(image, 20), /cut short/],
      ['empty', () => fs.truncateSync(image, 0), /shorter than its prefix/],
    ];
    for (const [what, damage, message] of cases) {
      fs.writeFileSync(image, good);
      damage();
      const lines: string[] = [];
      const db = await open(dir, lines);
      expect(db.storage?.recovery.fromImage, what).toBe(false);
      expect(lines, what).toHaveLength(1);
      expect(lines[0], what).toMatch(message);
      expect(fs.existsSync(image), what).toBe(false);
      expect(answers(db), what).toEqual(expected);
      db.close();
      // The close wrote a good one again (from the graph the store loaded).
      const next = await open(dir);
      expect(next.storage?.recovery.fromImage, what).toBe(true);
      expect(answers(next), what).toEqual(expected);
      next.close();
    }
  }, 120_000);

  it('read by helper threads: the same graph; a damaged piece a helper checked, or a helper that fails, as on one thread', async () => {
    const { dir, expected } = await prepared();
    const image = path.join(dir, IMAGE_FILE);
    const good = fs.readFileSync(image);
    const saved = { ...parallelReadDefaults };
    /** Opens `dir` with every piece of the image (4 KiB each) read by two helpers, as `options` say. */
    const openThrough = async (options: Partial<ParallelReadOptions>, lines: string[]): Promise<Database> => {
      Object.assign(parallelReadDefaults, { helpers: 2, pieceBytes: 4096, minParallelBytes: 0, callerReads: false, stragglerMs: 2_000 }, options);
      try {
        return await open(dir, lines);
      } finally {
        Object.assign(parallelReadDefaults, saved);
        delete parallelReadDefaults.callerReads;
        delete parallelReadDefaults.helperFault;
      }
    };
    for (const options of [{}, { callerReads: true }, { helperFault: 'throw' }, { helperFault: 'hang', stragglerMs: 200 }] as Partial<ParallelReadOptions>[]) {
      fs.writeFileSync(image, good);
      const lines: string[] = [];
      const db = await openThrough(options, lines);
      expect(db.storage?.recovery.fromImage, JSON.stringify(options)).toBe(true);
      expect(lines).toEqual([]);
      expect(answers(db)).toEqual(expected);
      db.close();
    }
    // A flipped byte in the middle of the data, in a piece only a helper read.
    fs.writeFileSync(image, good);
    flipByte(image, good.length - 5000);
    const lines: string[] = [];
    const db = await openThrough({}, lines);
    expect(db.storage?.recovery.fromImage).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/damaged section \d+ .*checksum/);
    expect(fs.existsSync(image)).toBe(false);
    expect(answers(db)).toEqual(expected);
    db.close();
  }, 120_000);

  it('after node-only writes the image carries the relationship ends once, shared with the adjacency bases', async () => {
    const dir = tempDir('graphdb-image-');
    const csv = tempDir('graphdb-image-csv-');
    const people = path.join(csv, 'people.csv');
    const knows = path.join(csv, 'knows.csv');
    fs.writeFileSync(people, 'id:ID,name\n' + Array.from({ length: 200 }, (_, i) => `${i},p${i}\n`).join(''));
    fs.writeFileSync(knows, ':START_ID,:END_ID\n' + Array.from({ length: 198 }, (_, i) => `${i},${i + 1}\n${i},${i + 2}\n`).join(''));
    const imported = await open(dir);
    await importCsv(imported, [
      { kind: 'nodes', path: people, defaults: ['Person'] },
      { kind: 'relationships', path: knows, defaults: ['KNOWS'] },
    ]);
    imported.close();
    /** Which sections the image's entity relationship ends and its adjacency neighbour columns are. */
    const sections = (): { ends: number[]; nbrs: Set<number> } => {
      const bytes = fs.readFileSync(path.join(dir, IMAGE_FILE));
      type Ref = { $a: [number, number, string, number] };
      const header = JSON.parse(bytes.toString('utf8', 16, 16 + bytes.readUInt32LE(8))) as {
        structure: { entities: { relStart: Ref; relEnd: Ref }; adjacency: { types: { out: { nbrs: Ref }; in: { nbrs: Ref } }[] } };
      };
      const { entities, adjacency } = header.structure;
      return { ends: [entities.relStart.$a[0], entities.relEnd.$a[0]], nbrs: new Set(adjacency.types.flatMap((t) => [t.out.nbrs.$a[0], t.in.nbrs.$a[0]])) };
    };
    // The store's load of the import, then an image of it; then a node written on the graph that image loaded.
    for (let round = 0; round < 2; round++) {
      const db = await open(dir);
      if (round === 1) {
        expect(db.storage?.recovery.fromImage).toBe(true);
        db.executeSync("CREATE (:Person {id: 1000, name: 'late'})");
      }
      db.executeSync("MATCH (p:Person {name: 'p7'}) RETURN p.name");
      db.close();
      const { ends, nbrs } = sections();
      for (const section of ends) expect(nbrs.has(section), `round ${round}`).toBe(true);
    }
    const last = await open(dir);
    expect(last.storage?.recovery.fromImage).toBe(true);
    expect(rows(last, "MATCH (a:Person {name: 'p7'})-[:KNOWS]->(b) RETURN b.name ORDER BY b.name")).toEqual([['p8'], ['p9']]);
    expect(rows(last, 'MATCH (a)-[:KNOWS]->(b) RETURN count(*)')).toEqual([[396]]);
    expect(rows(last, "MATCH (p:Person {name: 'late'}) RETURN count(p)")).toEqual([[1]]);
    last.close();
  }, 60_000);

  it('openImage: false neither reads nor writes one, and removes one the store then outgrows', async () => {
    const dir = tempDir('graphdb-image-');
    const db = await open(dir, [], false);
    build(db);
    const expected = answers(db);
    db.close();
    expect(fs.existsSync(path.join(dir, IMAGE_FILE))).toBe(false);
    const withImage = await open(dir);
    withImage.close();
    expect(fs.existsSync(path.join(dir, IMAGE_FILE))).toBe(true);
    // A process told not to use it writes: the image is gone, and the next open loads the store.
    const without = await open(dir, [], false);
    expect(without.storage?.recovery.fromImage).toBe(false);
    expect(fs.existsSync(path.join(dir, IMAGE_FILE))).toBe(false);
    without.executeSync("CREATE (:City {id: 999, name: 'late'})");
    const after = answers(without);
    expect(after).not.toEqual(expected);
    without.close();
    expect(fs.existsSync(path.join(dir, IMAGE_FILE))).toBe(false);
    const lines: string[] = [];
    const again = await open(dir, lines);
    expect(again.storage?.recovery.fromImage).toBe(false);
    expect(lines).toEqual([]);
    expect(answers(again)).toEqual(after);
    again.close();
    await expect(Database.open({ dataDir: dir, storage: { log: null, openImage: 'yes' as unknown as boolean } })).rejects.toThrow(/storage.openImage must be true or false/);
  }, 60_000);

  it('a process killed (SIGKILL) while writing the image leaves a store that opens with every write', async () => {
    const { dir } = await prepared();
    // Enough data that writing the image takes a while: the kill lands between its temporary file and the rename.
    const grow = await open(dir);
    grow.executeSync("UNWIND range(1, 150000) AS i CREATE (:Bulk {id: i, text: 'some words for the text column ' + i})");
    grow.close();
    const tmp = path.join(dir, IMAGE_FILE + '.tmp');
    const databaseModule = childModule('src/engine/database.ts');
    let caught = 0;
    for (let trial = 0; trial < 3 && caught === 0; trial++) {
      const marker = 10_000 + trial;
      const script =
        `import { Database } from '${databaseModule}';` +
        `const db = await Database.open({ dataDir: process.argv[1], storage: { log: null } });` +
        `db.executeSync('CREATE (:Marker {n: ${marker}})');` +
        `process.stdout.write('written\\n');` +
        `db.close();`;
      const child = spawn(process.execPath, [...childLoader(databaseModule), '--input-type=module', '-e', script, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      // Poll without yielding: the child writes the image now.
      const until = Date.now() + 30_000;
      while (Date.now() < until && !fs.existsSync(tmp) && child.exitCode === null) {
        /* spin */
      }
      if (fs.existsSync(tmp) && child.exitCode === null) {
        child.kill('SIGKILL');
        caught++;
      }
      await exited;
      const lines: string[] = [];
      const db = await open(dir, lines);
      expect(fs.existsSync(tmp)).toBe(false);
      expect(rows(db, 'MATCH (m:Marker) RETURN m.n ORDER BY m.n')).toEqual(Array.from({ length: trial + 1 }, (_, i) => [10_000 + i]));
      expect(rows(db, 'MATCH (b:Bulk) RETURN count(b), max(b.id)')).toEqual([[150000, 150000]]);
      expect(rows(db, 'MATCH (p:Person {id: 1234}) RETURN p.name')).toEqual([['p1234']]);
      db.close();
    }
    expect(caught).toBe(1);
  }, 240_000);
});

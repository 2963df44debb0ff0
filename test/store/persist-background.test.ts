/**
 * Persistence beyond the basics: asynchronous checkpoints (writes logged while LMDB
 * commits are kept), policy snapshots written from the store in the background, large
 * transactions logged as record groups (and dropped whole when cut short), all-or-nothing
 * `:restore` with schema, the read barrier, the hardened lock, and the playground on a
 * durable store.
 */

import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childLoader, childModule } from '../compiled-child.js';
import { Graph } from '../../src/store/graph.js';
import { Schema } from '../../src/store/schema.js';
import { loadSnapshotExact } from '../../src/store/persist/durable-store.js';
import { importSnapshot } from '../../src/store/persist/snapshot-import.js';
import { LOCK_FILE, processStartId, TAKEOVER_FILE } from '../../src/store/persist/lock-file.js';
import { RECORD_MAX_CHANGES } from '../../src/store/persist/record-codec.js';
import { loadPlaygroundIfEmpty } from '../../src/cli/playground.js';
import { crashImage, openDb, removeTempDirs, rows, tempDir } from './persist-helpers.js';
import { ACK_FILE, AckWriter } from '../../src/store/persist/wal-ack.js';

afterAll(removeTempDirs);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Byte offsets and first payload bytes of every record in a WAL file. */
function walRecords(file: string): { offset: number; more: boolean }[] {
  const buf = fs.readFileSync(file);
  const out: { offset: number; more: boolean }[] = [];
  // A zero length is where the records end (the writer takes space ahead with zeros).
  for (let off = 8; off + 16 <= buf.length && buf.readUInt32LE(off) !== 0; off += 16 + buf.readUInt32LE(off)) {
    out.push({ offset: off, more: buf.subarray(off + 16, off + 30).toString('utf8').startsWith('[{"op":"more"}') });
  }
  return out;
}

const count = (db: Awaited<ReturnType<typeof openDb>>, q: string): unknown => rows(db, q)[0][0];

describe('asynchronous checkpoints', () => {
  it('keeps the records logged while LMDB commits, and recovers from the trimmed log', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    for (let i = 0; i < 20; i++) db.executeSync(`CREATE (:N {i: ${i}})`);
    const running = db.storage!.checkpointAsync();
    // These commit while the checkpoint's LMDB transaction is under way.
    for (let i = 20; i < 23; i++) db.executeSync(`CREATE (:N {i: ${i}})`);
    db.executeSync('MATCH (n:N {i: 0}) SET n.changed = true');
    await running;
    const wal = path.join(dir, 'graphdb.wal');
    expect(walRecords(wal)).toHaveLength(4);
    const image = crashImage(dir);
    db.close();
    const rec = await openDb(image);
    expect(rec.storage?.recovery.source).toBe('store');
    expect(rec.storage?.recovery.walRecordsReplayed).toBe(4);
    expect(count(rec, 'MATCH (n:N) RETURN count(n)')).toBe(23);
    expect(count(rec, 'MATCH (n:N {i: 0}) RETURN n.changed')).toBe(true);
    rec.close();
  });

  it('Database.checkpoint waits for a running checkpoint and then folds the rest', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync('CREATE (:A)');
    const first = db.storage!.checkpointAsync();
    db.executeSync('CREATE (:B)');
    await db.checkpoint();
    await first;
    expect(walRecords(path.join(dir, 'graphdb.wal'))).toHaveLength(0);
    const image = crashImage(dir);
    db.close();
    const rec = await openDb(image);
    expect(rec.storage?.recovery.walRecordsReplayed).toBe(0);
    expect(count(rec, 'MATCH (n) RETURN count(n)')).toBe(2);
    rec.close();
  });

  it('close during a running checkpoint loses nothing', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    for (let i = 0; i < 50; i++) db.executeSync(`CREATE (:N {i: ${i}})`);
    const running = db.storage!.checkpointAsync();
    db.executeSync('CREATE (:Late)');
    db.close();
    await running.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    const again = await openDb(dir);
    expect(count(again, 'MATCH (n:N) RETURN count(n)')).toBe(50);
    expect(count(again, 'MATCH (n:Late) RETURN count(n)')).toBe(1);
    again.close();
  });
});

describe('policy snapshots', () => {
  it('are written from the store in the background after enough changes', async () => {
    const dir = tempDir();
    const limits = { records: 10, walBytes: 1e12, intervalMs: 1e9, snapshotRecords: 25, snapshotMs: 1e9 };
    const db = await openDb(dir, [], limits);
    const file = path.join(dir, 'graphdb.snapshot.json');
    for (let i = 0; i < 30; i++) await db.mutate(`CREATE (:N {i: ${i}})-[:R]->(:M)`);
    for (let t = 0; t < 300 && !fs.existsSync(file); t++) await new Promise((r) => setTimeout(r, 10));
    // A checkpoint finishing after the first snapshot may start another (90 records, 25 per
    // snapshot): wait until no snapshot is being written, then expect no temporary file left.
    const quiesce = async (): Promise<void> => {
      for (let t = 0; t < 3000; t++) {
        const pending = db.storage?.pendingSnapshot;
        if (pending) await pending.done.catch(() => undefined);
        else if (fs.readdirSync(dir).some((f) => f.endsWith('.tmp'))) await new Promise((r) => setTimeout(r, 10));
        else break;
      }
    };
    await quiesce();
    expect(fs.existsSync(file)).toBe(true);
    const g = new Graph();
    const seq = await loadSnapshotExact(g, new Schema(g), file, undefined);
    expect(seq).toBeGreaterThan(0);
    expect(g.relCount).toBe(seq);
    expect(g.nodeCount).toBe(2 * seq);
    // Reading the snapshot gave background checkpoints time to start another one: let it finish.
    await quiesce();
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    db.close();
  });

  it('a background snapshot cut short by close leaves the final snapshot and no temporary file', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync('UNWIND range(1, 20000) AS i CREATE (:N {i: i})');
    await db.checkpoint();
    const pending = db.storage!.snapshotFromStore();
    db.executeSync('CREATE (:Last)');
    db.close();
    await pending.catch(() => undefined);
    for (let t = 0; t < 100 && fs.readdirSync(dir).some((f) => f.endsWith('.tmp')); t++) await new Promise((r) => setTimeout(r, 10));
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const g = new Graph();
    await loadSnapshotExact(g, new Schema(g), path.join(dir, 'graphdb.snapshot.json'), undefined);
    expect(g.nodeCount).toBe(20001);
  });
});

describe('large transactions', () => {
  it('are logged as a group of records and replayed as one', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    const n = RECORD_MAX_CHANGES * 2 + 500;
    db.executeSync(`UNWIND range(1, ${n}) AS i CREATE (:N {i: i})`);
    const records = walRecords(path.join(dir, 'graphdb.wal'));
    expect(records.map((r) => r.more)).toEqual([true, true, false]);
    const image = crashImage(dir);
    db.close();
    const rec = await openDb(image);
    expect(count(rec, 'MATCH (n:N) RETURN count(n)')).toBe(n);
    rec.close();
  });

  it('a group cut short by a crash is dropped whole, with a warning, and the log continues', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync('CREATE (:Before)');
    db.executeSync(`UNWIND range(1, ${RECORD_MAX_CHANGES * 2 + 1}) AS i CREATE (:N {i: i})`);
    const image = crashImage(dir);
    db.close();
    const wal = path.join(image, 'graphdb.wal');
    const records = walRecords(wal);
    fs.truncateSync(wal, records[2].offset); // the group's last record never made it
    new AckWriter(path.join(image, ACK_FILE), 1).close(); // so the group was never acknowledged
    const lines: string[] = [];
    const rec = await openDb(image, lines);
    expect(lines.join('')).toMatch(new RegExp(`dropped an unfinished transaction .*byte offset ${records[1].offset}`));
    expect(count(rec, 'MATCH (n) RETURN count(n)')).toBe(1);
    rec.executeSync('CREATE (:After)');
    const again = crashImage(image);
    rec.close();
    const third = await openDb(again);
    expect(rows(third, 'MATCH (n) RETURN labels(n)[0] ORDER BY id(n)').map((r) => r[0])).toEqual(['Before', 'After']);
    third.close();
  });
});

describe(':restore', () => {
  async function exportWithSchema(): Promise<string> {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync("CREATE (:P {name: 'a'})-[:K {w: 1}]->(:P {name: 'b'})");
    db.executeSync('CREATE CONSTRAINT p_name FOR (p:P) REQUIRE p.name IS UNIQUE');
    db.executeSync('CREATE INDEX p_age FOR (p:P) ON (p.age)');
    const file = path.join(dir, 'export.json');
    db.storage!.writeSnapshot(file);
    db.close();
    return file;
  }

  it('applies the file’s indexes and constraints, durably, in one transaction', async () => {
    const file = await exportWithSchema();
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync("CREATE (:Q {name: 'kept'})");
    const r = await importSnapshot(file, (fn) => db.writeTransaction(fn));
    expect(r).toMatchObject({ nodes: 2, relationships: 1, schemaSkipped: [] });
    expect(r.schemaAdded).toHaveLength(2);
    const image = crashImage(dir);
    db.close();
    const rec = await openDb(image);
    expect(count(rec, 'MATCH (:P)-[k:K]->(:P) RETURN k.w')).toBe(1);
    expect(rows(rec, 'SHOW CONSTRAINTS YIELD name').map((x) => x[0])).toEqual(['p_name']);
    expect(rows(rec, 'SHOW INDEXES YIELD name').map((x) => x[0]).sort()).toEqual(['p_age', 'p_name']);
    expect(() => rec.executeSync("CREATE (:P {name: 'a'})")).toThrow(/already exists/);
    rec.close();
  });

  it('leaves nothing behind when the data breaks a constraint of the file', async () => {
    const file = await exportWithSchema();
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync("CREATE (:P {name: 'a'})");
    const seq = db.storage!.seq;
    await expect(importSnapshot(file, (fn) => db.writeTransaction(fn))).rejects.toThrow(/already exists/);
    expect(count(db, 'MATCH (n) RETURN count(n)')).toBe(1);
    expect(rows(db, 'SHOW CONSTRAINTS')).toEqual([]);
    expect(rows(db, 'SHOW INDEXES')).toEqual([]);
    expect(db.storage!.seq).toBe(seq);
    db.close();
  });

  it('leaves nothing behind when the file is damaged after many good lines', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    db.executeSync('UNWIND range(1, 30000) AS i CREATE (:N {i: i})');
    const file = path.join(dir, 'big.json');
    db.storage!.writeSnapshot(file);
    const text = fs.readFileSync(file, 'utf8').split('\n');
    text[25000] = '{"id": broken';
    fs.writeFileSync(file, text.join('\n'));
    await expect(importSnapshot(file, (fn) => db.writeTransaction(fn))).rejects.toThrow(/not valid JSON/);
    expect(count(db, 'MATCH (n) RETURN count(n)')).toBe(30000);
    db.close();
  });
});

describe('read barrier', () => {
  it('a read waits for the unsynced writes it could see', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    const write = db.mutate('CREATE (:W)');
    expect(db.storage!.readBarrier()).toBeInstanceOf(Promise);
    const read = await db.query('MATCH (n:W) RETURN count(n)');
    expect(read.records[0][0]).toBe(1);
    await write;
    expect(db.storage!.readBarrier()).toBeUndefined();
    db.close();
  });
});

describe('hardened lock', () => {
  it('takes over a lock whose PID now belongs to another process (start time differs)', async () => {
    if (processStartId(process.ppid) === '') return; // no /proc here
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: '', since: 'then', token: 'x', start: 'another-boot:1' }));
    const lines: string[] = [];
    const db = await openDb(dir, lines);
    expect(lines.join('')).toMatch(new RegExp(`took over the lock .* from process ${process.ppid}`));
    db.close();
  });

  it('still refuses a live holder whose start time matches', async () => {
    if (processStartId(process.ppid) === '') return;
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: '', since: 'now', token: 'x', start: processStartId(process.ppid) }));
    await expect(openDb(dir)).rejects.toThrow(new RegExp(`in use by process ${process.ppid}`));
  });

  it('clears a takeover file left by a process that died mid-takeover', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 999, host: '', since: 'then', token: 'a', start: '' }));
    const guard = path.join(dir, TAKEOVER_FILE);
    fs.writeFileSync(guard, JSON.stringify({ pid: 2 ** 22 + 998, host: '', since: 'then', token: 'b', start: '' }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(guard, old, old);
    const db = await openDb(dir);
    expect(fs.existsSync(guard)).toBe(false);
    db.close();
  });

  it('lets exactly one of several processes take over a stale lock', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 4321, host: '', since: 'then', token: 'z', start: '' }));
    // The winner holds the lock until its stdin closes, which happens only once every process has
    // answered: a contender that a loaded machine starts late must still find the lock held.
    const lockModule = childModule('src/store/persist/lock-file.ts');
    const script =
      `import { DirLock } from '${lockModule}';` +
      `try { const l = DirLock.acquire(process.argv[1], () => {}); console.log('got'); process.stdin.on('end', () => l.release()).resume(); }` +
      ` catch (e) { console.log(e.detail ?? e.message); process.stdin.destroy(); }`;
    const children = Array.from({ length: 4 }, () => spawn(process.execPath, [...childLoader(lockModule), '--input-type=module', '-e', script, dir], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] }));
    const outcomes = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve) => {
            let out = '';
            child.stdout.on('data', (d: Buffer) => {
              out += d.toString();
              if (out.includes('\n')) resolve(out.trim());
            });
            child.on('exit', () => resolve(out.trim()));
          }),
      ),
    );
    const ended = children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))));
    for (const child of children) child.stdin.end();
    await Promise.all(ended);
    expect(outcomes.filter((o) => o === 'got')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'DataDirLocked')).toHaveLength(3);
  }, 30_000);
});

describe('--playground with --data-dir', () => {
  it('loads the demo data into an empty store only', async () => {
    const dir = tempDir();
    const db = await openDb(dir);
    expect(loadPlaygroundIfEmpty(db)).toBe(true);
    const nodes = db.stats().nodes;
    db.close();
    const again = await openDb(dir);
    expect(loadPlaygroundIfEmpty(again)).toBe(false);
    expect(again.stats().nodes).toBe(nodes);
    again.close();
  });
});

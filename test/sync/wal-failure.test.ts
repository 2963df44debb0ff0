/**
 * The sync record of a commit is written before the store's WAL record; when the WAL write
 * then fails (a full disk), sync must forget the commit too, now and after a restart, so the
 * sync feed and the store never disagree. The failure is real: the data directory is a small
 * tmpfs mounted for the test (needs root; skipped with a notice otherwise, a failure under CI) and filled up,
 * while the sync log is a symlink to a file on the ordinary disk, so its append succeeds and
 * the WAL append after it fails with ENOSPC.
 */

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';
import type { SyncHandle } from '../../src/sync/attach.js';
import { exportSyncedGraph, recomputedFingerprint } from '../../src/sync/export.js';
import { SYNC_LOG_FILE } from '../../src/sync/sync-log.js';
import { InProcessTransport } from '../../src/sync/transport.js';
import { requiredUnderCi } from '../ci-required.js';

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-enospc-'));
const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-log-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint], { stdio: 'ignore' });
  mounted = true;
} catch {
  // Said (or failed under CI) by requiredUnderCi below.
}

afterAll(() => {
  if (mounted) execFileSync('umount', [mountPoint], { stdio: 'ignore' });
  fs.rmSync(mountPoint, { recursive: true, force: true });
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

const dir = path.join(mountPoint, 'data');
const filler = path.join(mountPoint, 'filler');
const open = (): Promise<Database> =>
  // No space taken ahead in the log: its next write needs new space, so a full disk fails it.
  Database.open({ dataDir: dir, storage: { log: null, checkpoint: { intervalMs: 3_600_000 }, walPreallocBytes: 0 }, sync: { peerId: 'a' } });

function fillDisk(): void {
  const fd = fs.openSync(filler, 'w');
  try {
    const block = Buffer.alloc(16 * 1024, 1);
    for (;;) fs.writeSync(fd, block);
  } catch (err) {
    expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    fs.closeSync(fd);
  }
}

function syncLogLines(): number {
  return fs.readFileSync(path.join(elsewhere, SYNC_LOG_FILE), 'utf8').split('\n').filter((l) => l !== '').length;
}

/** What a peer that pulls everything from `db` ends up with. */
async function pulledBy(db: Database): Promise<string[]> {
  const b = Database.openInMemory({ sync: { peerId: 'b' } });
  await (b.sync as SyncHandle).pull(new InProcessTransport(() => (db.sync as SyncHandle).node, 'a'));
  return exportSyncedGraph(b);
}

/** Sync's view (feed, fingerprint, pending count, export) and the store's agree, and the graph holds `names`. */
async function expectAgreement(db: Database, names: string[], pending: number): Promise<void> {
  const rows = (await db.query('MATCH (p:P) RETURN p.name AS name ORDER BY name')).records.map((r) => r[0]);
  expect(rows).toEqual(names);
  expect(recomputedFingerprint(db)).toBe(db.fingerprint());
  expect(db.syncPending()).toBe(pending);
  expect(await pulledBy(db)).toEqual(exportSyncedGraph(db));
  expect(exportSyncedGraph(db).filter((l) => l.includes('"P"'))).toHaveLength(names.length);
}

requiredUnderCi(mounted, 'a 2 MiB tmpfs', 'wal-failure.test: cannot mount a tmpfs (not root?); the full-disk sync test is skipped');

describe.runIf(mounted)('a WAL write that fails after the sync record', () => {
  it('leaves no trace in sync, before and after a restart', async () => {
    fs.mkdirSync(dir);
    fs.symlinkSync(path.join(elsewhere, SYNC_LOG_FILE), path.join(dir, SYNC_LOG_FILE));
    let db = await open();
    try {
      await db.mutate("CREATE (:P {name: 'kept'})");
      const fingerprint = db.fingerprint();

      // 1. The WAL write fails; the sync record was written (one more line) but is taken back.
      fillDisk();
      const linesBefore = syncLogLines();
      const err = await db.mutate("CREATE (:P {name: 'lost', pad: $pad})", { pad: 'x'.repeat(4096) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GraphDbError);
      expect((err as GraphDbError).code).toBe('STORAGE_ERR');
      expect(syncLogLines()).toBe(linesBefore + 1);
      expect(db.fingerprint()).toBe(fingerprint);
      await expectAgreement(db, ['kept'], 1);

      // 2. A restart right after: the record is dropped (the WAL never got past its position).
      fs.rmSync(filler);
      db.close();
      db = await open();
      expect(db.fingerprint()).toBe(fingerprint);
      await expectAgreement(db, ['kept'], 1);

      // 3. Fail again, then a write succeeds in the failed one's place, then a restart.
      fillDisk();
      const again = await db.mutate("MATCH (p:P {name: 'kept'}) SET p.name = 'renamed', p.pad = $pad", { pad: 'y'.repeat(4096) }).catch((e: unknown) => e);
      expect((again as GraphDbError).code).toBe('STORAGE_ERR');
      await expectAgreement(db, ['kept'], 1);
      fs.rmSync(filler);
      await db.mutate("CREATE (:P {name: 'second'})");
      await expectAgreement(db, ['kept', 'second'], 2);
      const after = db.fingerprint();
      db.close();
      db = await open();
      expect(db.fingerprint()).toBe(after);
      await expectAgreement(db, ['kept', 'second'], 2);
    } finally {
      fs.rmSync(filler, { force: true });
      db.close();
    }
  }, 60_000);
});

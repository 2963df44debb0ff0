/**
 * A full disk, for real: a 2 MiB tmpfs mounted for the test (needs root; skipped with a
 * notice otherwise, a failure under CI). WAL appends fail with STORAGE_ERR and leave memory as it was, reads
 * go on, a failing LMDB checkpoint is reported without an unhandled rejection, and writes
 * resume once space is freed. With the log's space taken ahead (the default), writes go on
 * into that space, durably, and are refused the same way once it is used up.
 */

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';
import { requiredUnderCi } from '../ci-required.js';

const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-enospc-'));
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
});

requiredUnderCi(mounted, 'a 2 MiB tmpfs', 'enospc.test: cannot mount a tmpfs (not root?); the full-disk test is skipped');

describe.runIf(mounted)('a full disk', () => {
  it('refuses writes with STORAGE_ERR, keeps reads, never rejects unhandled, and resumes', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => void unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const dir = path.join(mountPoint, 'data');
    // The log grows with each write here (no space taken ahead), so the first write after the disk fills is refused.
    const db = await Database.open({ dataDir: dir, storage: { log: null, checkpoint: { records: 50, intervalMs: 20 }, walPreallocBytes: 0 } });
    try {
      await db.execute("UNWIND range(1, 100) AS i CREATE (:P {i: i})");
      const filler = path.join(mountPoint, 'filler');
      const fd = fs.openSync(filler, 'w');
      try {
        const block = Buffer.alloc(64 * 1024, 1);
        for (;;) fs.writeSync(fd, block);
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        fs.closeSync(fd);
      }
      for (let i = 0; i < 20; i++) {
        const err = await db.execute("UNWIND range(1, 50) AS i CREATE (:Q {s: 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'})").catch((e: unknown) => e);
        expect(err).toBeInstanceOf(GraphDbError);
        expect((err as GraphDbError).code).toBe('STORAGE_ERR');
      }
      // The failed writes left nothing in memory; reads keep working.
      expect((await db.query('MATCH (n) RETURN count(n) AS c')).records).toEqual([[100]]);
      const checkpoint = await db.storage!.checkpointAsync().then(() => undefined, (e: unknown) => e);
      if (checkpoint !== undefined) expect((checkpoint as GraphDbError).code).toBe('STORAGE_ERR');
      await new Promise((r) => setTimeout(r, 200));
      fs.rmSync(filler);
      await db.execute('CREATE (:R)');
      expect((await db.query('MATCH (n) RETURN count(n) AS c')).records).toEqual([[101]]);
      // With space back, the store itself is written again (no restart): a checkpoint succeeds.
      await db.storage!.checkpointAsync();
      await new Promise((r) => setTimeout(r, 200));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      try {
        await db.close();
      } catch {
        // A store left unwritable by the full disk is reported at close; the WAL holds everything.
      }
    }
    const again = await Database.open({ dataDir: dir, storage: { log: null } });
    expect((await again.query('MATCH (n) RETURN count(n) AS c')).records).toEqual([[101]]);
    await again.close();
  }, 60_000);
});

describe.runIf(mounted)('a full disk with the log\'s space taken ahead', () => {
  it('writes into the space the log holds, durably, then refuses with STORAGE_ERR and leaves nothing in memory', async () => {
    fs.rmSync(path.join(mountPoint, 'data'), { recursive: true, force: true });
    const dir = path.join(mountPoint, 'ahead');
    const storage = { log: null, checkpoint: { records: 1_000_000, walBytes: 1e12, intervalMs: 3_600_000 } };
    const db = await Database.open({ dataDir: dir, storage });
    const filler = path.join(mountPoint, 'filler');
    let taken = 0;
    try {
      await db.mutate('CREATE (:Before)');
      const fd = fs.openSync(filler, 'w');
      try {
        const block = Buffer.alloc(64 * 1024, 1);
        for (;;) fs.writeSync(fd, block);
      } catch (err) {
        expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
      } finally {
        fs.closeSync(fd);
      }
      const pad = 'p'.repeat(500);
      let refused: unknown;
      for (let i = 0; i < 10_000 && refused === undefined; i++) {
        refused = await db.mutate('CREATE (:Ahead {i: $i, pad: $pad})', { i, pad }).then(() => void taken++, (e: unknown) => e);
      }
      // The log had about 1 MiB of zeros ahead of its records: hundreds of these writes fit.
      expect(taken).toBeGreaterThan(100);
      expect(refused).toBeInstanceOf(GraphDbError);
      expect((refused as GraphDbError).code).toBe('STORAGE_ERR');
      expect((await db.query('MATCH (n:Ahead) RETURN count(n) AS c')).records).toEqual([[taken]]);
      fs.rmSync(filler);
      await db.mutate('CREATE (:After)');
    } finally {
      fs.rmSync(filler, { force: true });
      await db.close();
    }
    const again = await Database.open({ dataDir: dir, storage });
    expect((await again.query('MATCH (n) RETURN count(n) AS c')).records).toEqual([[taken + 2]]);
    await again.close();
  }, 60_000);
});

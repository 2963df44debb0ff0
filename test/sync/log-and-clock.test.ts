import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import type { SyncHandle } from '../../src/sync/attach.js';
import { exportSyncedGraph } from '../../src/sync/export.js';
import { compareHlc, HybridClock } from '../../src/sync/hlc.js';
import { FileSyncLog, SYNC_LOG_FILE } from '../../src/sync/sync-log.js';
import { InProcessTransport } from '../../src/sync/transport.js';

const h = (db: Database): SyncHandle => db.sync as SyncHandle;
const link = (db: Database): InProcessTransport => new InProcessTransport(() => h(db).node);

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-log-'));
}

describe('hybrid logical clock', () => {
  it('is monotonic under a stuck or backwards clock and orders by peer last', () => {
    let t = 1000;
    const c = new HybridClock('b', () => t);
    const a1 = c.tick();
    t = 900;
    const a2 = c.tick();
    expect(compareHlc(a2, a1)).toBe(1);
    c.observe(new HybridClock('z', () => 5000).tick());
    expect(compareHlc(c.tick(), '000000000005000.000000.z')).toBe(1);
    expect(compareHlc('000000000000001.000000.a', '000000000000001.000000.b')).toBe(-1);
  });
});

describe('sync log on disk', () => {
  it('cuts a torn tail, refuses damage before it, and keeps the peer id', async () => {
    const dir = tmp();
    try {
      let db = await Database.open({ dataDir: dir, sync: { peerId: 'solo' } });
      await db.mutate("CREATE (:A {v: 1})");
      await db.mutate("CREATE (:A {v: 2})");
      const fp = db.fingerprint();
      db.close();
      const file = path.join(dir, SYNC_LOG_FILE);
      fs.appendFileSync(file, '0badc0de {"t":"com');
      db = await Database.open({ dataDir: dir, sync: true });
      expect(h(db).peerId).toBe('solo');
      expect(db.fingerprint()).toBe(fp);
      expect(db.syncPending()).toBe(2);
      db.close();
      const text = fs.readFileSync(file, 'utf8').split('\n');
      text[0] = text[0].replace('CREATE', 'CREATF');
      fs.writeFileSync(file, text.join('\n'));
      expect(() => FileSyncLog.open(dir)).toThrow(/damaged/);
      await expect(Database.open({ dataDir: dir, sync: true })).rejects.toThrow(/damaged/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compacts once every peer acknowledged, and a late peer still gets everything', async () => {
    const dir = tmp();
    try {
      const a = await Database.open({ dataDir: dir, sync: { peerId: 'a', compactAfter: 5 } });
      const b = Database.openInMemory({ sync: { peerId: 'b' } });
      for (let i = 0; i < 12; i++) await a.mutate('CREATE (:N {i: $i})', { i });
      await a.mutate('MATCH (n:N) WHERE n.i < 3 DETACH DELETE n');
      const lines = (): number => fs.readFileSync(path.join(dir, SYNC_LOG_FILE), 'utf8').split('\n').filter((l) => l !== '').length;
      expect(lines()).toBe(13);
      await h(a).syncWith(link(b));
      expect(a.syncPending()).toBe(0);
      expect(lines()).toBeLessThan(5);
      const late = Database.openInMemory({ sync: { peerId: 'late' } });
      await h(late).syncWith(link(a));
      expect(exportSyncedGraph(late)).toEqual(exportSyncedGraph(a));
      expect(late.fingerprint()).toBe(a.fingerprint());
      a.close();
      const again = await Database.open({ dataDir: dir, sync: true });
      expect(again.fingerprint()).toBe(late.fingerprint());
      await again.mutate('CREATE (:N {i: 99})');
      await h(late).syncWith(link(again));
      expect(exportSyncedGraph(late)).toEqual(exportSyncedGraph(again));
      again.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('adopts data written before sync was switched on', async () => {
    const dir = tmp();
    try {
      let db = await Database.open({ dataDir: dir });
      await db.mutate("CREATE (:Old {v: 1})-[:R]->(:Old {v: 2})");
      db.close();
      db = await Database.open({ dataDir: dir, sync: { peerId: 'x' } });
      expect(db.syncPending()).toBe(1);
      const other = Database.openInMemory({ sync: { peerId: 'y' } });
      await h(other).syncWith(link(db));
      expect(exportSyncedGraph(other)).toEqual(exportSyncedGraph(db));
      expect(other.stats().relationships).toBe(1);
      db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { exportSyncedGraph } from '../../src/sync/export.js';
import { InProcessTransport } from '../../src/sync/transport.js';
import type { SyncHandle } from '../../src/sync/attach.js';

function peer(id: string): Database {
  return Database.openInMemory({ sync: { peerId: id } });
}
const h = (db: Database): SyncHandle => db.sync as SyncHandle;
const link = (db: Database): InProcessTransport => new InProcessTransport(() => h(db).node, 'peer');

describe('sync between two in-memory peers', () => {
  it('counts one pending entry per mutating query and none for reads', async () => {
    const a = peer('a');
    expect(a.syncPending()).toBe(0);
    await a.mutate("CREATE (:P {name: 'x'})");
    await a.batchMutate(['CREATE (:P {name: "y"})', "MATCH (p:P {name: 'y'}) SET p.age = 3"]);
    expect(a.syncPending()).toBe(3);
    await a.query('MATCH (n) RETURN n');
    a.stats();
    await a.execute('CALL algo.pageRank() YIELD node, score RETURN count(*)').catch(() => undefined);
    expect(a.syncPending()).toBe(3);
    expect(Database.openInMemory().syncPending()).toBe(0);
  });

  it('replays changes and converges, idempotently', async () => {
    const a = peer('a');
    const b = peer('b');
    await a.mutate("CREATE (x:P {name: 'x', n: 1})-[:KNOWS {since: 2020}]->(y:P {name: 'y', f: 1.0})");
    await b.mutate("CREATE (:Q {name: 'q', rand: rand()})");
    const r = await h(a).syncWith(link(b));
    expect(r.consistent).toBe(true);
    expect(a.fingerprint()).toBe(b.fingerprint());
    expect(exportSyncedGraph(a)).toEqual(exportSyncedGraph(b));
    expect(a.syncPending()).toBe(0);
    const before = exportSyncedGraph(b);
    // The same payload twice changes nothing.
    const payload = h(a).node.payloadSince(0);
    h(b).node.receive(payload);
    h(b).node.receive(payload);
    expect(exportSyncedGraph(b)).toEqual(before);
    expect(b.syncPending()).toBe(1);
  });

  it('resolves concurrent property writes by last writer and delete wins', async () => {
    const a = peer('a');
    const b = peer('b');
    await a.mutate("CREATE (:P {name: 'x'})");
    await h(a).syncWith(link(b));
    await a.mutate("MATCH (p:P) SET p.v = 'from a'");
    await b.mutate("MATCH (p:P) SET p.v = 'from b', p:Extra");
    await h(a).syncWith(link(b));
    await h(b).syncWith(link(a));
    expect(exportSyncedGraph(a)).toEqual(exportSyncedGraph(b));
    expect(a.fingerprint()).toBe(b.fingerprint());
    await a.mutate('MATCH (p:P) DETACH DELETE p');
    await b.mutate("MATCH (p:P) SET p.w = 1 CREATE (p)-[:R]->(:Z)");
    await h(a).syncWith(link(b));
    await h(b).syncWith(link(a));
    expect(exportSyncedGraph(a)).toEqual(exportSyncedGraph(b));
    expect((await a.query('MATCH (n) RETURN count(n) AS c')).records[0][0]).toBe(1);
  });
});

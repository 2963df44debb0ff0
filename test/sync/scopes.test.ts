/**
 * Sync scopes filter what travels: a peer scoped to the `City` label and the `ROAD` type
 * never receives nor sends anything else (not even into its replicated state), a node that
 * joins the scope later arrives whole with the in-scope relationships it brings, a
 * relationship with an endpoint out of scope stays behind, deletions travel, and data that
 * leaves the scope stays on the scoped peer as last sent (docs/SYNC.md, "Scopes"). Over the
 * in-process transport and, for the pull route's `scope` parameter, over HTTP.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { SyncHandle } from '../../src/sync/attach.js';
import { inScope, writeScopes } from '../../src/sync/scopes.js';
import { HttpTransport, InProcessTransport } from '../../src/sync/transport.js';

const h = (db: Database): SyncHandle => db.sync as SyncHandle;
const link = (db: Database): InProcessTransport => new InProcessTransport(() => h(db).node, h(db).peerId);
const SCOPE = { labels: ['City'], types: ['ROAD'] };

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function scopedPeer(): Promise<Database> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-scope-'));
  writeScopes(dir, [{ name: 'mobile', ...SCOPE }]);
  const db = await Database.open({ dataDir: dir, storage: { log: null }, sync: { peerId: 'mobile', scope: 'mobile' } });
  cleanup.push(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return db;
}

async function names(db: Database, query: string): Promise<unknown[]> {
  return (await db.query(query)).records.map((r) => r[0]);
}

/** Every live element the scoped peer's sync state holds from elsewhere is in its scope (its own writes may not be). */
function onlyInScope(db: Database): void {
  const state = h(db).node.state;
  for (const gid of state.elements.keys()) if (state.isLive(gid) && !gid.startsWith('mobile:')) expect(inScope(state, gid, SCOPE), gid).toBe(true);
}

describe('sync scopes', () => {
  it('a scoped peer receives and sends only its scope', async () => {
    const hub = Database.openInMemory({ sync: { peerId: 'hub' } });
    await hub.mutate(`
      CREATE (lyon:City {name: 'Lyon'}), (paris:City {name: 'Paris'}), (vault:Secret {name: 'vault', code: 1234}),
             (lyon)-[:ROAD {km: 465}]->(paris), (lyon)-[:SPY]->(paris), (lyon)-[:OWNS]->(vault), (paris)-[:ROAD {km: 1}]->(vault)`);
    const mobile = await scopedPeer();
    // The hub does not know the scope when it pushes: the scoped peer filters what it receives.
    await h(hub).push(link(mobile));
    expect(await names(mobile, 'MATCH (n) RETURN n.name ORDER BY n.name')).toEqual(['Lyon', 'Paris']);
    expect(await names(mobile, 'MATCH ()-[r]->() RETURN type(r) + ":" + toString(r.km)')).toEqual(['ROAD:465']);
    onlyInScope(mobile);
    // Pulling, it asks for its scope, and gets the same.
    await h(mobile).pull(link(hub));
    expect(await names(mobile, 'MATCH (n) RETURN n.name ORDER BY n.name')).toEqual(['Lyon', 'Paris']);
    expect(await names(mobile, 'MATCH ()-[r]->() RETURN type(r) + ":" + toString(r.km)')).toEqual(['ROAD:465']);
    onlyInScope(mobile);
    expect([...h(mobile).node.state.elements.values()].filter((e) => e.deleted === undefined)).toHaveLength(3);

    // Local writes out of scope stay local; in-scope ones reach the hub.
    await mobile.mutate("CREATE (:Secret {name: 'pin', pin: 42})");
    await mobile.mutate("MATCH (l:City {name: 'Lyon'}) CREATE (l)-[:ROAD {km: 5}]->(:City {name: 'Villeurbanne'})");
    await mobile.mutate("MATCH (l:City {name: 'Lyon'}), (p:City {name: 'Paris'}) CREATE (l)-[:SPY {by: 'mobile'}]->(p)");
    await h(mobile).push(link(hub));
    expect(await names(hub, 'MATCH (n) RETURN n.name ORDER BY n.name')).toEqual(['Lyon', 'Paris', 'Villeurbanne', 'vault']);
    expect(await names(hub, "MATCH ()-[r:SPY]->() RETURN coalesce(r.by, 'hub')")).toEqual(['hub']);
    expect(mobile.syncPending()).toBe(0);

    // A node that joins the scope arrives whole, with the in-scope relationship it brings.
    await hub.mutate("MATCH (v:Secret {name: 'vault'}) SET v:City, v.size = 'big'");
    await h(mobile).pull(link(hub));
    expect(await names(mobile, "MATCH (v {name: 'vault'}) RETURN [v.code, v.size, size(labels(v))]")).toEqual([[1234, 'big', 2]]);
    expect(await names(mobile, 'MATCH (:City {name: "Paris"})-[r:ROAD]->(:City {name: "vault"}) RETURN r.km')).toEqual([1]);
    expect(await names(mobile, 'MATCH ()-[r:OWNS]->() RETURN count(r)')).toEqual([0]);
    onlyInScope(mobile);

    // Deletions travel; data that leaves the scope stays as last sent.
    await hub.mutate("MATCH (p:City {name: 'Paris'}) REMOVE p:City SET p.name = 'gone from scope'");
    await hub.mutate("MATCH (v {name: 'vault'}) DETACH DELETE v");
    await h(mobile).pull(link(hub));
    expect(await names(mobile, 'MATCH (n) RETURN n.name ORDER BY n.name')).toEqual(['Lyon', 'Paris', 'Villeurbanne', 'pin']);
    onlyInScope(mobile);
    hub.close();
  });

  it('asks an HTTP peer for its scope only, and refuses a malformed scope parameter', async () => {
    const hub = Database.openInMemory({ sync: { peerId: 'hub' } });
    const server = await startHttpServer(hub, { port: 0, log: () => undefined });
    cleanup.push(async () => {
      await server.close();
      hub.close();
    });
    const url = `http://127.0.0.1:${server.port}`;
    await hub.mutate("CREATE (:City {name: 'Lyon'})-[:ROAD]->(:City {name: 'Nice'})-[:ROAD]->(:Secret {name: 'vault'})");
    const mobile = await scopedPeer();
    const pulled = await h(mobile).pull(new HttpTransport(url));
    expect(pulled.statements).toBeGreaterThan(0);
    expect(await names(mobile, 'MATCH (n) RETURN n.name ORDER BY n.name')).toEqual(['Lyon', 'Nice']);
    expect(await names(mobile, 'MATCH ()-[r]->() RETURN count(r)')).toEqual([1]);
    onlyInScope(mobile);
    // What the route sends for the scope carries nothing of the Secret.
    const raw = await (await fetch(`${url}/api/sync/pull?since=0&scope=${encodeURIComponent(JSON.stringify(SCOPE))}`)).text();
    expect(raw).toContain('Nice');
    expect(raw).not.toContain('vault');
    const bad = await fetch(`${url}/api/sync/pull?since=0&scope=${encodeURIComponent('{"labels": "City"}')}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('SYNC_BAD_PAYLOAD');
  });

  it('refuses a scope name the data directory does not hold', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-scope-'));
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const err = await Database.open({ dataDir: dir, storage: { log: null }, sync: { scope: 'nope' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GraphDbError);
    expect((err as GraphDbError).message).toMatch(/no sync scope named "nope"/);
    // The directory was released: it opens again.
    const db = await Database.open({ dataDir: dir, storage: { log: null } });
    db.close();
  });
});

/**
 * The browser build (`graphdb/browser`, dist/browser) in a real browser: headless Chromium
 * (Debian's `chromium`, driven by playwright-core) loading the bundles from a local static
 * server on 127.0.0.1 (a secure context, so OPFS and Web Locks are there). Covers: create and
 * query in the Web Worker and in the page; reload and find the data; a tab closed mid-write
 * keeps every acknowledged write; a torn log tail is cut off; the size limit's typed error;
 * two tabs on one store; export → the real CLI (`:restore`, and a data directory started from
 * the snapshot with the same fingerprint) and import back.
 *
 * Without chromium the tests are skipped on a workstation but fail under CI (CI=1).
 * Assumes `npm run build` has run (as `npm test` does): it builds dist/browser.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium } from '../headless-chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli.js';
import { spawnGraphdb } from '../server/helpers.js';
import { serveBrowserBuild, type StaticServer } from './static-server.js';
import type { GraphDB as GraphDBClass, GraphDBError as GraphDBErrorClass } from '../../src/browser/index.js';

declare global {
  interface Window {
    GraphDB: typeof GraphDBClass;
    GraphDBError: typeof GraphDBErrorClass;
    graphdbReady: boolean;
    db: GraphDBClass | undefined;
    ack(n: number): void;
  }
}

const KEY = 'browser-sync-key';
const auth = { authorization: `Bearer ${KEY}` };

async function serverQuery(base: string, q: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${base}/query`, { method: 'POST', body: q, headers: auth, signal: AbortSignal.timeout(10_000) });
  const body = (await res.json()) as { rows?: Record<string, unknown>[] };
  if (!res.ok) throw new Error(`server query failed: ${JSON.stringify(body)}`);
  return body.rows ?? [];
}

async function serverFingerprint(base: string): Promise<string> {
  const res = await fetch(`${base}/api/sync/pull?since=999999999999`, { headers: auth });
  return String(((await res.json()) as { fingerprint: number }).fingerprint);
}

const UNDER_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0';

let browser: Browser | undefined;
let server: StaticServer;
const temps: string[] = [];

beforeAll(async () => {
  if (!HAVE_CHROMIUM) {
    if (UNDER_CI) throw new Error(`No chromium at ${CHROMIUM}: the browser tests need it under CI (.ci/run installs Debian's chromium)`);
    return;
  }
  server = await serveBrowserBuild();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-browser-'));
  temps.push(dir);
  return dir;
}

/** A tab on the test page, its page errors collected. */
async function openTab(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(`${server.origin}/test.html`);
  await page.waitForFunction(() => window.graphdbReady === true);
  return { page, errors };
}

const it_ = HAVE_CHROMIUM ? it : it.skip;

describe('graphdb/browser in Chromium', () => {
  it_('creates and queries in a Web Worker, and in the page', async () => {
    const context = await browser!.newContext();
    const { page, errors } = await openTab(context);
    const out = await page.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'basic' });
      await db.mutate("CREATE (:Person {name: 'Ann', age: 41})-[:KNOWS {since: 2020}]->(:Person {name: 'Bob'})");
      const rows = (await db.query('MATCH (a:Person)-[k:KNOWS]->(b) RETURN a.name AS a, b.name AS b, k.since AS since')).rows;
      const algo = (await db.query('MATCH (p:Person) RETURN count(p) AS n, collect(p.name) AS names')).rows;
      const stats = await db.stats();
      let syntax: { code: string; message: string } | undefined;
      try {
        await db.query('MATC (n) RETURN n');
      } catch (err) {
        syntax = { code: (err as GraphDBErrorClass).code, message: (err as Error).message };
      }
      await db.close();
      const local = await window.GraphDB.open({ worker: false });
      await local.mutate('UNWIND range(1, 100) AS i CREATE (:N {i: i})');
      const inPage = (await local.query('MATCH (n:N) RETURN sum(n.i) AS s')).rows[0];
      await local.close();
      return { rows, algo, nodes: stats.nodes, store: stats.store?.name, syntax, inPage, inWorker: typeof document };
    });
    expect(out.rows).toEqual([{ a: 'Ann', b: 'Bob', since: 2020 }]);
    expect(out.algo).toEqual([{ n: 2, names: expect.arrayContaining(['Ann', 'Bob']) }]);
    expect(out.nodes).toBe(2);
    expect(out.store).toBe('basic');
    expect(out.syntax?.code).toBe('COMPILE_ERR');
    expect(out.inPage).toEqual({ s: 5050 });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it_('runs vector search (exact), full-text search, algorithms, the default embedder, skills and observation classes in the worker; file access is a typed refusal', async () => {
    const context = await browser!.newContext();
    const { page } = await openTab(context);
    const out = await page.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'features' });
      await db.mutate("CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.embedding) OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}");
      await db.mutate("CREATE FULLTEXT INDEX texts FOR (d:Doc) ON EACH [d.body]");
      await db.mutate(
        "UNWIND [['a', [1.0, 0.0, 0.0], 'graph databases store nodes'], ['b', [0.9, 0.1, 0.0], 'a store of notes'], ['c', [0.0, 0.0, 1.0], 'vectors and graphs']] AS d " +
          'CREATE (:Doc {name: d[0], embedding: d[1], body: d[2]})',
      );
      await db.mutate("MATCH (a:Doc {name: 'a'}), (b:Doc {name: 'b'}), (c:Doc {name: 'c'}) CREATE (a)-[:LINKS]->(b), (b)-[:LINKS]->(c), (c)-[:LINKS]->(a)");
      const vector = (await db.query("CALL db.index.vector.queryNodes('docs', 2, [1.0, 0.05, 0.0]) YIELD node, score RETURN node.name AS name, score")).rows;
      const text = (await db.query("CALL db.index.fulltext.queryNodes('texts', 'store') YIELD node RETURN node.name AS name ORDER BY name")).rows;
      const rank = (await db.query('CALL algo.pageRank() YIELD node, score RETURN count(node) AS n, round(sum(score), 3) AS total')).rows[0];
      // Past the size at which the kernels go to the worker pool (2^17 edges) with the default
      // concurrency (the page's cores): a page has no Node worker threads (nor, unless it is
      // cross-origin isolated, shared memory), so they run on the calling thread.
      await db.mutate('UNWIND range(0, 999) AS i CREATE (:P {i: i})');
      await db.mutate('MATCH (a:P), (b:P) WHERE a.i <> b.i AND (a.i - b.i) % 7 = 0 CREATE (a)-[:R]->(b)');
      const big = (await db.query(
        "CALL algo.pageRank({nodeLabels: ['P'], relationshipTypes: ['R']}) YIELD node, score WITH count(node) AS n, round(sum(score), 3) AS total " +
          "CALL algo.wcc({nodeLabels: ['P'], relationshipTypes: ['R']}) YIELD componentId RETURN n, total, count(DISTINCT componentId) AS components",
      )).rows[0];
      const info = (await db.query('CALL graphdb.embed.info() YIELD provider, dimensions RETURN provider, dimensions')).rows[0];
      await db.mutate("CALL skills.register('docNamed', 'A document by name', 'MATCH (d:Doc {name: $name}) RETURN d.body AS body', {parameters: {name: 'STRING'}})");
      const skill = (await db.query("CALL skills.run('docNamed', {name: 'c'}) YIELD value RETURN value.body AS body")).rows;
      const classes = (await db.query('CALL graphdb.observation.classes() YIELD class RETURN collect(class) AS classes')).rows[0];
      let file: { code: string; message: string } | undefined;
      try {
        await db.query("LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row");
      } catch (err) {
        file = { code: (err as GraphDBErrorClass).code, message: (err as Error).message };
      }
      await db.close();
      return { vector, text, rank, big, info, skill, classes, file };
    });
    expect(out.vector.map((r) => r.name)).toEqual(['a', 'b']);
    expect(out.vector[0].score as number).toBeGreaterThan(out.vector[1].score as number);
    expect(out.text).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(out.rank).toEqual({ n: 3, total: 1 });
    expect(out.big).toEqual({ n: 1000, total: 1, components: 7 });
    expect(out.info).toEqual({ provider: 'hash', dimensions: 384 });
    expect(out.skill).toEqual([{ body: 'vectors and graphs' }]);
    expect(out.classes).toEqual({ classes: expect.arrayContaining(['observed', 'inferred', 'predicted']) });
    expect(out.file).toEqual({ code: 'ARGUMENT_ERR', message: 'LOAD CSV cannot read file:///etc/passwd: UNSUPPORTED_IN_BROWSER' });
    await context.close();
  }, 60_000);

  it_('runs explicit transactions in the worker: isolated until commit, rolled back whole, stored on commit, a plain write waiting its turn', async () => {
    const context = await browser!.newContext();
    const { page } = await openTab(context);
    const out = await page.evaluate(async () => {
      const count = async (db: GraphDBClass): Promise<unknown> => (await db.query('MATCH (t:T) RETURN count(t) AS n')).rows[0].n;
      let db = await window.GraphDB.open({ name: 'transactions' });
      const tx = await db.beginTransaction();
      await tx.run("CREATE (:T {k: 'a'})");
      const outside = await count(db);
      const inside = (await tx.run('MATCH (t:T) RETURN count(t) AS n')).rows[0].n;
      // A plain write while the transaction holds the writer: it waits for the commit, the transaction's next statement does not wait for it.
      const plainWrite = db.mutate("CREATE (:T {k: 'b'})");
      await tx.run("CREATE (:T {k: 'c'})");
      await tx.commit();
      await plainWrite;
      let failed: string | undefined;
      try {
        await db.transaction(async (t) => {
          await t.run("CREATE (:T {k: 'never'})");
          await t.run('RETURN 1 / 0');
        });
      } catch (err) {
        failed = (err as GraphDBErrorClass).code;
      }
      const rolledBack = await db.beginTransaction();
      await rolledBack.run("CREATE (:T {k: 'dropped'})");
      await rolledBack.rollback();
      let ended: string | undefined;
      try {
        await rolledBack.run('RETURN 1');
      } catch (err) {
        ended = (err as GraphDBErrorClass).code;
      }
      await db.close();
      db = await window.GraphDB.open({ name: 'transactions' });
      const keys = (await db.query('MATCH (t:T) RETURN t.k AS k ORDER BY k')).rows.map((r) => r.k);
      await db.close();
      return { outside, inside, failed, ended, keys };
    });
    expect(out).toEqual({ outside: 0, inside: 1, failed: 'ARITHMETIC_ERR', ended: 'TX_STATE', keys: ['a', 'b', 'c'] });
    await context.close();
  }, 60_000);

  it_('finds its data and skills after a reload, and after checkpoints', async () => {
    const context = await browser!.newContext();
    const { page } = await openTab(context);
    const before = await page.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'reload' });
      await db.mutate('CREATE INDEX item_k FOR (i:Item) ON (i.k)');
      await db.mutate("UNWIND range(1, 500) AS k CREATE (:Item {k: k, text: 'item ' + toString(k)})");
      await db.checkpoint();
      await db.mutate('MATCH (i:Item) WHERE i.k > 400 DETACH DELETE i');
      await db.mutate("CREATE (:Item {k: 1000, text: 'after the checkpoint'})");
      await db.mutate("CALL skills.register('itemText', 'An item by key', 'MATCH (i:Item {k: $k}) RETURN i.text AS text', {parameters: {k: 'INTEGER'}})");
      const fp = await db.fingerprint();
      // No close: the reload ends the worker as a closed tab would.
      return fp;
    });
    await page.reload();
    await page.waitForFunction(() => window.graphdbReady === true);
    const after = await page.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'reload' });
      const count = (await db.query('MATCH (i:Item) RETURN count(i) AS n, max(i.k) AS top')).rows[0];
      const skill = (await db.query("CALL skills.run('itemText', {k: 1000}) YIELD value RETURN value.text AS text")).rows;
      const stats = await db.stats();
      const fp = await db.fingerprint();
      await db.close();
      return { count, fp, recovery: stats.store?.recovery, skill };
    });
    expect(after.count).toEqual({ n: 401, top: 1000 });
    expect(after.fp).toBe(before);
    expect(after.recovery).toMatchObject({ snapshotGeneration: 1, walRecordsReplayed: 2, tornBytes: 0 });
    expect(after.skill).toEqual([{ text: 'after the checkpoint' }]);
    await context.close();
  }, 60_000);

  it_('keeps every acknowledged write when the tab is closed mid-write, and cuts a torn log tail', async () => {
    const context = await browser!.newContext();
    const { page } = await openTab(context);
    let acked = 0;
    await page.exposeFunction('ack', (n: number) => void (acked = n));
    await page.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'killed' });
      window.db = db;
      void (async () => {
        for (let i = 1; ; i++) {
          await db.mutate('CREATE (:W {i: $i})', { i });
          window.ack(i);
        }
      })();
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await page.close({ runBeforeUnload: false });
    expect(acked).toBeGreaterThan(5);
    const { page: next } = await openTab(context);
    // A record a killed tab had not finished: append half a line to the log, as a cut write leaves it.
    await next.evaluate(async () => {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle('graphdb-killed');
      const file = await dir.getFileHandle('wal.jsonl');
      const size = (await file.getFile()).size;
      const w = await file.createWritable({ keepExistingData: true });
      await w.seek(size);
      await w.write('[999999,"{\\"changes\\":[{\\"op\\":\\"createNo');
      await w.close();
    });
    const out = await next.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'killed' });
      const r = (await db.query('MATCH (w:W) RETURN count(w) AS n, max(w.i) AS top, count(DISTINCT w.i) AS d')).rows[0] as { n: number; top: number; d: number };
      const stats = await db.stats();
      await db.mutate('CREATE (:W {i: -1})');
      await db.close();
      return { ...r, torn: stats.store?.recovery.tornBytes ?? 0 };
    });
    expect(out.n).toBeGreaterThanOrEqual(acked);
    expect(out.n).toBe(out.top);
    expect(out.d).toBe(out.n);
    expect(out.torn).toBeGreaterThan(0);
    await context.close();
  }, 60_000);

  it_('refuses a write past the size limit with STORE_FULL and keeps nothing of it; deletions still go through', async () => {
    const context = await browser!.newContext();
    const { page } = await openTab(context);
    const out = await page.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'full', maxBytes: 64 * 1024 });
      let refused: { code: string; name: string; message: string } | undefined;
      let batches = 0;
      for (; batches < 100; batches++) {
        try {
          await db.mutate("UNWIND range(1, 20) AS i CREATE (:Blob {b: $b, i: i})", { b: 'x'.repeat(200) });
        } catch (err) {
          refused = { code: (err as GraphDBErrorClass).code, name: (err as Error).name, message: (err as Error).message };
          break;
        }
      }
      const count = (await db.query('MATCH (b:Blob) RETURN count(b) AS n')).rows[0].n;
      const deleted = (await db.mutate('MATCH (b:Blob) WITH b LIMIT 40 DETACH DELETE b')).stats.nodesDeleted;
      await db.checkpoint();
      const stats = await db.stats();
      const again = (await db.mutate('CREATE (:Blob {i: 0})')).stats.nodesCreated;
      await db.close();
      return { refused, batches, count, deleted, bytes: stats.store?.bytes, again };
    });
    expect(out.refused?.code).toBe('STORE_FULL');
    expect(out.refused?.name).toBe('StoreFullError');
    expect(out.refused?.message).toMatch(/past its limit of 0\.1 MB/);
    expect(out.count).toBe(out.batches * 20);
    expect(out.deleted).toBe(40);
    expect(out.bytes).toBeLessThan(64 * 1024);
    expect(out.again).toBe(1);
    await context.close();
  }, 60_000);

  it_('lets one tab own a store: another gets STORE_LOCKED until the first closes it', async () => {
    const context = await browser!.newContext();
    const { page: first } = await openTab(context);
    const { page: second } = await openTab(context);
    await first.evaluate(async () => {
      window.db = await window.GraphDB.open({ name: 'shared' });
      await window.db.mutate('CREATE (:Owned)');
    });
    const refused = await second.evaluate(async () => {
      try {
        await window.GraphDB.open({ name: 'shared', viaOwner: false });
        return undefined;
      } catch (err) {
        return { code: (err as GraphDBErrorClass).code, message: (err as Error).message };
      }
    });
    expect(refused?.code).toBe('STORE_LOCKED');
    expect(refused?.message).toMatch(/open in another tab/);
    await first.evaluate(() => window.db!.close());
    const n = await second.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'shared' });
      const r = (await db.query('MATCH (o:Owned) RETURN count(o) AS n')).rows[0].n;
      await db.close();
      return r;
    });
    expect(n).toBe(1);
    await context.close();
  }, 60_000);

  it_('lets another tab go through the owning tab (writes stored by the owner), until the owner\'s tab goes', async () => {
    const context = await browser!.newContext();
    const { page: owner } = await openTab(context);
    const { page: other } = await openTab(context);
    await owner.evaluate(async () => {
      window.db = await window.GraphDB.open({ name: 'relayed' });
      await window.db.mutate("CREATE (:Seen {who: 'owner'})");
    });
    const viaOwner = await other.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'relayed' });
      window.db = db;
      await db.mutate('CREATE (:Seen {who: $who})', { who: 'other' });
      let syntax: string | undefined;
      try {
        await db.query('RETURN (');
      } catch (err) {
        syntax = (err as GraphDBErrorClass).code;
      }
      return { throughOwner: db.throughOwner, rows: (await db.query('MATCH (s:Seen) RETURN s.who AS who ORDER BY who')).rows, syntax };
    });
    expect(viaOwner).toEqual({ throughOwner: true, rows: [{ who: 'other' }, { who: 'owner' }], syntax: 'COMPILE_ERR' });
    const seenByOwner = await owner.evaluate(async () => (await window.db!.query('MATCH (s:Seen) RETURN count(s) AS n')).rows[0].n);
    expect(seenByOwner).toBe(2);
    // The owner's tab goes without closing the store: the lock it held is released, and the other tab learns it.
    await owner.close({ runBeforeUnload: false });
    await other.waitForTimeout(200);
    const after = await other.evaluate(async () => {
      let code: string | undefined;
      try {
        await window.db!.query('MATCH (s:Seen) RETURN count(s) AS n');
      } catch (err) {
        code = (err as GraphDBErrorClass).code;
      }
      const own = await window.GraphDB.open({ name: 'relayed' });
      const n = (await own.query('MATCH (s:Seen) RETURN count(s) AS n')).rows[0].n;
      const throughOwner = own.throughOwner;
      await own.close();
      return { code, n, throughOwner };
    });
    expect(after).toEqual({ code: 'OWNER_GONE', n: 2, throughOwner: false });
    await context.close();
  }, 60_000);

  it_('exports a snapshot that the real CLI loads (:restore, and a data directory with the same fingerprint), and imports one', async () => {
    const context = await browser!.newContext();
    const { page } = await openTab(context);
    const out = await page.evaluate(async () => {
      const db = await window.GraphDB.open({ name: 'export' });
      await db.mutate('CREATE CONSTRAINT city_name FOR (c:City) REQUIRE c.name IS UNIQUE');
      await db.mutate("CREATE (:City {name: 'Lyon', pop: 522250})-[:ROAD {km: 465.5}]->(:City {name: 'Paris', pop: 2102650, tags: ['capital', 'big']})");
      await db.mutate("MATCH (c:City {name: 'Lyon'}) SET c.river = 'Rhône'");
      const snapshot = await db.exportSnapshot();
      const fingerprint = await db.fingerprint();
      const imported = await db.importSnapshot(snapshot.replace('"Lyon"', '"Lyon2"').replace('"Paris"', '"Paris2"'));
      const after = (await db.query('MATCH (c:City) RETURN count(c) AS n')).rows[0].n;
      let damaged: string | undefined;
      try {
        await db.importSnapshot(snapshot.slice(0, 200));
      } catch (err) {
        damaged = (err as GraphDBErrorClass).code;
      }
      await db.close();
      return { snapshot, fingerprint, imported, after, damaged };
    });
    expect(out.imported).toMatchObject({ nodes: 2, relationships: 1 });
    expect(out.after).toBe(4);
    expect(out.damaged).toBe('STORAGE_ERR');

    const dir = tempDir();
    const file = join(dir, 'browser-export.json');
    writeFileSync(file, out.snapshot);
    const restored = runCli([], `:restore ${file}\nMATCH (a:City)-[r:ROAD]->(b:City) RETURN a.name, a.river, r.km, b.tags;\n:quit\n`);
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toMatch(/Restored 2 nodes and 1 relationships/);
    expect(restored.stdout).toMatch(/Added constraint city_name/);
    expect(restored.stdout).toMatch(/Rhône/);
    expect(restored.stdout).toMatch(/465\.5/);

    const dataDir = join(dir, 'data');
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'graphdb.snapshot.json'), out.snapshot);
    const started = runCli(['--data-dir', dataDir], ':stats\n:quit\n');
    expect(started.stdout).toMatch(/^Nodes: +2$/m);
    expect(/^Fingerprint: +(\d+)$/m.exec(started.stdout)?.[1]).toBe(out.fingerprint);
    await context.close();
  }, 90_000);

  it_('syncs with a real graphdb server over fetch with its key: offline writes queue (across a reopen), go out once online, and a conflict converges', async () => {
    const hub = await spawnGraphdb(['--data-dir', join(tempDir(), 'hub'), '--peer-id', 'hub', '--http', '0', '--api-key', KEY]);
    const context = await browser!.newContext();
    try {
      const base = `http://127.0.0.1:${hub.ports.http}`;
      await serverQuery(base, "CREATE (:Doc {key: 'server', v: 1})");
      const { page } = await openTab(context);
      const first = await page.evaluate(
        async ({ url, apiKey }) => {
          const db = await window.GraphDB.open({ name: 'synced', sync: { peerId: 'tab' } });
          window.db = db;
          await db.mutate("CREATE (:Doc {key: 'browser', v: 1})");
          const pendingBefore = await db.syncPending();
          let noKey: string | undefined;
          try {
            await db.syncWith({ url });
          } catch (err) {
            noKey = (err as GraphDBErrorClass).code;
          }
          const cycle = await db.syncWith({ url, apiKey });
          const docs = (await db.query('MATCH (d:Doc) RETURN d.key AS k ORDER BY k')).rows.map((r) => r.k);
          return { pendingBefore, noKey, cycle, docs, fingerprint: await db.fingerprint(), pendingAfter: await db.syncPending() };
        },
        { url: base, apiKey: KEY },
      );
      expect(first.pendingBefore).toBe(1);
      expect(first.noKey).toBe('SYNC_PEER_ERR');
      expect(first.cycle).toMatchObject({ peer: 'hub', pushedStatements: 1, consistent: true });
      expect(first.docs).toEqual(['browser', 'server']);
      expect(first.pendingAfter).toBe(0);
      expect(await serverFingerprint(base)).toBe(first.fingerprint);
      expect(await serverQuery(base, "MATCH (d:Doc {key: 'browser'}) RETURN d.v AS v")).toEqual([{ v: '1' }]);

      // Offline: the page writes (one of them in conflict with the server's own write) and the cycle fails; the queue stays, also across a reopen of the store.
      await context.setOffline(true);
      const failed = await page.evaluate(
        async ({ url, apiKey }) => {
          const db = window.db!;
          await db.mutate("MATCH (d:Doc {key: 'server'}) SET d.v = 2");
          await db.mutate("CREATE (:Doc {key: 'offline', v: 1})");
          try {
            await db.syncWith({ url, apiKey });
            return undefined;
          } catch (err) {
            return (err as GraphDBErrorClass).code;
          }
        },
        { url: base, apiKey: KEY },
      );
      expect(failed).toBe('SYNC_PEER_ERR');
      await serverQuery(base, "MATCH (d:Doc {key: 'server'}) SET d.v = 3");
      // Back online (a new worker's script is fetched from the network: a page that must reopen offline caches it in a service worker).
      await context.setOffline(false);
      const pending = await page.evaluate(async () => {
        await window.db!.close();
        window.db = await window.GraphDB.open({ name: 'synced', sync: { peerId: 'tab' } });
        return window.db.syncPending();
      });
      expect(pending).toBe(2);

      // Background sync sends the queue and pulls the server's write; both sides agree.
      await page.evaluate(({ url, apiKey }) => window.db!.startSync({ url, apiKey, intervalMs: 200 }), { url: base, apiKey: KEY });
      let converged = false;
      for (let i = 0; i < 100 && !converged; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const local = await page.evaluate(async () => ({ pending: await window.db!.syncPending(), fingerprint: await window.db!.fingerprint() }));
        converged = local.pending === 0 && local.fingerprint === (await serverFingerprint(base));
      }
      expect(converged).toBe(true);
      const browserDocs = await page.evaluate(async () => (await window.db!.query('MATCH (d:Doc) RETURN d.key AS k, d.v AS v ORDER BY k')).rows);
      const serverDocs = await serverQuery(base, 'MATCH (d:Doc) RETURN d.key AS k, d.v AS v ORDER BY k');
      // The server's /query rows carry their values as text.
      expect(browserDocs.map((r) => ({ k: String(r.k), v: String(r.v) }))).toEqual(serverDocs);
      expect(browserDocs.map((r) => r.k)).toEqual(['browser', 'offline', 'server']);
      await page.evaluate(() => window.db!.close());
    } finally {
      await context.close();
      await hub.stop();
    }
  }, 120_000);

  it_('serves a static playground: the web console on the engine in a worker of the page, with the demo graph, no server', async () => {
    const context = await browser!.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors: string[] = [];
    const requested: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(`${server.origin}/playground/index.html`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true', undefined, { timeout: 60_000 });
    const labels = await page.$$eval('#labels button', (bs) => bs.map((b) => b.textContent));
    expect(labels).toContain('City (8)');
    await page.evaluate(() => {
      const editor = (window as unknown as { graphdbConsole: { editor: { state: { doc: { length: number } }; dispatch(t: unknown): void } } }).graphdbConsole.editor;
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: 'MATCH (c:City) RETURN c.name AS name ORDER BY name LIMIT 2' } });
    });
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => document.body.dataset.state !== undefined && document.body.dataset.state !== 'running');
    expect(await page.evaluate(() => document.body.dataset.state)).toBe('done');
    const rows = await page.$$eval('#view-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    expect(rows.length).toBe(2);
    // Only static files were fetched: no query route exists on this server.
    expect(requested.filter((p) => !/\.(html|js|css|txt)$/.test(p))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});

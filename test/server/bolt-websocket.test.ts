/**
 * Bolt over WebSocket on the Bolt port: Neo4j's browser driver (its own browser bundle, in
 * headless Chromium driven by playwright-core, loaded from a page a tiny local HTTP server
 * serves) against the real `graphdb --bolt` binary; a Node WebSocket client (`ws`) speaking
 * raw Bolt with messages split across frames and several in one frame; a page of another
 * origin without the key is read-only; the door's limits (time to authenticate, connection
 * cap, frame size) on an in-process server with small ones; a plain HTTP request gets 426.
 *
 * Without chromium the browser test is skipped on a workstation but fails under CI (CI=1).
 * Assumes `npm run build`.
 */

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium } from '../headless-chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Database } from '../../src/engine/database.js';
import { startBoltServer } from '../../src/server/bolt/server.js';
import { Packer, type PackValue, Structure, unpack } from '../../src/server/bolt/packstream.js';
import { chunked } from '../../src/server/bolt/chunking.js';
import type { RunningServer } from '../../src/server/running.js';
import { converse, spawnGraphdb, type SpawnedServers } from './helpers.js';
import { FAILURE, map, OFFER_5, RECORD, SUCCESS } from './bolt-raw.js';

const KEY = 'ws-test-key';
const UNDER_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0';
const DRIVER_BUNDLE = fileURLToPath(new URL('../../node_modules/neo4j-driver/lib/browser/neo4j-web.min.js', import.meta.url));

let servers: SpawnedServers;
let keyless: { db: Database; server: RunningServer };
let small: { db: Database; server: RunningServer };
let pages: Server;
let pagesPort: number;
let browser: Browser | undefined;

beforeAll(async () => {
  servers = await spawnGraphdb(['--bolt', '0', '--api-key', KEY, '--workers', '1']);
  const db = Database.openInMemory();
  keyless = { db, server: await startBoltServer(db, { port: 0, log: () => undefined }) };
  const db2 = Database.openInMemory();
  small = { db: db2, server: await startBoltServer(db2, { port: 0, apiKey: KEY, log: () => undefined, limits: { maxConnections: 2, headersTimeoutMs: 500, maxMessageBytes: 4096 } }) };
  // The page and the driver's browser bundle, from an origin of its own (another port).
  const bundle = readFileSync(DRIVER_BUNDLE);
  pages = createServer((req, res) => {
    if (req.url === '/neo4j-web.min.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(bundle);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><html><head><script src="/neo4j-web.min.js"></script></head><body>driver page</body></html>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pagesPort = (pages.address() as { port: number }).port;
  if (!HAVE_CHROMIUM) {
    if (UNDER_CI) throw new Error(`No chromium at ${CHROMIUM}: the Bolt WebSocket test needs it under CI`);
    return;
  }
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => pages?.close(resolve));
  await keyless?.server.close();
  await keyless?.db.close();
  await small?.server.close();
  await small?.db.close();
  await servers?.stop();
});

function packed(tag: number, ...fields: PackValue[]): Buffer {
  const p = new Packer();
  p.pack(new Structure(tag, fields));
  return chunked(p.take());
}

/** A raw Bolt client over a WebSocket: bytes go out as given (one frame per send), messages come back whole. */
class WsBolt {
  private buf = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  closed = false;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake?.();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static open(port: number, headers: Record<string, string> = {}): Promise<WsBolt> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers });
      ws.once('open', () => resolve(new WsBolt(ws)));
      ws.once('error', reject);
    });
  }

  send(...frames: Buffer[]): void {
    for (const f of frames) this.ws.send(f, { binary: true });
  }

  private async bytes(n: number, timeoutMs = 5000): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    while (this.buf.length < n) {
      if (this.closed) throw new Error('closed');
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 50);
      });
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    return out;
  }

  async version(): Promise<number[]> {
    return [...(await this.bytes(4))];
  }

  async next(): Promise<Structure> {
    const parts: Buffer[] = [];
    for (;;) {
      const n = (await this.bytes(2)).readUInt16BE(0);
      if (n === 0) break;
      parts.push(Buffer.from(await this.bytes(n)));
    }
    return unpack(Buffer.concat(parts)) as Structure;
  }

  async closedWithin(ms: number): Promise<boolean> {
    const t0 = Date.now();
    while (!this.closed && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 25));
    return this.closed;
  }
}

describe('Bolt over WebSocket', () => {
  it('a raw Bolt stream over ws: messages split across frames and several in one frame', async () => {
    const c = await WsBolt.open(servers.ports.bolt!);
    try {
      // The handshake in two frames.
      c.send(OFFER_5.subarray(0, 7), OFFER_5.subarray(7));
      expect(await c.version()).toEqual([0, 0, 8, 5]);
      const hello = packed(0x01, map({ user_agent: 'ws-raw/1' }));
      const logon = packed(0x6a, map({ scheme: 'basic', principal: 'u', credentials: KEY }));
      // HELLO cut in the middle of a chunk, its rest in one frame with all of LOGON.
      c.send(hello.subarray(0, 5), Buffer.concat([hello.subarray(5), logon]));
      expect((await c.next()).tag).toBe(SUCCESS);
      expect((await c.next()).tag).toBe(SUCCESS);
      // RUN and PULL in one frame; a large parameter spans several chunks and frames.
      const big = 'x'.repeat(150_000);
      const run = packed(0x10, 'RETURN size($s) AS n, 7 AS seven', map({ s: big }), map({}));
      const pull = packed(0x3f, map({ n: -1 }));
      const all = Buffer.concat([run, pull]);
      for (let at = 0; at < all.length; at += 40_000) c.send(all.subarray(at, at + 40_000));
      const fields = await c.next();
      expect(fields.tag).toBe(SUCCESS);
      expect((fields.fields[0] as Map<string, PackValue>).get('fields')).toEqual(['n', 'seven']);
      const rec = await c.next();
      expect(rec.tag).toBe(RECORD);
      expect(rec.fields[0]).toEqual([150_000, 7]);
      expect((await c.next()).tag).toBe(SUCCESS);
    } finally {
      c.ws.close();
    }
  });

  it('the same auth: a wrong key is Unauthorized and the WebSocket closes', async () => {
    const c = await WsBolt.open(servers.ports.bolt!);
    c.send(OFFER_5);
    expect(await c.version()).toEqual([0, 0, 8, 5]);
    c.send(packed(0x01, map({ user_agent: 'ws-raw/1' })), packed(0x6a, map({ scheme: 'basic', principal: 'u', credentials: 'wrong' })));
    expect((await c.next()).tag).toBe(SUCCESS);
    const f = await c.next();
    expect(f.tag).toBe(FAILURE);
    expect((f.fields[0] as Map<string, PackValue>).get('code')).toBe('Neo.ClientError.Security.Unauthorized');
    expect(await c.closedWithin(4000)).toBe(true);
  });

  it('a plain HTTP request to the Bolt port is answered 426, and plain Bolt still works beside WebSocket', async () => {
    const answer = await converse(servers.ports.bolt!, ['GET / HTTP/1.1\r\nHost: x\r\n\r\n'], { quietMs: 1500 });
    expect(answer.text).toMatch(/^HTTP\/1\.1 426/);
    expect(answer.text).toContain('Bolt port');
    const plain = await converse(servers.ports.bolt!, [OFFER_5], { quietMs: 800 });
    expect([...Buffer.from(plain.text, 'latin1').subarray(0, 4)]).toEqual([0, 0, 8, 5]);
  });

  it("Neo4j's browser driver in headless Chromium: reads, writes, nodes and a transaction over ws://", async (ctx) => {
    if (browser === undefined) return ctx.skip();
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`http://127.0.0.1:${pagesPort}/`);
    const out = await page.evaluate(
      async ({ port, key }) => {
        const neo4j = (globalThis as unknown as { neo4j: typeof import('neo4j-driver').default }).neo4j;
        const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic('browser', key));
        try {
          const info = await driver.getServerInfo();
          const created = await driver.executeQuery("CREATE (p:WsPerson {name: 'Ada', born: 1815}) RETURN p", {});
          const node = created.records[0].get('p');
          const session = driver.session();
          let count = 0;
          try {
            count = await session.executeRead(async (tx) => {
              const r = await tx.run('MATCH (p:WsPerson) RETURN count(p) AS c');
              return r.records[0].get('c').toNumber();
            });
          } finally {
            await session.close();
          }
          const many = await driver.executeQuery('UNWIND range(1, 5000) AS i RETURN i');
          return { agent: info.agent, labels: node.labels, name: node.properties.name, born: node.properties.born.toNumber(), elementId: typeof node.elementId, nodesCreated: created.summary.counters.updates().nodesCreated, count, rows: many.records.length, last: many.records[4999].get('i').toNumber() };
        } finally {
          await driver.close();
        }
      },
      { port: servers.ports.bolt!, key: KEY },
    );
    expect(errors).toEqual([]);
    expect(out).toMatchObject({ labels: ['WsPerson'], name: 'Ada', born: 1815, elementId: 'string', nodesCreated: 1, count: 1, rows: 5000, last: 5000 });
    expect(out.agent).toMatch(/^Neo4j\//);
    await page.context().close();
  }, 60_000);

  it('a page of another origin reaches a server without a key read-only; a write is refused', async (ctx) => {
    if (browser === undefined) return ctx.skip();
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://127.0.0.1:${pagesPort}/`);
    const out = await page.evaluate(async (port) => {
      const neo4j = (globalThis as unknown as { neo4j: typeof import('neo4j-driver').default }).neo4j;
      const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic('page', 'whatever'));
      try {
        const read = await driver.executeQuery('RETURN 1 + 1 AS two');
        let refused = '';
        try {
          await driver.executeQuery('CREATE (:FromPage) RETURN 1');
        } catch (e) {
          refused = (e as { code: string }).code;
        }
        return { two: read.records[0].get('two').toNumber(), refused };
      } finally {
        await driver.close();
      }
    }, keyless.server.port);
    expect(out.two).toBe(2);
    expect(out.refused).toBe('Neo.ClientError.Statement.AccessMode');
    expect((await keyless.db.query('MATCH (n:FromPage) RETURN count(n) AS c')).records[0][0]).toBe(0);
    await page.context().close();
  }, 60_000);

  it('the limits: time to authenticate, connection cap and frame size hold over WebSocket too', async () => {
    // Upgraded but silent: closed when the time to authenticate (500 ms) is up.
    const silent = await WsBolt.open(small.server.port);
    expect(await silent.closedWithin(4000)).toBe(true);
    // An HTTP request that never ends its headers is dropped within the same bound.
    const stalled = await converse(small.server.port, ['GET / HTTP/1.1\r\nHost: x\r\n'], { quietMs: 2500 });
    expect(stalled.closedByServer).toBe(true);
    // Two slots: two WebSockets hold them, a third connection is closed at once.
    const a = await WsBolt.open(small.server.port);
    const b = await WsBolt.open(small.server.port);
    try {
      a.send(OFFER_5);
      b.send(OFFER_5);
      await a.version();
      await b.version();
      await expect(WsBolt.open(small.server.port)).rejects.toThrow();
    } finally {
      a.ws.close();
      b.ws.close();
    }
    await new Promise((r) => setTimeout(r, 200));
    // A frame far over the message size limit closes the WebSocket.
    const huge = await WsBolt.open(small.server.port);
    huge.send(Buffer.alloc(600 * 1024));
    expect(await huge.closedWithin(4000)).toBe(true);
  }, 30_000);
});

/**
 * The TCP door with real sockets (SPEC "TCP protocol"): one query per line in, one JSON
 * line out; many clients at once; a client that never reads does not stall the others;
 * garbage (random bytes, invalid UTF-8, half lines, huge lines) gets error lines or a
 * closed connection while the server keeps serving.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Database } from '../../src/engine/database.js';
import type { RunningServer } from '../../src/server/running.js';
import { startTcpServer } from '../../src/server/tcp/server.js';
import { converse, garbage } from './helpers.js';

let db: Database;
let server: RunningServer;
const log: string[] = [];

beforeAll(async () => {
  db = Database.openInMemory();
  await db.execute("UNWIND range(1, 20) AS i CREATE (:Item {i: i, name: 'item ' + toString(i)})");
  server = await startTcpServer(db, { port: 0, limits: { maxLineBytes: 64 * 1024, maxConnections: 64 }, log: (l) => log.push(l) });
});
afterAll(async () => server.close());

function lines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

/** A line-oriented client: send a query, await its one answer line. */
class LineClient {
  private buffered = '';
  private waiting: ((line: string) => void)[] = [];
  private readonly ready: Promise<void>;
  readonly socket: Socket;
  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.ready = new Promise((r) => this.socket.once('connect', () => r()));
    this.socket.setEncoding('utf8');
    this.socket.on('data', (d: string) => {
      this.buffered += d;
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.waiting.shift()?.(line);
      }
    });
  }
  async ask(query: string): Promise<Record<string, unknown>> {
    await this.ready;
    const answer = new Promise<string>((r) => this.waiting.push(r));
    this.socket.write(query + '\n');
    return JSON.parse(await answer) as Record<string, unknown>;
  }
  close(): void {
    this.socket.destroy();
  }
}

async function stillServes(): Promise<void> {
  const c = new LineClient(server.port);
  expect(await c.ask('RETURN 7 AS seven')).toEqual({ columns: ['seven'], rows: [{ seven: '7' }] });
  c.close();
}

describe('TCP protocol', () => {
  it('prints its address at start-up', () => {
    expect(log.join('\n')).toMatch(new RegExp(`TCP server listening on 127\\.0\\.0\\.1:${server.port}`));
  });

  it('answers each line with one JSON result line, in order; CRLF and blank lines are fine', async () => {
    const reply = await converse(server.port, ['RETURN 1 AS a\r\n\nMATCH (n:Item) WHERE n.i <= 2 RETURN n.name AS name ORDER BY name\n', 'RETURN [1, 2.5, null] AS l\n'], { end: true });
    expect(lines(reply.text)).toEqual([
      { columns: ['a'], rows: [{ a: '1' }] },
      { columns: ['name'], rows: [{ name: 'item 1' }, { name: 'item 2' }] },
      { columns: ['l'], rows: [{ l: '[1, 2.5, null]' }] },
    ]);
  });

  it('answers a failing query with one error line and keeps the connection', async () => {
    const c = new LineClient(server.port);
    const compile = await c.ask('MATCH (n RETURN n');
    expect(compile).toMatchObject({ error: true, code: 'COMPILE_ERR' });
    expect(compile.message).toEqual(expect.any(String));
    expect(await c.ask('RETURN 1/0')).toMatchObject({ error: true, code: 'ARITHMETIC_ERR' });
    expect(await c.ask('RETURN 2 AS two')).toEqual({ columns: ['two'], rows: [{ two: '2' }] });
    c.close();
  });

  it('runs mutations, visible to every client', async () => {
    const a = new LineClient(server.port);
    const b = new LineClient(server.port);
    expect(await a.ask("CREATE (:Tcp {name: 'shared'}) RETURN 1 AS ok")).toEqual({ columns: ['ok'], rows: [{ ok: '1' }] });
    expect(await b.ask('MATCH (n:Tcp) RETURN n.name AS name')).toEqual({ columns: ['name'], rows: [{ name: 'shared' }] });
    await a.ask('MATCH (n:Tcp) DELETE n');
    a.close();
    b.close();
  });

  it('answers the last line even without a final newline when the client ends', async () => {
    const reply = await converse(server.port, ['RETURN 3 AS x'], { end: true });
    expect(lines(reply.text)).toEqual([{ columns: ['x'], rows: [{ x: '3' }] }]);
    expect(reply.closedByServer).toBe(true);
  });

  it('serves many clients at once, each its own answers', async () => {
    const clients = Array.from({ length: 30 }, () => new LineClient(server.port));
    const results = await Promise.all(
      clients.map(async (c, k) => {
        const got: unknown[] = [];
        for (let j = 0; j < 10; j++) got.push(await c.ask(`RETURN ${k * 100 + j} AS v`));
        return got;
      }),
    );
    results.forEach((got, k) => expect(got).toEqual(Array.from({ length: 10 }, (_, j) => ({ columns: ['v'], rows: [{ v: String(k * 100 + j) }] }))));
    for (const c of clients) c.close();
  });

  it('a client that never reads its answers does not stall the others', async () => {
    const hog = connect(server.port, '127.0.0.1');
    await new Promise((r) => hog.once('connect', r));
    hog.pause();
    // Each answer is ~1 MB of rows; the hog reads none of them.
    const big = 'UNWIND range(1, 20000) AS x RETURN x, "padding padding padding" AS p\n';
    for (let i = 0; i < 200; i++) hog.write(big);
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    await stillServes();
    expect(performance.now() - started).toBeLessThan(2000);
    hog.destroy();
  });
});

describe('TCP garbage', () => {
  it('random bytes get error lines or a close, and the server keeps serving', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const reply = await converse(server.port, [garbage(seed, 4096), '\n'], { end: true, quietMs: 1000 });
      for (const line of lines(reply.text)) expect(line).toMatchObject({ error: true });
    }
    await stillServes();
  });

  it('a line that is not UTF-8 gets BAD_ENCODING and the connection goes on', async () => {
    const reply = await converse(server.port, [new Uint8Array([0x52, 0xff, 0x0a]), 'RETURN 5 AS five\n'], { end: true });
    expect(lines(reply.text)).toEqual([{ error: true, code: 'BAD_ENCODING', message: expect.any(String) }, { columns: ['five'], rows: [{ five: '5' }] }]);
  });

  it('a half line with the connection left open is simply waited for; others are served', async () => {
    const half = converse(server.port, ['RETURN 1 AS x\nMATCH (n:Item) RET'], { quietMs: 700 });
    await stillServes();
    const reply = await half;
    expect(lines(reply.text)).toEqual([{ columns: ['x'], rows: [{ x: '1' }] }]);
  });

  it('a huge line gets LINE_TOO_LONG, then the connection closes; the server keeps serving', async () => {
    const reply = await converse(server.port, ['RETURN 1 AS ok\n', `RETURN '${'x'.repeat(200_000)}'`, '\nRETURN 2\n']);
    const got = lines(reply.text);
    expect(got[0]).toEqual({ columns: ['ok'], rows: [{ ok: '1' }] });
    expect(got[1]).toMatchObject({ error: true, code: 'LINE_TOO_LONG' });
    expect(got).toHaveLength(2);
    expect(reply.closedByServer).toBe(true);
    await stillServes();
  });

  it('a huge line without any newline at all is cut off too', async () => {
    const reply = await converse(server.port, [new Uint8Array(300_000).fill(0x41)]);
    expect(lines(reply.text)).toEqual([expect.objectContaining({ error: true, code: 'LINE_TOO_LONG' })]);
    expect(reply.closedByServer).toBe(true);
  });

  it('connections beyond the limit get TOO_MANY_CONNECTIONS; the rest are served', async () => {
    const held: Socket[] = [];
    for (let i = 0; i < 64; i++) {
      const s = connect(server.port, '127.0.0.1');
      await new Promise((r) => s.once('connect', r));
      held.push(s);
    }
    const extra = await converse(server.port, ['RETURN 1\n'], { quietMs: 1000 });
    expect(lines(extra.text)).toEqual([expect.objectContaining({ error: true, code: 'TOO_MANY_CONNECTIONS' })]);
    for (const s of held) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    await stillServes();
  });
});

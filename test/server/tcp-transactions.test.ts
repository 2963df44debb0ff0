/**
 * The TCP door's BEGIN / COMMIT / ROLLBACK lines and JSON lines with parameters
 * (src/server/tcp/statement-lines.ts), over real sockets.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Database } from '../../src/engine/database.js';
import { startTcpServer } from '../../src/server/tcp/server.js';
import type { RunningServer } from '../../src/server/running.js';

let db: Database;
let server: RunningServer;

/** A line client: `ask` sends one line and resolves with the next JSON line answered. */
async function client(port = server.port): Promise<{ ask: (line: string) => Promise<Record<string, unknown>>; socket: Socket }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const w = waiting.shift();
      if (w) w(line);
      else ready.push(line);
    }
  });
  const ask = (line: string): Promise<Record<string, unknown>> => {
    socket.write(line + '\n');
    const next = ready.shift();
    if (next !== undefined) return Promise.resolve(JSON.parse(next) as Record<string, unknown>);
    return new Promise((resolve) => waiting.push((l) => resolve(JSON.parse(l) as Record<string, unknown>)));
  };
  return { ask, socket };
}

beforeAll(async () => {
  // The default idle limit: a loaded machine can leave seconds between a test's statements.
  db = Database.openInMemory();
  server = await startTcpServer(db, { port: 0, log: () => undefined });
});

afterAll(async () => {
  await server.close();
  db.close();
});

describe('TCP transactions', () => {
  it('BEGIN … COMMIT: own writes visible inside, nobody else\'s view changes before COMMIT', async () => {
    const a = await client();
    const b = await client();
    expect(await a.ask('BEGIN')).toEqual({ transaction: 'open', mode: 'write' });
    expect(await a.ask("CREATE (:Tcp {name: 'x'})")).toEqual({ columns: [], rows: [] });
    expect(await a.ask('MATCH (t:Tcp) RETURN count(t) AS c')).toEqual({ columns: ['c'], rows: [{ c: '1' }] });
    expect(await b.ask('MATCH (t:Tcp) RETURN count(t) AS c')).toEqual({ columns: ['c'], rows: [{ c: '0' }] });
    expect(await a.ask('COMMIT')).toEqual({ transaction: 'committed' });
    expect(await b.ask('MATCH (t:Tcp) RETURN count(t) AS c')).toEqual({ columns: ['c'], rows: [{ c: '1' }] });
    a.socket.destroy();
    b.socket.destroy();
  });

  it('ROLLBACK discards; an error fails the transaction until it ends', async () => {
    const a = await client();
    await a.ask('BEGIN');
    await a.ask('CREATE (:Discarded)');
    expect(await a.ask('ROLLBACK')).toEqual({ transaction: 'rolled back' });
    await a.ask('BEGIN');
    await a.ask('CREATE (:Discarded)');
    expect(await a.ask('RETURN 1/0')).toMatchObject({ error: true, code: 'ARITHMETIC_ERR' });
    expect(await a.ask('RETURN 1')).toMatchObject({ error: true, code: 'TX_STATE' });
    expect(await a.ask('COMMIT')).toMatchObject({ error: true, code: 'TX_STATE' });
    expect(await a.ask('MATCH (n:Discarded) RETURN count(n) AS c')).toEqual({ columns: ['c'], rows: [{ c: '0' }] });
    expect(await a.ask('COMMIT')).toMatchObject({ error: true, code: 'TX_STATE' });
    a.socket.destroy();
  });

  it('a conflict is TX_CONFLICT; a read-only transaction refuses writes', async () => {
    const a = await client();
    const b = await client();
    await b.ask('CREATE (:Cnt {v: 0})');
    await a.ask('BEGIN');
    await a.ask('MATCH (c:Cnt) RETURN c.v');
    await b.ask('MATCH (c:Cnt) SET c.v = 5');
    expect(await a.ask('MATCH (c:Cnt) SET c.v = 1')).toMatchObject({ error: true, code: 'TX_CONFLICT' });
    await a.ask('ROLLBACK');
    expect(await a.ask('BEGIN READ ONLY')).toEqual({ transaction: 'open', mode: 'read' });
    expect(await a.ask('CREATE (:No)')).toMatchObject({ error: true });
    await a.ask('ROLLBACK');
    a.socket.destroy();
    b.socket.destroy();
  });

  it('JSON lines carry parameters, inside and outside a transaction', async () => {
    const a = await client();
    expect(await a.ask(JSON.stringify({ query: 'RETURN $x + 1 AS y', params: { x: 41 } }))).toEqual({ columns: ['y'], rows: [{ y: '42' }] });
    await a.ask('BEGIN');
    await a.ask(JSON.stringify({ query: 'CREATE (:P {name: $n})', params: { n: "it's" } }));
    expect(await a.ask(JSON.stringify({ query: 'MATCH (p:P {name: $n}) RETURN count(p) AS c', params: { n: "it's" } }))).toEqual({ columns: ['c'], rows: [{ c: '1' }] });
    await a.ask('COMMIT');
    expect(await a.ask('{"query": 1}')).toMatchObject({ error: true, code: 'BAD_REQUEST' });
    expect(await a.ask('{not json')).toMatchObject({ error: true, code: 'BAD_REQUEST' });
    a.socket.destroy();
  });

  it('a closed connection rolls back', async () => {
    const a = await client();
    await a.ask('BEGIN');
    await a.ask('CREATE (:Closed)');
    expect(db.writerSlot.busy).toBe(true);
    a.socket.destroy();
    for (let i = 0; i < 100 && db.writerSlot.busy; i++) await new Promise((r) => setTimeout(r, 10));
    expect(db.writerSlot.busy).toBe(false);
    const b = await client();
    expect(await b.ask('MATCH (n:Closed) RETURN count(n) AS c')).toEqual({ columns: ['c'], rows: [{ c: '0' }] });
    b.socket.destroy();
  });

  it('an idle transaction times out', async () => {
    // Its own database with a short idle limit, so the other tests' pauses cannot trip it.
    const idleDb = Database.openInMemory({ transactionTimeoutMs: 300 });
    const idleServer = await startTcpServer(idleDb, { port: 0, log: () => undefined });
    try {
      const b = await client(idleServer.port);
      await b.ask('BEGIN');
      await b.ask('CREATE (:Idle)');
      await new Promise((r) => setTimeout(r, 500));
      expect(idleDb.writerSlot.busy).toBe(false);
      expect(await b.ask('MATCH (n:Idle) RETURN count(n) AS c')).toMatchObject({ error: true, code: 'TX_TIMEOUT' });
      expect(await b.ask('MATCH (n:Idle) RETURN count(n) AS c')).toEqual({ columns: ['c'], rows: [{ c: '0' }] });
      b.socket.destroy();
    } finally {
      await idleServer.close();
      idleDb.close();
    }
  });
});

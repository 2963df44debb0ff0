/**
 * The Bolt door against hostile bytes on real sockets (beside the decoder properties of
 * bolt-packstream.test.ts and the message-sequence property of bolt.test.ts): after logging
 * on, well-framed messages of random bytes, truncated real messages, deeply nested and
 * hugely sized values, and raw unframed garbage, over TCP and over WebSocket. Each gets a
 * FAILURE and a close, or (for bytes that never complete a chunk) is left to the time limits;
 * never a crash, and a fresh connection is served at once throughout. In-process server
 * (the function `graphdb --bolt` starts) with small limits.
 */

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Database } from '../../src/engine/database.js';
import { chunked } from '../../src/server/bolt/chunking.js';
import { Packer, type PackValue, Structure } from '../../src/server/bolt/packstream.js';
import { startBoltServer } from '../../src/server/bolt/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { FAILURE, map, OFFER_5, type RawBolt, rawLoggedIn, SUCCESS } from './bolt-raw.js';

const KEY = 'fuzz-key';
let db: Database;
let server: RunningServer;

beforeAll(async () => {
  db = Database.openInMemory();
  server = await startBoltServer(db, { port: 0, apiKey: KEY, log: () => undefined, limits: { maxMessageBytes: 64 * 1024, headersTimeoutMs: 2000, idleTimeoutMs: 3000, queryTimeoutMs: 2000 } });
});

afterAll(async () => {
  await server?.close();
  await db?.close();
});

function packed(v: PackValue): Buffer {
  const p = new Packer();
  p.pack(v);
  return p.take();
}

/** Reads answers until the connection closes: each must be a FAILURE (a close alone is fine too). */
async function answersThenClose(c: RawBolt): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const m = await c.next(5000).catch((e: Error) => e);
    if (m instanceof Error) {
      expect(m.message).toBe('closed');
      return;
    }
    expect([FAILURE, SUCCESS]).toContain(m.tag);
  }
}

/** A fresh connection answers a query promptly: the server is alive and not held. */
async function stillServes(): Promise<void> {
  const c = await rawLoggedIn(server.port, KEY);
  try {
    c.write(chunked(packed(new Structure(0x10, ['RETURN 1 AS one', map({}), map({})]))));
    c.write(chunked(packed(new Structure(0x3f, [map({ n: -1 })]))));
    expect((await c.next(3000)).tag).toBe(SUCCESS);
  } finally {
    c.close();
  }
}

describe('Bolt fuzz on the wire', () => {
  it('well-framed messages of random bytes: FAILURE and close, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 400 }), async (bytes) => {
        const c = await rawLoggedIn(server.port, KEY);
        try {
          c.write(chunked(Buffer.from(bytes)));
          await answersThenClose(c);
        } finally {
          c.close();
        }
      }),
      { numRuns: 60 },
    );
    await stillServes();
  }, 120_000);

  it('real messages cut short at every point, deep nesting and huge declared sizes: FAILURE and close', async () => {
    const run = packed(new Structure(0x10, ['UNWIND $xs AS x RETURN x', map({ xs: [1, 'two', 3.5, map({ k: [true, null] })] }), map({ db: 'neo4j' })]));
    const cases: Buffer[] = [];
    for (let cut = 1; cut < run.length; cut += 3) cases.push(run.subarray(0, cut));
    cases.push(Buffer.concat([Buffer.from([0xb3, 0x10]), Buffer.alloc(5000, 0x91)]));
    cases.push(Buffer.from([0xb3, 0x10, 0xd2, 0x7f, 0xff, 0xff, 0xff]));
    cases.push(Buffer.from([0xb3, 0x10, 0xd6, 0xff, 0xff, 0xff, 0xff]));
    cases.push(Buffer.from([0xb3, 0x10, 0xda, 0x7f, 0xff, 0xff, 0xff]));
    for (const body of cases) {
      const c = await rawLoggedIn(server.port, KEY);
      try {
        c.write(chunked(body));
        const m = await c.next(5000);
        expect(m.tag).toBe(FAILURE);
        await answersThenClose(c);
      } finally {
        c.close();
      }
    }
    await stillServes();
  }, 120_000);

  it('unframed garbage after the handshake is refused or timed out, over TCP and WebSocket alike, many connections at once', async () => {
    // Most of these wait for a time limit (an incomplete chunk), so they run side by side: the
    // server must time out every one of them while it serves the others, and a run takes one
    // time limit instead of twelve. fc.sample draws them; the seed is in every failure message.
    const seed = Date.now() | 0;
    const cases = fc.sample(fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 3000 }), fc.boolean()), { numRuns: 12, seed });
    const outcomes = await Promise.all(
      cases.map(async ([bytes, overWs]) => {
        if (overWs) {
          const ws = new WebSocket(`ws://127.0.0.1:${server.port}/`);
          await new Promise((resolve, reject) => {
            ws.once('open', resolve);
            ws.once('error', reject);
          });
          const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
          ws.on('error', () => undefined);
          ws.send(OFFER_5);
          ws.send(Buffer.from(bytes));
          // A partial chunk waits for the time to authenticate (2 s); anything else closes sooner.
          return Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 6000))]);
        }
        const c = await rawLoggedIn(server.port, KEY);
        try {
          c.write(Buffer.from(bytes));
          // Logged on: an incomplete chunk waits for the idle limit (3 s).
          return await Promise.race([answersThenClose(c).then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 8000))]);
        } finally {
          c.close();
        }
      }),
    );
    expect(outcomes, `fc.sample seed ${seed}`).toEqual(cases.map(() => 'closed'));
    await stillServes();
  }, 180_000);
});

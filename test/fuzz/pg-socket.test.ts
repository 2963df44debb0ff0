/**
 * Fuzzing the PostgreSQL door over real sockets: each case opens a connection to a real
 * PG server and sends a start-up (mostly valid, sometimes an SSL, GSS or cancel request or
 * garbage) followed by frontend messages built field by field — Query, Parse, Bind,
 * Describe, Execute, Close, Sync, Flush, copy and password messages with random names,
 * queries, parameter formats and values — then corrupted (length lies, flipped bytes, cut
 * short) and sent in random pieces. The server must answer without an internal error
 * (SQLSTATE XX000), close the connection once the client is done, and keep serving: a
 * real `pg` client runs a query every so often and at the end.
 */

import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import { startPgServer, type PgServer } from '../../src/server/pg/index.js';
import { queryText, seed } from './query-arbitraries.js';
import { conversation, fuzzRuns, fuzzTimeout, reportFigures } from './fuzz-config.js';

const RUNS = fuzzRuns(300);

const cstr = (s: string): Buffer => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.from([0])]);
const int16 = (n: number): Buffer => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n | 0);
  return b;
};

/** A typed message whose length field is off by `lie` (0 for an honest one). */
function framed(type: string, body: Buffer, lie = 0): Buffer {
  return Buffer.concat([Buffer.from(type, 'latin1'), int32(body.length + 4 + lie), body]);
}

const name = fc.oneof(fc.constant(''), fc.constantFrom('s1', 's2', 'p1'), fc.string({ maxLength: 6 }));
const bytes = (max: number) => fc.uint8Array({ maxLength: max }).map((b) => Buffer.from(b));
const formatCode = fc.oneof(fc.constantFrom(0, 1), fc.integer({ min: -3, max: 5 }));
const oid = fc.oneof(fc.constantFrom(0, 16, 17, 20, 21, 23, 25, 114, 700, 701, 1043, 1082, 1114, 1184, 1700, 3802), fc.integer());
const paramValue = fc.oneof(
  fc.constant(null),
  fc.constantFrom('1', '-1', 'abc', 'true', '9223372036854775808', '1.5e400', '{"a":1}', '[1,2]', '2020-01-01', ''),
  fc.string({ maxLength: 12 }).map((s) => Buffer.from(s, 'utf8')),
  bytes(12),
).map((v) => (v === null ? null : Buffer.isBuffer(v) ? v : Buffer.from(v, 'utf8')));

/** One frontend message body, field by field. */
const message: fc.Arbitrary<{ type: string; body: Buffer }> = fc.oneof(
  { weight: 3, arbitrary: seed.map((q) => ({ type: 'Q', body: cstr(q) })) },
  queryText.map((q) => ({ type: 'Q', body: cstr(q) })),
  fc.tuple(name, queryText, fc.array(oid, { maxLength: 4 })).map(([n, q, oids]) => ({
    type: 'P',
    body: Buffer.concat([cstr(n), cstr(q), int16(oids.length), ...oids.map(int32)]),
  })),
  fc
    .tuple(name, name, fc.array(formatCode, { maxLength: 3 }), fc.array(paramValue, { maxLength: 4 }), fc.array(formatCode, { maxLength: 3 }), fc.integer({ min: -2, max: 2 }))
    .map(([portal, stmt, fmts, params, results, countLie]) => ({
      type: 'B',
      body: Buffer.concat([
        cstr(portal),
        cstr(stmt),
        int16(fmts.length),
        ...fmts.map(int16),
        int16(params.length + countLie),
        ...params.map((p) => (p === null ? int32(-1) : Buffer.concat([int32(p.length), p]))),
        int16(results.length),
        ...results.map(int16),
      ]),
    })),
  fc.tuple(fc.constantFrom('S', 'P', 'X'), name).map(([k, n]) => ({ type: 'D', body: Buffer.concat([Buffer.from(k), cstr(n)]) })),
  fc.tuple(name, fc.integer({ min: -5, max: 5 })).map(([p, rows]) => ({ type: 'E', body: Buffer.concat([cstr(p), int32(rows)]) })),
  fc.tuple(fc.constantFrom('S', 'P', 'X'), name).map(([k, n]) => ({ type: 'C', body: Buffer.concat([Buffer.from(k), cstr(n)]) })),
  fc.constantFrom('S', 'H', 'c').map((type) => ({ type, body: Buffer.alloc(0) })),
  bytes(40).map((body) => ({ type: 'd', body })),
  fc.string({ maxLength: 10 }).map((s) => ({ type: 'f', body: cstr(s) })),
  fc.string({ maxLength: 10 }).map((s) => ({ type: 'p', body: cstr(s) })),
  fc.tuple(fc.constantFrom('F', 'X', 'z', '\0', 'ÿ'), bytes(40)).map(([type, body]) => ({ type, body })),
);

const startup: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom(80877103, 80877104, 80877102, 196608, 131072, 0, -1) },
  { weight: 1, arbitrary: fc.integer() },
)
  .chain((version) =>
    fc
      .tuple(fc.array(fc.tuple(fc.constantFrom('user', 'database', 'options', 'application_name', 'client_encoding', ''), fc.string({ maxLength: 10 })), { maxLength: 4 }), fc.integer({ min: -3, max: 3 }), fc.boolean())
      .map(([pairs, lie, sslFirst]) => {
        const params = version === null ? [['user', 'fuzz'], ['database', 'graphdb'], ...pairs] : pairs;
        const body = Buffer.concat([int32(version ?? 196608), ...params.flatMap(([k, v]) => [cstr(k), cstr(v)]), Buffer.from([0])]);
        const packet = Buffer.concat([int32(body.length + 4 + (version === null ? 0 : lie)), body]);
        return sslFirst && version === null ? Buffer.concat([int32(8), int32(80877103), packet]) : packet;
      }),
  );

const fuzzCase = fc.record({
  startup,
  messages: fc.array(fc.tuple(message, fc.oneof({ weight: 9, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -8, max: 64 }) })), { maxLength: 8 }),
  flips: fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(fc.tuple(fc.nat(), fc.nat({ max: 255 })), { minLength: 1, maxLength: 3 }) }),
  cut: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
  chunks: fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 4 }),
});

let db: Database;
let server: PgServer;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown): void => void unhandled.push(e);

async function stillServing(): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'check', database: 'graphdb' });
  await client.connect();
  try {
    expect((await client.query('MATCH (n:N) RETURN count(n) AS c')).rows.length).toBe(1);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  db = Database.openInMemory({ fileAccess: FileAccessPolicy.none(), memoryLimits: { maxListSize: 200_000, maxQueryCells: 2_000_000 } });
  await db.execute('UNWIND range(1, 10) AS i CREATE (:N {i: i})');
  server = await startPgServer(db, { port: 0, maxMessageBytes: 64 * 1024, queryTimeoutMs: 1000, log: null });
});

afterAll(async () => {
  await server.close();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
});

describe(`PG fuzz over real sockets (${RUNS} connections)`, () => {
  it('answers every message stream without an internal error and closes when the client is done', async () => {
    const internal = Buffer.from('\0CXX000\0', 'latin1');
    const ready = Buffer.from('Z\0\0\0\x05', 'latin1');
    let cases = 0;
    let served = 0;
    let answered = 0;
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (c) => {
        let stream = Buffer.concat([c.startup, ...c.messages.map(([m, lie]) => framed(m.type, m.body, lie))]);
        for (const [at, byte] of c.flips) if (stream.length > 0) stream[at % stream.length] = byte;
        if (c.cut !== null) stream = stream.subarray(0, c.cut % (stream.length + 1));
        const reply = await conversation(server.port, stream, c.chunks);
        if (reply.includes(internal)) throw new Error(`internal error (XX000) in the reply: ${JSON.stringify(reply.toString('latin1'))}`);
        if (reply.includes(ready)) served++;
        if (reply.includes(Buffer.from('SELECT ', 'latin1')) || reply.includes(Buffer.from('INSERT ', 'latin1'))) answered++;
        if (++cases % 500 === 0) {
          await stillServing();
          // Mutated writes grow the graph; keep it small so later cases stay fast.
          await db.execute('MATCH (n) WHERE NOT n:N DETACH DELETE n');
        }
        expect(unhandled).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    await stillServing();
    reportFigures('pg-socket', cases, started, `${served} reached ReadyForQuery, ${answered} ran a statement to completion`);
  }, fuzzTimeout(RUNS, 60));
});

/**
 * Fuzzing the inputs of the network doors with fast-check (issue 9): the PG message
 * decoder (framing and every frontend message reader), HTTP requests (method, path, query
 * string, headers, body through fastify's real pipeline) and MCP lines (the message gate
 * and the line transport), in process, without sockets (the socket-level fuzzers are the
 * other files here). Nothing may throw anything but the door's own typed error, crash or
 * hang. The short form runs in CI; GRAPHDB_FUZZ_RUNS=100000 runs the long form.
 */

import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Database } from '../../src/engine/database.js';
import { buildHttpApp } from '../../src/server/http/app.js';
import { resolveLimits } from '../../src/server/limits.js';
import { PgError } from '../../src/server/pg/errors.js';
import { FrameReader } from '../../src/server/pg/framing.js';
import * as fm from '../../src/server/pg/frontend-messages.js';
import { gateLine } from '../../src/mcp/message-gate.js';
import { LineTransport } from '../../src/mcp/line-transport.js';
import { fuzzRuns, fuzzTimeout, wellFormed } from './fuzz-config.js';

const RUNS = fuzzRuns(1000);
const TIMEOUT = fuzzTimeout(RUNS, 20);

/** Runs `fn`; anything thrown must be a PgError (what the session turns into an ErrorResponse). */
function onlyPgErrors(fn: () => unknown): void {
  try {
    fn();
  } catch (err) {
    if (!(err instanceof PgError)) throw err;
  }
}

const READERS: ((b: Buffer) => unknown)[] = [
  fm.readStartupPacket,
  fm.readParse,
  fm.readBind,
  fm.readDescribe,
  fm.readClose,
  fm.readExecute,
  (b) => fm.readSingleString(b, 'Query'),
];

describe(`fuzz (${RUNS} runs each)`, () => {
  it('PG: framing and message readers throw only PgError', () => {
    const message = fc.record({
      type: fc.constantFrom(...'QPBDESCHXFpdcf'.split(''), 'z'),
      body: fc.uint8Array({ maxLength: 300 }),
      lie: fc.integer({ min: -10, max: 10 }),
    });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 6 }), (messages, cuts) => {
        const frames: Buffer[] = messages.map((m) => {
          const head = Buffer.alloc(5);
          head.write(m.type, 0, 'latin1');
          head.writeInt32BE(4 + m.body.length + m.lie, 1);
          return Buffer.concat([head, Buffer.from(m.body)]);
        });
        const stream = Buffer.concat(frames);
        const reader = new FrameReader({ maxMessageBytes: 1024, maxStartupBytes: 10_000 });
        reader.typed = true;
        let at = 0;
        onlyPgErrors(() => {
          for (const cut of [...cuts, stream.length]) {
            reader.push(stream.subarray(at, Math.min(stream.length, at + cut)));
            at = Math.min(stream.length, at + cut);
            for (let f = reader.next(); f; f = reader.next()) for (const read of READERS) onlyPgErrors(() => read(f.body));
          }
        });
        for (const m of messages) for (const read of READERS) onlyPgErrors(() => read(Buffer.from(m.body)));
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  describe('HTTP', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      const db = Database.openInMemory();
      db.executeSync('CREATE (:Seed {n: 1})');
      app = await buildHttpApp(db, { apiKey: undefined, limits: resolveLimits({ maxBodyBytes: 4096, queryTimeoutMs: 200 }) });
      await app.ready();
    });
    afterAll(() => app.close());

    it('every request gets a JSON answer with a status below 500, and the server keeps answering', async () => {
      const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('MATCH (n) RETURN n', 'RETURN 1', 'MATCH (n) DETACH DELETE n', 'UNWIND range(1,10) AS x RETURN x', "LOAD CSV FROM '/etc/passwd' AS r RETURN r"));
      const request = fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'),
        path: fc.constantFrom('/query', '/status', '/health', '/ready', '/nope', '/query/', '//query', '/%ff'),
        q: fc.option(text),
        body: fc.option(fc.oneof(text, fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)))),
        origin: fc.option(fc.constantFrom('https://evil.example', 'null', 'http://localhost')),
        contentType: fc.option(fc.constantFrom('text/plain', 'application/json', 'application/x-www-form-urlencoded', '*/*;;', '')),
      });
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const headers: Record<string, string> = {};
          if (r.origin !== null) headers.origin = r.origin;
          if (r.contentType !== null) headers['content-type'] = r.contentType;
          const url = r.q === null ? r.path : `${r.path}?q=${encodeURIComponent(wellFormed(r.q))}`;
          const res = await app.inject({ method: r.method as 'GET', url, headers, ...(r.body !== null && r.method !== 'GET' && r.method !== 'HEAD' ? { payload: r.body } : {}) });
          expect(res.statusCode).toBeLessThan(600);
          if (r.method !== 'HEAD' && res.statusCode !== 204) expect(() => JSON.parse(res.body) as unknown).not.toThrow();
          expect(res.statusCode).not.toBe(500);
        }),
        { numRuns: RUNS },
      );
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    }, TIMEOUT);
  });

  it('MCP: the gate answers every line without throwing', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
    const shaped = fc
      .record({ jsonrpc: fc.constantFrom('2.0', '1.0', 2), id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.object()), method: fc.oneof(fc.constantFrom('initialize', 'tools/call', 'tools/list', 'ping'), fc.string()), params: fc.oneof(fc.object(), fc.jsonValue()) }, { requiredKeys: [] })
      .map((v) => JSON.stringify(v));
    fc.assert(
      fc.property(fc.oneof(fc.string(), json, shaped, fc.constant(undefined)), (line) => {
        const decision = gateLine(line);
        expect(['reply', 'forward', 'drop']).toContain(decision.kind);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it('MCP: the transport splits arbitrary chunks and never throws', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 200 }), { maxLength: 8 }), async (chunks) => {
        const input = new PassThrough();
        const output = new PassThrough();
        output.resume();
        const transport = new LineTransport(input, output, 128);
        const forwarded: unknown[] = [];
        transport.onmessage = (m) => forwarded.push(m);
        await transport.start();
        const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
        for (const c of chunks) input.write(Buffer.from(c));
        input.end();
        // Forwarded requests are never answered here, so end-of-input waits only for them.
        if (forwarded.length === 0) await closed;
        else await transport.close();
      }),
      { numRuns: Math.min(RUNS, 20_000) },
    );
  }, TIMEOUT);
});

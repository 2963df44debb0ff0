/**
 * Fuzzing the HTTP door over real sockets: raw HTTP/1.x requests built part by part —
 * method, target (paths, query strings with fuzzed queries, bad percent-encoding), version,
 * headers (content types, lying or duplicated Content-Length, chunked bodies with bad
 * framing, origins, keys, header names and values with forbidden bytes) and bodies (fuzzed
 * queries, JSON, random bytes, invalid UTF-8) — then sometimes cut short or pipelined, sent
 * in pieces to a real server. Every answer must be an HTTP response with a status below
 * 500 whose body is JSON, and the server must keep answering /health.
 */

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import { startHttpServer } from '../../src/server/http/server.js';
import type { RunningServer } from '../../src/server/running.js';
import { queryText } from './query-arbitraries.js';
import { conversation, fuzzRuns, fuzzTimeout, reportFigures, wellFormed } from './fuzz-config.js';

const RUNS = fuzzRuns(300);

const method = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'POST') }, { weight: 2, arbitrary: fc.constantFrom('PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'CONNECT', 'TRACE') }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const path = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('/query', '/status', '/health', '/ready', '/readyz', '/livez') }, { weight: 1, arbitrary: fc.constantFrom('/', '*', '//query', '/query/', '/%ff', '/query%00', 'http://x/query', '/sync/changes', '/..%2f') }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });
const queryString = fc.oneof(
  fc.constant(''),
  queryText.map((q) => `?q=${encodeURIComponent(wellFormed(q))}`),
  fc.constantFrom('?q=', '?q=%zz', '?q=a&q=b', '?q[]=1', '?q=%E0%A4%A', '?__proto__=1&q=RETURN%201', '?q=RETURN+1&timeout=-1'),
  fc.string({ maxLength: 20 }).map((s) => `?${s}`),
);
const version = fc.oneof({ weight: 8, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1 x', '') });
const headerPair = fc.oneof(
  fc.tuple(fc.constant('Content-Type'), fc.constantFrom('text/plain', 'application/json', 'application/x-www-form-urlencoded', 'text/plain; charset=latin1', '*/*;;', '', 'multipart/form-data; boundary=x')),
  fc.tuple(fc.constant('Origin'), fc.constantFrom('https://evil.example', 'null', 'http://localhost', '')),
  fc.tuple(fc.constant('Authorization'), fc.constantFrom('Bearer x', 'Bearer', 'Basic Zm9vOmJhcg==', '')),
  fc.tuple(fc.constantFrom('Connection', 'Expect', 'Accept', 'Accept-Encoding', 'Content-Encoding', 'Sec-Fetch-Site', 'X-Forwarded-For'), fc.constantFrom('close', 'keep-alive', 'upgrade', '100-continue', 'gzip', 'cross-site', '*/*', '')),
  fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })),
);
const body = fc.oneof(
  queryText,
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? ''),
  fc.record({ query: queryText, params: fc.jsonValue({ maxDepth: 1 }) }).map((v) => JSON.stringify(v)),
  fc.uint8Array({ maxLength: 120 }).map((b) => Buffer.from(b).toString('latin1')),
);
const framing = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'length' as const, lie: 0 }) },
  { weight: 1, arbitrary: fc.integer({ min: -20, max: 50 }).map((lie) => ({ kind: 'length' as const, lie })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const, lie: 0 }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'twice' as const, lie: 7 }) },
  { weight: 2, arbitrary: fc.constantFrom('ok', 'bad-size', 'no-end', 'both').map((k) => ({ kind: `chunked-${k}` as const, lie: 0 })) },
);

const request = fc.record({ method, path, queryString, version, headers: fc.array(headerPair, { maxLength: 4 }), body: fc.option(body), framing });
const fuzzCase = fc.record({
  requests: fc.array(request, { minLength: 1, maxLength: 2 }),
  cut: fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
  pieces: fc.array(fc.integer({ min: 1, max: 80 }), { maxLength: 4 }),
});

type RawRequest = typeof request extends fc.Arbitrary<infer T> ? T : never;

function render(r: RawRequest): Buffer {
  const bytes = Buffer.from(r.body ?? '', 'utf8');
  const lines = [`${r.method} ${r.path}${r.queryString} ${r.version}`.trimEnd(), 'Host: 127.0.0.1', ...r.headers.map(([k, v]) => `${k}: ${v}`)];
  let payload = bytes;
  switch (r.framing.kind) {
    case 'length':
      if (r.body !== null || r.framing.lie !== 0) lines.push(`Content-Length: ${bytes.length + r.framing.lie}`);
      break;
    case 'twice':
      lines.push(`Content-Length: ${bytes.length}`, `Content-Length: ${bytes.length + r.framing.lie}`);
      break;
    case 'none':
      break;
    default: {
      lines.push('Transfer-Encoding: chunked');
      if (r.framing.kind === 'chunked-both') lines.push(`Content-Length: ${bytes.length}`);
      const size = r.framing.kind === 'chunked-bad-size' ? 'zz' : bytes.length.toString(16);
      const end = r.framing.kind === 'chunked-no-end' ? '' : '0\r\n\r\n';
      payload = Buffer.concat([Buffer.from(`${size}\r\n`), bytes, Buffer.from(`\r\n${end}`)]);
    }
  }
  return Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n', 'latin1'), payload]);
}

/** The body after a response head: by Content-Length, or by chunks; returns the body and the bytes it took. */
function readBody(head: string, rest: Buffer): { body: string; used: number } {
  if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = rest.indexOf('\r\n', at, 'latin1');
      if (eol < 0) throw new Error(`a chunked response cut short: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
      const size = parseInt(rest.subarray(at, eol).toString('latin1'), 16);
      if (!Number.isFinite(size)) throw new Error(`a bad chunk size in a response: ${JSON.stringify(rest.toString('latin1').slice(0, 200))}`);
      at = eol + 2;
      if (size === 0) return { body: Buffer.concat(parts).toString('utf8'), used: at + 2 };
      parts.push(rest.subarray(at, at + size));
      at += size + 2;
    }
  }
  const length = /\r\ncontent-length: *(\d+)/i.exec(head);
  const n = length ? Number(length[1]) : 0;
  return { body: rest.subarray(0, n).toString('utf8'), used: n };
}

/** The responses in an answer: status and body (none for the answer to a HEAD, the `methods` sent in order). */
function responses(answer: Buffer, methods: readonly string[] = []): { status: number; body: string; type: string }[] {
  const out: { status: number; body: string; type: string }[] = [];
  let rest = answer;
  while (rest.length > 0) {
    const text = rest.subarray(0, 4096).toString('latin1');
    const m = /^HTTP\/1\.[01] (\d{3})[^\r]*\r\n/.exec(text);
    if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
    const headEnd = text.indexOf('\r\n\r\n');
    if (headEnd < 0) throw new Error(`a response head without its end: ${JSON.stringify(text.slice(0, 200))}`);
    const after = rest.subarray(headEnd + 4);
    if (m[1].startsWith('1')) {
      // An interim answer (100 Continue to `Expect`): the final one for the same request follows.
      rest = after;
      continue;
    }
    // A HEAD answer has no body, unless the request was malformed (then the server never knew it was a HEAD).
    const bodiless = methods[out.length] === 'HEAD' && (after.length === 0 || after.subarray(0, 7).toString('latin1') === 'HTTP/1.');
    const { body, used } = bodiless ? { body: '', used: 0 } : readBody(text.slice(0, headEnd), after);
    const type = /\r\ncontent-type:[ \t]*([^\r;]*)/i.exec(text.slice(0, headEnd))?.[1].toLowerCase() ?? '';
    out.push({ status: Number(m[1]), body, type });
    rest = rest.subarray(headEnd + 4 + used);
  }
  return out;
}

let db: Database;
let server: RunningServer;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown): void => void unhandled.push(e);

async function health(): Promise<void> {
  const answer = responses(await conversation(server.port, Buffer.from('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), []));
  expect(answer.map((r) => r.status)).toEqual([200]);
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  db = Database.openInMemory({ fileAccess: FileAccessPolicy.none(), queryTimeoutMs: 1000, memoryLimits: { maxListSize: 200_000, maxQueryCells: 2_000_000 } });
  await db.execute("CREATE (:Person {name: 'a', age: 31})-[:KNOWS]->(:Person {name: 'b'})");
  server = await startHttpServer(db, { port: 0, limits: { maxBodyBytes: 64 * 1024 }, log: () => undefined });
});

afterAll(async () => {
  await server.close();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
});

describe(`HTTP fuzz over real sockets (${RUNS} connections)`, () => {
  it("answers every request with a status below 500 and a JSON body (the console's own files excepted), and keeps serving", async () => {
    let cases = 0;
    const statuses = new Map<number, number>();
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (c) => {
        let stream = Buffer.concat(c.requests.map(render));
        if (c.cut !== null) stream = stream.subarray(0, c.cut % (stream.length + 1));
        const answer = await conversation(server.port, stream, c.pieces);
        for (const r of responses(answer, c.requests.map((q) => q.method))) {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status >= 500) throw new Error(`status ${r.status} ${r.body} for:\n${stream.toString('latin1')}`);
          const noBody = r.status === 204 || r.status === 304 || r.body === '';
          // The web console's page and assets (GET /, /console/…) are the only answers that are not JSON.
          const consoleFile = r.status === 200 && /^(text\/html|text\/css|text\/javascript|application\/javascript)$/.test(r.type);
          if (!noBody && !consoleFile) expect(() => JSON.parse(r.body) as unknown, `body ${JSON.stringify(r.body)}`).not.toThrow();
        }
        if (++cases % 500 === 0) {
          await health();
          await db.execute('MATCH (n) WHERE NOT n:Person DETACH DELETE n');
        }
        expect(unhandled).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    await health();
    const summary = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
    reportFigures('http-socket', cases, started, `statuses ${summary}`);
  }, fuzzTimeout(RUNS, 60));
});

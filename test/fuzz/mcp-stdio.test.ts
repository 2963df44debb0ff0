/**
 * Fuzzing graphdb-mcp through its real stdin and stdout: one `graphdb-mcp` process gets
 * line after line — JSON-RPC requests and notifications of every method with odd ids and
 * params, tools/call of every tool with fuzzed queries and arguments, batches, bare JSON
 * values, deep nesting, broken JSON, invalid UTF-8 — and after each case a ping whose
 * answer proves the session is alive. Every line the server writes must be JSON-RPC (stdout
 * carries nothing else), none may be an internal error (-32603, INTERNAL_ERR), and the
 * process must exit 0 when its input ends.
 */

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_BIN } from '../server/helpers.js';
import { queryText } from './query-arbitraries.js';
import { fuzzRuns, fuzzTimeout, reportFigures } from './fuzz-config.js';

const RUNS = fuzzRuns(300);
/** An answer to the liveness ping later than this is a hang. */
const PING_WAIT_MS = 20_000;

interface Reply {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A graphdb-mcp child with its stdout split into replies; `waitFor` resolves on the reply with an id. */
class McpChild {
  readonly replies: Reply[] = [];
  readonly badLines: string[] = [];
  private pending = '';
  private stderrText = '';
  private waiters = new Map<string, (r: Reply) => void>();
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (d: Buffer) => this.take(d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (this.stderrText += d.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  get stderr(): string {
    return this.stderrText;
  }

  private take(text: string): void {
    this.pending += text;
    let nl = this.pending.indexOf('\n');
    while (nl >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      nl = this.pending.indexOf('\n');
      let reply: Reply;
      try {
        reply = JSON.parse(line) as Reply;
      } catch {
        this.badLines.push(line);
        continue;
      }
      if (reply === null || typeof reply !== 'object' || reply.jsonrpc !== '2.0') this.badLines.push(line);
      this.replies.push(reply);
      const key = JSON.stringify(reply.id);
      this.waiters.get(key)?.(reply);
      this.waiters.delete(key);
    }
  }

  write(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  waitFor(id: string | number): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to request ${JSON.stringify(id)} within ${PING_WAIT_MS} ms; stderr:\n${this.stderrText}`)), PING_WAIT_MS);
      this.waiters.set(JSON.stringify(id), (r) => {
        clearTimeout(timer);
        resolve(r);
      });
    });
  }
}

const INIT = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.boolean(), fc.double(), fc.object({ maxDepth: 1 }), fc.constant(2 ** 53 + 2));
const toolName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('read_query', 'write_query', 'get_schema', 'get_capabilities', 'graph_rag') }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const toolArgs = fc.oneof(
  queryText.map((cypher) => ({ cypher })),
  queryText.map((query) => ({ query })),
  fc.record({ query: fc.string({ maxLength: 30 }), limit: fc.oneof(fc.integer({ min: -5, max: 200 }), fc.double(), fc.string()) }, { requiredKeys: [] }),
  fc.record({ cypher: fc.jsonValue({ maxDepth: 2 }), extra: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 2 }),
);
const method = fc.oneof(
  { weight: 6, arbitrary: fc.constant('tools/call') },
  { weight: 2, arbitrary: fc.constantFrom('tools/list', 'ping', 'initialize', 'resources/list', 'prompts/list', 'resources/read', 'completion/complete', 'logging/setLevel') },
  { weight: 1, arbitrary: fc.constantFrom('notifications/initialized', 'notifications/cancelled', 'notifications/progress', 'notifications/roots/list_changed') },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
);

/** A request-shaped message, sometimes with fields missing or of the wrong type. */
const shaped = fc
  .record(
    {
      jsonrpc: fc.oneof({ weight: 8, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 0 }) }),
      id,
      method,
      params: fc.oneof(
        fc.record({ name: toolName, arguments: toolArgs }, { requiredKeys: [] }),
        fc.record({ requestId: id, reason: fc.string(), level: fc.string(), uri: fc.string(), _meta: fc.object({ maxDepth: 1 }) }, { requiredKeys: [] }),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    },
    { requiredKeys: ['method'] },
  )
  .map((m) => JSON.stringify(m));

const line = fc.oneof(
  { weight: 8, arbitrary: shaped },
  { weight: 1, arbitrary: fc.array(shaped, { maxLength: 3 }).map((ms) => `[${ms.join(',')}]`) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: fc.nat({ max: 100_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)) },
  { weight: 1, arbitrary: fc.nat({ max: 100_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)) },
  { weight: 1, arbitrary: shaped.chain((s) => fc.nat({ max: Math.max(0, s.length - 1) }).map((cut) => s.slice(0, cut))) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('latin1')) },
);

/** True when every character of `s` is below 256 and one is above 127 (a line of raw bytes, not ASCII). */
function isByteText(s: string): boolean {
  let high = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) return false;
    if (c > 0x7f) high = true;
  }
  return high;
}

let mcp: McpChild;

beforeAll(async () => {
  mcp = new McpChild(spawn(process.execPath, [MCP_BIN, '--query-timeout', '1000'], { stdio: ['pipe', 'pipe', 'pipe'] }));
  mcp.write(JSON.stringify(INIT) + '\n');
  const init = await mcp.waitFor('init');
  expect(init.result).toBeDefined();
  mcp.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  mcp.write(JSON.stringify({ jsonrpc: '2.0', id: 'seed', method: 'tools/call', params: { name: 'write_query', arguments: { cypher: "CREATE (:Person {name: 'a', age: 31})-[:KNOWS]->(:Person {name: 'b'})" } } }) + '\n');
  await mcp.waitFor('seed');
}, 60_000);

afterAll(() => {
  if (mcp.child.exitCode === null) mcp.child.kill('SIGKILL');
});

describe(`MCP fuzz over graphdb-mcp's stdio (${RUNS} cases)`, () => {
  it('answers every line with JSON-RPC, never an internal error, and stays alive', async () => {
    let cases = 0;
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 3 }), async (lines) => {
        const probe = `probe-${cases++}`;
        const before = mcp.replies.length;
        // Text made of single bytes goes as those bytes (invalid UTF-8 included); the rest as UTF-8.
        for (const l of lines) mcp.write(Buffer.concat([Buffer.from(l, isByteText(l) ? 'latin1' : 'utf8'), Buffer.from('\n')]));
        mcp.write(JSON.stringify({ jsonrpc: '2.0', id: probe, method: 'ping' }) + '\n');
        const pong = await mcp.waitFor(probe);
        expect(pong.result).toEqual({});
        const fresh = mcp.replies.slice(before);
        for (const r of fresh) {
          if (r.error?.code === -32603) throw new Error(`internal error answer ${JSON.stringify(r)} to:\n${lines.join('\n')}`);
          if (JSON.stringify(r).includes('INTERNAL_ERR')) throw new Error(`INTERNAL_ERR in ${JSON.stringify(r)} to:\n${lines.join('\n')}`);
        }
        expect(mcp.badLines).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    reportFigures('mcp-stdio', cases, started, `${mcp.replies.length} replies`);
    mcp.child.stdin.end();
    expect(await mcp.exited).toBe(0);
  }, fuzzTimeout(RUNS, 60));
});

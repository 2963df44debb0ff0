/**
 * `graphdb-mcp` driven as a real process: through the MCP SDK's own client (`Client` +
 * `StdioClientTransport`) for the tools, and through raw stdin/stdout lines for what a
 * client library never sends: empty initialize params, protocol 2024-11-05, malformed
 * JSON, unknown methods, bad params, notifications, garbage, end of input.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { garbage, MCP_BIN } from './helpers.js';

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

interface TextResult {
  content: { type: string; text: string }[];
  isError?: boolean;
}

function textOf(result: unknown): string {
  const r = result as TextResult;
  expect(r.content).toHaveLength(1);
  expect(r.content[0].type).toBe('text');
  return r.content[0].text;
}

describe('MCP through the SDK client', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'graphdb-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], stderr: 'pipe' }));
  });
  afterAll(async () => client.close());

  it('initializes with serverInfo (name, package version) and the tools capability', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'graphdb-mcp', version: VERSION });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists exactly the 5 tools with JSON Schemas of their inputs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_capabilities', 'get_schema', 'graph_rag', 'read_query', 'write_query']);
    for (const t of tools) expect(t.inputSchema.type).toBe('object');
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('read_query')?.inputSchema.required).toEqual(['cypher']);
    expect(byName.get('write_query')?.inputSchema.required).toEqual(['cypher']);
    expect(byName.get('graph_rag')?.inputSchema.required).toEqual(['query']);
  });

  it('write_query runs a mutation and answers {columns, row_count, rows}', async () => {
    const result = await client.callTool({
      name: 'write_query',
      arguments: { cypher: "CREATE (a:Person {name: 'Ada', born: 1815})-[:KNOWS]->(b:Person {name: 'Charles'}) RETURN a.name AS name, a.born AS born" },
    });
    expect((result as TextResult).isError).toBeFalsy();
    expect(JSON.parse(textOf(result))).toEqual({
      columns: ['name', 'born'],
      row_count: 1,
      rows: [{ name: 'Ada', born: '1815' }],
      counters: { nodes_created: 2, nodes_deleted: 0, relationships_created: 1, relationships_deleted: 0, properties_set: 3, labels_added: 2, labels_removed: 0 },
    });
  });

  it('read_query runs a read-only query with the same shape', async () => {
    const result = await client.callTool({ name: 'read_query', arguments: { cypher: 'MATCH (p:Person) RETURN p.name AS name ORDER BY name' } });
    expect(JSON.parse(textOf(result))).toEqual({ columns: ['name'], row_count: 2, rows: [{ name: 'Ada' }, { name: 'Charles' }] });
  });

  it.each(['CREATE (:X)', "MATCH (p:Person) SET p.x = 1", 'MATCH (n) DELETE n', 'MERGE (:Y)', 'MATCH (p:Person) REMOVE p.born'])(
    'read_query rejects the mutating query %s with isError, pointing to write_query',
    async (cypher) => {
      const result = await client.callTool({ name: 'read_query', arguments: { cypher } });
      expect((result as TextResult).isError).toBe(true);
      const text = textOf(result);
      expect(text).toMatch(/rejects mutating queries/);
      expect(text).toContain('write_query');
    },
  );

  it('read_query changed nothing when it rejected', async () => {
    const result = await client.callTool({ name: 'read_query', arguments: { cypher: 'MATCH (n) RETURN count(n) AS n, count(n.x) AS x' } });
    expect(JSON.parse(textOf(result)).rows).toEqual([{ n: '2', x: '0' }]);
  });

  it('a query that fails is a tool result with isError and the error object', async () => {
    const result = await client.callTool({ name: 'read_query', arguments: { cypher: 'MATCH (n RETURN n' } });
    expect((result as TextResult).isError).toBe(true);
    expect(JSON.parse(textOf(result))).toMatchObject({ error: true, code: 'COMPILE_ERR' });
  });

  it('get_schema answers the SPEC line layout', async () => {
    const text = textOf(await client.callTool({ name: 'get_schema', arguments: {} }));
    expect(text.split('\n')).toEqual([
      'Labels: Person',
      'Relationship types: KNOWS',
      'Property keys: name, born',
      'Indexes: (none)',
      'Constraints: (none)',
      'Nodes: 2, Relationships: 1',
      'Schema detail:',
      ':Person (2 nodes): born, name',
    ]);
  });

  it('get_capabilities lists algorithms, procedures, functions, observation classes, query features', async () => {
    const caps = JSON.parse(textOf(await client.callTool({ name: 'get_capabilities', arguments: {} }))) as Record<string, unknown>;
    expect(Array.isArray(caps.algorithms)).toBe(true);
    expect((caps.procedures as { name: string }[]).map((p) => p.name)).toContain('db.labels');
    expect((caps.functions as { name: string }[]).map((f) => f.name)).toContain('toUpper');
    expect(caps.observation_classes).toEqual(['observed', 'inferred', 'predicted']);
    expect(caps.query_features).toContain('MATCH');
  });

  it('graph_rag finds text matches, expands to neighbours and never ranks a prediction above an observation', async () => {
    await client.callTool({
      name: 'write_query',
      arguments: {
        cypher:
          "CREATE (:Drug {name: 'Aspirin', note: 'treats headache'})," +
          " (:Drug {name: 'Ibuprofen', note: 'treats headache', observation_class: 'inferred', confidence: 0.9})," +
          " (:Drug {name: 'Novelol', note: 'may treat headache', observation_class: 'predicted', confidence: 0.9})," +
          " (:Drug {name: 'Placebo', note: 'treats headache', confidence: 0.2})",
      },
    });
    await client.callTool({ name: 'write_query', arguments: { cypher: "MATCH (a:Drug {name: 'Aspirin'}) CREATE (a)-[:MADE_BY]->(:Company {name: 'Bayer'})" } });
    const answer = JSON.parse(textOf(await client.callTool({ name: 'graph_rag', arguments: { query: 'Which drugs treat a headache?' } }))) as {
      query: string;
      results: { name: string; confidence: string; observation_class: string; note: string }[];
      result_count: number;
    };
    expect(answer.query).toBe('Which drugs treat a headache?');
    expect(answer.result_count).toBe(answer.results.length);
    const names = answer.results.map((r) => r.name);
    // Equally relevant: relevance × class weight × (0.5 + 0.5 × confidence); a confident inference
    // beats a weak observation, a prediction never beats an observation.
    expect(names.slice(0, 4)).toEqual(['Aspirin', 'Ibuprofen', 'Placebo', 'Novelol']);
    expect(names).toContain('Bayer');
    const aspirin = answer.results[0];
    expect(aspirin).toMatchObject({ confidence: '1', observation_class: 'observed' });
    expect(answer.results[1]).toMatchObject({ confidence: '0.9', observation_class: 'inferred' });
    expect(answer.results[2]).toMatchObject({ confidence: '0.2', observation_class: 'observed' });
    expect(answer.results[3]).toMatchObject({ confidence: '0.9', observation_class: 'predicted' });
    expect(answer.results.find((r) => r.name === 'Bayer')?.note).toMatch(/1 hop from 'Aspirin' -\[:MADE_BY\]->/);
    for (const r of answer.results) expect(Number.isFinite(Number(r.confidence))).toBe(true);
  });

  it('graph_rag with nothing to match answers an empty result', async () => {
    const answer = JSON.parse(textOf(await client.callTool({ name: 'graph_rag', arguments: { query: 'zebra quasar' } })));
    expect(answer).toEqual({ query: 'zebra quasar', results: [], result_count: 0 });
  });

  it('an unknown tool or a missing argument is a -32602 error', async () => {
    await expect(client.callTool({ name: 'drop_database', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'read_query', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'graph_rag', arguments: { query: 3 } })).rejects.toMatchObject({ code: -32602 });
  });
});

interface RawRun {
  replies: Record<string, unknown>[];
  code: number | null;
  stderr: string;
}

/**
 * Writes `input` to a fresh graphdb-mcp, closes stdin, and collects every stdout line until exit.
 * These check the wire (framing, JSON-RPC errors, end of input), so the process runs its few
 * queries on the main thread (`--workers 0`): a query worker would add half a second of CPU to
 * each of a dozen starts. The client above runs with the default worker.
 */
function raw(input: (string | Uint8Array)[], args: string[] = []): Promise<RawRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCP_BIN, '--workers', '0', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`graphdb-mcp did not exit after stdin closed; stdout: ${out}; stderr: ${err}`));
    }, 20000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const replies = out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ replies, code, stderr: err });
    });
    child.stdin.on('error', () => undefined);
    for (const chunk of input) child.stdin.write(chunk);
    child.stdin.end();
  });
}

const line = (msg: unknown): string => JSON.stringify(msg) + '\n';
const byId = (run: RawRun, id: unknown): Record<string, unknown> | undefined => run.replies.find((r) => r.id === id);

describe('MCP on the wire', () => {
  it('initialize with empty params answers protocol 2024-11-05, tools capability and serverInfo; exits 0 when stdin closes', async () => {
    for (const init of [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, { jsonrpc: '2.0', id: 1, method: 'initialize' }]) {
      const run = await raw([line(init)]);
      expect(run.code).toBe(0);
      expect(run.replies).toEqual([
        {
          jsonrpc: '2.0',
          id: 1,
          result: expect.objectContaining({
            protocolVersion: '2024-11-05',
            capabilities: expect.objectContaining({ tools: expect.any(Object) }),
            serverInfo: { name: 'graphdb-mcp', version: VERSION },
          }),
        },
      ]);
    }
  });

  it('a client asking for 2024-11-05 gets 2024-11-05', async () => {
    const run = await raw([
      line({ jsonrpc: '2.0', id: 'a', method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } } }),
    ]);
    expect((byId(run, 'a')?.result as { protocolVersion: string }).protocolVersion).toBe('2024-11-05');
  });

  it('notifications get no answer; tools/list with empty params answers the 5 tools', async () => {
    const run = await raw([
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      line({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      line({ jsonrpc: '2.0', method: 'notifications/whatever', params: { x: 1 } }),
      line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }),
      line({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    ]);
    expect(run.replies.map((r) => r.id).sort()).toEqual([1, 2, 3]);
    expect((byId(run, 2)?.result as { tools: unknown[] }).tools).toHaveLength(5);
    expect((byId(run, 3)?.result as { tools: unknown[] }).tools).toHaveLength(5);
  });

  it('malformed JSON is -32700, an unknown method -32601, bad params -32602', async () => {
    const run = await raw([
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      '{"jsonrpc": "2.0", "id": 2, "method": \n',
      'not json at all\n',
      line({ jsonrpc: '2.0', id: 3, method: 'no/such/method', params: {} }),
      line({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } }),
      line({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: 'read_query' }),
      line({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'read_query', arguments: { cypher: 42 } } }),
      line({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'read_query', arguments: [1] } }),
      line({ jsonrpc: '2.0', id: 8, method: 'initialize', params: { protocolVersion: 5 } }),
    ]);
    const parseErrors = run.replies.filter((r) => r.id === null);
    expect(parseErrors).toHaveLength(2);
    for (const r of parseErrors) expect(r.error).toMatchObject({ code: -32700 });
    expect(byId(run, 3)?.error).toMatchObject({ code: -32601 });
    for (const id of [4, 5, 6, 7, 8]) expect(byId(run, id)?.error).toMatchObject({ code: -32602 });
    expect(run.code).toBe(0);
  });

  it('a value that is not a JSON-RPC request is -32600', async () => {
    const run = await raw(['[1, 2]\n', '42\n', line({ id: 9, method: 'tools/list' }), line({ jsonrpc: '2.0', id: { x: 1 }, method: 'tools/list' })]);
    expect(run.replies).toHaveLength(4);
    for (const r of run.replies) expect(r.error).toMatchObject({ code: -32600 });
    expect(byId(run, 9)).toBeDefined();
  });

  it('random bytes and invalid UTF-8 get parse errors, and the server still answers afterwards', async () => {
    const chunks: (string | Uint8Array)[] = [];
    for (let seed = 1; seed <= 10; seed++) chunks.push(garbage(seed, 500), '\n');
    chunks.push(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]));
    chunks.push(line({ jsonrpc: '2.0', id: 'last', method: 'tools/call', params: { name: 'read_query', arguments: { cypher: 'RETURN 1 AS one' } } }));
    const run = await raw(chunks);
    for (const r of run.replies.filter((x) => x.id !== 'last')) expect((r.error as { code: number }).code).toBeLessThan(-32000);
    expect(run.replies.some((r) => (r.error as { code: number } | undefined)?.code === -32700)).toBe(true);
    const last = byId(run, 'last')?.result as TextResult;
    expect(JSON.parse(last.content[0].text)).toEqual({ columns: ['one'], row_count: 1, rows: [{ one: '1' }] });
    expect(run.code).toBe(0);
  });

  it('a half message at end of input is answered as a parse error, then the process exits', async () => {
    const run = await raw([line({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), '{"jsonrpc": "2.0", "id": 2, "meth']);
    expect(byId(run, 1)?.result).toBeDefined();
    expect(run.replies.find((r) => r.id === null)?.error).toMatchObject({ code: -32700 });
    expect(run.code).toBe(0);
  });

  it('a huge line gets a parse error and the process ends cleanly', async () => {
    const run = await raw([line({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), new Uint8Array(17 * 1024 * 1024).fill(0x41), '\n']);
    expect(byId(run, 1)?.result).toBeDefined();
    expect(run.replies.find((r) => r.id === null)?.error).toMatchObject({ code: -32700 });
    expect(run.code).toBe(0);
  });

  it('answers requests still in flight when stdin closes', async () => {
    const run = await raw([
      line({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_query', arguments: { cypher: 'UNWIND range(1, 50000) AS i CREATE (:N {i: i})' } } }),
      line({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_query', arguments: { cypher: 'MATCH (n:N) RETURN count(n) AS c' } } }),
    ]);
    const second = byId(run, 2)?.result as TextResult;
    expect(JSON.parse(second.content[0].text).rows).toEqual([{ c: '50000' }]);
  });
});

describe('graphdb-mcp --data-dir', () => {
  it('keeps what write_query wrote for the next session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-mcp-'));
    try {
      const call = (id: number, name: string, cypher: string): string =>
        line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { cypher } } });
      const first = await raw([call(1, 'write_query', "CREATE (:Kept {name: 'across sessions'})")], ['--data-dir', dir]);
      expect(first.code).toBe(0);
      expect((byId(first, 1)?.result as TextResult).isError).toBeFalsy();
      const second = await raw([call(2, 'read_query', 'MATCH (k:Kept) RETURN k.name AS name')], ['--data-dir', dir]);
      const result = byId(second, 2)?.result as TextResult;
      expect(JSON.parse(result.content[0].text).rows).toEqual([{ name: 'across sessions' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bad argument is a usage error (status 2)', async () => {
    const run = await raw([], ['--frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown argument/);
  });
});

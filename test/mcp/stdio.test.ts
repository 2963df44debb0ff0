/**
 * `graphdb-mcp` over stdio as a real process: replies leave in request order (a slow query
 * does not let later requests overtake it, and gate errors keep their place), error texts
 * carry the "MCP error" prefix once through the SDK client, and hostile graph_rag questions
 * (huge, control characters, injection) come back as data without touching the graph.
 * Assumes `npm run build` has run (as `npm test` does).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_BIN } from '../server/helpers.js';

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0].text;
}

/** Writes `lines` to a fresh graphdb-mcp, closes stdin, returns the reply lines. */
function exchange(lines: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCP_BIN], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => resolve(out.split('\n').filter((l) => l !== '')));
    child.stdin.end(lines.join('\n') + '\n');
  });
}

describe('graphdb-mcp over stdio', () => {
  it('answers in request order even when an early request is slow', async () => {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const slow = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_query', arguments: { cypher: 'UNWIND range(1, 300000) AS x RETURN count(x) AS n' } } };
    const lines = [
      JSON.stringify(init),
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      JSON.stringify(slow),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      '{broken json',
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get_schema', arguments: {} } }),
    ];
    const replies = (await exchange(lines)).map((l) => JSON.parse(l) as { id: number | null; error?: { code: number } });
    expect(replies.map((r) => r.id)).toEqual([0, 1, 2, null, 3, 4]);
    expect(replies[3].error?.code).toBe(-32700);
  });

  it('sends an SDK error text once', async () => {
    const lines = [
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }),
    ];
    const replies = (await exchange(lines)).map((l) => JSON.parse(l) as { id: number; error?: { message: string } });
    expect(replies[1].error?.message).toMatch(/^Unknown tool "no_such_tool"/);
  });
});

describe('graph_rag through the SDK client over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'graphdb-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], stderr: 'pipe' }));
    await client.callTool({
      name: 'write_query',
      arguments: {
        cypher: `CREATE (k:Person {name: 'Kim'}),
                 (k)-[:LIVES_IN {observation_class: 'predicted', confidence: 0.95}]->(:City {name: 'Bergen'}),
                 (k)-[:LIVES_IN {confidence: 0.4, source: 'census'}]->(:City {name: 'Tromso'})`,
      },
    });
  });
  afterAll(async () => client?.close());

  it('ranks the observed answer first and marks the conflict', async () => {
    const answer = JSON.parse(textOf(await client.callTool({ name: 'graph_rag', arguments: { query: 'Which city does Kim live in?' } })));
    expect(answer.results.slice(0, 2).map((r: { name: string; observation_class: string }) => [r.name, r.observation_class])).toEqual([
      ['Tromso', 'observed'],
      ['Bergen', 'predicted'],
    ]);
    expect(answer.results[0].note).toMatch(/conflicts with 'Bergen'/);
    expect(answer.results[1].confidence).toBe('0.95');
  });

  it('treats hostile questions as data', async () => {
    const hostile = ["Kim'}) DETACH DELETE n //", 'Kim\u0000\u001b[2J\u202e', 'k'.repeat(1_000_000), '$question', '*/ MATCH (n) DELETE n /*'];
    for (const query of hostile) {
      const result = await client.callTool({ name: 'graph_rag', arguments: { query } });
      expect(result.isError).toBeFalsy();
      const answer = JSON.parse(textOf(result));
      expect(answer.query).toBe(query);
    }
    const count = JSON.parse(textOf(await client.callTool({ name: 'read_query', arguments: { cypher: 'MATCH (n) RETURN count(n) AS n' } })));
    expect(count.rows).toEqual([{ n: '3' }]);
    const bad = await client.callTool({ name: 'graph_rag', arguments: { query: 'x', limit: 0 } }).catch((e: Error) => e);
    expect((bad as Error).message.match(/MCP error -32602/g)).toHaveLength(1);
  });
});

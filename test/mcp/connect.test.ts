/**
 * `graphdb-mcp --connect`: a real graphdb server on a data directory (with an API key) and a
 * real graphdb-mcp relaying to it, driven by the MCP SDK's stdio client. The agent and the
 * server share one graph (writes through MCP are read back through HTTP and the other way
 * round), the server's skills appear, and an unreachable server or a wrong key ends the relay
 * with status 1. Assumes `npm run build` has run (as `npm test` does).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_BIN, spawnGraphdb, type SpawnedServers } from '../server/helpers.js';

const KEY = 'relay-key';

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0].text;
}

function runMcp(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env };
    delete env.GRAPHDB_API_KEY; // the key is given by --api-key or not at all
    const child = spawn(process.execPath, [MCP_BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end();
  });
}

describe('graphdb-mcp --connect', () => {
  let dir: string;
  let srv: SpawnedServers;
  let base: string;
  let client: Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'graphdb-connect-'));
    srv = await spawnGraphdb(['--http', '0', '--data-dir', dir, '--api-key', KEY]);
    base = `http://127.0.0.1:${srv.ports.http}`;
    client = new Client({ name: 'graphdb-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--connect', base, '--api-key', KEY], stderr: 'pipe' }));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await srv?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shares one graph with the server', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(5);
    const written = JSON.parse(textOf(await client.callTool({ name: 'write_query', arguments: { cypher: "CREATE (:Person {name: 'Ann'})-[:WORKS_AT]->(:Company {name: 'Acme'})" } })));
    expect(written.counters).toMatchObject({ nodes_created: 2, relationships_created: 1 });
    const viaHttp = await fetch(`${base}/query`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}` }, body: 'MATCH (p:Person)-[:WORKS_AT]->(c) RETURN p.name AS p, c.name AS c' });
    expect(((await viaHttp.json()) as { rows: unknown[] }).rows).toEqual([{ p: 'Ann', c: 'Acme' }]);
    await fetch(`${base}/query`, { method: 'POST', headers: { Authorization: `Bearer ${KEY}` }, body: "CREATE (:Person {name: 'Bo'})" });
    const read = JSON.parse(textOf(await client.callTool({ name: 'read_query', arguments: { cypher: 'MATCH (p:Person) RETURN p.name AS name ORDER BY name' } })));
    expect(read.rows).toEqual([{ name: 'Ann' }, { name: 'Bo' }]);
    const answer = JSON.parse(textOf(await client.callTool({ name: 'graph_rag', arguments: { query: 'Which company does Ann work at?' } })));
    expect(answer.results[0]).toMatchObject({ name: 'Acme', observation_class: 'observed' });
    const refused = await client.callTool({ name: 'read_query', arguments: { cypher: 'CREATE ()' } });
    expect(refused.isError).toBe(true);
    const bad = await client.callTool({ name: 'read_query', arguments: {} }).catch((e: Error) => e);
    expect((bad as Error).message).toMatch(/^MCP error -32602: read_query needs/);
    expect((bad as Error).message.match(/MCP error/g)).toHaveLength(1);
  });

  it('exits 1 when the server refuses the key or cannot be reached, 2 on a bad URL', async () => {
    const wrongKey = await runMcp(['--connect', base, '--api-key', 'wrong']);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/^graphdb-mcp: the graphdb server at http:\/\/\S+ refused the API key \(HTTP 401\): give the key it was started with/m);
    const noKey = await runMcp(['--connect', base]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/requires an API key \(HTTP 401\)/);
    const dead = await runMcp(['--connect', 'http://127.0.0.1:1']);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toMatch(/cannot reach the graphdb server/);
    expect((await runMcp(['--connect', 'ftp://x'])).code).toBe(2);
    expect((await runMcp(['--connect', base, '--data-dir', dir])).code).toBe(2);
  });
});

/**
 * MCP over the server's HTTP door (`POST /mcp`, streamable HTTP), driven by the MCP SDK's
 * own client over a real loopback socket: the five tools, write counters, read_query's
 * refusal, graph_rag's SPEC shape with trust fields, skills in get_capabilities and in
 * /status, error texts carried once, the API key (sessions: test/mcp/http-sessions.test.ts).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Database } from '../../src/engine/database.js';
import { buildHttpApp } from '../../src/server/http/app.js';
import { resolveLimits } from '../../src/server/limits.js';

const KEY = 'test-key-123';

function textOf(result: unknown): string {
  const r = result as { content: { type: string; text: string }[] };
  expect(r.content[0].type).toBe('text');
  return r.content[0].text;
}

describe('MCP on POST /mcp', () => {
  let db: Database;
  let app: FastifyInstance;
  let base: string;
  let client: Client;

  beforeAll(async () => {
    db = Database.openInMemory();
    app = await buildHttpApp(db, { apiKey: KEY, limits: resolveLimits() });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
    client = new Client({ name: 'graphdb-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    db?.close();
  });

  it('lists the five tools and answers writes with counters', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get_capabilities', 'get_schema', 'graph_rag', 'read_query', 'write_query']);
    const written = JSON.parse(
      textOf(
        await client.callTool({
          name: 'write_query',
          arguments: { cypher: "CREATE (a:Person {name: 'Ann'})-[:WORKS_AT {source: 'hr'}]->(c:Company {name: 'Acme'}) SET a.age = 30 RETURN a.name AS name" },
        }),
      ),
    );
    expect(written.rows).toEqual([{ name: 'Ann' }]);
    expect(written.counters).toMatchObject({ nodes_created: 2, relationships_created: 1, properties_set: 4, labels_added: 2, nodes_deleted: 0 });
    const read = await client.callTool({ name: 'read_query', arguments: { cypher: 'MATCH (n) DETACH DELETE n' } });
    expect(read.isError).toBe(true);
    expect(textOf(read)).toMatch(/write_query/);
    expect(db.graph.nodeCount).toBe(2);
  });

  it('answers graph_rag in the SPEC shape with trust fields', async () => {
    const answer = JSON.parse(textOf(await client.callTool({ name: 'graph_rag', arguments: { query: 'Which company does Ann work at?', limit: 3 } })));
    expect(Object.keys(answer).sort()).toEqual(['query', 'result_count', 'results']);
    expect(answer.query).toBe('Which company does Ann work at?');
    expect(answer.results[0]).toEqual({ name: 'Acme', confidence: '1', observation_class: 'observed', note: expect.stringMatching(/WORKS_AT/) });
    expect(answer.result_count).toBe(answer.results.length);
  });

  it('lists skills in get_capabilities and counts them in /status', async () => {
    await client.callTool({
      name: 'write_query',
      arguments: { cypher: "CALL skills.register('staff', 'People at a company', 'MATCH (p)-[:WORKS_AT]->({name: $company}) RETURN p.name AS name', {parameters: {company: 'STRING'}}) YIELD name RETURN name" },
    });
    const caps = JSON.parse(textOf(await client.callTool({ name: 'get_capabilities', arguments: {} })));
    expect(caps.skills).toEqual([
      {
        name: 'staff',
        description: 'People at a company',
        mode: 'read',
        parameters: { type: 'object', properties: { company: { type: 'string' } }, required: ['company'], additionalProperties: false },
        run: expect.stringMatching(/^read_query: CALL skills\.run\('staff'/),
      },
    ]);
    const run = JSON.parse(textOf(await client.callTool({ name: 'read_query', arguments: { cypher: "CALL skills.run('staff', {company: 'Acme'}) YIELD value RETURN value.name AS name" } })));
    expect(run.rows).toEqual([{ name: 'Ann' }]);
    const status = await fetch(`${base}/status`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(((await status.json()) as { skills: number }).skills).toBe(1);
  });

  it('checks observation classes on writes and summarises them', async () => {
    const bad = await client.callTool({ name: 'write_query', arguments: { cypher: "CREATE (:Fact {observation_class: 'rumour'})" } });
    expect(bad.isError).toBe(true);
    expect(JSON.parse(textOf(bad))).toMatchObject({ error: true, code: 'CONSTRAINT_ERR', message: expect.stringMatching(/observation_class must be one of observed, inferred, predicted/) });
    await client.callTool({ name: 'write_query', arguments: { cypher: "CREATE (:Fact {observation_class: 'predicted', confidence: 0.4})" } });
    const summary = JSON.parse(
      textOf(
        await client.callTool({
          name: 'read_query',
          arguments: { cypher: "CALL graphdb.observation.summary() YIELD name, observationClass, count WHERE name = 'Fact' RETURN observationClass, count" },
        }),
      ),
    );
    expect(summary.rows).toEqual([{ observationClass: 'predicted', count: '1' }]);
    const caps = JSON.parse(textOf(await client.callTool({ name: 'get_capabilities', arguments: {} })));
    expect(caps.observation_classes).toEqual(['observed', 'inferred', 'predicted']);
  });

  it('carries an error text once', async () => {
    const err = await client.callTool({ name: 'read_query', arguments: {} }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^MCP error -32602: read_query needs the argument "cypher"/);
    expect((err as Error).message.match(/MCP error/g)).toHaveLength(1);
  });

  it('requires the API key; GET and DELETE need a session', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    expect((await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) })).status).toBe(401);
    expect((await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    expect((await fetch(`${base}/mcp`, { method: 'DELETE' })).status).toBe(401);
    const get = await fetch(`${base}/mcp`, { headers: { Authorization: `Bearer ${KEY}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    const bad = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...headers, Authorization: `Bearer ${KEY}` }, body: '{not json' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });
});

describe('MCP on POST /mcp without an API key', () => {
  it('refuses a request from a web page', async () => {
    const db = Database.openInMemory();
    const app = await buildHttpApp(db, { limits: resolveLimits() });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://evil.example' },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'write_query', arguments: { cypher: 'CREATE ()' } } }),
      });
      expect(response.statusCode).toBe(403);
      expect(db.graph.nodeCount).toBe(0);
    } finally {
      await app.close();
      db.close();
    }
  });
});

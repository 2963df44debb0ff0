/**
 * MCP sessions on the HTTP server's `/mcp` (streamable HTTP): the SDK client gets a session
 * id at initialize and uses it; a session's GET event stream opens (one per session);
 * DELETE ends the session (its id is then 404); unknown ids are 404, GET and DELETE without
 * an id 400; sessions are separate (ending one leaves another working); a POST without a
 * session that is not an initialize is still answered statelessly; closing the server ends
 * open streams instead of waiting on them; the --connect relay ends its session when it
 * closes. Real loopback sockets throughout.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Database } from '../../src/engine/database.js';
import { buildHttpApp } from '../../src/server/http/app.js';
import { resolveLimits } from '../../src/server/limits.js';
import { connectRelay } from '../../src/mcp/connect.js';

const KEY = 'session-key';
const AUTH = { Authorization: `Bearer ${KEY}` };
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const PROTOCOL = '2025-03-26';

async function listen(db: Database): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildHttpApp(db, { apiKey: KEY, limits: resolveLimits() });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { app, base: `http://127.0.0.1:${address.port}` };
}

function rpc(method: string, params: Record<string, unknown> = {}, id: number | null = 1): string {
  return JSON.stringify(id === null ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id, method, params });
}

/** Starts a session by hand: initialize, then the initialized notification; returns its id. */
async function openSession(base: string): Promise<string> {
  const init = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: rpc('initialize', { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }),
  });
  expect(init.status).toBe(200);
  const id = init.headers.get('mcp-session-id');
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  await init.json();
  const done = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-session-id': id!, 'mcp-protocol-version': PROTOCOL }, body: rpc('notifications/initialized', {}, null) });
  expect(done.status).toBe(202);
  return id!;
}

describe('MCP sessions on /mcp', () => {
  let db: Database;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    db = Database.openInMemory();
    db.executeSync("CREATE (:Person {name: 'Ann'})-[:WORKS_AT]->(:Company {name: 'Acme'})");
    ({ app, base } = await listen(db));
  });
  afterAll(async () => {
    await app?.close();
    db?.close();
  });

  it('gives the SDK client a session, serves it, and ends it on DELETE', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: AUTH } });
    const client = new Client({ name: 'session-test', version: '1' });
    await client.connect(transport);
    const id = transport.sessionId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const rag = await client.callTool({ name: 'graph_rag', arguments: { query: 'Which company does Ann work at?', limit: 1 } });
    expect(JSON.parse((rag as { content: { text: string }[] }).content[0].text).results[0].name).toBe('Acme');
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    const after = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-session-id': id!, 'mcp-protocol-version': PROTOCOL }, body: rpc('tools/list') });
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: { code: number } }).error.code).toBe(-32001);
    await client.close();
  });

  it('opens one event stream per session with GET, and keeps sessions apart', async () => {
    const a = await openSession(base);
    const b = await openSession(base);
    expect(a).not.toBe(b);
    const abort = new AbortController();
    const stream = await fetch(`${base}/mcp`, { headers: { ...AUTH, accept: 'text/event-stream', 'mcp-session-id': a, 'mcp-protocol-version': PROTOCOL }, signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // A second stream for the same session is a conflict.
    const second = await fetch(`${base}/mcp`, { headers: { ...AUTH, accept: 'text/event-stream', 'mcp-session-id': a, 'mcp-protocol-version': PROTOCOL } });
    expect(second.status).toBe(409);
    await second.body?.cancel();
    abort.abort();
    // Ending b leaves a working.
    const del = await fetch(`${base}/mcp`, { method: 'DELETE', headers: { ...AUTH, 'mcp-session-id': b, 'mcp-protocol-version': PROTOCOL } });
    expect(del.status).toBe(200);
    const onA = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-session-id': a, 'mcp-protocol-version': PROTOCOL }, body: rpc('tools/list', {}, 7) });
    expect(onA.status).toBe(200);
    expect(((await onA.json()) as { id: number; result: { tools: unknown[] } }).result.tools).toHaveLength(5);
    const onB = await fetch(`${base}/mcp`, { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-session-id': b, 'mcp-protocol-version': PROTOCOL }, body: rpc('tools/list') });
    expect(onB.status).toBe(404);
  });

  it("ends the --connect relay's session when the relay closes", async () => {
    const relay = await connectRelay(base, KEY);
    const id = (relay.client.transport as StreamableHTTPClientTransport).sessionId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const headers = { ...JSON_HEADERS, 'mcp-session-id': id!, 'mcp-protocol-version': PROTOCOL };
    expect((await fetch(`${base}/mcp`, { method: 'POST', headers, body: rpc('tools/list') })).status).toBe(200);
    await relay.close();
    expect((await fetch(`${base}/mcp`, { method: 'POST', headers, body: rpc('tools/list') })).status).toBe(404);
  });

  it('answers unknown and missing ids, and still serves stateless POSTs', async () => {
    const unknown = await fetch(`${base}/mcp`, { headers: { ...AUTH, accept: 'text/event-stream', 'mcp-session-id': 'no-such-session' } });
    expect(unknown.status).toBe(404);
    expect((await fetch(`${base}/mcp`, { method: 'DELETE', headers: AUTH })).status).toBe(400);
    const stateless = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: rpc('tools/call', { name: 'read_query', arguments: { cypher: 'MATCH (c:Company) RETURN c.name AS name' } }),
    });
    expect(stateless.status).toBe(200);
    expect(stateless.headers.get('mcp-session-id')).toBeNull();
    const answer = (await stateless.json()) as { result: { content: { text: string }[] } };
    expect(JSON.parse(answer.result.content[0].text).rows).toEqual([{ name: 'Acme' }]);
  });

  it('ends open event streams when the server closes', async () => {
    const own = Database.openInMemory();
    const server = await listen(own);
    const id = await openSession(server.base);
    const stream = await fetch(`${server.base}/mcp`, { headers: { ...AUTH, accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL } });
    expect(stream.status).toBe(200);
    const reading = (async () => {
      const reader = stream.body!.getReader();
      while (!(await reader.read()).done);
      return 'ended';
    })().catch(() => 'ended');
    await server.app.close();
    expect(await reading).toBe('ended');
    own.close();
  });
});

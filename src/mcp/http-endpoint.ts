/**
 * MCP over HTTP on the server: `/mcp` speaks the SDK's streamable HTTP transport, so remote
 * agents reach the same five tools as `graphdb-mcp`.
 *
 * - Sessions: a POST `initialize` without an `Mcp-Session-Id` starts a session — its own
 *   protocol engine and transport, its id in the answer's `Mcp-Session-Id` header. Later
 *   POSTs carrying the id go to it; `GET /mcp` with the id opens the session's server-sent
 *   event stream (for messages the server sends unasked); `DELETE /mcp` with the id ends it.
 *   An unknown or ended id is 404 (the client starts a new session), a GET or DELETE without
 *   one 400. Sessions idle (no request) for SESSION_IDLE_MS are ended when the next session
 *   starts, at most MAX_SESSIONS are kept (then 503), and closing the server ends them all.
 * - Stateless: any other POST without a session id is answered on its own, by a fresh
 *   protocol engine, as plain JSON (a client that sends tools/call without initialising).
 *
 * POST answers are plain JSON (no stream per request). The route sits behind the server's
 * API key like every other route, and a request from a web page is refused unless the server
 * has a key or the page's origin is allowed (the same rule as POST /query); the tools' queries
 * run under what the caller may do (src/server/authorization.ts).
 */

import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Database } from '../engine/database.js';
import type { QueryExecutor } from '../engine/types.js';
import type { ServerLimits } from '../server/limits.js';
import { crossSiteWriteRefusal } from '../server/http/write-guard.js';
import type { HttpAuthorization } from '../server/http/auth.js';
import { withGrant } from '../server/authorization.js';
import { LazyModule } from '../lazy-module.js';
import { plainErrorText } from './error-text.js';

type McpSdk = typeof import('./http-sdk.js');
/** The SDK and the tools, loaded by the route's first request (a failed load is tried again by the next). */
const mcpSdk = new LazyModule<McpSdk>(import.meta.url, './http-sdk.js', () => import('./http-sdk.js'));

export const MCP_PATH = '/mcp';
/** Most MCP sessions kept at once. */
export const MAX_SESSIONS = 256;
/** A session without a request for this long is ended when another one starts. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;

const SESSION_HEADER = 'mcp-session-id';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

export interface McpRouteOptions {
  apiKey?: string;
  allowOrigins?: readonly string[];
  limits: ServerLimits;
  /** Where the tools' queries run (default: the database). */
  queries?: QueryExecutor;
  /** Who each request's caller is (the HTTP door's side of the shared rule); without it every caller may do everything (tests of the route alone). */
  auth?: HttpAuthorization;
}

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastUsed: number;
}

/** A transport whose outgoing error texts carry the SDK's prefix once. */
function transportFor(sdk: McpSdk, sessionIdGenerator: (() => string) | undefined, hooks: { opened?: (id: string) => void; closed?: (id: string) => void } = {}): StreamableHTTPServerTransport {
  const transport = new sdk.StreamableHTTPServerTransport({
    sessionIdGenerator,
    enableJsonResponse: true,
    onsessioninitialized: hooks.opened,
    onsessionclosed: hooks.closed,
  });
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, sendOptions) => send(plainErrorText(message), sendOptions);
  return transport;
}

/** Runs `handle` on the raw request and response; a failure before any answer is a JSON-RPC internal error. */
async function serveRaw(reply: FastifyReply, handle: () => Promise<void>): Promise<FastifyReply> {
  reply.hijack();
  try {
    await handle();
  } catch (err) {
    if (!reply.raw.headersSent) {
      reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      reply.raw.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${err instanceof Error ? err.message : String(err)}` } }));
    }
  }
  return reply;
}

export function registerMcpRoute(app: FastifyInstance, db: Database, options: McpRouteOptions): void {
  const allowOrigins = new Set((options.allowOrigins ?? []).map((o) => o.toLowerCase()));
  const sessions = new Map<string, Session>();
  // The tools run their queries under what the caller who opened the session (or sent the stateless request) may do.
  const queriesFor = (request: FastifyRequest): QueryExecutor => {
    const queries = options.queries ?? db;
    return options.auth === undefined ? queries : withGrant(queries, options.auth.grant(request));
  };

  const end = (id: string): void => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    void s.transport.close();
    void s.server.close();
  };

  /** Ends idle sessions; true when there is room for another. */
  const makeRoom = (): boolean => {
    const now = Date.now();
    for (const [id, s] of sessions) if (now - s.lastUsed > SESSION_IDLE_MS) end(id);
    return sessions.size < MAX_SESSIONS;
  };

  /** The session a request names; answers 400/404 itself and returns undefined when there is none. */
  const sessionOf = (request: FastifyRequest, reply: FastifyReply): Session | undefined => {
    const id = request.headers[SESSION_HEADER];
    if (typeof id !== 'string' || id === '') {
      rpcError(reply, 400, -32000, 'Bad Request: the Mcp-Session-Id header is required (start a session with an initialize POST)');
      return undefined;
    }
    const s = sessions.get(id);
    if (!s) {
      rpcError(reply, 404, -32001, 'Session not found: it ended or never existed; start a new one with an initialize POST');
      return undefined;
    }
    s.lastUsed = Date.now();
    return s;
  };

  const refused = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const refusal = crossSiteWriteRefusal(request.headers, options.apiKey !== undefined, allowOrigins);
    if (refusal) rpcError(reply, 403, -32600, refusal.message);
    return refusal !== undefined;
  };

  app.post(MCP_PATH, async (request, reply) => {
    if (refused(request, reply)) return reply;
    const raw = request.body;
    let body: unknown;
    try {
      body = JSON.parse(strictUtf8.decode(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0)));
    } catch {
      return rpcError(reply, 400, -32700, 'Parse error: the request body is not JSON');
    }
    if (request.headers[SESSION_HEADER] !== undefined) {
      const s = sessionOf(request, reply);
      if (!s) return reply;
      return serveRaw(reply, () => s.transport.handleRequest(request.raw, reply.raw, body));
    }
    let sdk: McpSdk;
    try {
      sdk = await mcpSdk.preload();
    } catch (err) {
      return rpcError(reply, 500, -32603, `Internal error: the MCP SDK could not be loaded (${err instanceof Error ? err.message : String(err)})`);
    }
    if (sdk.isInitializeRequest(body)) {
      if (!makeRoom()) return rpcError(reply, 503, -32000, `Too many MCP sessions (${MAX_SESSIONS}); end one with DELETE /mcp or try again later`);
      const server = sdk.createMcpServer(db, options.limits, queriesFor(request));
      const session: Session = { server, transport: undefined as unknown as StreamableHTTPServerTransport, lastUsed: Date.now() };
      session.transport = transportFor(sdk, () => randomUUID(), { opened: (id) => sessions.set(id, session), closed: (id) => sessions.delete(id) });
      session.transport.onclose = () => {
        const id = session.transport.sessionId;
        if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
      };
      return serveRaw(reply, async () => {
        await server.connect(session.transport);
        await session.transport.handleRequest(request.raw, reply.raw, body);
      });
    }
    // Stateless: a fresh engine for this one request, gone when its answer is sent.
    const server = sdk.createMcpServer(db, options.limits, queriesFor(request));
    const transport = transportFor(sdk, undefined);
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    return serveRaw(reply, async () => {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, body);
    });
  });

  // The session's event stream (GET) and its end (DELETE): the transport checks the rest (Accept, protocol version).
  const onSession = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (refused(request, reply)) return reply;
    const s = sessionOf(request, reply);
    if (!s) return reply;
    return serveRaw(reply, () => s.transport.handleRequest(request.raw, reply.raw));
  };
  app.get(MCP_PATH, onSession);
  app.delete(MCP_PATH, onSession);

  // Before the server waits for its connections: an open event stream would otherwise keep it waiting.
  app.addHook('preClose', async () => {
    for (const id of [...sessions.keys()]) end(id);
  });
}

/**
 * MCP over HTTP on the server: `POST /mcp` speaks the SDK's streamable HTTP transport in its
 * stateless form (each request gets a fresh protocol engine over the same database, and the
 * answer is plain JSON), so remote agents reach the same five tools as `graphdb-mcp`. The
 * route sits behind the server's API key like every other route, and a request from a web
 * page is refused unless the server has a key or the page's origin is allowed (the same
 * rule as POST /query). GET and DELETE (server-sent streams and sessions, which the
 * stateless form does not keep) answer 405.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Database } from '../engine/database.js';
import type { ServerLimits } from '../server/limits.js';
import { crossSiteWriteRefusal } from '../server/http/write-guard.js';
import { plainErrorText } from './error-text.js';
import { createMcpServer } from './server.js';

export const MCP_PATH = '/mcp';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

export interface McpRouteOptions {
  apiKey?: string;
  allowOrigins?: readonly string[];
  limits: ServerLimits;
}

export function registerMcpRoute(app: FastifyInstance, db: Database, options: McpRouteOptions): void {
  const allowOrigins = new Set((options.allowOrigins ?? []).map((o) => o.toLowerCase()));
  app.post(MCP_PATH, async (request, reply) => {
    const refusal = crossSiteWriteRefusal(request.headers, options.apiKey !== undefined, allowOrigins);
    if (refusal) return rpcError(reply, 403, -32600, refusal.message);
    const raw = request.body;
    let body: unknown;
    try {
      body = JSON.parse(strictUtf8.decode(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0)));
    } catch {
      return rpcError(reply, 400, -32700, 'Parse error: the request body is not JSON');
    }
    const server = createMcpServer(db, options.limits);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, sendOptions) => send(plainErrorText(message), sendOptions);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, body);
    } catch (err) {
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        reply.raw.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${err instanceof Error ? err.message : String(err)}` } }));
      }
    }
    return reply;
  });
  const notServed = async (_request: unknown, reply: FastifyReply): Promise<FastifyReply> => {
    reply.header('Allow', 'POST');
    return rpcError(reply, 405, -32000, 'This server keeps no MCP sessions or event streams: send each message with POST /mcp');
  };
  app.get(MCP_PATH, notServed);
  app.delete(MCP_PATH, notServed);
}

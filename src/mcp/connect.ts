/**
 * `graphdb-mcp --connect <url>`: MCP on stdio for a graph held by a running graphdb server.
 * The server answers MCP itself on `/mcp` (http-endpoint.ts); this side is a relay: an
 * SDK client over the streamable HTTP transport (with the API key as a Bearer token) and a
 * local protocol engine whose tools/list and tools/call forward to it. So the tools behave
 * exactly as the server's, and an agent shares one graph with everyone else on the server.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { packageVersion } from '../version.js';
import { MCP_SERVER_NAME, MCP_INSTRUCTIONS } from './server.js';

/** How long one forwarded request may take (a query's own limit is the server's). */
const FORWARD_TIMEOUT_MS = 10 * 60 * 1000;

/** An error the SDK engine turns into a JSON-RPC error with this code and message (no prefix added). */
class ForwardedError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function forwarded(err: unknown): Error {
  if (err instanceof McpError) {
    const prefix = `MCP error ${err.code}: `;
    let text = err.message;
    while (text.startsWith(prefix)) text = text.slice(prefix.length);
    return new ForwardedError(err.code, text, err.data);
  }
  return new ForwardedError(-32603, `The graphdb server could not be reached: ${err instanceof Error ? err.message : String(err)}`);
}

/** The server's MCP address for a base URL (`http://host:port` → `http://host:port/mcp`). */
export function mcpEndpoint(base: string): URL {
  const url = new URL(base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`--connect needs an http:// or https:// URL, not ${base}`);
  if (!url.pathname.endsWith('/mcp')) url.pathname = url.pathname.replace(/\/$/, '') + '/mcp';
  return url;
}

/**
 * Connects to the server (fails when it cannot be reached) and returns the local relay engine;
 * the caller ends with `close()`, which also ends the MCP session on the server.
 */
export async function connectRelay(base: string, apiKey: string | undefined): Promise<{ server: Server; client: Client; close: () => Promise<void> }> {
  const headers: Record<string, string> = apiKey !== undefined ? { Authorization: `Bearer ${apiKey}` } : {};
  const client = new Client({ name: `${MCP_SERVER_NAME}-relay`, version: packageVersion() });
  const transport = new StreamableHTTPClientTransport(mcpEndpoint(base), { requestInit: { headers } });
  await client.connect(transport);
  const close = async (): Promise<void> => {
    // The server would end an abandoned session only once it has been idle for a while.
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  };
  const server = new Server({ name: MCP_SERVER_NAME, version: packageVersion() }, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      return await client.listTools(undefined, { timeout: FORWARD_TIMEOUT_MS });
    } catch (err) {
      throw forwarded(err);
    }
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await client.callTool(request.params, undefined, { timeout: FORWARD_TIMEOUT_MS });
    } catch (err) {
      throw forwarded(err);
    }
  });
  return { server, client, close };
}

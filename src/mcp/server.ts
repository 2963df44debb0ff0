/**
 * The MCP server over one Database: the SDK's protocol engine (initialize and version
 * negotiation, ping, unknown methods → -32601) with our two handlers, tools/list and
 * tools/call, and serverInfo carrying the package version.
 */

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Database } from '../engine/database.js';
import type { QueryExecutor } from '../engine/types.js';
import { resolveLimits, type ServerLimits } from '../server/limits.js';
import { packageVersion } from '../version.js';
import { callTool } from './tools/call-tool.js';
import { TOOLS } from './tools/definitions.js';

export const MCP_SERVER_NAME = 'graphdb-mcp';
export const MCP_INSTRUCTIONS =
  'A graph database. Start with get_schema; query with read_query (read-only) or write_query (changes); ask questions in plain language with graph_rag; get_capabilities lists the skills (CALL skills.run(name, params)).';

/** `queries`: where the tools' queries run (default: `db`); a tools/call's cancellation stops its query. */
export function createMcpServer(db: Database, limits: ServerLimits = resolveLimits(), queries: QueryExecutor = db): Server {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: packageVersion() },
    {
      capabilities: { tools: {} },
      instructions: MCP_INSTRUCTIONS,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...TOOLS] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    callTool({ db, queries, limits, signal: extra.signal }, request.params.name, request.params.arguments ?? {}),
  );
  return server;
}

/**
 * What `/mcp` needs from the MCP SDK and the tools, in one module the HTTP server imports on the
 * route's first request: the SDK and its schema library are a third of the modules a server
 * would otherwise load at start, and most servers never see an MCP client.
 */

export { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
export { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
export { createMcpServer } from './server.js';

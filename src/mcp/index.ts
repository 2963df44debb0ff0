/**
 * The package's `graphdb/mcp` entry: the MCP server over a Database for embedders who
 * serve it on a transport of their own, and the `graphdb-mcp` program's main.
 */

export { createMcpServer, MCP_SERVER_NAME, MCP_INSTRUCTIONS } from './server.js';
export { main as runMcpProgram } from './main.js';
export type { DatabaseOpener } from './main.js';

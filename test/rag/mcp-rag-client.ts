/**
 * The graph_rag MCP tests' shared client: starts the real `graphdb-mcp` process (the built
 * binary, so `npm run build` must have run, as `npm test` does) through the MCP SDK client over
 * stdio, loads the test's graph with `write_query`, and asks `graph_rag` questions.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { MCP_BIN } from '../server/helpers.js';

/** graph_rag's answer as the MCP tool gives it. */
export interface RagAnswer {
  query: string;
  results: { name: string; confidence: string; observation_class: string; note: string }[];
  result_count: number;
}

export interface RagClient {
  ask(query: string, limit?: number): Promise<RagAnswer>;
  close(): Promise<void>;
}

/** A connected client whose server holds the graph `cypher` creates. */
export async function openRagClient(cypher: string): Promise<RagClient> {
  const client = new Client({ name: 'graphdb-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], stderr: 'pipe' }));
  await client.callTool({ name: 'write_query', arguments: { cypher } });
  return {
    async ask(query, limit) {
      const r = (await client.callTool({ name: 'graph_rag', arguments: { query, ...(limit ? { limit } : {}) } })) as { content: { text: string }[] };
      return JSON.parse(r.content[0].text) as RagAnswer;
    },
    close: () => client.close(),
  };
}

/**
 * The five MCP tools as `tools/list` shows them: names, descriptions and JSON Schemas of
 * their arguments (SPEC "MCP server", Limits: 5 tools).
 */

import type { Tool } from '@modelcontextprotocol/sdk/types.js';

const NO_ARGS: Tool['inputSchema'] = { type: 'object', properties: {}, additionalProperties: false };

const CYPHER_ARG: Tool['inputSchema'] = {
  type: 'object',
  properties: { cypher: { type: 'string', description: 'The query, in the graph query language (openCypher / GQL)' } },
  required: ['cypher'],
  additionalProperties: false,
};

export const TOOL_NAMES = ['get_schema', 'get_capabilities', 'read_query', 'write_query', 'graph_rag'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const TOOLS: readonly Tool[] = [
  {
    name: 'get_schema',
    description:
      'Text summary of the graph: labels, relationship types, property keys, indexes, constraints, node and relationship counts, and per label its node count and property names.',
    inputSchema: NO_ARGS,
  },
  {
    name: 'get_capabilities',
    description: 'JSON listing the algorithms, procedures, built-in functions, observation classes and query features of this engine.',
    inputSchema: NO_ARGS,
  },
  {
    name: 'read_query',
    description:
      'Runs a read-only query and returns JSON {columns, row_count, rows}. Rejects queries that change the graph (CREATE, SET, DELETE, MERGE, REMOVE): use write_query for those.',
    inputSchema: CYPHER_ARG,
  },
  {
    name: 'write_query',
    description:
      'Runs a query that changes the graph (CREATE, SET, DELETE, DETACH DELETE, MERGE, REMOVE) and returns JSON {columns, row_count, rows} like read_query.',
    inputSchema: CYPHER_ARG,
  },
  {
    name: 'graph_rag',
    description:
      'Answers a natural-language question from the graph: seeds from exact names, full-text (BM25) and vector indexes fused by reciprocal rank, expansion to neighbouring nodes, answers of the kind the question names ranked first, then by confidence and observation class (observed > inferred > predicted; conflicting facts are marked). Returns JSON {query, results: [{name, confidence, observation_class, note}], result_count}; each note says why the result was returned.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'The question, in natural language' },
        limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Most results to return (default 10)' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
];

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

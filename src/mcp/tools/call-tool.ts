/**
 * Runs one tools/call: checks the arguments against the tool's contract (a wrong or
 * missing argument is a JSON-RPC -32602 error, thrown as McpError) and produces the tool
 * result, text content only. Query failures are tool results with `isError` and the SPEC
 * error object as text, so the model sees what went wrong.
 */

import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Database } from '../../engine/database.js';
import type { QueryExecutor, QueryStats } from '../../engine/types.js';
import type { ServerLimits } from '../../server/limits.js';
import { runQueryText } from '../../server/query-runner.js';
import { errorBody, type ErrorBody } from '../../server/wire-format.js';
import { capabilities } from './capabilities.js';
import { isToolName, TOOL_NAMES } from './definitions.js';
import { schemaText } from './schema-text.js';

export const READ_QUERY_REJECTION =
  'read_query rejects mutating queries (CREATE, SET, DELETE, MERGE, REMOVE): this query changes the graph; use write_query to run it';

type Args = Record<string, unknown>;

function text(body: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: 'text', text: body }], isError: true } : { content: [{ type: 'text', text: body }] };
}

function failure(error: ErrorBody): CallToolResult {
  return text(JSON.stringify(error), true);
}

function stringArg(tool: string, args: Args, name: string): string {
  const v = args[name];
  if (typeof v !== 'string') throw new McpError(ErrorCode.InvalidParams, `${tool} needs the argument "${name}" (a string)`);
  return v;
}

function noExtraArgs(tool: string, args: Args, allowed: readonly string[]): void {
  const extra = Object.keys(args).filter((k) => !allowed.includes(k));
  if (extra.length > 0) {
    throw new McpError(ErrorCode.InvalidParams, `${tool} does not take the argument(s) ${extra.join(', ')}${allowed.length > 0 ? `; it takes ${allowed.join(', ')}` : ''}`);
  }
}

/** Where a tool's queries run, with what limits, and the signal of the tools/call request (notifications/cancelled). */
export interface ToolContext {
  db: Database;
  queries: QueryExecutor;
  limits: ServerLimits;
  signal?: AbortSignal;
}

async function runCypher(ctx: ToolContext, cypher: string, readOnly: boolean): Promise<CallToolResult> {
  const outcome = await runQueryText(ctx.queries, cypher, ctx.limits, {
    readOnly,
    writeRefused: readOnly ? errorBody('WRITE_IN_READ_QUERY', READ_QUERY_REJECTION) : undefined,
    signal: ctx.signal,
  });
  if (!outcome.ok) return failure(outcome.error);
  const { columns, rows } = outcome.body;
  if (readOnly) return text(JSON.stringify({ columns, row_count: rows.length, rows }));
  return text(JSON.stringify({ columns, row_count: rows.length, rows, counters: counters(outcome.stats) }));
}

/** What a write changed, in the snake_case names the tool results use. */
function counters(stats: QueryStats): Record<string, number> {
  return {
    nodes_created: stats.nodesCreated,
    nodes_deleted: stats.nodesDeleted,
    relationships_created: stats.relationshipsCreated,
    relationships_deleted: stats.relationshipsDeleted,
    properties_set: stats.propertiesSet,
    labels_added: stats.labelsAdded,
    labels_removed: stats.labelsRemoved,
  };
}

/** graph_rag runs the retrieval procedure with the question as a parameter: it is never part of query text. */
const GRAPH_RAG_QUERY =
  'CALL graphdb.rag.retrieve($question, $options) YIELD name, confidence, observationClass, note RETURN name, confidence, observationClass, note';

async function graphRag(ctx: ToolContext, question: string, limit: number | undefined): Promise<CallToolResult> {
  const params = { question, options: limit === undefined ? {} : { k: limit } };
  const outcome = await runQueryText(ctx.queries, GRAPH_RAG_QUERY, ctx.limits, { params, readOnly: true, signal: ctx.signal });
  if (!outcome.ok) return failure(outcome.error);
  const results = outcome.body.rows.map((r) => ({
    name: r.name,
    confidence: String(Math.round(Number(r.confidence) * 1000) / 1000),
    observation_class: r.observationClass,
    note: r.note,
  }));
  return text(JSON.stringify({ query: question, results, result_count: results.length }));
}

function limitArg(args: Args): number | undefined {
  const v = args.limit;
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 100) {
    throw new McpError(ErrorCode.InvalidParams, 'graph_rag: "limit" must be an integer from 1 to 100');
  }
  return v;
}

export async function callTool(ctx: ToolContext, name: string, args: Args): Promise<CallToolResult> {
  const db = ctx.db;
  if (!isToolName(name)) {
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(name)}; the tools are ${TOOL_NAMES.join(', ')}`);
  }
  switch (name) {
    case 'get_schema':
      noExtraArgs(name, args, []);
      return text(schemaText(db.graph, db.schema));
    case 'get_capabilities':
      noExtraArgs(name, args, []);
      return text(JSON.stringify(capabilities(db), null, 2));
    case 'read_query':
    case 'write_query':
      noExtraArgs(name, args, ['cypher']);
      return runCypher(ctx, stringArg(name, args, 'cypher'), name === 'read_query');
    case 'graph_rag': {
      noExtraArgs(name, args, ['query', 'limit']);
      return graphRag(ctx, stringArg(name, args, 'query'), limitArg(args));
    }
  }
}

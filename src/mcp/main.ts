/**
 * The `graphdb-mcp` program: opens the database (in memory, or durable with --data-dir),
 * serves MCP over stdin/stdout until stdin closes, then closes the database and returns.
 * With --connect it opens no database: it relays to a running server's /mcp (connect.ts).
 * Nothing but protocol messages goes to stdout; diagnostics go to stderr.
 *
 * Exit status: 0 after stdin closed (or a stop signal), 1 when the database cannot be opened,
 * 2 for a usage error.
 */

import { databaseOptionsFor } from '../cli/database-options.js';
import { workerCount } from '../cli/server-plan.js';
import { Database } from '../engine/database.js';
import type { DatabaseOptions } from '../engine/types.js';
import { resolveLimits, type ServerLimits } from '../server/limits.js';
import { packageVersion } from '../version.js';
import { LineTransport } from './line-transport.js';
import { createMcpServer } from './server.js';
import { QueryRouter } from '../engine/workers/query-router.js';
import { QueryWorkerPool } from '../engine/workers/worker-pool.js';
import { defaultWorkers } from '../engine/workers/worker-budget.js';
import { connectRelay, mcpEndpoint } from './connect.js';
import { embeddingModelWarning } from '../embed/onnx-availability.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { escapeForLog } from '../server/log-text.js';

/** Help in the style of `graphdb help`: usage, what it does, then option sections in aligned columns. */
const HELP_SECTIONS: readonly [string, readonly (readonly [string, string])[]][] = [
  [
    'Options',
    [
      ['-V, --version', 'print the version and exit'],
      ['--data-dir <path>', 'durable storage in this directory (default: an in-memory graph)'],
      ['--force-empty', 'with --data-dir: start empty even if the store files of a used directory are missing'],
      ['--embedding-model <dir>', 'default embedder: a sentence-transformers ONNX export (model.onnx, tokenizer.json; needs onnxruntime-node) used by genai.vector.encode and graph_rag (default: built-in hashing)'],
      ['--import-dir <dir>', 'the directory LOAD CSV may read from (default: no file access)'],
      ['--query-timeout <ms>', 'time limit of each query in milliseconds, 0 for none (default 30000)'],
      ['--workers <n>', 'query worker threads: queries run there and stop when the client cancels the tools/call (default 1; 0: every query on the main thread)'],
      ['-h, --help', 'show help'],
    ],
  ],
  [
    'Sync options',
    [
      ['--sync', 'keep a sync WAL of the writes for other instances'],
      ['--peer-id <id>', "this instance's sync peer id (implies --sync)"],
    ],
  ],
  [
    'Relay options (no local database)',
    [
      ['--connect <url>', 'serve the graph of a running graphdb server (http://host:port) through its /mcp'],
      ['--api-key <key>', "the server's API key, with --connect (default: $GRAPHDB_API_KEY)"],
    ],
  ],
];

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

function helpText(): string {
  const flagWidth = Math.max(...HELP_SECTIONS.flatMap(([, options]) => options.map(([flags]) => flags.length))) + 2;
  const out = [
    'Usage: graphdb-mcp [options]',
    '       graphdb-mcp --connect <http url> [--api-key <key>]',
    '',
    'Serves the graph over the Model Context Protocol: JSON-RPC 2.0 on stdin/stdout, one',
    'message per line. Tools: get_schema, get_capabilities, read_query, write_query, graph_rag.',
  ];
  for (const [heading, options] of HELP_SECTIONS) {
    out.push('', `${heading}:`);
    for (const [flags, what] of options) {
      const [first, ...rest] = wrap(what, Math.max(30, 80 - 2 - flagWidth));
      out.push(`  ${flags.padEnd(flagWidth)}${first}`, ...rest.map((l) => `  ${' '.repeat(flagWidth)}${l}`));
    }
  }
  return `${out.join('\n')}\n`;
}

const USAGE = helpText();

interface McpArgs {
  dataDir?: string;
  importDir?: string;
  queryTimeout?: string;
  connect?: string;
  apiKey?: string;
  embeddingModel?: string;
  workers?: string;
  forceEmpty?: boolean;
  sync?: { peerId?: string };
  help?: boolean;
  version?: boolean;
}

class UsageError extends Error {}

/** Options that take a value: their key in McpArgs and what the value is. */
const VALUED: ReadonlyMap<string, { key: 'dataDir' | 'importDir' | 'queryTimeout' | 'connect' | 'apiKey' | 'embeddingModel' | 'workers'; what: string }> = new Map([
  ['--workers', { key: 'workers', what: 'a number of query threads' }],
  ['--connect', { key: 'connect', what: 'the server URL (http://host:port)' }],
  ['--api-key', { key: 'apiKey', what: 'an API key' }],
  ['--embedding-model', { key: 'embeddingModel', what: 'a model directory' }],
  ['--data-dir', { key: 'dataDir', what: 'a directory path' }],
  ['--import-dir', { key: 'importDir', what: 'a directory path' }],
  ['--query-timeout', { key: 'queryTimeout', what: 'a number of milliseconds' }],
] as const);

function parseArgs(argv: readonly string[]): McpArgs {
  const out: McpArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') out.help = true;
    else if (a === '-V' || a === '--version') out.version = true;
    else if (VALUED.has(a)) {
      const option = VALUED.get(a)!;
      const v = argv[++i];
      if (v === undefined || v.startsWith('-')) throw new UsageError(`${a} needs ${option.what}`);
      out[option.key] = v;
    } else if (VALUED.has(a.slice(0, a.indexOf('=')))) {
      out[VALUED.get(a.slice(0, a.indexOf('=')))!.key] = a.slice(a.indexOf('=') + 1);
    } else if (a === '--sync') out.sync ??= {};
    else if (a === '--force-empty') out.forceEmpty = true;
    else if (a === '--peer-id') {
      const v = argv[++i];
      if (v === undefined || v.startsWith('-')) throw new UsageError('--peer-id needs a peer id');
      out.sync = { peerId: v };
    } else throw new UsageError(`unknown argument ${JSON.stringify(a)}`);
  }
  return out;
}

/** Opens the database the options ask for. */
export type DatabaseOpener = (dataDir: string | undefined, options: DatabaseOptions) => Promise<Database>;

async function defaultOpener(dataDir: string | undefined, options: DatabaseOptions): Promise<Database> {
  return dataDir === undefined ? Database.openInMemory(options) : Database.open({ ...options, dataDir });
}

/** The database options and query limits for the arguments (MCP is a server: no file access without --import-dir). */
function accessOptions(args: McpArgs): { options: DatabaseOptions; limits: ServerLimits } {
  let options: DatabaseOptions;
  try {
    options = { ...databaseOptionsFor(args, true), sync: args.sync, embeddingModel: args.embeddingModel };
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const limits = resolveLimits(options.queryTimeoutMs === undefined ? {} : { queryTimeoutMs: options.queryTimeoutMs });
  return { options, limits };
}

/** Serves stdio until it ends, with `server` on a line transport; stop signals end it like end of input. */
async function serveStdio(server: Server): Promise<void> {
  const transport = new LineTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (error) => process.stderr.write(`graphdb-mcp: ${escapeForLog(error.message)}\n`);
  // A stop signal ends the session like end of input does, so a durable store closes cleanly.
  const stop = (): void => void transport.close();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.once(s, stop);
  await server.connect(transport);
  await closed;
  for (const s of signals) process.off(s, stop);
}

/** What went wrong connecting to `url`: the server reached but refusing (401/403) is not "cannot reach". */
function connectFailure(url: string, err: unknown, keyGiven: boolean): string {
  const message = err instanceof Error ? err.message : String(err);
  const status = (err as { code?: unknown } | undefined)?.code;
  if (status === 401 || status === 403) {
    return keyGiven
      ? `the graphdb server at ${url} refused the API key (HTTP ${status}): give the key it was started with (--api-key or GRAPHDB_API_KEY)`
      : `the graphdb server at ${url} requires an API key (HTTP ${status}): give it with --api-key or GRAPHDB_API_KEY`;
  }
  if (typeof status === 'number' && status >= 400) return `the graphdb server at ${url} answered HTTP ${status}: ${message}`;
  return `cannot reach the graphdb server at ${url}: ${message}`;
}

/** --connect: relays stdio to the server's /mcp; 1 when the server cannot be reached or refuses. */
async function relay(url: string, apiKey: string | undefined): Promise<number> {
  try {
    mcpEndpoint(url);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  let connected: Awaited<ReturnType<typeof connectRelay>>;
  try {
    connected = await connectRelay(url, apiKey);
  } catch (err) {
    process.stderr.write(`graphdb-mcp: ${connectFailure(url, err, apiKey !== undefined)}\n`);
    return 1;
  }
  await serveStdio(connected.server);
  await connected.close();
  return 0;
}

/** Runs the MCP server; resolves with the exit status once stdin has closed. */
export async function main(
  argv: readonly string[] = process.argv.slice(2),
  open: DatabaseOpener = defaultOpener,
): Promise<number> {
  let args: McpArgs;
  let db: Database;
  let access: { options: DatabaseOptions; limits: ServerLimits };
  let workers: number;
  try {
    args = parseArgs(argv);
    if (args.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    if (args.version) {
      process.stdout.write(packageVersion() + '\n');
      return 0;
    }
    if (args.connect !== undefined) {
      if (args.dataDir !== undefined || args.importDir !== undefined || args.sync !== undefined || args.queryTimeout !== undefined) {
        throw new UsageError('--connect serves a running server\'s graph: --data-dir, --import-dir, --query-timeout and --sync belong to that server');
      }
      return await relay(args.connect, args.apiKey ?? process.env.GRAPHDB_API_KEY);
    }
    if (args.apiKey !== undefined) throw new UsageError('--api-key goes with --connect');
    access = accessOptions(args);
    workers = args.workers === undefined ? 1 : workerCountArg(args.workers);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`graphdb-mcp: ${err.message}\n${USAGE}`);
    return 2;
  }
  const onnxWarning = embeddingModelWarning(args.embeddingModel);
  if (onnxWarning !== undefined) process.stderr.write(`${onnxWarning.replace(/^graphdb:/, 'graphdb-mcp:')}\n`);
  try {
    db = await open(args.dataDir, access.options);
  } catch (err) {
    process.stderr.write(`graphdb-mcp: cannot open the database: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  let pool: QueryWorkerPool | undefined;
  if (args.workers === undefined && workers > 0) {
    // The note's own prefix names graphdb; on this door's stderr it is graphdb-mcp's.
    const fit = defaultWorkers(db, workers);
    if (fit.note !== undefined) process.stderr.write(fit.note.replace(/^graphdb:/, 'graphdb-mcp:') + '\n');
    workers = fit.workers;
  }
  if (workers > 0) {
    try {
      pool = await QueryWorkerPool.start(db, workers, (line) => process.stderr.write(line + '\n'));
    } catch (err) {
      process.stderr.write(`graphdb-mcp: no query workers (${err instanceof Error ? err.message : String(err)}); cancelled calls run to the end\n`);
    }
  }
  await serveStdio(createMcpServer(db, access.limits, new QueryRouter(db, pool)));
  await pool?.close();
  db.close();
  return 0;
}

function workerCountArg(text: string): number {
  try {
    return workerCount(text);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

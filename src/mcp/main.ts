/**
 * The `graphdb-mcp` program: opens the database (in memory, or durable with --data-dir),
 * serves MCP over stdin/stdout until stdin closes, then closes the database and returns.
 * Nothing but protocol messages goes to stdout; diagnostics go to stderr.
 *
 * Exit status: 0 after stdin closed (or a stop signal), 1 when the database cannot be opened,
 * 2 for a usage error.
 */

import { Database } from '../engine/database.js';
import { packageVersion } from '../version.js';
import { LineTransport } from './line-transport.js';
import { createMcpServer } from './server.js';

const USAGE = `Usage: graphdb-mcp [--data-dir <path>]

Serves the graph over the Model Context Protocol: JSON-RPC 2.0 on stdin/stdout, one
message per line. Tools: get_schema, get_capabilities, read_query, write_query, graph_rag.

Options:
  --data-dir <path>  durable storage in this directory (default: an in-memory graph)
  -V, --version      print the version and exit
  -h, --help         show this help
`;

interface McpArgs {
  dataDir?: string;
  help?: boolean;
  version?: boolean;
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[]): McpArgs {
  const out: McpArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') out.help = true;
    else if (a === '-V' || a === '--version') out.version = true;
    else if (a === '--data-dir') {
      const v = argv[++i];
      if (v === undefined || v.startsWith('-')) throw new UsageError('--data-dir needs a directory path');
      out.dataDir = v;
    } else if (a.startsWith('--data-dir=')) out.dataDir = a.slice('--data-dir='.length);
    else throw new UsageError(`unknown argument ${JSON.stringify(a)}`);
  }
  return out;
}

/** Opens the database the options ask for. */
export type DatabaseOpener = (dataDir: string | undefined) => Promise<Database>;

async function defaultOpener(dataDir: string | undefined): Promise<Database> {
  return dataDir === undefined ? Database.openInMemory() : Database.open({ dataDir });
}

/** Runs the MCP server; resolves with the exit status once stdin has closed. */
export async function main(
  argv: readonly string[] = process.argv.slice(2),
  open: DatabaseOpener = defaultOpener,
): Promise<number> {
  let args: McpArgs;
  let db: Database;
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
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`graphdb-mcp: ${err.message}\n${USAGE}`);
    return 2;
  }
  try {
    db = await open(args.dataDir);
  } catch (err) {
    process.stderr.write(`graphdb-mcp: cannot open the database: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const server = createMcpServer(db);
  const transport = new LineTransport(process.stdin, process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (error) => process.stderr.write(`graphdb-mcp: ${error.message}\n`);
  // A stop signal ends the session like end of input does, so a durable store closes cleanly.
  const stop = (): void => void transport.close();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.once(s, stop);
  await server.connect(transport);
  await closed;
  for (const s of signals) process.off(s, stop);
  db.close();
  return 0;
}

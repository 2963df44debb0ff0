/**
 * The `graphdb` command line: parses options with commander and dispatches to the REPL
 * (`graphdb`, `graphdb --playground`), the single-query command (`graphdb query`) or the
 * servers (`graphdb --http <port> --serve <port> --pg <port>`, see `serve.ts`).
 * Options the SPEC names but this version cannot honour yet are rejected in
 * `availability.ts`. `main` returns the exit status instead of exiting, so that output
 * is flushed and tests can call it; `bin/graphdb.js` sets `process.exitCode` from it.
 *
 * Exit status: 0 success, 1 a query failed, 2 a usage error (bad or unavailable option).
 */

import { Command, CommanderError, Option } from 'commander';
import type { Database } from '../engine/database.js';
import { GraphDbError } from '../errors.js';
import { rejectUnavailableOptions } from './availability.js';
import { CliUsageError, EXIT_OK, EXIT_QUERY_FAILED, EXIT_USAGE } from './cli-error.js';
import { type CliIo, logLine, processIo, writeLine } from './io.js';
import { packageVersion } from './package-info.js';
import { parseParams } from './params.js';
import { type DatabaseCliOptions, databaseOptionsFor } from './database-options.js';
import { planServers, wantsServers, workerCount, type ServerCliOptions } from './server-plan.js';
import type { QueryWorkerPool } from '../engine/workers/worker-pool.js';
import { registerSyncCommand, syncSetting, type SyncCliOptions } from './sync-command.js';
import { registerSkillsCommand } from '../skills/cli.js';
import { registerRestoreCommand } from '../replication/restore-command.js';
import { registerImportCommand } from './import-command.js';
import { registerConsoleCommand } from './console-command.js';
import { addReplicationOptions, requireServersForReplication, type ReplicationCliOptions } from '../replication/cli-flags.js';

// The engine, the shell, the servers and replication load when a command needs them (import()
// below), not on start-up: `graphdb --help` reads only the option definitions, and
// `graphdb query` loads no server, MCP or replication code.

interface GlobalOptions extends ServerCliOptions, DatabaseCliOptions, SyncCliOptions, ReplicationCliOptions {
  playground?: boolean;
  embeddingModel?: string;
}

interface QueryOptions extends GlobalOptions {
  json?: boolean;
  dumpPlan?: boolean;
  dumpJs?: boolean;
  param?: string[];
}

/** The database every command works on: durable in `--data-dir`, else in memory; `serving` for the servers. */
async function openDatabase(options: GlobalOptions, serving = false): Promise<Database> {
  rejectUnavailableOptions({ ...options });
  const { openCliDatabase } = await import('./data-dir.js');
  return openCliDatabase(options.dataDir, {
    ...databaseOptionsFor(options, serving),
    sync: syncSetting(options),
    embeddingModel: options.embeddingModel,
  });
}

/** --playground: loads the demo graph into an empty database, and says so on stderr when the database is not empty. */
async function playground(db: Database, io: CliIo): Promise<void> {
  const { loadPlaygroundIfEmpty } = await import('./playground.js');
  if (!loadPlaygroundIfEmpty(db)) writeLine(io.stderr, 'graphdb: --playground: the database is not empty, so the demo graph was not loaded');
}

function startBanner(): string {
  return `graphdb ${packageVersion()}. End statements with ;  Type :help for help, :quit to leave.`;
}

async function startRepl(options: GlobalOptions, io: CliIo): Promise<number> {
  const [{ runRepl }, { historyFile }, { closeOnStopSignals }, { QueryRouter }, { playgroundBanner }] = await Promise.all([
    import('./repl.js'),
    import('./history.js'),
    import('./data-dir.js'),
    import('../engine/workers/query-router.js'),
    import('./playground.js'),
    import('./storage-commands.js'),
  ]);
  const db = await openDatabase(options);
  try {
    let banner = startBanner();
    if (options.playground) {
      await playground(db, io);
      banner += '\n\n' + playgroundBanner(db) + '\n';
    }
    const stopSignals = options.dataDir !== undefined ? closeOnStopSignals(db, (t) => writeLine(io.stderr, t)) : undefined;
    const pool = await shellWorkers(db, options, io);
    try {
      return await runRepl({ db, io, banner, historyFile: historyFile(), queries: new QueryRouter(db, pool) });
    } finally {
      stopSignals?.();
      await pool?.close();
    }
  } finally {
    db.close();
  }
}

/**
 * The shell's query worker on a terminal (`--workers`, default 1): queries run there, so that
 * Ctrl-C can stop them. Scripts (stdin or stdout not a terminal) run on the main thread.
 */
async function shellWorkers(db: Database, options: GlobalOptions, io: CliIo): Promise<QueryWorkerPool | undefined> {
  let workers = options.workers === undefined ? 1 : workerCount(options.workers);
  if (workers === 0 || io.stdin.isTTY !== true || io.stdout.isTTY !== true) return undefined;
  const [{ defaultWorkers }, { QueryWorkerPool }] = await Promise.all([import('../engine/workers/worker-budget.js'), import('../engine/workers/worker-pool.js')]);
  if (options.workers === undefined) {
    const fit = defaultWorkers(db, workers);
    if (fit.note !== undefined) writeLine(io.stderr, fit.note);
    workers = fit.workers;
    if (workers === 0) return undefined;
  }
  try {
    return await QueryWorkerPool.start(db, workers, (line) => writeLine(io.stderr, line));
  } catch (err) {
    writeLine(io.stderr, `graphdb: no query worker (${err instanceof Error ? err.message : String(err)}); Ctrl-C cannot stop a running query`);
    return undefined;
  }
}

/** Serves HTTP, TCP and PostgreSQL wire (any combination) on one database until stopped. */
async function startServers(options: GlobalOptions, io: CliIo): Promise<number> {
  const log = (line: string): void => logLine(io.stderr, line);
  const [{ runServers }, { attachReplication, replicationSettingsFor }] = await Promise.all([import('./serve.js'), import('../replication/cli-options.js')]);
  const replication = replicationSettingsFor(options, { ...options, sync: syncSetting(options) !== undefined, log });
  const db = await openDatabase(options, true);
  const replicator = replication && attachReplication(db, replication);
  try {
    if (options.playground) await playground(db, io);
    return await runServers(db, options, io);
  } finally {
    await replicator?.close();
    db.close();
  }
}

function readParams(texts: readonly string[]): Record<string, unknown> {
  try {
    return parseParams(texts);
  } catch (err) {
    throw new CliUsageError(err instanceof Error ? err.message : String(err));
  }
}

async function runQuery(query: string, options: QueryOptions, io: CliIo): Promise<number> {
  if (wantsServers(options)) {
    throw new CliUsageError('--http, --serve and --pg start servers; leave them out of `graphdb query`');
  }
  requireServersForReplication(options);
  planServers(options);
  const params = readParams(options.param ?? []);
  const { runQueryCommand } = await import('./query-command.js');
  const db = await openDatabase(options);
  try {
    if (options.playground) await playground(db, io);
    return runQueryCommand(db, query, { json: options.json, dumpPlan: options.dumpPlan, dumpJs: options.dumpJs, params }, io);
  } finally {
    db.close();
  }
}

function buildProgram(io: CliIo, setStatus: (status: number) => void): Command {
  const program = new Command('graphdb');
  program
    .description('graphdb: a graph database whose openCypher/GQL queries compile to JavaScript.\nWithout a command it starts the interactive shell (REPL).')
    .version(packageVersion(), '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show help')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .configureHelp({ showGlobalOptions: false })
    .showHelpAfterError('(run graphdb help for usage)')
    .helpCommand('help [command]', 'show the help of graphdb or of one command')
    .option('--data-dir <path>', 'durable storage in this directory (default: an in-memory graph)')
    .option('--force-empty', 'with --data-dir: start empty even if the store files of a used directory are missing')
    .option('--playground', 'preload the demo graph (the REPL, or a query with `query`)')
    .option('--embedding-model <dir>', 'default embedder: a sentence-transformers ONNX export (model.onnx, tokenizer.json; needs onnxruntime-node); default: built-in hashing')
    .option('--import-dir <dir>', 'the directory LOAD CSV may read from (servers read no file without it; the shell and `query` read any file)')
    .option('--query-timeout <ms>', 'time limit of each query in milliseconds, 0 for none (default: 30000 on the servers, none in the shell and `query`)')
    .option('--workers <n>', 'query worker threads: queries run there, stoppable and off the main thread, reads in parallel (default: one per core, at most 4, on the servers; 1 in the shell; fewer when copies of the graph would not fit in half of the free memory; 0: none)')
    .optionsGroup('Server options:')
    .option('--http <port>', 'start the HTTP server on this port (/query, /status, /mcp, ...)')
    .option('--serve <port>', 'start the TCP server (one query per line, one JSON per line) on this port')
    .option('--pg <port>', 'start the PostgreSQL-wire server on this port')
    .option('--worker-doors', 'the query workers accept HTTP connections on the --http port too and answer plain-text POST /query reads themselves (everything else goes to the main thread); needs --workers of 1 or more')
    .option('--host <address>', 'interface the servers listen on (default 127.0.0.1; 0.0.0.0 for all)')
    .option('--api-key <api_key>', 'require this key on every door: HTTP Bearer header (/mcp included), TCP AUTH line, PG password (any user); without it only local clients may administer')
    .addOption(new Option('--allow-origin <origin...>', 'a browser origin (e.g. https://app.example) allowed to send writes to the HTTP server without the API key (repeatable)'))
    .option('--pg-password <password>', 'require this cleartext password on the PostgreSQL-wire server')
    .option('--pg-log-queries', 'log every PostgreSQL-wire query with its client address to stderr')
    .option('--bolt <port>', "start the Bolt server (Neo4j's drivers: bolt:// and neo4j://) on this port")
    .option('--bolt-password <password>', 'require this password on the Bolt server (default: the --api-key)')
    .option('--bolt-tls-cert <file>', 'PEM certificate chain: the Bolt server speaks TLS (bolt+s://)')
    .option('--bolt-tls-key <file>', 'PEM private key for --bolt-tls-cert')
    .option('--tx-timeout <ms>', 'how long an explicit transaction (PG BEGIN, HTTP /tx, TCP BEGIN) may stay idle before it is rolled back, in milliseconds, 0 for none (default: 60000)')
    .optionsGroup('Sync options (see graphdb help sync):')
    .option('--sync', 'keep a sync WAL for other instances and serve /api/sync/* on HTTP')
    .option('--peer-id <id>', 'this instance\'s sync peer id (implies --sync; kept in --data-dir once chosen)')
    .allowExcessArguments(true)
    .action(async (options: GlobalOptions, command: Command) => {
      if (command.args.length > 0) {
        const [word] = command.args;
        if (/\s/.test(word)) throw new CliUsageError(`unknown command ${JSON.stringify(word)}; to run a query: graphdb query ${JSON.stringify(word)}`);
        const names = [...command.commands.map((c) => c.name()), 'help'];
        throw new CliUsageError(`unknown command ${JSON.stringify(word)}; the commands are ${names.join(', ')} (graphdb help <command>)`);
      }
      planServers(options);
      if (!wantsServers(options)) requireServersForReplication(options);
      setStatus(wantsServers(options) ? await startServers(options, io) : await startRepl(options, io));
    });
  program.optionsGroup('Replication options (with the servers; see docs/REPLICATION.md):');
  addReplicationOptions(program);
  // The WAL archive options come with the replication ones; they get a section of their own.
  for (const option of program.options) if (option.long?.startsWith('--wal-archive')) option.helpGroup('WAL archive options:');

  program
    .command('query')
    .description('run one query, print its result and exit (status 1 if the query fails)')
    .argument('<query>', 'the query text (quote it for the shell)')
    .option('--json', 'print the result as one JSON object {"columns": [...], "rows": [{...}]}; errors as {"error": true, ...}')
    .option('--dump-plan', 'print the optimised query plan before the result')
    .option('--dump-js', 'print the generated JavaScript before the result')
    .addOption(
      new Option('--param <name=value...>', 'a query parameter $name; value as JSON or a plain string (repeatable)'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  graphdb query "UNWIND [1,2,3] AS x RETURN x, x*2 AS y" --json\n' +
        '  graphdb query "RETURN $name AS greeting" --param name=Ann\n' +
        '  graphdb query "MATCH (n) RETURN count(n)" --dump-plan\n' +
        '  graphdb query --playground "MATCH (p:Person) RETURN p.name LIMIT 3"\n',
    )
    .action(async (query: string, _options: QueryOptions, command: Command) => {
      setStatus(await runQuery(query, command.optsWithGlobals<QueryOptions>(), io));
    });

  registerSyncCommand(program, io, setStatus);
  registerSkillsCommand(program, io, setStatus, (cmd) => openDatabase(cmd.optsWithGlobals<GlobalOptions>()));
  registerRestoreCommand(program, io, setStatus);
  registerImportCommand(program, io, setStatus);
  registerConsoleCommand(program, (options) => startServers(options as GlobalOptions, io), setStatus);

  program.addHelpText(
    'after',
    '\nExamples:\n' +
      '  graphdb                      interactive shell on an empty in-memory graph\n' +
      '  graphdb --playground         interactive shell on a demo graph\n' +
      '  graphdb query "RETURN 1 AS one" --json\n' +
      '  graphdb --http 7474 --serve 7688 --pg 5433   serve HTTP, TCP and PostgreSQL wire on one graph\n' +
      '  graphdb help query           options of the single-query command\n' +
      '  graphdb import --data-dir db --nodes=Person people.csv --relationships=KNOWS knows.csv   bulk CSV import\n',
  );
  for (const command of program.commands) {
    command.addHelpText('after', '\nThe options of graphdb itself (--data-dir, --playground, --query-timeout, ...) apply here too: see graphdb help.');
  }
  return program;
}

/** Runs the CLI with `argv` (as in process.argv) and resolves to the exit status. */
export async function main(argv: readonly string[] = process.argv, io: CliIo = processIo()): Promise<number> {
  let status = EXIT_OK;
  const program = buildProgram(io, (s) => {
    status = s;
  });
  try {
    await program.parseAsync([...argv]);
    return status;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version end with exit code 0; parse errors were already printed.
      return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (err instanceof CliUsageError) {
      writeLine(io.stderr, `graphdb: ${err.message}`);
      return err.exitCode;
    }
    if (err instanceof GraphDbError) {
      writeLine(io.stderr, `graphdb: ${err.code}: ${err.message}`);
      return EXIT_QUERY_FAILED;
    }
    writeLine(io.stderr, `graphdb: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_QUERY_FAILED;
  }
}

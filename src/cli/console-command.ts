/**
 * `graphdb console [--port N]`: the HTTP server with its web console (docs/CONSOLE.md), on
 * the loopback interface by default, with the console's own origin allowed to write
 * (`--allow-origin http://127.0.0.1:N` and `http://localhost:N`), so that the console can
 * write without an API key while every other web page still may only read. The global
 * options (`--data-dir`, `--playground`, `--api-key`, `--workers` …) apply as for `--http`.
 */

import type { Command } from 'commander';
import { CliUsageError } from './cli-error.js';
import type { ServerCliOptions } from './server-plan.js';

export const DEFAULT_CONSOLE_PORT = '7474';

interface ConsoleOptions {
  port: string;
}

/** The server options `graphdb console` runs with: the global ones plus the console's port and origins. */
export function consoleServerOptions<T extends ServerCliOptions>(global: T, port: string): T {
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new CliUsageError(`--port needs a port number from 0 to 65535, not ${JSON.stringify(port)}`);
  if (global.http !== undefined) throw new CliUsageError('graphdb console starts the HTTP server itself: give its port with --port, not --http');
  // Port 0 is chosen at listen time, after the origins are fixed: such a console writes only with --api-key.
  const origins = Number(port) === 0 ? [] : [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  return { ...global, http: port, allowOrigin: [...(global.allowOrigin ?? []), ...origins] };
}

/** Registers `graphdb console`; `start` runs the servers with the options given and resolves to the exit status. */
export function registerConsoleCommand(program: Command, start: (options: ServerCliOptions) => Promise<number>, setStatus: (status: number) => void): void {
  program
    .command('console')
    .description('start the HTTP server with the web console and print its URL (open it in a browser); the global options apply')
    .option('--port <port>', 'the HTTP port', DEFAULT_CONSOLE_PORT)
    .addHelpText('after', '\nExamples:\n  graphdb --playground console            console on http://127.0.0.1:7474/ over the demo graph\n  graphdb --data-dir ./data console --port 8080\n')
    .action(async (_options: ConsoleOptions, command: Command) => {
      const all = command.optsWithGlobals<ServerCliOptions & ConsoleOptions>();
      setStatus(await start(consoleServerOptions(all, all.port)));
    });
}

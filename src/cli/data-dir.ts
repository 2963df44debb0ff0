/**
 * `--data-dir` for the CLI: opens the database the commands work on (durable in the
 * directory, or in memory without the option), and for the interactive shell closes it
 * cleanly — final checkpoint and snapshot — when the process is asked to stop (SIGTERM,
 * SIGHUP, or SIGINT sent from outside; Ctrl-C at the prompt only abandons a statement).
 */

import { Database } from '../engine/database.js';
import type { DatabaseOptions } from '../engine/types.js';
import { embeddingModelWarning } from '../embed/onnx-availability.js';

/**
 * The database for `--data-dir <path>`, or an in-memory one; recovery progress goes to stderr,
 * and so does a warning when `--embedding-model` names a model ONNX Runtime cannot run here.
 */
export async function openCliDatabase(dataDir: string | undefined, options: DatabaseOptions = {}): Promise<Database> {
  const warning = embeddingModelWarning(options.embeddingModel);
  if (warning !== undefined) process.stderr.write(`${warning}\n`);
  return dataDir === undefined ? Database.openInMemory(options) : Database.open({ ...options, dataDir });
}

/** Until the returned function is called, a stop signal closes `db` and ends the process. */
export function closeOnStopSignals(db: Database, report: (text: string) => void): () => void {
  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP', 'SIGINT'];
  const onSignal = (signal: NodeJS.Signals): void => {
    let status = 0;
    try {
      db.close();
    } catch (err) {
      report(`graphdb: could not write the final checkpoint on ${signal}: ${err instanceof Error ? err.message : String(err)}`);
      status = 1;
    }
    process.exit(status);
  };
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}

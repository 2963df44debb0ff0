/**
 * The options that shape the Database every CLI entry point opens: `--data-dir`,
 * `--import-dir` (which files LOAD CSV may read) and `--query-timeout` (the time limit of
 * each query). The interactive shell and `graphdb query` are local tools: without
 * --import-dir they may read any local file, as before. The servers are reachable from the
 * network: without --import-dir they read no file at all.
 */

import { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import type { DatabaseOptions } from '../engine/types.js';
import { GraphDbError } from '../errors.js';
import { CliUsageError } from './cli-error.js';

export interface DatabaseCliOptions {
  dataDir?: string;
  importDir?: string;
  queryTimeout?: string;
  /** `--force-empty`: accept a data directory whose store files vanished. */
  forceEmpty?: boolean;
  /** `--tx-timeout <ms>`: how long an explicit transaction may idle before it is rolled back. */
  txTimeout?: string;
}

/** `--query-timeout <ms>` as a number (0: no limit); undefined when not given. */
export function queryTimeoutMs(o: Pick<DatabaseCliOptions, 'queryTimeout'>): number | undefined {
  if (o.queryTimeout === undefined) return undefined;
  if (!/^\d{1,10}$/.test(o.queryTimeout)) {
    throw new CliUsageError(`--query-timeout needs a whole number of milliseconds (0 for no limit), not ${JSON.stringify(o.queryTimeout)}`);
  }
  return Number(o.queryTimeout);
}

/** `--tx-timeout <ms>` as a number (0: no limit); undefined when not given. */
export function txTimeoutMs(o: Pick<DatabaseCliOptions, 'txTimeout'>): number | undefined {
  if (o.txTimeout === undefined) return undefined;
  if (!/^\d{1,10}$/.test(o.txTimeout)) {
    throw new CliUsageError(`--tx-timeout needs a whole number of milliseconds (0 for no limit), not ${JSON.stringify(o.txTimeout)}`);
  }
  return Number(o.txTimeout);
}

/** The file policy: confined to --import-dir when given, else any file locally and none on a server. */
export function fileAccessFor(importDir: string | undefined, serving: boolean): FileAccessPolicy {
  if (importDir === undefined) return serving ? FileAccessPolicy.none() : FileAccessPolicy.local();
  try {
    return FileAccessPolicy.confined(importDir);
  } catch (err) {
    throw new CliUsageError(`--import-dir: ${err instanceof GraphDbError ? err.message : String(err)}`);
  }
}

/** DatabaseOptions for the CLI options; `serving` when the database is reachable over the network. */
export function databaseOptionsFor(o: DatabaseCliOptions, serving: boolean): DatabaseOptions {
  const timeout = queryTimeoutMs(o);
  const txTimeout = txTimeoutMs(o);
  return {
    fileAccess: fileAccessFor(o.importDir, serving),
    ...(timeout === undefined ? {} : { queryTimeoutMs: timeout }),
    ...(txTimeout === undefined ? {} : { transactionTimeoutMs: txTimeout }),
    ...(o.forceEmpty === true ? { forceEmpty: true } : {}),
  };
}

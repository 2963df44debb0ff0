/**
 * The one place that turns an operation of the page client's protocol (protocol.ts
 * `Operation`) into a call of an engine (`EngineCalls`): the worker makes it of its engine, and
 * the in-page mode of its own. Opening and closing belong to their callers.
 */
import type { Operation } from './protocol.js';
import type { EngineCalls, SyncTarget } from './types.js';

type Params = Record<string, unknown>;

export async function callEngine(db: EngineCalls, op: Exclude<Operation, 'open' | 'close'>, args: unknown[]): Promise<unknown> {
  switch (op) {
    case 'query':
      return db.query(args[0] as string, args[1] as Params | undefined);
    case 'mutate':
      return db.mutate(args[0] as string, args[1] as Params | undefined);
    case 'batchMutate':
      return db.batchMutate(args[0] as string[]);
    case 'stats':
      return db.stats();
    case 'fingerprint':
      return db.fingerprint();
    case 'exportSnapshot':
      return db.exportSnapshot();
    case 'importSnapshot':
      return db.importSnapshot(args[0] as string);
    case 'checkpoint':
      return db.checkpoint();
    case 'beginTransaction':
      return db.beginTransaction(args[0] as { mode?: 'read' | 'write'; timeoutMs?: number } | undefined);
    case 'transactionRun':
      return db.transactionRun(args[0] as number, args[1] as string, args[2] as Params | undefined);
    case 'transactionCommit':
      return db.transactionCommit(args[0] as number);
    case 'transactionRollback':
      return db.transactionRollback(args[0] as number);
    case 'generatedSource':
      return db.generatedSource(args[0] as string);
    case 'syncPending':
      return db.syncPending();
    case 'syncWith':
      return db.syncWith(args[0] as SyncTarget);
    case 'startSync':
      return db.startSync(args[0] as SyncTarget);
    case 'stopSync':
      return db.stopSync();
  }
}

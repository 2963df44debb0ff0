/** Messages between the page client (index.ts) and the engine's Web Worker (worker.ts). */

export type Operation = 'open' | 'query' | 'mutate' | 'batchMutate' | 'stats' | 'fingerprint' | 'exportSnapshot' | 'importSnapshot' | 'checkpoint' | 'beginTransaction' | 'transactionRun' | 'transactionCommit' | 'transactionRollback' | 'generatedSource' | 'syncPending' | 'syncWith' | 'startSync' | 'stopSync' | 'close';

export interface Request {
  id: number;
  op: Operation;
  args: unknown[];
}

/** An error as it crosses to the page: the engine's typed error, its stable code kept. */
export interface WireError {
  name: string;
  code: string;
  detail: string;
  message: string;
}

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** Where the page client's calls go: the worker, the in-page engine, or the owning tab (relay.ts). */
export interface Backend {
  call(op: Operation, args: unknown[]): Promise<unknown>;
  terminate(): void;
}

/**
 * The Web Worker that runs the engine for `GraphDB.open` (index.ts): one database per worker,
 * opened by the first message, then requests answered as they complete. Each request is
 * answered only after its writes are stored (the OPFS store flushes before a commit is visible).
 */
import { toGraphDbError } from '../errors.js';
import { BrowserDatabase } from './engine.js';
import { callEngine } from './dispatch.js';
import { preloadLazyModules } from '../lazy-module.js';
import type { Reply, Request, WireError } from './protocol.js';

let db: BrowserDatabase | undefined;
/** Settles once the database is open (or failed to): requests sent meanwhile wait for it. */
let opened: Promise<void> = Promise.resolve();

function wire(err: unknown): WireError {
  const e = toGraphDbError(err);
  return { name: e.name, code: e.code, detail: e.detail, message: e.message };
}

async function run(op: Request['op'], args: unknown[]): Promise<unknown> {
  if (op === 'open') {
    if (db) throw new Error('The worker already holds a database');
    await preloadLazyModules();
    const options = args[0] as { name?: string; maxBytes?: number; sync?: boolean | { peerId?: string } };
    db = options.name === undefined ? BrowserDatabase.openInMemory({ sync: options.sync }) : await BrowserDatabase.open({ name: options.name, maxBytes: options.maxBytes, sync: options.sync });
    return db.stats();
  }
  if (!db) throw new Error('No database is open in this worker');
  if (op === 'close') {
    db.close();
    db = undefined;
    return undefined;
  }
  return callEngine(db, op, args);
}

self.onmessage = (event: MessageEvent<Request>) => {
  const { id, op, args } = event.data;
  // Requests run as they come: the engine serialises writers itself (an explicit transaction's
  // later statements must not wait behind a write that waits for that transaction), and each
  // write is stored before its answer is posted. Opening is the exception: everything after it waits for it.
  const answer = async (): Promise<void> => {
    let reply: Reply;
    try {
      reply = { id, ok: true, value: await run(op, args) };
    } catch (err) {
      reply = { id, ok: false, error: wire(err) };
    }
    try {
      self.postMessage(reply);
    } catch (err) {
      self.postMessage({ id, ok: false, error: wire(err) } satisfies Reply);
    }
  };
  if (op === 'open') opened = answer();
  else void opened.then(answer);
};

/**
 * The static playground's backend (dist/browser/playground, docs/BROWSER.md): it answers the
 * web console's calls (console/src/api.ts `ConsoleBackend`) from graphdb running in a Web
 * Worker of the page, loaded with the demo graph (fixtures/playground.cypher, written into the
 * bundle) — the whole database in one page, no server. It is installed before the console's
 * own bundle (dist/console/console.js, the one the server serves) loads.
 */
import { splitScript } from '../cli/statement-splitter.js';
import { GraphDB, GraphDBError } from './index.js';
import type { Cell, ConsoleBackend, NextPage, PagedAnswer, QueryAnswer, ServerStatus } from '../../console/src/api.js';

declare const __PLAYGROUND_SCRIPT__: string;

class ServerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The console's own ServerError class once installed (its `instanceof` checks must see it), this module's before. */
let serverError: new (code: string, message: string, status: number) => Error = ServerError;

export function storedKey(): string | undefined {
  return undefined;
}

export function storeKey(_key: string): void {}

const database: Promise<GraphDB> = (async () => {
  const db = await GraphDB.open({ workerUrl: new URL('../graphdb-worker.js', import.meta.url) });
  for (const statement of splitScript(__PLAYGROUND_SCRIPT__)) await db.mutate(statement);
  return db;
})();

function asServerError(err: unknown): Error {
  if (err instanceof GraphDBError) return new serverError(err.code, err.message, 400);
  return err instanceof Error ? err : new Error(String(err));
}

/**
 * Runs one query in the worker. `signal` stops waiting for it (the console's Stop); the worker
 * finishes the query meanwhile, as it runs one request at a time.
 */
export async function runQuery(query: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<QueryAnswer> {
  const db = await database;
  const stopped = new Promise<never>((_, reject) => {
    signal?.addEventListener('abort', () => reject(new serverError('CANCELLED', 'Stopped', 499)), { once: true });
  });
  try {
    const r = await Promise.race([db.mutate(query, params), stopped]);
    return {
      columns: r.columns,
      rows: r.rows.map((row) => r.columns.map((c) => row[c] as Cell)),
      stats: { ...r.stats, containsUpdates: r.mutated },
    };
  } catch (err) {
    throw asServerError(err);
  }
}

/** Rows of paged answers not yet shown, by cursor, with the page size each was asked with. */
const heldPages = new Map<string, { rows: Cell[][]; pageSize: number }>();
let nextCursor = 1;

function takePage(cursor: string, held: { rows: Cell[][]; pageSize: number }): NextPage {
  const rows = held.rows.splice(0, held.pageSize);
  if (held.rows.length === 0) heldPages.delete(cursor);
  return { rows, cursor: held.rows.length === 0 ? null : cursor, remaining: held.rows.length };
}

/** Runs one query and answers its first `pageSize` rows, as the server's POST /query/pages does. */
export async function runPaged(query: string, params: Record<string, unknown>, pageSize: number, signal?: AbortSignal): Promise<PagedAnswer> {
  const whole = await runQuery(query, params, signal);
  const cursor = `p${nextCursor++}`;
  const first = takePage(cursor, { rows: whole.rows, pageSize: Math.max(1, Math.floor(pageSize)) });
  if (first.cursor !== null) heldPages.set(cursor, { rows: whole.rows, pageSize });
  return { ...whole, ...first };
}

/** The next page of a paged answer. */
export async function fetchPage(cursor: string): Promise<NextPage> {
  const held = heldPages.get(cursor);
  if (held === undefined) throw new serverError('CURSOR_NOT_FOUND', `No paged answer is open under ${cursor}`, 404);
  return Promise.resolve(takePage(cursor, held));
}

/** Drops the rest of a paged answer nobody will read. */
export function closeCursor(cursor: string): void {
  heldPages.delete(cursor);
}

export async function fetchStatus(): Promise<ServerStatus> {
  const s = await (await database).stats();
  return { name: 'graphdb (in this page)', version: '', nodes: s.nodes, relationships: s.relationships };
}

export async function fetchSource(query: string): Promise<string> {
  try {
    return await (await database).generatedSource(query);
  } catch (err) {
    throw asServerError(err);
  }
}

/** The console's hook (console/src/api.ts): the calls above answer it, throwing the console's error class. */
type BackendFactory = (errors: { ServerError: new (code: string, message: string, status: number) => Error }) => ConsoleBackend;

/** Makes the console bundle loaded after this answer from graphdb in the page. */
export function installPlaygroundBackend(): void {
  const factory: BackendFactory = (errors) => {
    serverError = errors.ServerError;
    return { runQuery, runPaged, fetchPage, closeCursor, fetchStatus, fetchSource, storedKey, storeKey };
  };
  (globalThis as { graphdbConsoleBackend?: BackendFactory }).graphdbConsoleBackend = factory;
}

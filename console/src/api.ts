/**
 * The console's way to the server: same-origin fetches of the HTTP API (POST /query with
 * a JSON body, paged answers from /query/pages, GET /status), with the API key (kept in sessionStorage, for this tab only)
 * sent as a Bearer header when the server asks for one.
 */

const KEY_STORE = 'graphdb.console.apiKey';

/** A cell of the JSON body's typed rows (docs/TRANSACTIONS.md, "HTTP"). */
export type Cell = null | boolean | number | string | Cell[] | { [key: string]: Cell };

export interface QueryStats {
  nodesCreated: number;
  nodesDeleted: number;
  relationshipsCreated: number;
  relationshipsDeleted: number;
  labelsAdded: number;
  labelsRemoved: number;
  propertiesSet: number;
  containsUpdates: boolean;
}

export interface QueryAnswer {
  columns: string[];
  rows: Cell[][];
  stats: QueryStats;
}

/** The server's error object, with the HTTP status it came with. */
export class ServerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The server refused the key (or wants one). */
export class KeyNeeded extends Error {}

function httpStoredKey(): string | undefined {
  return sessionStorage.getItem(KEY_STORE) ?? undefined;
}

function httpStoreKey(key: string): void {
  sessionStorage.setItem(KEY_STORE, key);
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = httpStoredKey();
  return key === undefined ? extra : { ...extra, Authorization: `Bearer ${key}` };
}

async function answer(res: Response): Promise<unknown> {
  if (res.status === 401) throw new KeyNeeded('The server needs an API key');
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServerError('BAD_RESPONSE', `The server answered ${res.status} with text that is not JSON`, res.status);
  }
  const err = body as { error?: unknown; code?: unknown; message?: unknown };
  if (err.error === true && typeof err.code === 'string') throw new ServerError(err.code, String(err.message), res.status);
  if (!res.ok) throw new ServerError('HTTP_' + res.status, text, res.status);
  return body;
}

/** Runs one query; `signal` aborts the fetch, which makes the server stop the query. */
async function httpRunQuery(query: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<QueryAnswer> {
  const res = await fetch('/query', {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json' }),
    body: JSON.stringify({ query, params }),
    signal,
  });
  return (await answer(res)) as QueryAnswer;
}

/** A paged answer's first page (POST /query/pages): the rest waits on the server under `cursor`. */
export interface PagedAnswer extends QueryAnswer {
  cursor: string | null;
  remaining: number;
}

export interface NextPage {
  rows: Cell[][];
  cursor: string | null;
  remaining: number;
}

/** Runs one query and answers its first `pageSize` rows; `signal` aborts it as runQuery's does. */
async function httpRunPaged(query: string, params: Record<string, unknown>, pageSize: number, signal?: AbortSignal): Promise<PagedAnswer> {
  const res = await fetch('/query/pages', {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json' }),
    body: JSON.stringify({ query, params, pageSize }),
    signal,
  });
  return (await answer(res)) as PagedAnswer;
}

/** The next page of a paged answer. */
async function httpFetchPage(cursor: string): Promise<NextPage> {
  return (await answer(await fetch(`/query/pages/${encodeURIComponent(cursor)}`, { headers: headers() }))) as NextPage;
}

/** Lets the server drop the rest of a paged answer nobody will read. */
function httpCloseCursor(cursor: string): void {
  void fetch(`/query/pages/${encodeURIComponent(cursor)}`, { method: 'DELETE', headers: headers() }).catch(() => undefined);
}

export interface ServerStatus {
  name: string;
  version: string;
  nodes: number;
  relationships: number;
  skills?: number;
}

async function httpFetchStatus(): Promise<ServerStatus> {
  return (await answer(await fetch('/status', { headers: headers() }))) as ServerStatus;
}

/** The JavaScript `query` compiles to (POST /query/source). */
async function httpFetchSource(query: string): Promise<string> {
  const res = await fetch('/query/source', { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ query }) });
  return ((await answer(res)) as { source: string }).source;
}

/** What answers the console's calls. */
export interface ConsoleBackend {
  runQuery(query: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<QueryAnswer>;
  runPaged(query: string, params: Record<string, unknown>, pageSize: number, signal?: AbortSignal): Promise<PagedAnswer>;
  fetchPage(cursor: string): Promise<NextPage>;
  closeCursor(cursor: string): void;
  fetchStatus(): Promise<ServerStatus>;
  fetchSource(query: string): Promise<string>;
  storedKey(): string | undefined;
  storeKey(key: string): void;
}

/**
 * The static playground (src/browser/playground.ts) installs a backend that runs graphdb in the
 * page, before this bundle loads, so the page and the playground share one console bundle;
 * it throws this module's error classes, which it is handed.
 */
type BackendFactory = (errors: { ServerError: typeof ServerError; KeyNeeded: typeof KeyNeeded }) => ConsoleBackend;

const installed = (globalThis as { graphdbConsoleBackend?: BackendFactory }).graphdbConsoleBackend;
const backend: ConsoleBackend = installed?.({ ServerError, KeyNeeded }) ?? {
  runQuery: httpRunQuery,
  runPaged: httpRunPaged,
  fetchPage: httpFetchPage,
  closeCursor: httpCloseCursor,
  fetchStatus: httpFetchStatus,
  fetchSource: httpFetchSource,
  storedKey: httpStoredKey,
  storeKey: httpStoreKey,
};

export const { runQuery, runPaged, fetchPage, closeCursor, fetchStatus, fetchSource, storedKey, storeKey } = backend;

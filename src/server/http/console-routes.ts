/**
 * The web console's static files (docs/CONSOLE.md): `GET /` answers the console page and
 * `GET /console/<file>` its bundled assets, read from `dist/console` (written by
 * scripts/build-console.mjs). The files hold no data, so they are served without the API
 * key (auth.ts lists them as open); every query the page makes goes through the ordinary,
 * key-checked routes. They go out brotli- or gzip-compressed when the client accepts it, with
 * an ETag per representation (static-assets.ts). Nothing is fetched from elsewhere: the page works offline.
 * Also `POST /query/source` (key-checked like any query route): the JavaScript a query
 * compiles to, for the plan view's "generated JavaScript" (graphdb's `--dump-js`).
 */

import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../engine/database.js';
import type { ServerLimits } from '../limits.js';
import { type ErrorBody, errorBody, toErrorBody } from '../wire-format.js';
import { httpStatusFor } from './status-codes.js';
import { chooseRepresentation, loadAsset, matchesEtag, type StaticAsset } from './static-assets.js';

/** Where an asset path starts; the page itself is `/`. */
export const CONSOLE_PREFIX = '/console/';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** Asset names are flat, plain file names: nothing a request sends can reach outside the folder. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** True for the paths of the console's files, which need no key. */
export function isConsolePath(path: string): boolean {
  return path === '/' || (path.startsWith(CONSOLE_PREFIX) && ASSET_NAME.test(path.slice(CONSOLE_PREFIX.length)));
}

/**
 * The built console folder: `dist/console` beside the compiled server
 * (dist/src/server/http → dist/console), or under the repository when run from source.
 */
function consoleDir(): string | undefined {
  const candidates = ['../../../console/', '../../../dist/console/'].map((rel) => fileURLToPath(new URL(rel, import.meta.url)));
  return candidates.find((dir) => existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'console.js')));
}

/** The longest query text `/query/source` compiles: longer ones are not kept by the compile cache, so they would compile twice. */
const MAX_SOURCE_QUERY_CHARS = 64 * 1024;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The query text of a `{"query": "..."}` body, or the error to answer. */
function sourceQuery(raw: unknown): string | ErrorBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(strictUtf8.decode(Buffer.isBuffer(raw) ? raw : Buffer.alloc(0)));
  } catch {
    return errorBody('BAD_REQUEST', 'POST /query/source takes a JSON body {"query": "<query text>"}');
  }
  const query = (parsed as { query?: unknown } | null)?.query;
  if (typeof query !== 'string' || query.trim() === '') return errorBody('BAD_REQUEST', 'POST /query/source needs "query": the query text');
  if (query.length > MAX_SOURCE_QUERY_CHARS) return errorBody('LIMIT_EXCEEDED', `POST /query/source compiles queries of up to ${MAX_SOURCE_QUERY_CHARS} characters`);
  return query;
}

const NOT_BUILT = errorBody('NOT_FOUND', 'The web console is not built: run `npm run build` (it writes dist/console)');

/** Registers `GET /`, `GET /console/:file` and `POST /query/source`. */
export function registerConsoleRoutes(app: FastifyInstance, db: Database, limits: Pick<ServerLimits, 'queryTimeoutMs'>): void {
  const dir = consoleDir();
  // Loaded by name on first use: the files do not change while the server runs.
  const cache = new Map<string, Promise<StaticAsset | undefined>>();

  const sendFile = async (request: FastifyRequest, reply: FastifyReply, name: string): Promise<FastifyReply> => {
    if (dir === undefined) return reply.code(404).type('application/json; charset=utf-8').send(NOT_BUILT);
    const type = CONTENT_TYPES[extname(name)];
    let asset: Promise<StaticAsset | undefined> | undefined;
    if (type !== undefined && ASSET_NAME.test(name)) {
      asset = cache.get(name);
      if (asset === undefined) {
        asset = loadAsset(dir, name);
        cache.set(name, asset);
      }
    }
    const found = await asset;
    if (found === undefined || type === undefined) {
      return reply.code(404).type('application/json; charset=utf-8').send(errorBody('NOT_FOUND', `The console has no file ${JSON.stringify(name)}`));
    }
    const rep = chooseRepresentation(found, request.headers['accept-encoding']);
    // no-cache: the browser keeps the file but asks each time, and the ETag makes that ask a 304.
    reply.header('Cache-Control', 'no-cache').header('ETag', rep.etag).header('Vary', 'Accept-Encoding');
    if (matchesEtag(request.headers['if-none-match'], rep.etag)) return reply.code(304).send();
    if (rep.coding !== 'identity') reply.header('Content-Encoding', rep.coding);
    return reply.code(200).type(type).send(rep.body);
  };

  app.get('/', (request, reply) => sendFile(request, reply, 'index.html'));
  app.post('/query/source', async (request, reply) => {
    const query = sourceQuery(request.body);
    let body: ErrorBody | { source: string };
    if (typeof query !== 'string') body = query;
    else {
      try {
        // Compiles within the query time limit (isMutating's governor); the source then comes from the compile cache.
        db.isMutating(query, limits.queryTimeoutMs);
        body = { source: db.generatedSource(query) };
      } catch (err) {
        body = toErrorBody(err);
      }
    }
    return reply
      .code('error' in body ? httpStatusFor(body.code) : 200)
      .type('application/json; charset=utf-8')
      .send(body);
  });
  app.get(`${CONSOLE_PREFIX}:file`, (request, reply) => sendFile(request, reply, (request.params as { file: string }).file));
}

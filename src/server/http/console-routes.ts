/**
 * The web console's static files (docs/CONSOLE.md): `GET /` answers the console page and
 * `GET /console/<file>` its bundled assets, read from `dist/console` (written by
 * scripts/build-console.mjs). The files hold no data, so they are served without the API
 * key (auth.ts lists them as open); every query the page makes goes through the ordinary,
 * key-checked routes. Nothing is fetched from elsewhere: the page works offline.
 */

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from '../wire-format.js';

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

const NOT_BUILT = errorBody('NOT_FOUND', 'The web console is not built: run `npm run build` (it writes dist/console)');

/** Registers `GET /` and `GET /console/:file`. */
export function registerConsoleRoutes(app: FastifyInstance): void {
  const dir = consoleDir();
  // Cached by name after the first read: the files do not change while the server runs.
  const cache = new Map<string, Buffer>();

  const sendFile = async (reply: FastifyReply, name: string): Promise<FastifyReply> => {
    if (dir === undefined) return reply.code(404).type('application/json; charset=utf-8').send(NOT_BUILT);
    const type = CONTENT_TYPES[extname(name)];
    let body = cache.get(name);
    if (body === undefined && type !== undefined && ASSET_NAME.test(name)) {
      try {
        body = await readFile(join(dir, name));
        cache.set(name, body);
      } catch {
        body = undefined;
      }
    }
    if (body === undefined || type === undefined) {
      return reply.code(404).type('application/json; charset=utf-8').send(errorBody('NOT_FOUND', `The console has no file ${JSON.stringify(name)}`));
    }
    return reply.code(200).type(type).header('Cache-Control', 'no-cache').send(body);
  };

  app.get('/', (_request, reply) => sendFile(reply, 'index.html'));
  app.get(`${CONSOLE_PREFIX}:file`, (request, reply) => sendFile(reply, (request.params as { file: string }).file));
}

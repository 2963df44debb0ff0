/**
 * The HTTP door's defence against cross-site writes, which keeps SPEC's
 * `Access-Control-Allow-Origin: *` (any web page may read through the API).
 *
 * A web page can make a browser send `GET /query?q=…` (an `<img>` tag) or a `text/plain`
 * POST (a form, or fetch without preflight) to a server on the user's machine. So:
 * - `GET /query` runs read-only queries only; a write gets 405 WRITE_NOT_ALLOWED.
 * - A POST that comes from a browser — it carries an `Origin` header, or a `Sec-Fetch-Site`
 *   other than `none` (typed by the user) — may write only when the server has an API key
 *   (which the browser can only send after a CORS preflight, i.e. from a page that knows
 *   it) or when its origin is one of the `--allow-origin` entries. Otherwise its queries
 *   run read-only and a write gets 403 CROSS_SITE_WRITE. Clients that are not browsers
 *   (curl, drivers, scripts) send no `Origin` and are not affected.
 * What each caller may run beyond that (files, administration) is the shared rule of
 * ../authorization.ts; this module words the refusals.
 */

import type { IncomingHttpHeaders } from 'node:http';
import { type ErrorBody, errorBody } from '../wire-format.js';
import { pageOrigin } from '../authorization.js';

export const GET_WRITE_REFUSED: ErrorBody = errorBody(
  'WRITE_NOT_ALLOWED',
  'GET /query runs read-only queries; send a query that changes the graph with POST /query',
);

/**
 * The error a write from this POST request gets, or undefined when it may write.
 * `keyConfigured`: the server requires an API key (already checked by then).
 */
export function crossSiteWriteRefusal(
  headers: IncomingHttpHeaders,
  keyConfigured: boolean,
  allowOrigins: ReadonlySet<string>,
): ErrorBody | undefined {
  if (keyConfigured || pageOrigin(headers, allowOrigins) !== 'foreign') return undefined;
  const raw = headers.origin;
  const origin = Array.isArray(raw) ? raw[0] : raw;
  return errorBody(
    'CROSS_SITE_WRITE',
    `This request comes from a web page${origin !== undefined ? ` (Origin ${JSON.stringify(origin)})` : ''}, which may only read: ` +
      'a write from a browser needs the server to run with --api-key (and the page to send it) or the page origin in --allow-origin',
  );
}

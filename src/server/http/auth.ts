/**
 * Bearer-key checking for the HTTP door (SPEC "Authentication"): which routes need the key,
 * and the Bearer header check (in constant time, see secret-compare.ts).
 */

import { secretMatcher } from '../secret-compare.js';
import { isConsolePath } from './console-routes.js';

/** Routes that answer without a key: the liveness and readiness probes (and the console's static files, which hold no data). */
const OPEN_PATHS: ReadonlySet<string> = new Set(['/health', '/ready', '/livez', '/readyz']);

export const UNAUTHORIZED_BODY = Object.freeze({
  error: 'unauthorized',
  message: 'The API key is invalid or missing: send the header "Authorization: Bearer <API_KEY>"',
});

export function isOpenPath(path: string): boolean {
  return OPEN_PATHS.has(path) || isConsolePath(path);
}

/** A checker for `Authorization` header values against one configured key. */
export function bearerChecker(apiKey: string): (header: string | undefined) => boolean {
  const matches = secretMatcher(apiKey);
  return (header) => {
    if (header === undefined) return false;
    const match = /^Bearer[ \t]+(.*)$/i.exec(header.trim());
    if (!match) return false;
    return matches(match[1]);
  };
}

/**
 * Bearer-key checking for the HTTP door (SPEC "Authentication"): which routes need the key,
 * and a comparison whose time does not depend on how much of the key a caller guessed
 * (both sides are hashed to equal-length digests, then compared with timingSafeEqual).
 */

import { createHash, timingSafeEqual } from 'node:crypto';

/** Routes that answer without a key: the liveness and readiness probes. */
const OPEN_PATHS: ReadonlySet<string> = new Set(['/health', '/ready', '/livez', '/readyz']);

export const UNAUTHORIZED_BODY = Object.freeze({
  error: 'unauthorized',
  message: 'The API key is invalid or missing: send the header "Authorization: Bearer <API_KEY>"',
});

export function isOpenPath(path: string): boolean {
  return OPEN_PATHS.has(path);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** A checker for `Authorization` header values against one configured key. */
export function bearerChecker(apiKey: string): (header: string | undefined) => boolean {
  const expected = digest(apiKey);
  return (header) => {
    if (header === undefined) return false;
    const match = /^Bearer[ \t]+(.*)$/i.exec(header.trim());
    if (!match) return false;
    return timingSafeEqual(digest(match[1]), expected);
  };
}

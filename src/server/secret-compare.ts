/**
 * Comparing a secret a client sends (API key, password) with the configured one in time
 * that does not depend on how much of it the client guessed: both sides are hashed to
 * equal-length digests, then compared with timingSafeEqual. Every door uses this.
 */

import { createHash, timingSafeEqual } from 'node:crypto';

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** A predicate telling whether a given text equals `secret`. */
export function secretMatcher(secret: string): (given: string) => boolean {
  const expected = digest(secret);
  return (given) => timingSafeEqual(digest(given), expected);
}

/**
 * A match on V8's backtracking engine has no deadline checks of its own, and the shape test of
 * runtime/regex.ts cannot refuse every slow pattern (a backreference after many `(.*)` is
 * polynomial). On the main thread such a match runs within the query's remaining time and
 * ends with QueryTimeoutError (issue 26: with no bound it froze every door for good); patterns
 * on the linear engine and queries without a time limit are unchanged.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QueryTimeoutError } from '../../src/errors.js';

/** Half an hour or more of backtracking on the backtracking engine (a backreference). */
const SLOW = `'${'a'.repeat(60)}' =~ '${'(.*)'.repeat(10)}\\\\1x'`;

function stoppedWithin(db: Database, query: string, limitMs: number): number {
  const started = performance.now();
  expect(() => db.executeSync(query, undefined, { timeoutMs: limitMs })).toThrow(QueryTimeoutError);
  return performance.now() - started;
}

describe('backtracking regular expressions on the main thread', () => {
  const db = new Database();

  it('=~ stops at the query time limit', () => {
    expect(stoppedWithin(db, `RETURN ${SLOW} AS m`, 300)).toBeLessThan(3000);
  });

  it('=~ in a filter over many rows stops at the limit too, not after it per row', () => {
    expect(stoppedWithin(db, `UNWIND range(1, 1000) AS i WITH i WHERE ${SLOW} RETURN count(*) AS c`, 300)).toBeLessThan(3000);
  });

  it('apoc.text.regexGroups with a backtracking pattern stops at the limit', () => {
    const pattern = `${'(.*)'.repeat(10)}\\\\1x`;
    expect(stoppedWithin(db, `RETURN apoc.text.regexGroups('${'a'.repeat(60)}', '${pattern}') AS g`, 300)).toBeLessThan(3000);
  });

  it('fast backtracking matches still answer, within a time limit or without one', () => {
    const q = "RETURN 'abab' =~ '(ab)\\\\1' AS twice, 'abba' =~ '(?=a)(ab)\\\\1' AS other";
    expect(db.executeSync(q, undefined, { timeoutMs: 1000 }).records).toEqual([[true, false]]);
    expect(db.executeSync(q).records).toEqual([[true, false]]);
  });
});

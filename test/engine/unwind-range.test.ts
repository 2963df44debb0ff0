/**
 * UNWIND over range(...) counts through the integers without making the list
 * (codegen eachInRange, functions/list.ts rangeSpan): the same rows, nulls and errors as
 * range() itself, and a deadline that cuts it at once however long the range.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';

const db = Database.openInMemory();
const rows = (query: string): unknown[][] => db.executeSync(query).records;

describe('UNWIND range(...)', () => {
  it('gives what UNWIND over the made list gives', () => {
    const cases = ['range(1, 5)', 'range(5, 1, -2)', 'range(1, 0)', 'range(0, 10, 3)', 'range(-3, 3, 2)', 'range(9007199254740990, 9007199254740994)', 'range(null, 3)', 'range(1, null)'];
    for (const c of cases) {
      // `[] + range(...)` is not the bare call, so it takes the made list's path.
      expect(rows(`UNWIND ${c} AS x RETURN collect(x) AS l`), c).toEqual(rows(`UNWIND [] + ${c} AS x RETURN collect(x) AS l`));
    }
    expect(rows('WITH 4 AS n UNWIND RANGE(1, n) AS x UNWIND range(x, n) AS y RETURN count(*) AS c')).toEqual([[10]]);
  });

  it('raises range() errors', () => {
    for (const [c, message] of [['range(1, 3, 0)', /step must not be zero/], ['range(1.5, 3)', /integer start/], ["range(1, 'a')", /integer end/]] as const) {
      let caught: unknown;
      try {
        db.executeSync(`UNWIND ${c} AS x RETURN x`);
      } catch (err) {
        caught = err;
      }
      expect(caught, c).toBeInstanceOf(GraphDbError);
      expect((caught as Error).message).toMatch(message);
    }
  });

  it('is cut by the deadline before a ten-million-element list could be made', async () => {
    const started = performance.now();
    await expect(db.execute('UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c', undefined, { timeoutMs: 20 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    // Generous for a loaded machine; the made lists took 100-300 ms before their first check here.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

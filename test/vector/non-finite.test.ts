/**
 * Vector search never answers NaN (issue 26): a zero query vector is refused for a cosine
 * index (it has no direction), vectors whose float32 arithmetic would overflow are refused
 * when given on purpose and left out of the index when met in stored properties, and every
 * score a search returns is a finite number in [0, 1] (cosine, euclidean) — through queries.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import type { GraphDbError } from '../../src/errors.js';
import { rows } from './helpers.js';

function failure(db: Database, query: string, params?: Record<string, unknown>): GraphDbError {
  try {
    db.executeSync(query, params);
  } catch (err) {
    return err as GraphDbError;
  }
  throw new Error(`expected ${query} to fail`);
}

function indexed(similarity: string): Database {
  const db = Database.openInMemory();
  db.executeSync(`CREATE VECTOR INDEX v FOR (d:Doc) ON (d.emb) OPTIONS {indexConfig: {\`vector.dimensions\`: 3, \`vector.similarity_function\`: '${similarity}'}}`);
  db.executeSync('CREATE (:Doc {k: 1, emb: [1.0, 0.0, 0.0]}), (:Doc {k: 2, emb: [0.0, 1.0, 0.0]})');
  // Finite as float64 (and the first even as float32), but their squared length overflows float32.
  db.executeSync('CREATE (:Doc {k: 3, emb: [1.0e30, 1.0e30, 1.0e30]}), (:Doc {k: 4, emb: [1.0e300, 0.0, 1.0]})');
  return db;
}

const SEARCH = 'CALL db.index.vector.queryNodes($index, 10, $q) YIELD node, score RETURN node.k AS k, score ORDER BY score DESC, k';

describe('vector search scores are finite', () => {
  for (const similarity of ['cosine', 'euclidean']) {
    it(`${similarity}: stored vectors too large for float32 are left out; scores stay in [0, 1]`, () => {
      const db = indexed(similarity);
      const r = rows(db, SEARCH, { index: 'v', q: [1, 0.5, 0] });
      expect(r.map((x) => x[0])).toEqual([1, 2]);
      for (const [, score] of r) {
        expect(Number.isFinite(score)).toBe(true);
        expect(score as number).toBeGreaterThanOrEqual(0);
        expect(score as number).toBeLessThanOrEqual(1);
      }
    });

    it(`${similarity}: a query vector too large for float32 arithmetic is refused`, () => {
      const db = indexed(similarity);
      const e = failure(db, SEARCH, { index: 'v', q: [1e30, 1e30, 1e30] });
      expect(e.code).toBe('TYPE_ERR');
      expect(e.message).toMatch(/The query vector is too large/);
    });
  }

  it('cosine: a zero query vector is refused (it has no direction)', () => {
    const db = indexed('cosine');
    for (const q of [
      [0, 0, 0],
      [0.0, -0.0, 0.0],
    ]) {
      const e = failure(db, SEARCH, { index: 'v', q });
      expect(e.code).toBe('ARGUMENT_ERR');
      expect(e.message).toMatch(/zero vector/);
    }
    // Euclidean has an answer for it: the nearest vectors to the origin.
    expect(rows(indexed('euclidean'), SEARCH, { index: 'v', q: [0, 0, 0] }).map((x) => x[0])).toEqual([1, 2]);
  });

  it('setting a vector property too large for float32 arithmetic is refused', () => {
    const db = indexed('cosine');
    const e = failure(db, "MATCH (d:Doc {k: 1}) CALL db.create.setNodeVectorProperty(d, 'emb', [1.0e30, 1.0, 1.0]) RETURN 1");
    expect(e.message).toMatch(/The vector is too large/);
    expect(failure(db, 'RETURN vector.similarity.cosine([1.0e30, 1.0e30], [1.0, 2.0]) AS s').message).toMatch(/argument 1 is too large/);
  });
});

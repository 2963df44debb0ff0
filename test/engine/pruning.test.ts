/**
 * Variable-length expansion followed by WITH DISTINCT is planned as a breadth-first search
 * of the reachable end nodes (VarLengthExpand(Pruning)). On random multigraphs with
 * self-loops it must give exactly the ends that enumerating every trail gives.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Database } from '../../src/engine/database.js';

describe('VarLengthExpand(Pruning)', () => {
  it('finds exactly the ends trail enumeration finds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.tuple(fc.nat(8), fc.nat(8), fc.constantFrom('A', 'B')), { maxLength: 22 }),
        fc.constantFrom('->', '<-', '-'),
        fc.constantFrom('', ':A'),
        fc.constantFrom(0, 1),
        fc.integer({ min: 1, max: 5 }),
        (n, edges, dir, types, min, span) => {
          const db = Database.openInMemory();
          db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n });
          for (const [a, b, t] of edges) {
            if (a >= n || b >= n) continue;
            db.executeSync(`MATCH (a:V {i: $a}), (b:V {i: $b}) CREATE (a)-[:${t}]->(b)`, { a, b });
          }
          const [l, r] = dir === '->' ? ['-', '->'] : dir === '<-' ? ['<-', '-'] : ['-', '-'];
          const max = min + span - 1;
          const rel = `${l}[${types}*${min}..${max}]${r}`;
          const pruned = `MATCH (a:V {i: 0})${rel}(f) WITH DISTINCT f RETURN f.i ORDER BY f.i`;
          const enumerated = `MATCH p = (a:V {i: 0})${rel}(f) WITH DISTINCT f RETURN f.i ORDER BY f.i`;
          expect(db.explain(pruned)).toMatch(/Pruning/);
          expect(db.explain(enumerated)).not.toMatch(/Pruning/);
          expect(db.executeSync(pruned).records).toEqual(db.executeSync(enumerated).records);
        },
      ),
      { numRuns: 600 },
    );
  });

  it('is not used when multiplicities or relationships matter', () => {
    const db = Database.openInMemory();
    expect(db.explain('MATCH (a)-[*1..3]-(f) RETURN f')).not.toMatch(/Pruning/);
    expect(db.explain('MATCH (a)-[r*1..3]-(f) WITH DISTINCT f RETURN f')).not.toMatch(/Pruning/);
    expect(db.explain('MATCH (a)-[*2..3]-(f) WITH DISTINCT f RETURN f')).not.toMatch(/Pruning/);
    expect(db.explain('MATCH (a)-[*1..3]-(f) WITH DISTINCT count(f) AS c RETURN c')).not.toMatch(/Pruning/);
    expect(db.explain('MATCH (a)-[*1..3]-(f)-->(g) WITH DISTINCT f RETURN f')).not.toMatch(/Pruning/);
  });
});

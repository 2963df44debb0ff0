/**
 * shortestPath (bidirectional search) against allShortestPaths (one-sided search) on
 * random graphs: same length, a valid path between the right ends, same answer on
 * whether any path exists.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Database } from '../../src/engine/database.js';
import { Path } from '../../runtime/values.js';

describe('shortestPath', () => {
  it('agrees with allShortestPaths on random graphs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 14 }),
        fc.array(fc.tuple(fc.nat(13), fc.nat(13), fc.constantFrom('A', 'B')), { maxLength: 40 }),
        fc.constantFrom('->', '<-', '-'),
        fc.constantFrom('', ':A', ':A|B'),
        (n, edges, dir, types) => {
          const db = Database.openInMemory();
          db.executeSync('UNWIND range(0, $n - 1) AS i CREATE (:V {i: i})', { n });
          for (const [a, b, t] of edges) {
            if (a >= n || b >= n) continue;
            db.executeSync(`MATCH (a:V {i: $a}), (b:V {i: $b}) CREATE (a)-[:${t}]->(b)`, { a, b });
          }
          const [l, r] = dir === '->' ? ['-', '->'] : dir === '<-' ? ['<-', '-'] : ['-', '-'];
          const pattern = `(a:V {i: 0})${l}[${types}*1..]${r}(b:V {i: $last})`;
          const one = db.executeSync(`MATCH p = shortestPath(${pattern}) RETURN p`, { last: n - 1 }).records;
          const all = db.executeSync(`MATCH p = allShortestPaths(${pattern}) RETURN length(p)`, { last: n - 1 }).records;
          expect(one.length).toBe(all.length === 0 ? 0 : 1);
          if (one.length === 1) {
            const p = one[0][0] as Path;
            expect(p.rels.length).toBe(all[0][0]);
            expect(p.nodes[0].props.get('i')).toBe(0);
            expect(p.nodes[p.nodes.length - 1].props.get('i')).toBe(n - 1);
            p.rels.forEach((rel, k) => {
              const [x, y] = [p.nodes[k], p.nodes[k + 1]];
              const fits = dir === '->' ? rel.start === x && rel.end === y : dir === '<-' ? rel.start === y && rel.end === x : (rel.start === x && rel.end === y) || (rel.start === y && rel.end === x);
              expect(fits).toBe(true);
              if (types === ':A') expect(rel.type).toBe('A');
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

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
            expect(p.nodes[0].prop('i')).toBe(0);
            expect(p.nodes[p.nodes.length - 1].prop('i')).toBe(n - 1);
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

describe('allShortestPaths with exponentially many answers', () => {
  // 40 diamonds in series: 2^40 shortest paths from the first node to the last.
  const db = Database.openInMemory();
  db.executeSync(
    'UNWIND range(0, 39) AS i CREATE (a:D {i: i}), (l:M), (r:M) WITH a, l, r, i ' +
      'OPTIONAL MATCH (prev:D {i: i - 1}) ' +
      'CREATE (a)-[:E]->(l), (a)-[:E]->(r) ' +
      'FOREACH (p IN CASE WHEN prev IS NULL THEN [] ELSE [prev] END | CREATE (p)<-[:E]-(l), (p)<-[:E]-(r))',
  );

  it('produces them lazily, so LIMIT returns at once', () => {
    const r = db.executeSync('MATCH p = allShortestPaths((a:D {i: 39})-[:E*]->(b:D {i: 0})) RETURN length(p) AS l LIMIT 2');
    expect(r.records).toEqual([[78], [78]]);
  });

  it('is stopped by the query deadline instead of exhausting memory', () => {
    expect(() =>
      db.executeSync('MATCH p = allShortestPaths((a:D {i: 39})-[:E*]->(b:D {i: 0})) RETURN count(p)', undefined, { timeoutMs: 300 }),
    ).toThrow(/time limit/);
  });
});

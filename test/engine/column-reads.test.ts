/**
 * Read-only queries read the store by id: a scan or expansion keeps the node id it bound, and
 * property reads and label checks on that node go to the columns (`rt.valueAt`, the
 * label's id set) without loading the node; relationships that nothing reads stay bare ids; an
 * expand-into asks a neighbour set first. Each shortcut is checked against an answer computed
 * here from the raw edge list, on graphs mixing bulk-loaded (CSR) and later (delta) adjacency,
 * tombstones, self-loops and parallel relationships.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database, importCsv } from '../../src/index.js';
import { seededRandom } from '../../procedures/algo/random.js';

interface Edge {
  rel: number;
  from: number;
  to: number;
}

/** Directed triangles a→b, b→c, a→c over three distinct relationships. */
function directedTriangles(edges: Edge[]): number {
  const byPair = new Map<string, number>();
  for (const e of edges) byPair.set(`${e.from},${e.to}`, (byPair.get(`${e.from},${e.to}`) ?? 0) + 1);
  let n = 0;
  for (const e1 of edges) {
    for (const e2 of edges) {
      if (e2.rel === e1.rel || e2.from !== e1.to) continue;
      let closing = byPair.get(`${e1.from},${e2.to}`) ?? 0;
      // The closing relationship must differ from the first two.
      for (const e of [e1, e2]) if (e.from === e1.from && e.to === e2.to) closing--;
      n += closing;
    }
  }
  return n;
}

/** Triangles over undirected relationships (a self-loop walked once), three distinct relationships. */
function undirectedTriangles(edges: Edge[]): number {
  const oriented: Edge[] = [];
  for (const e of edges) {
    oriented.push(e);
    if (e.from !== e.to) oriented.push({ rel: e.rel, from: e.to, to: e.from });
  }
  let n = 0;
  for (const e1 of oriented) {
    for (const e2 of oriented) {
      if (e2.rel === e1.rel || e2.from !== e1.to) continue;
      for (const e3 of oriented) if (e3.rel !== e1.rel && e3.rel !== e2.rel && e3.from === e1.from && e3.to === e2.to) n++;
    }
  }
  return n;
}

const count = (db: Database, q: string): number => Number(db.executeSync(q).records[0][0]);

describe('column reads in read-only queries', () => {
  it('generated code reads properties and labels by id and binds unread relationships as ids', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (:Person {age: 40, name: "a"})-[:KNOWS]->(:Person:Admin {age: 20, name: "b"})');
    const scan = db.generatedSource('MATCH (p:Person) WHERE p.age > 30 RETURN p.name AS name');
    expect(scan).toContain('rt.valueAt(');
    expect(scan).not.toContain('rt.propertyAt(');
    const hop = db.generatedSource('MATCH (a:Person)-[:KNOWS]->(b:Admin) RETURN b.name AS name');
    expect(hop).not.toContain('relAt(');
    expect(hop).not.toContain('.labels.includes(');
    // Analytic shapes make no node or relationship objects at all.
    for (const q of [
      'MATCH (m:Person)-[:KNOWS]->(p:Person) RETURN p.name AS name, count(*) AS n, sum(m.age) AS total',
      'MATCH (p:Person) RETURN p.name AS name, p.age AS age ORDER BY age DESC, name LIMIT 5',
      'MATCH (a:Person)-[:KNOWS]->(b:Person)-[:KNOWS]->(c:Person), (a)-[:KNOWS]->(c) RETURN count(*) AS n',
      'MATCH (a:Person {name: "a"})-[k:KNOWS]-(b) RETURN b.name AS name, k.since AS since ORDER BY since',
      'MATCH (n) WHERE n.age > 30 RETURN count(*) AS n',
    ]) {
      const source = db.generatedSource(q);
      expect(source).not.toContain('nodeAt(');
      expect(source).not.toContain('relAt(');
    }
    // A relationship the query returns is an object; a writing query keeps the object path.
    expect(db.generatedSource('MATCH (a:Person)-[k:KNOWS]->(b) RETURN k')).toContain('relAt(');
    const write = db.generatedSource('MATCH (p:Person) SET p.older = p.age + 1');
    expect(write).toContain('rt.propertyAt(');
    expect(write).not.toContain('rt.valueAt(');
  });

  it('gives the same answers as the object path, inside and outside transactions', async () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 200) AS i CREATE (:P {i: i, even: i % 2 = 0, s: toString(i % 7)})');
    db.executeSync('MATCH (a:P), (b:P) WHERE b.i = a.i * 2 CREATE (a)-[:DOUBLE {w: a.i}]->(b)');
    db.executeSync('MATCH (p:P) WHERE p.i % 3 = 0 SET p:Three');
    db.executeSync('MATCH (p:P) WHERE p.i % 9 = 0 REMOVE p:Three');
    // The answers worked out by hand from the construction above.
    expect(count(db, 'MATCH (p:P) WHERE p.even AND p.i > 100 RETURN count(*)')).toBe(50);
    expect(count(db, 'MATCH (n) WHERE n.i > 150 RETURN count(*)')).toBe(50);
    expect(db.executeSync('MATCH (a:P {i: 7})-[d:DOUBLE]->(b) RETURN d.w AS w, b.i AS i').records).toEqual([[7, 14]]);
    expect(count(db, 'MATCH ()-[d:DOUBLE]->() WHERE d.w % 10 = 0 RETURN count(*)')).toBe(10);
    expect(count(db, 'MATCH (a:P)-[:DOUBLE]->(b:Three) RETURN count(*)')).toBe(
      [...Array(100).keys()].map((k) => k + 1).filter((a) => (2 * a) % 3 === 0 && (2 * a) % 9 !== 0).length,
    );
    expect(db.executeSync('MATCH (a:P)-[:DOUBLE]->(b:P) RETURN b.s AS s, count(*) AS n, sum(a.i) AS total ORDER BY s').records).toEqual(
      ['0', '1', '2', '3', '4', '5', '6'].map((s) => {
        const bs = [...Array(100).keys()].map((k) => 2 * (k + 1)).filter((b) => String(b % 7) === s);
        return [s, bs.length, bs.reduce((t, b) => t + b / 2, 0)];
      }),
    );
    expect(db.executeSync('MATCH (p:P) RETURN p.i AS i ORDER BY p.s DESC, i LIMIT 3').records).toEqual([[6], [13], [20]]);

    // Inside a transaction the reads see its own writes, and nothing of them after rollback.
    const inside = [
      { query: 'MATCH (p:P {i: 4}) SET p.i = 1000, p:Three' },
      { query: 'MATCH (p:P {i: 5}) DETACH DELETE p' },
      { query: 'MATCH (p:Three) WHERE p.i >= 1000 RETURN count(*)' },
      { query: 'MATCH (a:P)-[:DOUBLE]->(b:P) WHERE a.i = 5 OR b.i = 5 RETURN count(*)' },
      { query: 'MATCH (p:P) WHERE p.i = 5 RETURN count(*)' },
    ];
    const results = await db.executeInTransaction(inside, { commit: false });
    expect(results.slice(2).map((r) => Number(r.records[0][0]))).toEqual([1, 0, 0]);
    expect(count(db, 'MATCH (p:Three) WHERE p.i >= 1000 RETURN count(*)')).toBe(0);
    expect(count(db, 'MATCH (a:P)-[:DOUBLE]->(b:P) WHERE a.i = 5 OR b.i = 5 RETURN count(*)')).toBe(1);
  });

  it('keeps the value model on the inline column reads: integers, floats, integral floats, big integers, mixed kinds', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND [1, 2, 3] AS i CREATE (:I {x: i * 10})');
    db.executeSync('UNWIND [1.0, 2.5, 7, 3.0] AS v CREATE (:F {x: v})');
    db.executeSync("UNWIND [9007199254740993, 'text', [1, 2], 4] AS v CREATE (:G {x: v})");
    const read = (label: string) => db.executeSync(`MATCH (n:${label}) RETURN toString(n.x) AS s, n.x IS NULL AS missing ORDER BY s`).records;
    expect(read('I')).toEqual([['10', false], ['20', false], ['30', false]]);
    expect(read('F')).toEqual([['1.0', false], ['2.5', false], ['3.0', false], ['7', false]]);
    expect(db.executeSync('MATCH (n:G) RETURN n.x AS x ORDER BY id(n)').records).toEqual([[9007199254740993n], ['text'], [[1, 2]], [4]]);
    expect(db.executeSync('MATCH (n:I) RETURN n.absent AS a LIMIT 1').records).toEqual([[null]]);
  });

  it('counts triangles like the edge list says, over bulk-loaded, added and deleted relationships', async () => {
    const random = seededRandom(17);
    const nodes = 40;
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-column-reads-'));
    let people = 'id:ID(N)\n';
    for (let i = 0; i < nodes; i++) people += `${i}\n`;
    let rels = ':START_ID(N),:END_ID(N)\n';
    const pick = () => Math.floor(random() * nodes);
    let previous = [0, 0];
    for (let i = 0; i < 260; i++) {
      let pair = [pick(), pick()];
      // Some self-loops and parallel relationships on purpose.
      if (i % 37 === 0) pair = [pair[0], pair[0]];
      else if (i % 23 === 0) pair = previous;
      rels += `${pair[0]},${pair[1]}\n`;
      previous = pair;
    }
    writeFileSync(join(dir, 'n.csv'), people);
    writeFileSync(join(dir, 'r.csv'), rels);
    const db = Database.openInMemory();
    await importCsv(db, [
      { kind: 'nodes', defaults: ['N'], path: join(dir, 'n.csv') },
      { kind: 'relationships', defaults: ['R'], path: join(dir, 'r.csv') },
    ], { idType: 'integer' });
    const directed = 'MATCH (a:N)-[:R]->(b:N)-[:R]->(c:N), (a)-[:R]->(c) RETURN count(*)';
    const undirected = 'MATCH (a:N)-[:R]-(b:N)-[:R]-(c:N), (a)-[:R]-(c) RETURN count(*)';
    const check = () => {
      const live = db.executeSync('MATCH (a)-[r:R]->(b) RETURN id(r), a.id, b.id').records.map(([rel, from, to]) => ({ rel: Number(rel), from: Number(from), to: Number(to) }));
      expect(live.length).toBeGreaterThan(100);
      expect(count(db, directed)).toBe(directedTriangles(live));
      expect(count(db, undirected)).toBe(undirectedTriangles(live));
    };
    check();
    // Later relationships land in the adjacency delta; deleted ones become tombstones.
    for (let i = 0; i < 80; i++) db.executeSync('MATCH (a:N {id: $a}), (b:N {id: $b}) CREATE (a)-[:R]->(b)', { a: pick(), b: pick() });
    db.executeSync('MATCH ()-[r:R]->() WITH r ORDER BY id(r) SKIP 3 LIMIT 40 DELETE r');
    check();
  });
});

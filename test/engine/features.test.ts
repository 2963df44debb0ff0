/**
 * Query features beyond the TCK's core that the planner and code generator provide:
 * CALL { } subqueries, FOREACH, shortest paths, property indexes (and the plans that use
 * them), id seeks and constraints.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { ConstraintError } from '../../src/errors.js';

function rows(db: Database, q: string, params?: Record<string, unknown>): unknown[][] {
  return db.executeSync(q, params).records;
}

describe('CALL { } subqueries', () => {
  const db = Database.openInMemory();
  db.executeSync('UNWIND [1, 2, 3] AS i CREATE (:N {i: i})');

  it('runs a correlated subquery per row', () => {
    expect(rows(db, 'MATCH (n:N) CALL (n) { MATCH (m:N) WHERE m.i < n.i RETURN count(m) AS c } RETURN n.i, c ORDER BY n.i')).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
    ]);
  });

  it('imports with a leading WITH', () => {
    expect(rows(db, 'MATCH (n:N) CALL { WITH n RETURN n.i * 10 AS t } RETURN t ORDER BY t')).toEqual([[10], [20], [30]]);
  });

  it('unions inside a subquery', () => {
    expect(rows(db, 'CALL { MATCH (n:N) RETURN n.i AS x UNION MATCH (n:N) RETURN n.i + 1 AS x } RETURN x ORDER BY x')).toEqual([
      [1],
      [2],
      [3],
      [4],
    ]);
  });

  it('keeps rows of an OPTIONAL CALL that yields nothing', () => {
    expect(rows(db, 'MATCH (n:N) OPTIONAL CALL (n) { MATCH (n)-->(m) RETURN m } RETURN count(*) AS c, count(m) AS cm')).toEqual([[3, 0]]);
  });

  it('passes rows through a unit subquery that writes', () => {
    const d = Database.openInMemory();
    expect(rows(d, 'UNWIND range(1, 5) AS i CALL { WITH i CREATE (:T {i: i}) } IN TRANSACTIONS OF 2 ROWS RETURN count(*) AS c')).toEqual([[5]]);
    expect(rows(d, 'MATCH (t:T) RETURN count(t)')).toEqual([[5]]);
  });
});

describe('FOREACH', () => {
  it('runs its updates per element and passes the row on', () => {
    const db = Database.openInMemory();
    expect(rows(db, 'CREATE (a:A) FOREACH (x IN [1, 2, 3] | CREATE (a)-[:HAS]->(:V {x: x})) RETURN count(*) AS c')).toEqual([[1]]);
    expect(rows(db, 'MATCH (:A)-[:HAS]->(v) RETURN v.x ORDER BY v.x')).toEqual([[1], [2], [3]]);
  });
});

describe('shortest paths', () => {
  const db = Database.openInMemory();
  db.executeSync(
    "CREATE (a:S)-[:R]->(b)-[:R]->(c)-[:R]->(d:E), (a)-[:R]->(x)-[:R]->(d), (a)-[:Q]->(d)",
  );

  it('finds one shortest path over the given types and direction', () => {
    expect(rows(db, 'MATCH p = shortestPath((a:S)-[:R*]->(d:E)) RETURN length(p)')).toEqual([[2]]);
  });

  it('finds all shortest paths', () => {
    expect(rows(db, 'MATCH p = allShortestPaths((a:S)-[*]-(d:E)) RETURN length(p)')).toEqual([[1]]);
    expect(rows(db, 'MATCH p = allShortestPaths((a:S)-[:R*]->(d:E)) RETURN length(p)')).toEqual([[2]]);
  });

  it('respects the length bound', () => {
    expect(rows(db, 'MATCH p = shortestPath((a:S)-[:R*..1]->(d:E)) RETURN p')).toEqual([]);
  });
});

describe('indexes and constraints', () => {
  it('plans an index seek once an index exists, and a label scan before', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 1000) AS i CREATE (:L {p: i})');
    expect(db.explain('MATCH (n:L {p: 1}) RETURN n')).toMatch(/NodeByLabelScan n:L/);
    db.executeSync('CREATE INDEX FOR (n:L) ON (n.p)');
    expect(db.explain('MATCH (n:L {p: 1}) RETURN n')).toMatch(/NodeIndexSeek n:L\(p\)/);
    expect(db.explain('MATCH (n:L) WHERE n.p >= 990 RETURN n')).toMatch(/NodeIndexSeekByRange/);
    expect(rows(db, 'MATCH (n:L) WHERE n.p >= 998 RETURN n.p ORDER BY n.p')).toEqual([[998], [999], [1000]]);
  });

  it('keeps the index current through writes and rollbacks', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE INDEX i FOR (n:L) ON (n.p)');
    db.executeSync('UNWIND range(1, 10) AS i CREATE (:L {p: i})');
    db.executeSync('MATCH (n:L {p: 3}) SET n.p = 30');
    expect(rows(db, 'MATCH (n:L {p: 3}) RETURN count(*)')).toEqual([[0]]);
    expect(rows(db, 'MATCH (n:L {p: 30}) RETURN count(*)')).toEqual([[1]]);
    expect(() => db.executeSync('MATCH (n:L {p: 30}) SET n.p = 4 WITH n RETURN 1 / 0')).toThrow();
    expect(rows(db, 'MATCH (n:L {p: 30}) RETURN count(*)')).toEqual([[1]]);
    db.executeSync('MATCH (n:L {p: 30}) REMOVE n:L');
    expect(rows(db, 'MATCH (n:L {p: 30}) RETURN count(*)')).toEqual([[0]]);
    db.executeSync('MATCH (n:L {p: 5}) DETACH DELETE n');
    expect(rows(db, 'MATCH (n:L {p: 5}) RETURN count(*)')).toEqual([[0]]);
  });

  it('seeks by id', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 10) AS i CREATE (:L {p: i})');
    expect(db.explain('MATCH (n) WHERE id(n) = 3 RETURN n')).toMatch(/NodeByIdSeek/);
    expect(rows(db, 'MATCH (n) WHERE id(n) = 3 RETURN n.p')).toEqual([[4]]);
  });

  it('enforces uniqueness and existence, atomically', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE CONSTRAINT u FOR (n:U) REQUIRE n.k IS UNIQUE');
    db.executeSync('CREATE (:U {k: 1})');
    expect(() => db.executeSync('CREATE (:U {k: 2}), (:U {k: 1})')).toThrow(ConstraintError);
    expect(rows(db, 'MATCH (u:U) RETURN count(*)')).toEqual([[1]]);
    db.executeSync('CREATE CONSTRAINT e FOR (n:U) REQUIRE n.k IS NOT NULL');
    expect(() => db.executeSync('CREATE (:U)')).toThrow(/must have the property/);
    expect(() => db.executeSync('CREATE CONSTRAINT FOR (n:U) REQUIRE n.k IS UNIQUE')).toThrow(/already exists/);
    expect(rows(db, 'SHOW CONSTRAINTS YIELD name').map((r) => r[0])).toEqual(['u', 'e']);
  });

  it('refuses a constraint the data already breaks', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (:D {k: 1}), (:D {k: 1})');
    expect(() => db.executeSync('CREATE CONSTRAINT FOR (n:D) REQUIRE n.k IS UNIQUE')).toThrow(ConstraintError);
    expect(rows(db, 'SHOW CONSTRAINTS')).toEqual([]);
    expect(rows(db, 'SHOW INDEXES')).toEqual([]);
  });
});

describe('EXPLAIN and PROFILE', () => {
  it('EXPLAIN returns the plan without running the query', () => {
    const db = Database.openInMemory();
    const r = db.executeSync('EXPLAIN CREATE (:X)');
    expect(r.columns).toEqual(['plan']);
    expect(String(r.records[0][0])).toMatch(/Create/);
    expect(db.stats().nodes).toBe(0);
  });

  it('PROFILE runs the query and reports rows per operator', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 100) AS i CREATE (:A {i: i})-[:R]->(:B {i: i % 7})');
    const text = String(db.executeSync('PROFILE MATCH (a:A)-[:R]->(b:B) WHERE b.i = 3 RETURN a.i ORDER BY a.i LIMIT 5').records[0][0]);
    expect(text).toMatch(/NodeByLabelScan a:A .*\[rows: 100\]/);
    expect(text).toMatch(/ProduceResults .*\[rows: 5\]/);
  });
});

describe('LOAD CSV', () => {
  it('reads rows as lists or, with headers, as maps', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-csv-'));
    writeFileSync(join(dir, 'p.csv'), 'id,name\n1,Ann\n2,"Bob, Jr"\n3,\n');
    const db = Database.openInMemory({ csvImportRoot: dir });
    db.executeSync("LOAD CSV WITH HEADERS FROM 'file:///p.csv' AS row CREATE (:P {id: toInteger(row.id), name: row.name})");
    expect(rows(db, 'MATCH (p:P) RETURN p.id, p.name ORDER BY p.id')).toEqual([
      [1, 'Ann'],
      [2, 'Bob, Jr'],
      [3, null],
    ]);
    expect(rows(db, "LOAD CSV FROM 'p.csv' AS row RETURN row LIMIT 1")).toEqual([[['id', 'name']]]);
    expect(() => db.executeSync("LOAD CSV FROM '../../etc/passwd' AS row RETURN row")).toThrow(/outside the import directory/);
    // An absolute path is taken relative to the import root, never to the file system root.
    expect(() => db.executeSync("LOAD CSV FROM 'file:///etc/passwd' AS row RETURN row")).toThrow(/cannot read/);
  });
});

describe('ORDER BY … LIMIT (top-k)', () => {
  it('returns exactly what a full sort would, ties in input order', () => {
    const db = Database.openInMemory();
    db.executeSync('UNWIND range(1, 5000) AS i CREATE (:T {i: i, k: (i * 7919) % 97})');
    const full = rows(db, 'MATCH (t:T) RETURN t.k AS k, t.i AS i ORDER BY k DESC');
    for (const [skip, limit] of [
      [0, 10],
      [3, 10],
      [0, 1],
      [4990, 20],
      [0, 3000],
    ]) {
      expect(rows(db, `MATCH (t:T) RETURN t.k AS k, t.i AS i ORDER BY k DESC SKIP ${skip} LIMIT ${limit}`)).toEqual(
        full.slice(skip, skip + limit),
      );
    }
    expect(rows(db, 'MATCH (t:T) RETURN t.i AS i ORDER BY i LIMIT 0')).toEqual([]);
  });

  it('keeps orderability across NaN, infinities, integers, floats, strings and nulls', () => {
    const db = Database.openInMemory();
    const values = "[0.0/0.0, 1, 2.5, -1.0/0.0, 1.0/0.0, 'a', null, 3, 0.0/0.0, -7, 2.5, 'b', true, null, 1]";
    db.executeSync(`UNWIND range(0, 2999) AS i WITH i, ${values} AS vs CREATE (:V {i: i, v: vs[i % size(vs)]})`);
    for (const direction of ['ASC', 'DESC']) {
      const full = rows(db, `MATCH (n:V) RETURN n.v AS v, n.i AS i ORDER BY v ${direction}, i`);
      for (const limit of [1, 7, 40, 1500]) {
        expect(rows(db, `MATCH (n:V) RETURN n.v AS v, n.i AS i ORDER BY v ${direction}, i LIMIT ${limit}`)).toEqual(full.slice(0, limit));
      }
    }
  });
});

/**
 * Neo4j 5 forms beyond the openCypher TCK, as Neo4j 5 documents them: the `exists(pattern)`
 * predicate function, UNION inside EXISTS / COUNT / COLLECT subqueries, variable scope in
 * `CALL { … }` bodies, MERGE of patterns whose relationships meet in one node, and the
 * `YIELD … WHERE … RETURN` tail of SHOW commands.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QuerySemanticError, QuerySyntaxError } from '../../src/errors.js';

function rows(db: Database, q: string, params?: Record<string, unknown>): unknown[][] {
  return db.executeSync(q, params).records;
}

/** a:A -X-> b:B -X-> c:C, a -Y-> c, and d:D with no relationships. */
function smallGraph(): Database {
  const db = Database.openInMemory();
  db.executeSync("CREATE (a:A {name: 'a'})-[:X]->(b:B {name: 'b'})-[:X]->(c:C {name: 'c'}), (a)-[:Y]->(c), (:D {name: 'd'})");
  return db;
}

describe('exists(pattern)', () => {
  const db = smallGraph();

  it('filters by whether a pattern has a match', () => {
    expect(rows(db, 'MATCH (n) WHERE exists((n)-->()) RETURN n.name ORDER BY n.name')).toEqual([['a'], ['b']]);
    expect(rows(db, 'MATCH (n) WHERE NOT exists((n)<--()) RETURN n.name ORDER BY n.name')).toEqual([['a'], ['d']]);
  });

  it('reads bound variables, labels, types and properties inside the pattern', () => {
    expect(rows(db, "MATCH (n), (m:C) WHERE exists((n)-[:X]->(:B {name: 'b'})-->(m)) RETURN n.name")).toEqual([['a']]);
    expect(rows(db, 'MATCH (n:A), (m:C) RETURN exists((n)-[:Y]->(m)) AS y, exists((m)-[:Y]->(n)) AS back')).toEqual([[true, false]]);
  });

  it('is a boolean expression anywhere, not only in WHERE', () => {
    expect(rows(db, 'MATCH (n) RETURN n.name, exists((n)--(:C)) AS nearC ORDER BY n.name')).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
      ['d', false],
    ]);
    expect(rows(db, 'MATCH (n) WITH n, exists((n)-->()) AS out WHERE out RETURN count(n)')).toEqual([[2]]);
  });

  it('rejects a property argument (Neo4j 5 removed it) and points to IS NOT NULL', () => {
    expect(() => db.executeSync('MATCH (n) WHERE exists(n.name) RETURN n')).toThrow(QuerySyntaxError);
    expect(() => db.executeSync('MATCH (n) WHERE exists(n.name) RETURN n')).toThrow(/n\.name IS NOT NULL/);
    expect(() => db.executeSync('RETURN exists([1, 2]) AS x')).toThrow(/takes a pattern/);
  });

  it('cannot introduce new variables in its pattern', () => {
    expect(() => db.executeSync('MATCH (n) WHERE exists((n)-->(m)) RETURN n')).toThrow(QuerySemanticError);
  });

  it('is listed by SHOW FUNCTIONS as a predicate function', () => {
    expect(rows(db, 'SHOW FUNCTIONS').filter((r) => r[0] === 'exists')).toEqual([
      ['exists', 'predicate', 'Whether the pattern given as the argument has at least one match'],
    ]);
  });
});

describe('UNION inside EXISTS, COUNT and COLLECT subqueries', () => {
  const db = smallGraph();

  it('COUNT counts distinct rows of a UNION and all rows of a UNION ALL', () => {
    const q =
      'MATCH (a:A) RETURN COUNT { MATCH (a)-[:X]->(m) RETURN m UNION MATCH (a)-->(m) RETURN m } AS u, ' +
      'COUNT { MATCH (a)-[:X]->(m) RETURN m UNION ALL MATCH (a)-->(m) RETURN m } AS ua';
    expect(rows(db, q)).toEqual([[2, 3]]);
  });

  it('COLLECT collects the UNION of its parts', () => {
    const q = 'MATCH (a:A) RETURN COLLECT { MATCH (a)-[:X]->(m) RETURN m.name AS x UNION MATCH (a)-->(m) RETURN m.name AS x } AS names';
    const [[names]] = rows(db, q) as [[string[]]];
    expect([...names].sort()).toEqual(['b', 'c']);
    const all = 'MATCH (a:A) RETURN COLLECT { MATCH (a)-[:X]->(m) RETURN m.name AS x UNION ALL MATCH (a)-->(m) RETURN m.name AS x } AS names';
    const [[withDuplicates]] = rows(db, all) as [[string[]]];
    expect([...withDuplicates].sort()).toEqual(['b', 'b', 'c']);
  });

  it('EXISTS holds when any part has a row', () => {
    const q = 'MATCH (n) WHERE EXISTS { MATCH (n)-[:Y]->() RETURN 1 AS x UNION MATCH (n:B) RETURN 1 AS x } RETURN n.name ORDER BY n.name';
    expect(rows(db, q)).toEqual([['a'], ['b']]);
    expect(rows(db, 'RETURN EXISTS { MATCH (n:Nope) RETURN n AS x UNION ALL MATCH (n:Nope2) RETURN n AS x } AS e')).toEqual([[false]]);
  });

  it('rejects parts with different columns', () => {
    expect(() => db.executeSync('RETURN COUNT { MATCH (n) RETURN n AS x UNION MATCH (n) RETURN n AS y } AS c')).toThrow(QuerySemanticError);
  });

  it('EXISTS over an OPTIONAL MATCH body sees its null row', () => {
    // The optional match runs its continuation in a closure; the early exit must still work.
    expect(rows(db, 'RETURN EXISTS { OPTIONAL MATCH (n:Nope) RETURN n } AS e')).toEqual([[true]]);
  });
});

describe('WITH inside EXISTS / COUNT / COLLECT bodies', () => {
  // Neo4j's documentation graph: Andy owns one dog, Peter two (Fido and Ozzy), Timothy a cat.
  const db = Database.openInMemory();
  db.executeSync(
    "CREATE (andy:Person {name: 'Andy'})-[:HAS_DOG]->(:Dog {name: 'Andy'}), (tim:Person {name: 'Timothy'})-[:HAS_CAT]->(:Cat {name: 'Mittens'}), " +
      "(fido:Dog {name: 'Fido'})<-[:HAS_DOG]-(peter:Person {name: 'Peter'})-[:HAS_DOG]->(:Dog {name: 'Ozzy'})",
  );

  it('keeps the enclosing variables in scope past a WITH (EXISTS)', () => {
    const q = "MATCH (person:Person) WHERE EXISTS { WITH 'Ozzy' AS dogName MATCH (person)-[:HAS_DOG]->(d:Dog) WHERE d.name = dogName } RETURN person.name";
    expect(rows(db, q)).toEqual([['Peter']]);
  });

  it('counts each match once when a later MATCH names an enclosing variable (COUNT)', () => {
    // Before the fix `person` after `WITH d` was a new variable: every owner counted every owned dog (1, 1, 3 → 3, 3, 3).
    const q = 'MATCH (person:Person) RETURN person.name, COUNT { MATCH (d:Dog) WITH d MATCH (person)-[:HAS_DOG]->(d) RETURN d } AS dogs ORDER BY person.name';
    expect(rows(db, q)).toEqual([
      ['Andy', 1],
      ['Peter', 2],
      ['Timothy', 0],
    ]);
    const grouped = 'MATCH (person:Person) RETURN person.name, COUNT { MATCH (d:Dog) WITH count(d) AS n MATCH (person)-[:HAS_DOG]->(x) RETURN x } AS c ORDER BY person.name';
    expect(rows(db, grouped)).toEqual([
      ['Andy', 1],
      ['Peter', 2],
      ['Timothy', 0],
    ]);
  });

  it('collects only the enclosing row\'s matches (COLLECT)', () => {
    const q = 'MATCH (person:Person) RETURN person.name, COLLECT { WITH 1 AS one MATCH (person)-[:HAS_DOG]->(d:Dog) RETURN d.name ORDER BY d.name } AS dogs ORDER BY person.name';
    expect(rows(db, q)).toEqual([
      ['Andy', ['Andy']],
      ['Peter', ['Fido', 'Ozzy']],
      ['Timothy', []],
    ]);
  });

  it('still lets a CALL { } body without an import start afresh', () => {
    // Only expression subqueries see through WITH; a CALL body's WITH imports what it names.
    expect(() => db.executeSync('MATCH (person:Person) CALL { WITH 1 AS one RETURN person.name AS n } RETURN n')).toThrow(QuerySemanticError);
  });
});

describe('dynamic labels and types: $(…), $all(…), $any(…)', () => {
  const params = { l: 'Movie', both: ['Movie', 'Film'], t: 'ACTED_IN', types: ['ACTED_IN', 'DIRECTED'] };
  const fresh = (): Database => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Person {name: 'Ann'}), (:Movie {title: 'Up'})");
    return db;
  };

  it('SET and REMOVE take labels from a string or a list', () => {
    const db = fresh();
    expect(rows(db, "MATCH (n:Movie) SET n:$('Classic'), n:$($both) RETURN labels(n)", params)).toEqual([[['Movie', 'Classic', 'Film']]]);
    expect(rows(db, 'MATCH (n:Movie) REMOVE n:$($both) RETURN labels(n)', params)).toEqual([[['Classic']]]);
  });

  it('MATCH filters by every name ($ and $all) or by one of them ($any), beside plain labels', () => {
    const db = fresh();
    db.executeSync('MATCH (n:Movie) SET n:Film');
    expect(rows(db, 'MATCH (n:$($l)) RETURN count(n)', params)).toEqual([[1]]);
    expect(rows(db, 'MATCH (n:$all($both)) RETURN count(n)', params)).toEqual([[1]]);
    expect(rows(db, "MATCH (n:$all(['Movie', 'Person'])) RETURN count(n)")).toEqual([[0]]);
    expect(rows(db, "MATCH (n:$any(['Movie', 'Person'])) RETURN count(n)")).toEqual([[2]]);
    expect(rows(db, 'MATCH (n:Person:$($l)) RETURN count(n)', params)).toEqual([[0]]);
    expect(rows(db, 'MATCH (:$($l)) RETURN count(*)', params)).toEqual([[1]]);
    // The hidden variable an anonymous element gets stays out of RETURN *.
    expect(db.executeSync('MATCH (n:Person), (:$($l)) RETURN *', params).columns).toEqual(['n']);
    expect(rows(db, 'MATCH (n) RETURN n.name, n:$any($both) AS film ORDER BY n.name', params)).toEqual([
      ['Ann', false],
      [null, true],
    ]);
  });

  it('CREATE and MERGE make nodes and relationships with dynamic labels and types; MATCH finds them', () => {
    const db = fresh();
    db.executeSync('MATCH (p:Person), (m:$($l)) CREATE (p)-[:$($t)]->(m)', params);
    expect(rows(db, 'MATCH (p)-[r:$($t)]->(m) RETURN p.name, type(r), m.title', params)).toEqual([['Ann', 'ACTED_IN', 'Up']]);
    expect(rows(db, 'MATCH ()-[r:$any($types)]->() RETURN count(r)', params)).toEqual([[1]]);
    expect(rows(db, 'UNWIND $both AS l CREATE (n:$(l):Extra) RETURN labels(n)', params)).toEqual([[['Extra', 'Movie']], [['Extra', 'Film']]]);
    expect(rows(db, "MERGE (n:$($l) {title: 'Up'}) RETURN count(*)", params)).toEqual([[1]]);
    expect(rows(db, "MATCH (n:Movie {title: 'Up'}) RETURN count(n)")).toEqual([[1]]);
  });

  it('refuses what cannot work with clear errors', () => {
    const db = fresh();
    expect(() => db.executeSync('MATCH (n:$($x)) RETURN n', { x: 3 })).toThrow(/string or a list of strings/);
    expect(() => db.executeSync("MATCH (n:Person) SET n:$('')")).toThrow(/empty string/);
    expect(() => db.executeSync("MATCH (n:Person) CREATE (n)-[:$(['A', 'B'])]->(:X)")).toThrow(/exactly one type/);
    expect(() => db.executeSync('MATCH (n:$nope(1)) RETURN n')).toThrow(QuerySyntaxError);
    expect(() => db.executeSync("MATCH (n:!$('A')) RETURN n")).toThrow(QuerySemanticError);
    expect(() => db.executeSync("CREATE (n:$any(['A']))")).toThrow(QuerySemanticError);
    expect(() => db.executeSync('MATCH (n:$(nowhere)) RETURN n')).toThrow(/nowhere/);
    // Nothing half-written by the failed statements.
    expect(rows(db, 'MATCH (n) RETURN count(n)')).toEqual([[2]]);
  });
});

describe('variable scope of CALL { } bodies', () => {
  const db = Database.openInMemory();
  db.executeSync("CREATE (:Person {name: 'ann'}), (:Person:Parent {name: 'bob'})-[:CHILD]->(:Person {name: 'cid'})");

  it('a body without an importing WITH declares fresh variables, even with an outer name', () => {
    const q = 'MATCH (n:Person) CALL { MATCH (n:Parent) RETURN n.name AS shadowed } RETURN n.name AS outer, shadowed ORDER BY outer';
    expect(rows(db, q)).toEqual([
      ['ann', 'bob'],
      ['bob', 'bob'],
      ['cid', 'bob'],
    ]);
  });

  it('the same holds for pattern comprehensions inside such a body', () => {
    const q =
      "MATCH (n:Person {name: 'ann'}) CALL { MATCH (n:Parent) RETURN [(n)-[:CHILD]->(c) | c.name] AS kids } RETURN n.name, kids";
    expect(rows(db, q)).toEqual([['ann', ['cid']]]);
    const fresh = "MATCH (n:Person {name: 'ann'}) CALL { RETURN [(n:Parent)-->(c) | c.name] AS kids } RETURN kids";
    expect(rows(db, fresh)).toEqual([[['cid']]]);
  });

  it('outer variables are not visible in a body that does not import them', () => {
    expect(() => db.executeSync('MATCH (n:Person) CALL { MATCH (m) WHERE m.name = n.name RETURN m } RETURN m')).toThrow(
      /Variable `n` not defined/,
    );
  });

  it('an importing WITH, CALL (n) and CALL (*) correlate', () => {
    const expected = [['bob', 'cid']];
    expect(rows(db, 'MATCH (n:Parent) CALL { WITH n MATCH (n)-->(c) RETURN c.name AS kid } RETURN n.name, kid')).toEqual(expected);
    expect(rows(db, 'MATCH (n:Parent) CALL (n) { MATCH (n)-->(c) RETURN c.name AS kid } RETURN n.name, kid')).toEqual(expected);
    expect(rows(db, 'MATCH (n:Parent) CALL (*) { MATCH (n)-->(c) RETURN c.name AS kid } RETURN n.name, kid')).toEqual(expected);
  });

  it('CALL () imports nothing, so the outer name is a fresh variable there too', () => {
    const q = "MATCH (n:Person {name: 'ann'}) CALL () { MATCH (n:Parent) RETURN n.name AS p } RETURN n.name, p";
    expect(rows(db, q)).toEqual([['ann', 'bob']]);
  });

  it('each UNION part of a body imports on its own', () => {
    const q =
      "MATCH (n:Person {name: 'ann'}) CALL { MATCH (n:Parent) RETURN n.name AS x UNION WITH n RETURN n.name AS x } RETURN x ORDER BY x";
    expect(rows(db, q)).toEqual([['ann'], ['bob']]);
  });

  it('a body still cannot return a name the outer query already has', () => {
    expect(() => db.executeSync('MATCH (n:Person) CALL { MATCH (n:Parent) RETURN n } RETURN n')).toThrow(QuerySemanticError);
  });
});

describe('MERGE of relationships that meet in one node', () => {
  it('creates the whole pattern once, then matches it', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (:A), (:B), (:C)');
    const created = db.executeSync('MERGE (:A)-[:X]->(:C)<-[:Y]-(:B)');
    expect(created.stats).toMatchObject({ nodesCreated: 3, relationshipsCreated: 2 });
    const matched = db.executeSync('MERGE (a:A)-[:X]->(c:C)<-[:Y]-(b:B) RETURN count(*) AS n');
    expect(matched.records).toEqual([[1]]);
    expect(matched.stats).toMatchObject({ nodesCreated: 0, relationshipsCreated: 0 });
  });

  it('a writing query expands two typed relationships in a row', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE (:A)-[:X]->(c:C), (:B)-[:Y]->(c)');
    expect(rows(db, 'MATCH (a:A)-[:X]->(c)<-[:Y]-(b:B) CREATE (a)-[:Z]->(b) RETURN count(*)')).toEqual([[1]]);
    expect(rows(db, 'MATCH (:A)-[:Z]->(:B) RETURN count(*)')).toEqual([[1]]);
  });
});

describe('size() and length() keep Neo4j 5 types', () => {
  const db = smallGraph();

  it('rejects size() of a path and length() of a list or string when the query is compiled', () => {
    expect(() => db.executeSync('MATCH p = (:A)-->() RETURN size(p)')).toThrow(QuerySemanticError);
    expect(() => db.executeSync('RETURN length([1, 2, 3]) AS n')).toThrow(QuerySemanticError);
    expect(() => db.executeSync("RETURN length('abc') AS n")).toThrow(QuerySemanticError);
  });

  it('rejects them at run time when the type is only known then', () => {
    expect(() => db.executeSync('UNWIND [[1, 2], 3] AS x RETURN length(x)')).toThrow(/length\(\) expects a path/);
    expect(() => db.executeSync('MATCH p = (:A)-->() WITH [p][0] AS q RETURN size(q)')).toThrow(/size/);
  });

  it('accepts length() of a path and size() of a list or string', () => {
    expect(rows(db, "MATCH p = (:A)-[:X]->(:B) RETURN length(p), size([1, 2]), size('abc')")).toEqual([[1, 2, 3]]);
  });
});

describe('SHOW … YIELD … WHERE … RETURN', () => {
  const db = Database.openInMemory();
  db.executeSync('CREATE INDEX person_name FOR (p:Person) ON (p.name)');
  db.executeSync('CREATE CONSTRAINT person_id FOR (p:Person) REQUIRE p.id IS UNIQUE');

  it('YIELD picks and renames columns, RETURN projects them', () => {
    const r = db.executeSync('SHOW PROCEDURES YIELD name RETURN name');
    expect(r.columns).toEqual(['name']);
    expect(r.records).toContainEqual(['db.labels']);
    const renamed = db.executeSync("SHOW PROCEDURES YIELD name AS procedure, mode WHERE procedure = 'db.labels'");
    expect(renamed.columns).toEqual(['procedure', 'mode']);
    expect(renamed.records).toEqual([['db.labels', 'READ']]);
  });

  it('WHERE alone filters whole rows', () => {
    const r = db.executeSync("SHOW FUNCTIONS WHERE name = 'toUpper'");
    expect(r.columns).toEqual(['name', 'category', 'description']);
    expect(r.records.map((x) => x[0])).toEqual(['toUpper']);
  });

  it('YIELD takes ORDER BY, SKIP and LIMIT, and RETURN may aggregate', () => {
    const last = db.procedures.list().map((p) => p.name).sort().at(-1);
    expect(rows(db, 'SHOW PROCEDURES YIELD name ORDER BY name DESC LIMIT 1')).toEqual([[last]]);
    const byCategory = rows(db, "SHOW FUNCTIONS YIELD category WHERE category IN ['predicate', 'spatial'] RETURN category, count(*) > 0 AS some ORDER BY category");
    expect(byCategory).toEqual([
      ['predicate', true],
      ['spatial', true],
    ]);
  });

  it('works for indexes and constraints', () => {
    expect(rows(db, 'SHOW INDEXES YIELD name, labelsOrTypes, properties, owningConstraint WHERE owningConstraint IS NULL')).toEqual([
      ['person_name', ['Person'], ['name'], null],
    ]);
    expect(rows(db, "SHOW CONSTRAINTS YIELD * WHERE type = 'UNIQUENESS' RETURN name")).toEqual([['person_id']]);
    expect(rows(db, 'SHOW INDEXES WHERE false')).toEqual([]);
  });

  it('sees the current listing on every run of the same text', () => {
    const q = "SHOW INDEXES YIELD name WHERE name STARTS WITH 'city'";
    expect(rows(db, q)).toEqual([]);
    db.executeSync('CREATE INDEX city_name FOR (c:City) ON (c.name)');
    expect(rows(db, q)).toEqual([['city_name']]);
  });

  it("returns Neo4j 5's default columns, and all of them for YIELD *", () => {
    const idx = db.executeSync('SHOW INDEXES');
    expect(idx.columns).toEqual(['id', 'name', 'state', 'populationPercent', 'type', 'entityType', 'labelsOrTypes', 'properties', 'indexProvider', 'owningConstraint', 'lastRead', 'readCount']);
    const all = db.executeSync("SHOW INDEXES YIELD * WHERE name = 'person_name'");
    expect(all.columns.slice(12)).toEqual(['trackedSince', 'options', 'failureMessage', 'createStatement']);
    expect(all.records[0][13]).toEqual(new Map<string, unknown>([['indexProvider', 'range-1.0'], ['indexConfig', new Map()]]));
    const constraints = db.executeSync('SHOW CONSTRAINTS');
    expect(constraints.columns).toEqual(['id', 'name', 'type', 'entityType', 'labelsOrTypes', 'properties', 'ownedIndex', 'propertyType']);
    expect(constraints.records.map((r) => r.slice(1, 7))).toEqual([['person_id', 'UNIQUENESS', 'NODE', ['Person'], ['id'], 'person_id']]);
    expect(db.executeSync("SHOW PROCEDURES WHERE name = 'db.labels'").records).toEqual([['db.labels', expect.any(String), 'READ', false]]);
  });

  it('SHOW DATABASES lists neo4j (alias graphdb) and system', () => {
    const r = db.executeSync('SHOW DATABASES');
    expect(r.columns.slice(0, 4)).toEqual(['name', 'type', 'aliases', 'access']);
    expect(r.records.map((x) => [x[0], x[1], x[2], x[10]])).toEqual([
      ['neo4j', 'standard', ['graphdb'], true],
      ['system', 'system', [], false],
    ]);
    expect(rows(db, 'SHOW DATABASE graphdb YIELD name, currentStatus')).toEqual([['neo4j', 'online']]);
    expect(rows(db, "SHOW DATABASES YIELD name WHERE name = 'system'")).toEqual([['system']]);
  });

  it('names an unknown column in its error', () => {
    expect(() => db.executeSync('SHOW FUNCTIONS YIELD nope')).toThrow(/`nope`/);
    expect(() => db.executeSync('SHOW FUNCTIONS YIELD name RETURN nope')).toThrow(QuerySemanticError);
  });

  it('is read-only, so read-only calls accept it', async () => {
    const r = await db.query('SHOW PROCEDURES YIELD name WHERE name = $n', { n: 'db.labels' });
    expect(r.records).toEqual([['db.labels']]);
  });
});

/**
 * Unit tests of the semantic checker: for each detail code, queries that must be rejected
 * with it and close variants that must be accepted. Queries are parsed by the real parser.
 */

import { describe, expect, it } from 'vitest';
import { parseStatement } from '../../src/frontend/parser.js';
import {
  checkStatement,
  containsAggregate,
  isAggregate,
  type CheckOptions,
  type ProcedureSignature,
} from '../../src/frontend/semantic.js';
import { GraphDbError, ProcedureError, QuerySemanticError, ValueTypeError } from '../../src/errors.js';
import type { Expr, ReturnClause } from '../../src/frontend/ast.js';

/** The detail code the checker raises for `query`, or 'ok'. */
function check(query: string, options?: CheckOptions): string {
  const stmt = parseStatement(query);
  try {
    checkStatement(stmt, options);
    return 'ok';
  } catch (err) {
    if (err instanceof GraphDbError) return err.detail;
    throw err;
  }
}

function thrown(query: string, options?: CheckOptions): GraphDbError {
  const stmt = parseStatement(query);
  try {
    checkStatement(stmt, options);
  } catch (err) {
    if (err instanceof GraphDbError) return err;
    throw err;
  }
  throw new Error(`expected an error for: ${query}`);
}

/** Each case: detail code, queries that must fail with it, queries that must pass. */
const cases: { detail: string; fail: string[]; pass: string[] }[] = [
  {
    detail: 'UndefinedVariable',
    fail: [
      'MATCH () RETURN foo',
      'CREATE (b {name: missing}) RETURN b',
      'MATCH (a) DELETE x',
      'MERGE (n) ON CREATE SET x.num = 1',
      'MATCH (a) SET a.name = missing RETURN a',
      'MATCH (a:A), (b:B), (c:C) WITH a, b WITH a ORDER BY c RETURN a',
      'MATCH (a) RETURN DISTINCT a.name ORDER BY a.age',
      'MATCH (me)--(you) RETURN count(you.age) AS agg ORDER BY me.age + count(you.age)',
      'MATCH (a:A) WITH a.num2 % 3 AS mod, min(a.num) AS min ORDER BY sum(a.num) RETURN mod, min',
      'MATCH (n) WHERE (n)-[r]->(a) RETURN n',
      'MATCH (n) WHERE (a) RETURN n',
      'RETURN {k1: k2} AS literal',
      'WITH 1 AS x RETURN [y IN [1, 2] | y + z]',
      'RETURN [x IN [1, 2] | x] AS l, x',
      'MATCH (a) WITH a.name AS name RETURN a',
    ],
    pass: [
      'MATCH (a) RETURN a',
      'MATCH (a) RETURN DISTINCT a.name ORDER BY a.name',
      'MATCH (a) RETURN a.name ORDER BY a.age',
      'MATCH (a:A), (b:B) WITH a, b WITH a ORDER BY b RETURN a',
      'MATCH (me)--(you) RETURN me.age AS age, count(you.age) AS cnt ORDER BY me.age + count(you.age)',
      'MATCH (a:A) WITH a.num2 % 3 AS mod, sum(a.num) AS s ORDER BY sum(a.num) RETURN mod, s',
      'MATCH (n) WHERE (n)-->() RETURN n',
      'MATCH (n) RETURN [(n)-[r]->(m) | m.name] AS names',
      'MATCH (n) WHERE EXISTS { MATCH (n)-->(m) WHERE m.x = 1 } RETURN n',
      'RETURN [x IN [1, 2] WHERE x > 1 | x * 2] AS l',
      'RETURN reduce(acc = 0, x IN [1, 2] | acc + x) AS s',
      'UNWIND [1, 2] AS x RETURN x',
      'MATCH (a) WITH a.name AS name WHERE a.age > 3 RETURN name',
    ],
  },
  {
    detail: 'VariableAlreadyBound',
    fail: [
      'MATCH (a) CREATE (a)',
      "MATCH (a) CREATE (a {name: 'foo'}) RETURN a",
      'MATCH (a) CREATE (a:L)',
      'CREATE (n:Foo)-[:T1]->(), (n:Bar)-[:T2]->()',
      'CREATE (n:Foo) CREATE (n:Bar)-[:OWNS]->(:Dog)',
      'MATCH ()-[r]->() CREATE ()-[r]->()',
      'MATCH (p)-->() MATCH p = ()-->() RETURN p',
      'MATCH p = (p)-->() RETURN p',
      'WITH 123 AS p MATCH p = ()-->() RETURN p',
      'MATCH (a) MERGE (a)',
      'CREATE (a:Foo) MERGE (a)-[r:KNOWS]->(a:Bar)',
      'MATCH (a)-[r]->(b) MERGE (a)-[r]->(b)',
      'WITH 1 AS x UNWIND [1] AS x RETURN x',
    ],
    pass: [
      'MATCH (a) CREATE (a)-[:R]->(b)',
      'CREATE (n:Foo)-[:T1]->(), (n)-[:T2]->()',
      'MATCH (a) MERGE (a)-[:R]->(b)',
      'MATCH (a:A) MATCH (a:B) RETURN a',
      'MATCH (a) WITH a MATCH (a)-->(b) RETURN b',
      'MATCH p = (a)-->(b) RETURN p',
    ],
  },
  {
    detail: 'VariableTypeConflict',
    fail: [
      'MATCH ()-[r]-() MATCH (r) RETURN r',
      'MATCH r = ()-->() MATCH (r) RETURN r',
      'MATCH ()-[r]-(r) RETURN r',
      'MATCH r = ()-[]-(), (r) RETURN r',
      'WITH true AS n MATCH (n) RETURN n',
      'WITH [10] AS n MATCH (n) RETURN n',
      'MATCH (r) MATCH ()-[r]-() RETURN r',
      'MATCH (r)-[r]-() RETURN r',
      "WITH 'foo' AS r MATCH ()-[r]-() RETURN r",
      'WITH [] AS r MATCH ()-[r]-() RETURN r',
    ],
    pass: [
      'MATCH (n) WITH n MATCH (n)-->() RETURN n',
      'MATCH ()-[r]-() WITH r MATCH ()-[r]-() RETURN r',
      'WITH $x AS n MATCH (n) RETURN n',
      'MATCH (a) WITH collect(a) AS ns UNWIND ns AS n MATCH (n) RETURN n',
    ],
  },
  {
    detail: 'RelationshipUniquenessViolation',
    fail: ['MATCH (a)-[r]->()-[r]->(a) RETURN r'],
    pass: ['MATCH (a)-[r]->() MATCH ()-[r]->(a) RETURN r'],
  },
  {
    detail: 'NoSingleRelationshipType',
    fail: ['CREATE ()-->()', 'CREATE ()-[:A|B]->()', 'CREATE (a), (b) MERGE (a)-->(b)', 'MATCH (a), (b) MERGE (a)-[NO_COLON]->(b)'],
    pass: ['CREATE ()-[:A]->()', 'MATCH (a), (b) MERGE (a)-[:R]->(b)'],
  },
  {
    detail: 'RequiresDirectedRelationship',
    fail: ['CREATE (a)-[:FOO]-(b)'],
    pass: ['CREATE (a)-[:FOO]->(b)', 'CREATE (a)<-[:FOO]-(b)', 'MATCH (a), (b) MERGE (a)-[:R]-(b)'],
  },
  {
    detail: 'CreatingVarLength',
    fail: ['CREATE ()-[:FOO*2]->()', 'MERGE (a) MERGE (b) MERGE (a)-[:FOO*2]->(b)'],
    pass: ['MATCH ()-[:FOO*2]->() RETURN 1 AS x'],
  },
  {
    detail: 'InvalidParameterUse',
    fail: ['MATCH (n $param) RETURN n', 'MATCH ()-[r:FOO $param]->() RETURN r', 'MERGE (n $param) RETURN n'],
    pass: ['CREATE (n $param) RETURN n', 'MATCH (n {name: $name}) RETURN n'],
  },
  {
    detail: 'InvalidAggregation',
    fail: [
      'MATCH (a) WHERE count(a) > 10 RETURN a',
      'MATCH (n) RETURN n.num1 ORDER BY max(n.num2)',
      'MATCH (n) WITH n.num1 AS foo ORDER BY count(n) RETURN foo',
      'MATCH (n) RETURN [x IN [1, 2, 3] | count(*)]',
      'MATCH (n) SET n.x = count(n)',
      'UNWIND [1] AS x UNWIND count(x) AS y RETURN y',
      'MATCH (n) WITH n, count(*) AS c WHERE count(*) > 1 RETURN n',
    ],
    pass: [
      'MATCH (n) RETURN count(n)',
      'MATCH (n) RETURN n.num1, count(*) ORDER BY count(*)',
      'MATCH (n) RETURN [x IN collect(n) | x.name] AS names',
      'MATCH (n) RETURN CASE WHEN count(*) > 1 THEN 1 ELSE 0 END AS c',
      'MATCH (n) RETURN size(collect(n)) AS s',
    ],
  },
  {
    detail: 'NestedAggregation',
    fail: ['RETURN count(count(*))', 'MATCH (n) RETURN sum(size(collect(n.x)))'],
    pass: ['MATCH (n) RETURN count(n) + sum(n.x)'],
  },
  {
    detail: 'NonConstantExpression',
    fail: ['RETURN count(rand())', 'MATCH (n) RETURN n SKIP n.count', 'MATCH (n) RETURN n LIMIT n.count'],
    pass: ['RETURN rand() AS r', 'MATCH (n) RETURN n SKIP $s LIMIT 1 + 2', 'MATCH (n) RETURN n LIMIT size([1, 2])'],
  },
  {
    detail: 'AmbiguousAggregationExpression',
    fail: [
      'MATCH (me)--(you) RETURN me.age + count(you.age)',
      'MATCH (me)--(you) RETURN me.age + you.age, me.age + you.age + count(*)',
      'MATCH (me)--(you) RETURN me.age + you.age, count(*) AS cnt ORDER BY me.age + you.age + count(*)',
      'MATCH (me)--(you) WITH me.age + count(you.age) AS agg RETURN *',
    ],
    pass: [
      'MATCH (me)--(you) RETURN me.age, me.age + count(you.age)',
      'MATCH (me)--(you) WITH me.age AS age, you RETURN age, age + count(you.age)',
      'MATCH (p) RETURN $age + avg(p.age) - 1000',
      'MATCH (me)--(you) RETURN me, me.age + count(you)',
      'MATCH (a) RETURN a.name, {foo: a.name, kids: collect(a.x)}',
      'MATCH (actor)-->(movie) RETURN actor {.name, movies: collect(movie {.title})}',
      'MATCH (me)--(you) RETURN me.age AS age, count(you.age) AS cnt ORDER BY age, age + count(you.age)',
    ],
  },
  {
    detail: 'ColumnNameConflict',
    fail: ['RETURN 1 AS a, 2 AS a', 'WITH 1 AS a, 2 AS a RETURN a'],
    pass: ['RETURN 1 AS a, 2 AS b', 'WITH 1 AS a WITH a, 2 AS b RETURN a, b'],
  },
  {
    detail: 'NoExpressionAlias',
    fail: ['MATCH (a) WITH a, count(*) RETURN a'],
    pass: ['MATCH (a) WITH a, count(*) AS c RETURN a'],
  },
  {
    detail: 'NoVariablesInScope',
    fail: ['MATCH () RETURN *'],
    pass: ['MATCH (n) RETURN *', 'MATCH (n) WITH * RETURN n', 'MATCH () CREATE () WITH * CREATE ()'],
  },
  {
    detail: 'DifferentColumnsInUnion',
    fail: ['RETURN 1 AS a UNION RETURN 2 AS b', 'RETURN 1 AS a UNION ALL RETURN 2 AS b'],
    pass: ['RETURN 1 AS a UNION RETURN 2 AS a', 'RETURN 1 AS a, 2 AS b UNION ALL RETURN 3 AS a, 4 AS b'],
  },
  {
    detail: 'InvalidClauseComposition',
    fail: [
      'RETURN 1 AS a UNION RETURN 2 AS a UNION ALL RETURN 3 AS a',
      "MATCH (n) WHERE exists { MATCH (n)-->(m) SET m.prop = 'fail' } RETURN n",
      'MATCH (n) WITH n',
      'MATCH (n)',
      'RETURN COLLECT { MATCH (n) RETURN n.a, n.b } AS c',
      'MATCH (n) FOREACH (x IN [1] | MATCH (m) CREATE (m)-[:R]->(n))',
    ],
    pass: ['RETURN COLLECT { MATCH (n) RETURN n.a } AS c', 'CREATE (n)', 'MATCH (n) SET n.x = 1', 'MATCH (n) DELETE n', 'RETURN 1 AS a UNION ALL RETURN 2 AS a UNION ALL RETURN 3 AS a'],
  },
  {
    detail: 'InvalidDelete',
    fail: ['MATCH (n) DELETE n:Person'],
    pass: ['MATCH (n) DETACH DELETE n', 'MATCH p = ()-->() DELETE p'],
  },
  {
    detail: 'InvalidArgumentType',
    fail: [
      'MATCH () DELETE 1 + 1',
      "MATCH (n) MATCH r = (n)-[*]->() WHERE r.name = 'apa' RETURN r",
      'MATCH (p) RETURN p.name AS name SKIP 1.5',
      'MATCH (n) RETURN n LIMIT 1.7',
      'RETURN 123 AND true',
      "RETURN 'foo' OR true",
      'RETURN {} XOR true',
      'RETURN NOT [1, 2]',
      'MATCH p = (a) RETURN labels(p) AS l',
      'MATCH (r) RETURN type(r)',
      'RETURN properties(1)',
      'RETURN 1 IN true',
      'MATCH p = (a)-[*]->(b) RETURN size(p)',
      'MATCH (n) RETURN length(n)',
      'MATCH (n) WHERE (n) RETURN n',
      "RETURN none(x IN ['Clara'] WHERE x % 2 = 0) AS result",
      'RETURN any(x IN [false, true] WHERE x % 2 = 0) AS result',
    ],
    pass: [
      'RETURN null AND true',
      'RETURN $p AND true',
      'MATCH (n) RETURN labels(n)',
      'MATCH ()-[r]->() RETURN type(r)',
      'RETURN 1 IN [1, 2]',
      'RETURN 1 IN null',
      'MATCH p = ()-->() RETURN length(p), nodes(p)',
      'RETURN size([1, 2]), size($x)',
      'RETURN all(x IN [1, 2] WHERE x % 2 = 0) AS result',
      'MATCH (n) WHERE n.x RETURN n',
      'RETURN properties({a: 1}) AS p',
    ],
  },
  {
    detail: 'NegativeIntegerArgument',
    fail: ['MATCH (p) RETURN p.name AS name SKIP -1', 'MATCH (n) RETURN n LIMIT -1'],
    pass: ['MATCH (n) RETURN n SKIP 0 LIMIT 0'],
  },
  {
    detail: 'UnexpectedSyntax',
    fail: ['MATCH (n) RETURN (n)-[]->()', 'MATCH (n) WITH (n)-[]->() AS x RETURN x', 'MATCH (a) RETURN size((a)-->())'],
    pass: [
      'MATCH (n) RETURN exists((n)-->()) AS e',
      'MATCH (n) WHERE NOT (n)-->() RETURN n',
      'MATCH (n) RETURN (n) AS m',
      'MATCH (n) RETURN NOT (n)-->() AS lonely, (n)-->() OR n.x AS either',
      'MATCH (n) RETURN CASE WHEN (n)-->() THEN 1 ELSE 0 END AS c',
    ],
  },
];

describe('checkStatement', () => {
  for (const c of cases) {
    describe(c.detail, () => {
      for (const q of c.fail) {
        it(`rejects: ${q}`, () => {
          expect(check(q)).toBe(c.detail);
        });
      }
      for (const q of c.pass) {
        it(`accepts: ${q}`, () => {
          expect(check(q)).toBe('ok');
        });
      }
    });
  }

  it('reports a position and a readable message', () => {
    const err = thrown('MATCH (a)\nRETURN b');
    expect(err).toBeInstanceOf(QuerySemanticError);
    expect(err.phase).toBe('compile');
    expect(err.position).toEqual({ line: 2, column: 8 });
    expect(err.message).toContain('`b`');
  });

  it('raises property access on a literal value as a compile-time TypeError', () => {
    const err = thrown('WITH 123 AS x RETURN x.num');
    expect(err).toBeInstanceOf(ValueTypeError);
    expect(err.detail).toBe('InvalidArgumentType');
    expect(err.phase).toBe('compile');
    expect(check('WITH {num: 1} AS x RETURN x.num')).toBe('ok');
  });

  describe('unknown functions and argument counts', () => {
    const known = (name: string): boolean => ['count', 'tolower'].includes(name.toLowerCase());
    it('accepts every function by default', () => {
      expect(check('MATCH (a) RETURN foo(a)')).toBe('ok');
    });
    it('rejects a function the registry does not know', () => {
      expect(check('MATCH (a) RETURN foo(a)', { isKnownFunction: known })).toBe('UnknownFunction');
      expect(check("RETURN toLower('A')", { isKnownFunction: known })).toBe('ok');
    });
    it('takes the callback as the second argument directly', () => {
      const stmt = parseStatement('RETURN foo(1)');
      expect(() => checkStatement(stmt, known)).toThrow(/Unknown function/);
    });
    it('checks argument counts of well-known functions', () => {
      expect(check("RETURN toLower('a', 'b')")).toBe('InvalidNumberOfArguments');
      expect(check('RETURN rand(1)')).toBe('InvalidNumberOfArguments');
      expect(check('RETURN coalesce(null, 1, 2)')).toBe('ok');
    });
  });

  describe('procedure calls', () => {
    const procs: Record<string, ProcedureSignature> = {
      'test.my.proc': {
        inputs: [
          { name: 'name', type: 'STRING?' },
          { name: 'in', type: 'INTEGER?' },
        ],
        outputs: [{ name: 'out', type: 'INTEGER?' }],
      },
      'test.labels': { inputs: [], outputs: [{ name: 'label', type: 'STRING?' }] },
    };
    const opts: CheckOptions = { lookupProcedure: (n) => procs[n] };
    it('checks procedures against their signatures', () => {
      expect(check("CALL test.my.proc('Dobby')", opts)).toBe('InvalidNumberOfArguments');
      expect(check("CALL test.my.proc('Dobby', 1) YIELD out RETURN out", opts)).toBe('ok');
      expect(check("CALL test.my.proc('Dobby', true)", opts)).toBe('InvalidArgumentType');
      expect(check('CALL test.my.proc YIELD out RETURN out', opts)).toBe('InvalidArgumentPassingMode');
      expect(check('CALL test.my.proc', opts)).toBe('ok');
      expect(check('CALL test.labels() YIELD label RETURN label', opts)).toBe('ok');
      expect(thrown('CALL test.nope()', opts)).toBeInstanceOf(ProcedureError);
    });
    it('scopes yielded names', () => {
      expect(check("WITH 'Hi' AS label CALL test.labels() YIELD label RETURN *", opts)).toBe('VariableAlreadyBound');
      expect(check("CALL test.my.proc('a', 1) YIELD out AS a, out AS a RETURN a")).toBe('VariableAlreadyBound');
      expect(check('CALL test.labels() RETURN label', opts)).toBe('UndefinedVariable');
      expect(check('MATCH (n) CALL test.labels(count(n)) YIELD label RETURN label', opts)).toBe('InvalidAggregation');
    });
  });

  it('accepts schema commands and EXPLAIN', () => {
    expect(check('EXPLAIN MATCH (n) RETURN n')).toBe('ok');
  });
});

describe('aggregate helpers', () => {
  const firstItem = (q: string): Expr => {
    const stmt = parseStatement(q);
    if (stmt.body.kind !== 'Query') throw new Error('not a query');
    const clauses = stmt.body.parts[0]!.clauses;
    return (clauses[clauses.length - 1] as ReturnClause).items[0]!.expr;
  };
  it('recognises aggregates in any letter case, and count(*)', () => {
    expect(isAggregate(firstItem('RETURN COUNT(*)'))).toBe(true);
    expect(isAggregate(firstItem('RETURN stDevP(1)'))).toBe(true);
    expect(isAggregate(firstItem('RETURN percentileDisc(1, 0.5)'))).toBe(true);
    expect(isAggregate(firstItem('RETURN size([1])'))).toBe(false);
  });
  it('finds aggregates inside expressions but not inside subqueries', () => {
    expect(containsAggregate(firstItem('RETURN 1 + sum(2)'))).toBe(true);
    expect(containsAggregate(firstItem('RETURN [x IN [1] | x]'))).toBe(false);
    expect(containsAggregate(firstItem('MATCH (n) RETURN COUNT { MATCH (n)-->(m) RETURN count(m) }'))).toBe(false);
  });
});

/**
 * Unit tests of the parser and AST builder: the AST shape of representative queries,
 * literal decoding, operator precedence, patterns, clauses, schema commands, and the
 * errors (message, position, TCK detail) for text that does not parse.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QuerySyntaxError } from '../../src/errors.js';
import type {
  Clause,
  Expr,
  LabelExpr,
  PathPattern,
  Query,
  RelPattern,
  ReturnClause,
  SchemaCommand,
} from '../../src/frontend/ast.js';
import { parseQuery, parseStatement } from '../../src/frontend/parser.js';

/** Removes positions so that shapes can be compared with toEqual. */
function strip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'pos' ? undefined : typeof v === 'bigint' ? `${v}n` : v))) as T;
}

function clauses(text: string): Clause[] {
  return parseQuery(text).parts[0].clauses;
}

function returnClause(text: string): ReturnClause {
  const cs = clauses(text);
  const last = cs[cs.length - 1];
  if (last.kind !== 'Return') throw new Error('no RETURN');
  return last;
}

/** The expression of the first RETURN item. */
function expr(text: string): Expr {
  return returnClause(`RETURN ${text}`).items[0].expr;
}

function matchPattern(text: string): PathPattern {
  const c = clauses(`MATCH ${text} RETURN 1`)[0];
  if (c.kind !== 'Match') throw new Error('no MATCH');
  return c.patterns[0];
}

function firstRel(text: string): RelPattern {
  const step = matchPattern(text).steps[0];
  if (!('rel' in step)) throw new Error('no relationship');
  return step.rel;
}

function syntaxError(text: string): QuerySyntaxError {
  try {
    parseStatement(text);
  } catch (err) {
    if (err instanceof QuerySyntaxError) return err;
    throw err;
  }
  throw new Error(`expected a syntax error for: ${text}`);
}

const lit = (value: unknown) => ({ kind: 'Literal', value: typeof value === 'bigint' ? `${value}n` : value });
const v = (name: string) => ({ kind: 'Var', name });
const label = (name: string): LabelExpr => ({ kind: 'Label', name });

describe('literals', () => {
  it('reads integers as bigint in decimal, hexadecimal and octal', () => {
    expect(expr('42')).toMatchObject({ kind: 'Literal', value: 42n });
    expect(expr('0x1F')).toMatchObject({ value: 31n });
    expect(expr('0XfF')).toMatchObject({ value: 255n });
    expect(expr('0o17')).toMatchObject({ value: 15n });
    expect(expr('9223372036854775807')).toMatchObject({ value: 9223372036854775807n });
  });

  it('folds unary minus into integer and float literals', () => {
    expect(expr('-9223372036854775808')).toMatchObject({ kind: 'Literal', value: -9223372036854775808n });
    expect(expr('-0o1000000000000000000000')).toMatchObject({ value: -(2n ** 63n) });
    expect(expr('- 5')).toMatchObject({ kind: 'Literal', value: -5n });
    expect(expr('-1.5')).toMatchObject({ kind: 'Literal', value: -1.5 });
    expect(expr('-x')).toMatchObject({ kind: 'Unary', op: '-' });
  });

  it('rejects integers outside 64 bits with IntegerOverflow', () => {
    expect(syntaxError('RETURN 9223372036854775808').detail).toBe('IntegerOverflow');
    expect(syntaxError('RETURN -9223372036854775809').detail).toBe('IntegerOverflow');
    expect(syntaxError('RETURN 0x8000000000000000').detail).toBe('IntegerOverflow');
  });

  it('reads floats, including exponent forms and a leading dot', () => {
    expect(expr('1.0')).toMatchObject({ value: 1 });
    expect(typeof (expr('1.0') as { value: unknown }).value).toBe('number');
    expect(expr('.5')).toMatchObject({ value: 0.5 });
    expect(expr('1e9')).toMatchObject({ value: 1e9 });
    expect(expr('.1E-5')).toMatchObject({ value: 0.1e-5 });
    expect(syntaxError('RETURN 1.34E999').detail).toBe('FloatingPointOverflow');
  });

  it('reports malformed numbers as InvalidNumberLiteral', () => {
    for (const bad of ['0x', '0x1A2b3j4D5E6f7', '9223372h54775808', '12abc']) {
      expect(syntaxError(`RETURN ${bad} AS literal`).detail).toBe('InvalidNumberLiteral');
    }
  });

  it('decodes string escapes in both quote styles', () => {
    expect(expr(String.raw`'a\'b\"c\\d\n\t\r\b\f'`)).toMatchObject({ value: 'a\'b"c\\d\n\t\r\b\f' });
    expect(expr(String.raw`"x\"y"`)).toMatchObject({ value: 'x"y' });
    expect(expr(String.raw`'\u00e9\U0001F600'`)).toMatchObject({ value: 'é😀' });
    expect(syntaxError(String.raw`RETURN '\uH'`).detail).toBe('InvalidUnicodeLiteral');
  });

  it('builds lists, maps, booleans, null and parameters', () => {
    expect(strip(expr("[1, 'a', null, true, false]"))).toEqual({
      kind: 'List',
      items: [lit(1n), lit('a'), lit(null), lit(true), lit(false)],
    });
    expect(strip(expr('{a: 1, `b c`: 2, end: 3}'))).toEqual({
      kind: 'Map',
      entries: [
        { key: 'a', value: lit(1n) },
        { key: 'b c', value: lit(2n) },
        { key: 'end', value: lit(3n) },
      ],
    });
    expect(strip(expr('$name'))).toEqual({ kind: 'Param', name: 'name' });
    expect(strip(expr('$0'))).toEqual({ kind: 'Param', name: '0' });
  });
});

describe('expressions', () => {
  it('follows openCypher precedence', () => {
    expect(strip(expr('1 + 2 * 3'))).toEqual({
      kind: 'Binary',
      op: '+',
      left: lit(1n),
      right: { kind: 'Binary', op: '*', left: lit(2n), right: lit(3n) },
    });
    // unary minus binds tighter than ^, and ^ is left-associative
    expect(strip(expr('-2 ^ 2'))).toEqual({ kind: 'Binary', op: '^', left: lit(-2n), right: lit(2n) });
    expect(strip(expr('NOT a = b AND c'))).toEqual({
      kind: 'Binary',
      op: 'and',
      left: { kind: 'Unary', op: 'not', operand: { kind: 'Binary', op: '=', left: v('a'), right: v('b') } },
      right: v('c'),
    });
    expect(strip(expr('a OR b XOR c AND d'))).toEqual({
      kind: 'Binary',
      op: 'or',
      left: v('a'),
      right: { kind: 'Binary', op: 'xor', left: v('b'), right: { kind: 'Binary', op: 'and', left: v('c'), right: v('d') } },
    });
    expect(strip(expr('a STARTS WITH b + c'))).toMatchObject({ op: 'startsWith', right: { op: '+' } });
    expect(strip(expr('a IN l IS NULL'))).toMatchObject({ kind: 'IsNull', operand: { op: 'in' } });
    expect(strip(expr('a = b IS NOT NULL'))).toMatchObject({ op: '=', right: { kind: 'IsNull', negated: true } });
  });

  it('builds comparison chains only for two or more comparisons', () => {
    expect(strip(expr('a < b'))).toEqual({ kind: 'Binary', op: '<', left: v('a'), right: v('b') });
    expect(strip(expr('a < b <= c <> d'))).toEqual({
      kind: 'ComparisonChain',
      operands: [v('a'), v('b'), v('c'), v('d')],
      ops: ['<', '<=', '<>'],
    });
    expect(strip(expr('(a < b) < c'))).toMatchObject({ kind: 'Binary', op: '<', left: { kind: 'Binary' } });
  });

  it('builds string, regex and list predicates', () => {
    expect(expr('a ENDS WITH b')).toMatchObject({ op: 'endsWith' });
    expect(expr('a CONTAINS b')).toMatchObject({ op: 'contains' });
    expect(expr("a =~ 'x.*'")).toMatchObject({ op: '=~' });
    expect(expr('1 IN [1]')).toMatchObject({ op: 'in' });
  });

  it('builds property, index, slice and label postfixes', () => {
    expect(strip(expr('n.a.b'))).toEqual({ kind: 'Property', object: { kind: 'Property', object: v('n'), key: 'a' }, key: 'b' });
    expect(strip(expr('l[0]'))).toEqual({ kind: 'Index', object: v('l'), index: lit(0n) });
    expect(strip(expr('l[1..2]'))).toEqual({ kind: 'Slice', object: v('l'), from: lit(1n), to: lit(2n) });
    expect(strip(expr('l[..2]'))).toEqual({ kind: 'Slice', object: v('l'), to: lit(2n) });
    expect(strip(expr('l[1..]'))).toEqual({ kind: 'Slice', object: v('l'), from: lit(1n) });
    expect(strip(expr('n:A:B'))).toEqual({ kind: 'LabelCheck', operand: v('n'), labels: { kind: 'And', items: [label('A'), label('B')] } });
    expect(strip(expr('n:A|B'))).toMatchObject({ labels: { kind: 'Or', items: [label('A'), label('B')] } });
    expect(strip(expr('n IS A&!B'))).toMatchObject({
      kind: 'LabelCheck',
      labels: { kind: 'And', items: [label('A'), { kind: 'Not', item: label('B') }] },
    });
    expect(strip(expr('n:%'))).toMatchObject({ labels: { kind: 'Wildcard' } });
  });

  it('keeps keywords usable as property keys, labels and function names', () => {
    expect(expr('n.count')).toMatchObject({ kind: 'Property', key: 'count' });
    expect(expr('n.end')).toMatchObject({ key: 'end' });
    expect(expr('n.type')).toMatchObject({ key: 'type' });
    expect(expr('n:Order')).toMatchObject({ labels: label('Order') });
    expect(strip(returnClause('WITH 1 AS count, 2 AS filter RETURN count + filter').items[0].expr)).toEqual({
      kind: 'Binary',
      op: '+',
      left: v('count'),
      right: v('filter'),
    });
  });

  it('builds function calls, count(*) and exists()', () => {
    expect(strip(expr('toUpper(x)'))).toEqual({ kind: 'FunctionCall', name: 'toUpper', distinct: false, args: [v('x')] });
    expect(strip(expr('count(DISTINCT x)'))).toEqual({ kind: 'FunctionCall', name: 'count', distinct: true, args: [v('x')] });
    expect(strip(expr('count( * )'))).toEqual({ kind: 'CountStar' });
    expect(expr('date.truncate("day", d)')).toMatchObject({ kind: 'FunctionCall', name: 'date.truncate' });
    expect(expr('exists(n.prop)')).toMatchObject({ kind: 'FunctionCall', name: 'exists' });
  });

  it('builds CASE in both forms', () => {
    expect(strip(expr('CASE WHEN a THEN 1 ELSE 2 END'))).toEqual({
      kind: 'Case',
      whens: [{ when: v('a'), then: lit(1n) }],
      else: lit(2n),
    });
    expect(strip(expr("CASE x WHEN 1 THEN 'a' WHEN 2 THEN 'b' END"))).toEqual({
      kind: 'Case',
      test: v('x'),
      whens: [
        { when: lit(1n), then: lit('a') },
        { when: lit(2n), then: lit('b') },
      ],
    });
  });

  it('builds comprehensions, quantifiers and reduce', () => {
    expect(strip(expr('[x IN l WHERE x > 1 | x * 2]'))).toEqual({
      kind: 'ListComprehension',
      variable: 'x',
      source: v('l'),
      where: { kind: 'Binary', op: '>', left: v('x'), right: lit(1n) },
      projection: { kind: 'Binary', op: '*', left: v('x'), right: lit(2n) },
    });
    expect(strip(expr('[x IN l]'))).toEqual({ kind: 'ListComprehension', variable: 'x', source: v('l') });
    expect(strip(expr('[x IN l WHERE x:A | x]'))).toMatchObject({
      where: { kind: 'LabelCheck', labels: label('A') },
      projection: v('x'),
    });
    expect(strip(expr('[p = (a)-->(b) WHERE b.x | p]'))).toMatchObject({
      kind: 'PatternComprehension',
      pattern: { variable: 'p', start: { variable: 'a' } },
      projection: v('p'),
    });
    for (const q of ['all', 'any', 'none', 'single'] as const) {
      expect(strip(expr(`${q}(x IN l WHERE x)`))).toEqual({ kind: 'Quantifier', quantifier: q, variable: 'x', source: v('l'), where: v('x') });
    }
    expect(strip(expr('reduce(acc = 0, x IN l | acc + x)'))).toEqual({
      kind: 'Reduce',
      accumulator: 'acc',
      init: lit(0n),
      variable: 'x',
      source: v('l'),
      expr: { kind: 'Binary', op: '+', left: v('acc'), right: v('x') },
    });
  });

  it('builds map projections', () => {
    expect(strip(expr('n {.name, .*, age: 1, x}'))).toEqual({
      kind: 'MapProjection',
      object: v('n'),
      items: [
        { kind: 'PropertySelector', key: 'name' },
        { kind: 'AllProperties' },
        { kind: 'LiteralEntry', key: 'age', value: lit(1n) },
        { kind: 'VariableSelector', name: 'x' },
      ],
    });
  });

  it('tells pattern predicates from parenthesised expressions', () => {
    const where = (text: string): Expr | undefined => {
      const c = clauses(`MATCH (a), (b) WHERE ${text} RETURN a`)[0];
      return c.kind === 'Match' ? c.where : undefined;
    };
    expect(strip(where('(a)'))).toEqual(v('a'));
    expect(where('(a)-->(b)')).toMatchObject({ kind: 'PatternPredicate', pattern: { steps: [{ rel: { direction: 'out' } }] } });
    expect(where('(a)<--(b)')).toMatchObject({ kind: 'PatternPredicate' });
    expect(where('NOT (a)--(b)')).toMatchObject({ kind: 'Unary', operand: { kind: 'PatternPredicate' } });
    expect(where('(a:L)')).toMatchObject({ kind: 'LabelCheck' });
  });

  it('builds EXISTS, COUNT and COLLECT subqueries', () => {
    expect(expr('EXISTS { MATCH (n)-->(m) RETURN m }')).toMatchObject({ kind: 'ExistsSubquery', query: { kind: 'Query' } });
    const exists = strip(expr('exists { (n)-->(m) WHERE m.x > 1 }'));
    expect(exists).toMatchObject({ kind: 'ExistsSubquery', patterns: [{ start: { variable: 'n' } }], where: { op: '>' } });
    expect(exists).not.toHaveProperty('query');
    expect(expr('COUNT { (n)-->() }')).toMatchObject({ kind: 'CountSubquery', patterns: [{}] });
    expect(expr('COLLECT { MATCH (n) RETURN n.x }')).toMatchObject({ kind: 'CollectSubquery', query: { kind: 'Query' } });
  });

  it('builds GQL type predicates', () => {
    expect(expr('x IS TYPED INTEGER')).toMatchObject({ kind: 'TypePredicate', typeName: 'INTEGER', negated: false });
    expect(expr('x IS NOT TYPED string')).toMatchObject({ typeName: 'STRING', negated: true });
    expect(expr('x :: LIST<INTEGER> NOT NULL')).toMatchObject({ typeName: 'LIST<INTEGER> NOT NULL' });
    expect(expr('x :: LOCAL DATETIME')).toMatchObject({ typeName: 'LOCAL DATETIME' });
  });
});

describe('patterns', () => {
  it('reads directions', () => {
    expect(firstRel('(a)-->(b)').direction).toBe('out');
    expect(firstRel('(a)<--(b)').direction).toBe('in');
    expect(firstRel('(a)--(b)').direction).toBe('both');
    expect(firstRel('(a)<-->(b)').direction).toBe('both');
    expect(firstRel('(a)-[r]->(b)')).toMatchObject({ variable: 'r', direction: 'out' });
  });

  it('reads variable lengths', () => {
    expect(firstRel('(a)-[*]->(b)').length).toEqual({});
    expect(firstRel('(a)-[*2]->(b)').length).toEqual({ min: 2, max: 2 });
    expect(firstRel('(a)-[*2..5]->(b)').length).toEqual({ min: 2, max: 5 });
    expect(firstRel('(a)-[*..5]->(b)').length).toEqual({ max: 5 });
    expect(firstRel('(a)-[*2..]->(b)').length).toEqual({ min: 2 });
    expect(firstRel('(a)-[:T*1..3 {w: 1}]->(b)')).toMatchObject({ types: label('T'), length: { min: 1, max: 3 }, properties: { kind: 'Map' } });
    expect(firstRel('(a)-[:T]->{1,3}(b)').length).toEqual({ min: 1, max: 3 });
    expect(firstRel('(a)-[:T]->+(b)').length).toEqual({ min: 1 });
    expect(firstRel('(a)-[:T]->*(b)').length).toEqual({ min: 0 });
  });

  it('reads labels, types, properties and element predicates', () => {
    const p = matchPattern('(n:A:B {x: 1})-[r:T|U $props]->(m IS C WHERE m.y > 0)');
    expect(strip(p.start.labels)).toEqual({ kind: 'And', items: [label('A'), label('B')] });
    expect(strip(p.start.properties)).toMatchObject({ kind: 'Map' });
    const step = p.steps[0];
    if (!('rel' in step)) throw new Error('no rel');
    expect(strip(step.rel.types)).toEqual({ kind: 'Or', items: [label('T'), label('U')] });
    expect(strip(step.rel.properties)).toEqual({ kind: 'Param', name: 'props' });
    expect(strip(step.node)).toMatchObject({ variable: 'm', labels: label('C'), where: { op: '>' } });
    expect(strip(firstRel('(a)-[:T|:U]->(b)').types)).toEqual({ kind: 'Or', items: [label('T'), label('U')] });
  });

  it('reads named paths, shortest paths, selectors and modes', () => {
    expect(matchPattern('p = (a)-->(b)')).toMatchObject({ variable: 'p' });
    expect(matchPattern('p = shortestPath((a)-[*]-(b))')).toMatchObject({ variable: 'p', shortest: { kind: 'shortest' } });
    expect(matchPattern('allShortestPaths((a)-[*]-(b))')).toMatchObject({ shortest: { kind: 'allShortest' } });
    expect(matchPattern('ANY SHORTEST (a)-[*]-(b)')).toMatchObject({ shortest: { kind: 'shortest' } });
    expect(matchPattern('SHORTEST 3 (a)-[*]-(b)')).toMatchObject({ shortest: { kind: 'shortestK', k: 3 } });
    expect(matchPattern('TRAIL (a)-[*]-(b)')).toMatchObject({ mode: 'TRAIL' });
    expect(matchPattern('((a)-->(b))')).toMatchObject({ start: { variable: 'a' }, steps: [{}] });
  });

  it('reads quantified groups', () => {
    const p = matchPattern('(a) ((x)-[r]->(y) WHERE r.w > 1){1,3} (b)');
    const step = p.steps[0];
    if (!('group' in step)) throw new Error('no group');
    expect(strip(step.group)).toMatchObject({ kind: 'QuantifiedGroup', min: 1, max: 3, where: { op: '>' }, path: { start: { variable: 'x' } } });
    expect(step.node.variable).toBe('b');
    const plus = matchPattern('(a) ((x)-->(y))+ (b)').steps[0];
    expect('group' in plus && plus.group.max).toBeUndefined();
  });
});

describe('clauses', () => {
  it('builds MATCH / OPTIONAL MATCH with WHERE', () => {
    expect(strip(clauses('OPTIONAL MATCH (n), (m) WHERE n.x = 1 RETURN n')[0])).toMatchObject({
      kind: 'Match',
      optional: true,
      patterns: [{ start: { variable: 'n' } }, { start: { variable: 'm' } }],
      where: { op: '=' },
    });
  });

  it('keeps the text of each return item as written', () => {
    const r = returnClause('MATCH (n) RETURN n.name, count( * ), n.age  AS  age, `weird name`');
    expect(r.items.map((i) => i.text)).toEqual(['n.name', 'count( * )', 'n.age', '`weird name`']);
    expect(r.items.map((i) => i.alias)).toEqual([undefined, undefined, 'age', undefined]);
  });

  it('builds projections with DISTINCT, *, ORDER BY, SKIP/OFFSET and LIMIT', () => {
    const r = returnClause('MATCH (n) RETURN DISTINCT *, n.x AS x ORDER BY x DESC, n.y ASCENDING SKIP 1 LIMIT 2');
    expect(strip(r)).toMatchObject({
      distinct: true,
      star: true,
      items: [{ alias: 'x' }],
      orderBy: [{ descending: true }, { descending: false }],
      skip: lit(1n),
      limit: lit(2n),
    });
    expect(returnClause('RETURN 1 AS a OFFSET 3').skip).toMatchObject({ value: 3n });
    expect(clauses('MATCH (n) WITH n WHERE n.x > 1 RETURN n')[1]).toMatchObject({ kind: 'With', where: { op: '>' } });
  });

  it('builds UNWIND, CREATE/INSERT, MERGE, SET, REMOVE and DELETE', () => {
    expect(strip(clauses('UNWIND [1] AS x RETURN x')[0])).toEqual({ kind: 'Unwind', expr: { kind: 'List', items: [lit(1n)] }, variable: 'x' });
    expect(clauses('CREATE (a)-[:R]->(b)')[0]).toMatchObject({ kind: 'Create', patterns: [{ steps: [{}] }] });
    expect(clauses('INSERT (a:A)')[0]).toMatchObject({ kind: 'Create' });
    expect(strip(clauses('MERGE (n:A {id: 1}) ON CREATE SET n.c = 1 ON MATCH SET n.m = 2, n += {x: 1}')[0])).toMatchObject({
      kind: 'Merge',
      onCreate: [{ kind: 'SetProperty', key: 'c' }],
      onMatch: [{ kind: 'SetProperty', key: 'm' }, { kind: 'SetProperties', merge: true }],
    });
    expect(strip(clauses('MATCH (n) SET n:A:B, n.x = 1, n = {a: 1}, n[k] = 2, n.a.b = 3')[1])).toEqual({
      kind: 'Set',
      items: [
        { kind: 'SetLabels', variable: 'n', labels: ['A', 'B'] },
        { kind: 'SetProperty', target: v('n'), key: 'x', value: lit(1n) },
        { kind: 'SetProperties', variable: 'n', value: { kind: 'Map', entries: [{ key: 'a', value: lit(1n) }] }, merge: false },
        { kind: 'SetDynamicProperty', target: v('n'), key: v('k'), value: lit(2n) },
        { kind: 'SetProperty', target: { kind: 'Property', object: v('n'), key: 'a' }, key: 'b', value: lit(3n) },
      ],
    });
    expect(strip(clauses('MATCH (n) REMOVE n:A, n.x')[1])).toEqual({
      kind: 'Remove',
      items: [
        { kind: 'RemoveLabels', variable: 'n', labels: ['A'] },
        { kind: 'RemoveProperty', target: v('n'), key: 'x' },
      ],
    });
    expect(clauses('MATCH (n) DETACH DELETE n')[1]).toMatchObject({ kind: 'Delete', detach: true, exprs: [{ kind: 'Var' }] });
    expect(clauses('MATCH (n) DELETE n')[1]).toMatchObject({ detach: false });
  });

  it('builds procedure calls', () => {
    expect(strip(clauses("CALL db.labels() YIELD label AS l WHERE l <> 'x' RETURN l")[0])).toEqual({
      kind: 'Call',
      procedure: 'db.labels',
      args: [],
      yields: [{ name: 'label', alias: 'l' }],
      where: { kind: 'Binary', op: '<>', left: v('l'), right: lit('x') },
    });
    expect(strip(clauses('CALL db.labels')[0])).toEqual({ kind: 'Call', procedure: 'db.labels' });
    expect(clauses('CALL test.my.proc(1, $p) YIELD *')[0]).toMatchObject({ args: [{}, {}], yields: '*' });
    expect(syntaxError("CALL test.my.proc('Stefan', 1) YIELD * RETURN city").detail).toBe('UnexpectedSyntax');
  });

  it('builds CALL subqueries', () => {
    expect(strip(clauses('CALL { MATCH (n) RETURN n } IN TRANSACTIONS OF 10 ROWS')[0])).toMatchObject({
      kind: 'SubqueryCall',
      optional: false,
      inTransactions: { batchSize: lit(10n) },
    });
    expect(clauses('OPTIONAL CALL (a, b) { RETURN 1 AS x } RETURN x')[0]).toMatchObject({ optional: true, importing: ['a', 'b'] });
    expect(clauses('CALL (*) { RETURN 1 AS x } RETURN x')[0]).toMatchObject({ importing: '*' });
    expect(clauses('CALL { RETURN 1 AS x } RETURN x')[0]).not.toHaveProperty('importing');
  });

  it('builds FOREACH and LOAD CSV', () => {
    expect(strip(clauses('FOREACH (x IN [1] | CREATE (n {v: x}) SET n.y = 1)')[0])).toMatchObject({
      kind: 'Foreach',
      variable: 'x',
      clauses: [{ kind: 'Create' }, { kind: 'Set' }],
    });
    expect(strip(clauses("LOAD CSV WITH HEADERS FROM 'file:///x.csv' AS row FIELDTERMINATOR ';' RETURN row")[0])).toEqual({
      kind: 'LoadCsv',
      withHeaders: true,
      url: lit('file:///x.csv'),
      variable: 'row',
      fieldTerminator: ';',
    });
  });

  it('builds GQL FILTER, LET and standalone ORDER BY / OFFSET / LIMIT', () => {
    const cs = clauses('MATCH (a) FILTER WHERE a.x > 1 LET y = 1, z = 2 ORDER BY y DESC OFFSET 1 LIMIT 2 RETURN y');
    expect(strip(cs.slice(1, 4))).toEqual([
      { kind: 'Filter', where: { kind: 'Binary', op: '>', left: { kind: 'Property', object: v('a'), key: 'x' }, right: lit(1n) } },
      { kind: 'Let', bindings: [{ variable: 'y', expr: lit(1n) }, { variable: 'z', expr: lit(2n) }] },
      { kind: 'OrderByPage', orderBy: [{ expr: v('y'), descending: true }], skip: lit(1n), limit: lit(2n) },
    ]);
    expect(clauses('MATCH (a) FILTER a.x RETURN a')[1]).toMatchObject({ kind: 'Filter' });
  });

  it('builds UNION and UNION ALL', () => {
    const q: Query = parseQuery('RETURN 1 AS a UNION ALL RETURN 2 AS a UNION RETURN 3 AS a');
    expect(q.parts).toHaveLength(3);
    expect(q.unionAll).toEqual([true, false]);
  });
});

describe('statements', () => {
  it('accepts EXPLAIN / PROFILE, comments and a trailing semicolon', () => {
    expect(parseStatement('EXPLAIN MATCH (n) RETURN n;').explain).toBe('explain');
    expect(parseStatement('profile RETURN 1').explain).toBe('profile');
    expect(parseStatement('MATCH (n) // comment\nRETURN /* block\n comment */ n').body.kind).toBe('Query');
    expect(parseStatement('match (n) return n').body.kind).toBe('Query');
  });

  it('builds schema commands', () => {
    const body = (text: string): SchemaCommand | Query => parseStatement(text).body;
    expect(strip(body('CREATE INDEX idx IF NOT EXISTS FOR (n:Person) ON (n.name, n.age)'))).toEqual({
      kind: 'CreateIndex',
      name: 'idx',
      ifNotExists: true,
      entity: 'node',
      label: 'Person',
      properties: ['name', 'age'],
      indexType: 'range',
    });
    expect(body('CREATE TEXT INDEX FOR ()-[r:KNOWS]-() ON (r.since)')).toMatchObject({ entity: 'relationship', label: 'KNOWS', indexType: 'text' });
    expect(body("CREATE VECTOR INDEX v FOR (n:Doc) ON (n.emb) OPTIONS {indexConfig: {dims: 3}}")).toMatchObject({ indexType: 'vector', options: { kind: 'Map' } });
    expect(strip(body('CREATE CONSTRAINT c1 FOR (n:Person) REQUIRE n.email IS UNIQUE'))).toEqual({
      kind: 'CreateConstraint',
      name: 'c1',
      ifNotExists: false,
      entity: 'node',
      label: 'Person',
      properties: ['email'],
      constraint: 'unique',
    });
    expect(body('CREATE CONSTRAINT FOR (n:P) REQUIRE (n.a, n.b) IS NODE KEY')).toMatchObject({ constraint: 'nodeKey', properties: ['a', 'b'] });
    expect(body('CREATE CONSTRAINT IF NOT EXISTS FOR ()-[r:R]-() REQUIRE r.a IS NOT NULL')).toMatchObject({ constraint: 'notNull', entity: 'relationship', ifNotExists: true });
    expect(strip(body('DROP INDEX idx IF EXISTS'))).toEqual({ kind: 'DropIndex', name: 'idx', ifExists: true });
    expect(strip(body('DROP CONSTRAINT c1'))).toEqual({ kind: 'DropConstraint', name: 'c1', ifExists: false });
    expect(body('SHOW INDEXES')).toMatchObject({ kind: 'Show', what: 'indexes' });
    expect(body('SHOW CONSTRAINTS')).toMatchObject({ what: 'constraints' });
    expect(body('SHOW PROCEDURES')).toMatchObject({ what: 'procedures' });
    expect(body('SHOW FUNCTIONS')).toMatchObject({ what: 'functions' });
  });

  it('records 1-based positions', () => {
    const c = clauses('MATCH (n)\n  RETURN n.x');
    expect(c[0].pos).toEqual({ line: 1, column: 1 });
    expect(c[1].pos).toEqual({ line: 2, column: 3 });
    if (c[1].kind !== 'Return') throw new Error('no RETURN');
    expect(c[1].items[0].expr.pos).toEqual({ line: 2, column: 10 });
  });
});

describe('syntax errors', () => {
  it('names the offending input and what was expected, with a position', () => {
    const e = syntaxError('MATCH RETURN n');
    expect(e.message).toBe("Invalid input 'RETURN': expected a pattern (line 1, column 7)");
    expect(e.position).toEqual({ line: 1, column: 7 });
    expect(e.detail).toBe('UnexpectedSyntax');
    expect(e.code).toBe('COMPILE_ERR');
    expect(syntaxError('RETURN (1 + 2').message).toBe("Unexpected end of input: expected ')' (line 1, column 14)");
    expect(syntaxError('MATCH (n)\nWHERE RETURN n').message).toMatch(/^Invalid input 'RETURN': expected an expression \(line 2, column 7\)/);
    expect(syntaxError("RETURN 'abc").message).toMatch(/Unterminated string/);
    expect(syntaxError('RETURN 1 /* open').message).toMatch(/Unterminated comment/);
  });

  it('uses the TCK detail codes it can detect', () => {
    expect(syntaxError('MATCH (a)-[:LIKES..]->(c) RETURN c').detail).toBe('InvalidRelationshipPattern');
    expect(syntaxError('MATCH (a)-[:LIKES*-2]->(c) RETURN c').detail).toBe('InvalidRelationshipPattern');
    expect(syntaxError('RETURN 42 \u2014 41').detail).toBe('InvalidUnicodeCharacter');
    expect(syntaxError('RETURN {k1#k: 1}').detail).toBe('UnexpectedSyntax');
    expect(syntaxError('RETURN [, ]').detail).toBe('UnexpectedSyntax');
    expect(syntaxError('RETURN {1B2c3e67:1} AS literal').detail).toBe('UnexpectedSyntax');
  });

  it('refuses pathological nesting with a syntax error instead of crashing', () => {
    const deep = `RETURN ${'('.repeat(5000)}1${')'.repeat(5000)}`;
    expect(syntaxError(deep).message).toMatch(/nested too deeply/);
    const long = `RETURN ${Array.from({ length: 5000 }, () => '1').join(' + ')}`;
    let error: unknown;
    try {
      parseStatement(long);
    } catch (err) {
      error = err;
    }
    if (error !== undefined) expect(error).toBeInstanceOf(QuerySyntaxError);
  });

  it('never throws anything but QuerySyntaxError (fuzzed)', () => {
    const pieces = ['MATCH', 'RETURN', '(', ')', '[', ']', '{', '}', '-', '->', '<-', ':', 'n', 'x', '1', "'s'", ',', '.', '..', '*', '|', 'WHERE', 'AS', '$p', '=', '+', 'CASE', 'END', '`', '"', '\\', '0x', '1e999', '9999999999999999999999'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 25 }), (parts) => {
        try {
          parseStatement(parts.join(' '));
        } catch (err) {
          if (!(err instanceof QuerySyntaxError)) throw err;
        }
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        try {
          parseStatement(text);
        } catch (err) {
          if (!(err instanceof QuerySyntaxError)) throw err;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('identifiers', () => {
  it('take Unicode ID_Start / ID_Continue characters, in the BMP and beyond it, as names and parameter names', () => {
    const r = returnClause('RETURN 1 AS ñandú, 2 AS 名前, 3 AS 𝑥𝑦, 4 AS café_2, $çà AS p, 5 AS _x·y');
    expect(r.items.map((i) => i.alias)).toEqual(['ñandú', '名前', '𝑥𝑦', 'café_2', 'p', '_x·y']);
    expect(strip(r.items[4].expr)).toMatchObject({ kind: 'Param', name: 'çà' });
    const m = clauses('MATCH (ключ:Étiquette)-[:ΣΧΕΣΗ]->(b) RETURN ключ')[0];
    expect(JSON.stringify(strip(m))).toContain('"ключ"');
    expect(JSON.stringify(strip(m))).toContain('"Étiquette"');
  });

  it('refuse characters outside ID_Start / ID_Continue: a digit or combining mark cannot start a name, a symbol cannot be in one', () => {
    for (const text of ['RETURN 1 AS a€', 'RETURN 1 AS €a', 'RETURN 1 AS ́a', 'RETURN 1 AS ٣a', 'RETURN 1 AS a😀']) {
      expect(() => parseQuery(text), text).toThrow(QuerySyntaxError);
    }
    // A Unicode digit or combining mark may continue one.
    expect(returnClause('RETURN 1 AS a٣́').items[0].alias).toBe('a٣́');
  });
});

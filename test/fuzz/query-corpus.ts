/**
 * What the query fuzzer builds its inputs from: the lexer's own vocabulary (every keyword
 * and punctuation mark the grammar knows), a handful of identifiers and literals chosen to
 * reach edge cases (huge integers, unterminated strings, escapes, unicode), and seed
 * queries to mutate — a built-in set covering every clause, plus the openCypher TCK's
 * queries when the TCK is beside the clone (../shared/tck, or $GRAPHDB_TCK_DIR).
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GqlLexer } from '../../src/frontend/generated/GqlLexer.js';

/** Every literal token of the grammar: keywords (`match`, `shortestpath`, …) and punctuation. */
export const GRAMMAR_TOKENS: readonly string[] = GqlLexer.literalNames.filter((n): n is string => n !== null).map((n) => n.slice(1, -1));

export const IDENTIFIERS: readonly string[] = ['n', 'm', 'r', 'p', 'x', 'a', 'b', 'Person', 'KNOWS', 'name', 'age', '`weird name`', '`', '`a``b`', 'é', '_', 'count', 'size', 'toUpper', 'apoc.text.join', 'apoc.coll.sort', 'db.labels', 'range', 'exists', 'coalesce', 'date', 'duration', 'point'];

export const LITERALS: readonly string[] = [
  '0', '1', '-1', '42', '9223372036854775807', '9223372036854775808', '-9223372036854775808', '0x7fffffffffffffff', '0o777', '1e308', '1e309', '.5', '1.', '0.0', 'NaN', 'Infinity',
  "'abc'", "''", '"dq"', "'unterminated", "'esc\\'ape'", "'\\u00e9'", "'\\uZZZZ'", "'a\\nb'", "'\\\\'", "'(a+)+'", "'%s %d'",
  '$p', '$s', '$l', '$m', '$missing', '$0', 'null', 'true', 'false', '[1, 2, 3]', '{a: 1}', '{}', '[]', '*', '*1..3', '*..', '..', '-->', '<--', '--', '-[:KNOWS]->',
];

/** Queries that use every clause and most expression forms; mutated by the fuzzer. */
const BUILT_IN_SEEDS: readonly string[] = [
  'MATCH (n) RETURN n',
  'MATCH (n:Person {name: $s})-[r:KNOWS*1..3]->(m) WHERE m.age > 30 RETURN n.name, count(m) AS c ORDER BY c DESC SKIP 1 LIMIT 5',
  'UNWIND range(1, 10) AS x WITH x WHERE x % 2 = 0 RETURN collect(x) AS evens',
  'CREATE (a:Person {name: "a", age: 1})-[:KNOWS {since: 2020}]->(b:Person {name: "b"}) RETURN a, b',
  'MERGE (n:Person {name: $s}) ON CREATE SET n.created = true ON MATCH SET n.seen = coalesce(n.seen, 0) + 1 RETURN n',
  'MATCH (n) OPTIONAL MATCH (n)-[r]->(m) RETURN n, type(r), m',
  'MATCH (n) SET n:Tagged, n += {x: 1} REMOVE n.age RETURN labels(n)',
  'MATCH (n:Tmp) DETACH DELETE n',
  'MATCH p = shortestPath((a:Person)-[*..5]-(b:Person)) WHERE a <> b RETURN length(p), nodes(p)',
  'MATCH p = (a)-[*0..2]->(b) RETURN [x IN nodes(p) | x.name] AS names',
  'RETURN [x IN range(1, 5) WHERE x > 2 | x * x] AS squares, reduce(acc = 0, y IN [1, 2, 3] | acc + y) AS total',
  'RETURN CASE WHEN $p > 0 THEN "pos" WHEN $p < 0 THEN "neg" ELSE "zero" END AS sign',
  'RETURN any(x IN $l WHERE x = 2), all(x IN $l WHERE x > 0), none(x IN [] WHERE true), single(x IN $l WHERE x = 3)',
  "RETURN 'abc' =~ '(?i)A.C' AS m, 'x' STARTS WITH 'x', 'y' ENDS WITH 'z', 'abc' CONTAINS 'b'",
  'WITH {a: 1, b: [1, 2, {c: 3}]} AS m RETURN m.a, m.b[2].c, keys(m), m {.a, z: 9}',
  'MATCH (n) WITH n.age AS age, count(*) AS c RETURN age, c ORDER BY age',
  'MATCH (n) RETURN DISTINCT labels(n) AS ls UNION MATCH (m) RETURN DISTINCT labels(m) AS ls',
  'MATCH (n) RETURN n.name UNION ALL RETURN "x" AS `n.name`',
  'UNWIND [1, 2, 3] AS x CALL { WITH x RETURN x * 10 AS y } RETURN x, y',
  'CALL db.labels() YIELD label RETURN label',
  'CALL dbms.procedures() YIELD name RETURN count(name)',
  'FOREACH (i IN range(1, 3) | CREATE (:Tmp {i: i}))',
  'MATCH (n) WHERE EXISTS { MATCH (n)-->() } RETURN count(n)',
  'MATCH (n) RETURN COUNT { (n)-->() } AS degree',
  'RETURN date("2020-01-02") + duration("P1M") AS d, datetime({year: 2020, month: 2, day: 30}) AS bad',
  'RETURN point({x: 1, y: 2}) AS p, point.distance(point({x: 0, y: 0}), point({x: 3, y: 4})) AS d',
  'RETURN 9223372036854775807 + 1 AS overflow',
  'RETURN 1 / 0 AS boom, 1.0 / 0 AS inf, toInteger("x") AS nope, toFloat("1e3") AS f',
  'RETURN substring("hello", 1, 3), left("hello", 2), split("a,b", ","), replace("aaa", "a", "bb")',
  'RETURN apoc.text.join(["a", "b"], "-"), apoc.coll.sort([3, 1, 2]), apoc.map.merge({a: 1}, {b: 2})',
  'RETURN apoc.text.replace("a1b22", "[0-9]+", "#") AS r, apoc.text.regexGroups("k=v", "(\\\\w)=(\\\\w)") AS g',
  'MATCH (n) RETURN apoc.agg.median(n.age), apoc.agg.percentiles(n.age), apoc.agg.statistics(n.age)',
  'CREATE INDEX person_name IF NOT EXISTS FOR (n:Person) ON (n.name)',
  'SHOW INDEXES YIELD name RETURN name',
  'SHOW FUNCTIONS YIELD name WHERE name STARTS WITH "apoc.text" RETURN name',
  'EXPLAIN MATCH (n:Person)-[:KNOWS]->(m) RETURN m',
  'PROFILE MATCH (n) RETURN count(n)',
  'MATCH (n) RETURN n ORDER BY n.name SKIP $p LIMIT $p',
  'WITH [1, [2, [3]]] AS l RETURN l[1][1][0], l[-1], l[0..1], size(l)',
  'MATCH (a), (b) WHERE id(a) < id(b) MERGE (a)-[r:LINK]->(b) RETURN count(r)',
  'UNWIND $l AS x WITH x ORDER BY x DESC RETURN head(collect(x)), last(collect(x))',
  'MATCH (n:Person) WITH n ORDER BY n.age LIMIT 2 SET n.flag = true RETURN n.name',
  'RETURN toString(1.5), toBoolean("true"), toInteger(2.7), abs(-3), sqrt(2), rand() < 1, sign(-2)',
];

function tckDir(): string | undefined {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dir = process.env.GRAPHDB_TCK_DIR || path.resolve(root, '..', 'shared', 'tck', 'features');
  return fs.existsSync(dir) ? dir : undefined;
}

function featureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...featureFiles(p));
    else if (e.name.endsWith('.feature')) out.push(p);
  }
  return out.sort();
}

/** The doc strings (`"""…"""`) of TCK steps that execute a query, with their indentation removed. */
function tckQueries(dir: string): string[] {
  const out = new Set<string>();
  for (const file of featureFiles(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    const re = /executing (?:control )?query:\s*\n([ \t]*)"""\n([\s\S]*?)\n[ \t]*"""/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const indent = m[1].length;
      out.add(m[2].split('\n').map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length))).join('\n'));
    }
  }
  return [...out];
}

/** The seeds: the built-in set, plus every TCK query when the TCK is present. */
export function seedQueries(): { seeds: string[]; fromTck: number } {
  const dir = tckDir();
  const tck = dir === undefined ? [] : tckQueries(dir);
  return { seeds: [...BUILT_IN_SEEDS, ...tck], fromTck: tck.length };
}

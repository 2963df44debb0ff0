/**
 * `graphdb --playground`: loads the demo graph from `fixtures/playground.cypher` into a
 * database and writes the banner with example queries that work on it.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../engine/database.js';
import { toGraphDbError } from '../errors.js';
import { packageRoot } from './package-info.js';
import { splitScript } from './statement-splitter.js';

export function playgroundScriptPath(): string {
  return join(packageRoot(), 'fixtures', 'playground.cypher');
}

/** Runs every statement of the demo script; a failing statement is reported with its number. */
export function loadPlayground(db: Database, file = playgroundScriptPath()): void {
  const statements = splitScript(readFileSync(file, 'utf8'));
  statements.forEach((statement, i) => {
    try {
      db.executeSync(statement);
    } catch (err) {
      const error = toGraphDbError(err);
      throw new Error(`The playground data failed to load (statement ${i + 1} of ${file}): ${error.message}`, { cause: err });
    }
  });
}

export const EXAMPLE_QUERIES: readonly string[] = [
  "MATCH (p:Person)-[:LIVES_IN]->(:City {name: 'Lisbon'}) RETURN p.name, p.age ORDER BY p.age;",
  'MATCH (p:Person)-[w:WORKS_AT]->(c:Company) RETURN c.name, count(p) AS staff, round(avg(w.salary)) AS avgSalary ORDER BY staff DESC;',
  "MATCH (:Person {name: 'Alice Martin'})-[:KNOWS*1..2]->(b:Person) RETURN DISTINCT b.name;",
  'MATCH (p:Person)-[h:HAS_SKILL]->(s:Skill) WHERE h.level >= 4 RETURN s.name, collect(p.name) AS experts;',
  "MATCH path = (:Person {name: 'Alice Martin'})-[:KNOWS*..5]->(:Person {name: 'Tom Becker'}) RETURN [n IN nodes(path) | n.name] AS chain ORDER BY length(path) LIMIT 1;",
];

export function playgroundBanner(db: Database): string {
  const s = db.stats();
  return [
    `Playground: a demo graph of ${s.nodes} nodes and ${s.relationships} relationships`,
    '(people, companies, cities and skills; KNOWS, WORKS_AT, LIVES_IN, LOCATED_IN, HAS_SKILL).',
    'Try:',
    ...EXAMPLE_QUERIES.map((q) => `  ${q}`),
  ].join('\n');
}

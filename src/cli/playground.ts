/**
 * `graphdb --playground`: loads the demo graph from `fixtures/playground.cypher` into a
 * database and writes the banner with example queries that work on it. With --data-dir
 * the demo data goes in only when the store is empty (its first start), so it is not
 * added again at every start.
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

/** Loads the demo graph unless the database already holds data; returns whether it loaded. */
export function loadPlaygroundIfEmpty(db: Database, file = playgroundScriptPath()): boolean {
  const s = db.stats();
  if (s.nodes > 0 || s.relationships > 0) return false;
  loadPlayground(db, file);
  return true;
}

/**
 * Queries that show the demo graph off. Lines stay short enough for an 80-column terminal;
 * a query may span lines, as the REPL accepts them.
 */
export const EXAMPLE_QUERIES: readonly string[] = [
  "MATCH (p)-[:LIVES_IN]->(:City {name: 'Lisbon'}) RETURN p.name, p.age;",
  'MATCH (p:Person)-[w:WORKS_AT]->(c:Company)\n' +
    'RETURN c.name, count(p) AS staff, round(avg(w.salary)) AS avgSalary\n' +
    'ORDER BY staff DESC;',
  "MATCH (:Person {name: 'Alice Martin'})-[:KNOWS*1..2]->(b:Person)\nRETURN DISTINCT b.name;",
  'MATCH (p:Person)-[h:HAS_SKILL]->(s:Skill) WHERE h.level >= 4\nRETURN s.name, collect(p.name) AS experts;',
  'MATCH path = (a:Person)-[:KNOWS*..5]->(b:Person)\n' +
    "WHERE a.name = 'Alice Martin' AND b.name = 'Tom Becker'\n" +
    'RETURN [n IN nodes(path) | n.name] AS chain ORDER BY length(path) LIMIT 1;',
];

export function playgroundBanner(db: Database): string {
  const s = db.stats();
  const examples = EXAMPLE_QUERIES.map((q) =>
    q
      .split('\n')
      .map((line, i) => (i === 0 ? '  ' : '    ') + line)
      .join('\n'),
  );
  return [
    `Playground: ${s.nodes} nodes and ${s.relationships} relationships. People, companies, cities`,
    'and skills, joined by KNOWS, WORKS_AT, LIVES_IN, LOCATED_IN and HAS_SKILL.',
    'Try these (copy and paste works, several lines too):',
    '',
    examples.join('\n\n'),
  ].join('\n');
}

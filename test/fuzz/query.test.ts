/**
 * Fuzzing the query pipeline — lexer, parser, semantic checks, planner, code generation
 * and execution — with fast-check. Inputs are soups of the grammar's own tokens, seed
 * queries (built-in and the openCypher TCK's) cut, spliced and sprinkled with tokens, and
 * raw text. Every input must end in a result or a typed error (never InternalError, never
 * a plain Error); a syntax error must say where (line and column); and no input may run
 * far past the query time limit.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GraphDbError, InternalError } from '../../src/errors.js';
import { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import { fromTck, queryText, seeds } from './query-arbitraries.js';
import { fuzzRuns, fuzzTimeout, reportFigures } from './fuzz-config.js';

const RUNS = fuzzRuns(1000);
const TIMEOUT_MS = 1000;
/** A case this far past its time limit has escaped the deadline: a hang, as far as a server is concerned. */
const HANG_MS = 20_000;
const PARAMS = { p: 2, s: 'a', l: [1, 2, 3], m: { k: 'v' } };

function freshDatabase(): Database {
  const db = Database.openInMemory({
    fileAccess: FileAccessPolicy.none(),
    memoryLimits: { maxListSize: 200_000, maxStringLength: 1_000_000, maxQueryCells: 2_000_000 },
    planCacheSize: 200,
  });
  db.executeSync(
    "CREATE (a:Person {name: 'a', age: 31})-[:KNOWS {since: 2001}]->(b:Person {name: 'b', age: 25})-[:KNOWS]->(c:Person:Admin {name: 'c'}), (c)-[:LINK]->(a), (:Tmp {i: 0})",
  );
  return db;
}

/** What one input did: 'ok', or the error code it was refused with. */
function runQuery(db: Database, query: string): string {
  const started = performance.now();
  let outcome = 'ok';
  try {
    db.executeSync(query, PARAMS, { timeoutMs: TIMEOUT_MS });
  } catch (err) {
    if (!(err instanceof GraphDbError)) throw new Error(`untyped error ${String(err)} for query:\n${query}`, { cause: err });
    if (err instanceof InternalError) {
      const original = err.original instanceof Error ? (err.original.stack ?? err.original.message) : String(err.original);
      throw new Error(`internal error for query:\n${query}\n${original}`, { cause: err });
    }
    if (err.kind === 'SyntaxError' && err.phase === 'compile') {
      const pos = err.position;
      if (pos === undefined) throw new Error(`syntax error without a position (${err.message}) for query:\n${query}`, { cause: err });
      expect(pos.line).toBeGreaterThanOrEqual(1);
      expect(pos.column).toBeGreaterThanOrEqual(1);
      expect(pos.line).toBeLessThanOrEqual(query.split('\n').length + 1);
    }
    outcome = err.code;
  }
  const ms = performance.now() - started;
  if (ms > HANG_MS) throw new Error(`query ran ${ms.toFixed(0)} ms with a ${TIMEOUT_MS} ms limit:\n${query}`);
  return outcome;
}

describe(`query fuzz (${RUNS} cases)`, () => {
  it('every input ends in a result or a typed error; syntax errors carry a position', () => {
    let db = freshDatabase();
    let cases = 0;
    const outcomes = new Map<string, number>();
    const started = performance.now();
    fc.assert(
      fc.property(queryText, (q) => {
        // Mutated writes grow the graph; start again before it slows the run down.
        if (++cases % 1000 === 0 || db.graph.nodeCount > 5000) db = freshDatabase();
        const outcome = runQuery(db, q);
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }),
      { numRuns: RUNS },
    );
    const summary = [...outcomes].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
    reportFigures('query', cases, started, `${seeds.length} seeds (${fromTck} from the TCK); outcomes: ${summary}`);
    expect(outcomes.get('ok') ?? 0).toBeGreaterThan(0);
  }, fuzzTimeout(RUNS, 50));

  it('the server answers again after the fuzz: a plain query still runs', () => {
    const db = freshDatabase();
    expect(db.executeSync('MATCH (n:Person) RETURN count(n) AS c').records).toEqual([[3]]);
  });
});

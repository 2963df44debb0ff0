/**
 * Parser conformance against the openCypher TCK: every query of a scenario that does not
 * expect a compile-time SyntaxError must parse; for the scenarios that do expect one, the
 * test reports how many the parser itself rejects (the rest are semantic errors, caught
 * later by the semantic checker). The TCK is read from `$GRAPHDB_TCK_DIR` or
 * `../shared/tck/features`; without it the test is skipped with a message.
 */

import { describe, expect, it } from 'vitest';
import { QuerySyntaxError } from '../../src/errors.js';
import { parseStatement } from '../../src/frontend/parser.js';
import { loadTckQueries, tckFeaturesDir } from './tckQueries.js';

const dir = tckFeaturesDir();

if (!dir) {
  console.warn('TCK features not found (set GRAPHDB_TCK_DIR or place them at ../shared/tck/features): parser conformance skipped');
}

describe.skipIf(!dir)('parser conformance with the openCypher TCK', () => {
  const queries = dir ? loadTckQueries(dir) : [];

  it('parses every query that is not expected to be a syntax error', () => {
    const failures: string[] = [];
    let total = 0;
    const started = performance.now();
    for (const q of queries) {
      if (q.expectsSyntaxError) continue;
      total++;
      try {
        parseStatement(q.query);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        failures.push(`${q.file} — ${q.scenario}\n    ${q.query.replace(/\n/g, '\n    ')}\n    => ${message}`);
      }
    }
    const elapsed = performance.now() - started;
    console.log(
      `TCK parse rate: ${total - failures.length}/${total} valid queries parse ` +
        `(${(elapsed / Math.max(total, 1)).toFixed(3)} ms per query on average)`,
    );
    expect(failures, failures.slice(0, 20).join('\n')).toEqual([]);
  });

  it('reports how many expected syntax errors the parser rejects', () => {
    const expected = queries.filter((q) => q.expectsSyntaxError);
    const byDetail = new Map<string, { total: number; rejected: number; sameDetail: number }>();
    let rejected = 0;
    for (const q of expected) {
      const detail = q.expectsSyntaxError ?? '';
      const entry = byDetail.get(detail) ?? { total: 0, rejected: 0, sameDetail: 0 };
      entry.total++;
      try {
        parseStatement(q.query);
      } catch (err) {
        expect(err).toBeInstanceOf(QuerySyntaxError);
        rejected++;
        entry.rejected++;
        if (err instanceof QuerySyntaxError && err.detail === detail) entry.sameDetail++;
      }
      byDetail.set(detail, entry);
    }
    const lines = [...byDetail.entries()]
      .sort((a, b) => b[1].total - a[1].total)
      .map(([d, e]) => `  ${d}: ${e.rejected}/${e.total} rejected by the parser (${e.sameDetail} with this detail)`);
    console.log(`TCK expected syntax errors rejected by the parser: ${rejected}/${expected.length}\n${lines.join('\n')}`);
    expect(expected.length).toBeGreaterThan(0);
  });
});

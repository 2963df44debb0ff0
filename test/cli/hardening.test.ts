/**
 * CLI findings of issue 9: a `__proto__` column and parameter survive, `--query-timeout`
 * stops a query, and `--playground` on a non-empty store says why it loaded nothing.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

describe('CLI hardening', () => {
  it('keeps a column named __proto__ and honours --param __proto__', () => {
    const run = runCli(['query', 'RETURN 1 AS __proto__, $__proto__ AS p', '--json', '--param', '__proto__=7']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('"__proto__":"1"');
    expect(JSON.parse(run.stdout)).toEqual({ columns: ['__proto__', 'p'], rows: [JSON.parse('{"__proto__":"1","p":"7"}')] });
  });

  it('--query-timeout stops a long query with TIMEOUT', () => {
    const run = runCli(['query', 'UNWIND range(1, 5000000) AS x UNWIND range(1, 100) AS y WITH x WHERE x < 0 RETURN count(x) AS n', '--json', '--query-timeout', '200']);
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: true, code: 'TIMEOUT' });
    expect(runCli(['query', 'RETURN 1', '--query-timeout', 'soon']).status).toBe(2);
  });

  it('--playground on a non-empty --data-dir says it did not load the demo', () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-pg-'));
    expect(runCli(['query', 'CREATE (:Mine)', '--data-dir', dir]).status).toBe(0);
    const run = runCli(['query', 'MATCH (n) RETURN count(n) AS n', '--json', '--playground', '--data-dir', dir]);
    expect(JSON.parse(run.stdout)).toEqual({ columns: ['n'], rows: [{ n: '1' }] });
    expect(run.stderr).toMatch(/--playground: the database is not empty, so the demo graph was not loaded/);
  });
});

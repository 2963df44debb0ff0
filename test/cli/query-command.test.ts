/** `graphdb query`: JSON and table output, errors, exit codes, parameters and dumps. */

import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli.js';

describe('graphdb query --json', () => {
  it('prints exactly the SPEC result object', () => {
    const run = runCli(['query', 'UNWIND [1,2,3] AS x RETURN x, x*2 AS y', '--json']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      '{"columns":["x","y"],"rows":[{"x":"1","y":"2"},{"x":"2","y":"4"},{"x":"3","y":"6"}]}\n',
    );
    expect(run.stderr).toBe('');
  });

  it('renders every cell as a string', () => {
    const run = runCli(['query', "RETURN 1.0 AS f, 'a' AS s, null AS n, true AS b, [1, 'x'] AS l", '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      columns: ['f', 's', 'n', 'b', 'l'],
      rows: [{ f: '1.0', s: 'a', n: 'null', b: 'true', l: "[1, 'x']" }],
    });
  });

  it('prints the error object with COMPILE_ERR and the position for a syntax error', () => {
    const run = runCli(['query', 'MATCH (n RETURN n', '--json']);
    expect(run.status).toBe(1);
    const body = JSON.parse(run.stdout) as { error: boolean; code: string; message: string };
    expect(body.error).toBe(true);
    expect(body.code).toBe('COMPILE_ERR');
    expect(body.message).toMatch(/line 1, column \d+/);
    expect(Object.keys(body).sort()).toEqual(['code', 'error', 'message']);
  });

  it('prints the error object for a runtime error too', () => {
    const run = runCli(['query', 'RETURN 1 / 0 AS x', '--json']);
    expect(run.status).toBe(1);
    const body = JSON.parse(run.stdout) as { error: boolean; code: string };
    expect(body.error).toBe(true);
    expect(body.code).not.toBe('COMPILE_ERR');
  });

  it('runs on the demo graph with --playground', () => {
    const run = runCli(['query', '--playground', 'MATCH (c:City) RETURN count(c) AS cities', '--json']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ columns: ['cities'], rows: [{ cities: '8' }] });
  });

  it('keeps stdout one JSON object when plan and source are dumped', () => {
    const run = runCli(['query', 'RETURN 1 AS one', '--json', '--dump-plan', '--dump-js']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ columns: ['one'], rows: [{ one: '1' }] });
    expect(run.stderr.trim()).not.toBe('');
  });

  it('takes parameters as JSON or plain strings', () => {
    const run = runCli(['query', 'RETURN $n + 1 AS n, $name AS name, $list AS list', '--json', '--param', 'n=41', 'name=Ann', 'list=[1,2]']);
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ columns: ['n', 'name', 'list'], rows: [{ n: '42', name: 'Ann', list: '[1, 2]' }] });
  });

  it('treats a malformed parameter as a usage error', () => {
    const run = runCli(['query', 'RETURN 1', '--param', 'oops']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/name=value/);
  });
});

describe('graphdb query (table)', () => {
  it('prints a table and a footer with the row count and time', () => {
    const run = runCli(['query', 'UNWIND [1,2,3] AS x RETURN x, x*2 AS y']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/│ x +│ y +│|\| x +\| y +\|/);
    expect(run.stdout).toMatch(/^3 rows, [\d.]+ m?s$/m);
  });

  it('reports what a write changed', () => {
    const run = runCli(['query', "CREATE (:Person {name: 'Ann'})-[:KNOWS]->(:Person {name: 'Bob'})"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/0 rows, .*; 2 nodes created, 1 relationship created, 2 labels added, 2 properties set/);
  });

  it('prints a readable error with a caret to stderr and exits 1', () => {
    const run = runCli(['query', 'MATCH (n RETURN n']);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^COMPILE_ERR: /);
    expect(run.stderr).toMatch(/\n {2}MATCH \(n RETURN n\n +\^/);
  });

  it('prints the plan and the generated JavaScript before running', () => {
    const run = runCli(['query', 'RETURN 1 AS one', '--dump-plan', '--dump-js']);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/1 row, /);
    expect(run.stdout.indexOf('one')).toBeGreaterThan(0);
  });
});

describe('command line', () => {
  it('--help describes the commands and options', () => {
    const run = runCli(['--help']);
    expect(run.status).toBe(0);
    for (const word of ['query', '--playground', '--data-dir', '--http', '--pg', '--serve', '--version']) {
      expect(run.stdout).toContain(word);
    }
  });

  it('query --help describes --json and the dumps', () => {
    const run = runCli(['query', '--help']);
    expect(run.status).toBe(0);
    for (const word of ['--json', '--dump-plan', '--dump-js', '--param', '--data-dir']) expect(run.stdout).toContain(word);
  });

  it('--version prints the package version', () => {
    const run = runCli(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('rejects an unknown option with status 2', () => {
    const run = runCli(['query', 'RETURN 1', '--frobnicate']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown option/);
  });

  it('points a query given without the query command to it (status 2)', () => {
    const run = runCli(['RETURN 1']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('graphdb query "RETURN 1"');
  });

  it('rejects a missing query with status 2', () => {
    const run = runCli(['query']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/missing required argument/);
  });

  it('keeps what one run writes with --data-dir for the next run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-cli-data-'));
    const write = runCli(['query', "CREATE (:Kept {v: 42})", '--data-dir', dir, '--json']);
    expect(write.status).toBe(0);
    const read = runCli(['query', 'MATCH (k:Kept) RETURN k.v AS v', '--data-dir', dir, '--json']);
    expect(read.status).toBe(0);
    expect(JSON.parse(read.stdout)).toEqual({ columns: ['v'], rows: [{ v: '42' }] });
  });

  it.each([['--http', '8080'], ['--pg', '5433'], ['--serve', '7000']])('refuses %s with the query command (status 2)', (flag, port) => {
    const run = runCli(['query', 'RETURN 1', flag, port]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/start servers; leave them out of `graphdb query`/);
  });

  it.each([['--http', 'x'], ['--serve', '70000'], ['--pg', '-1'], ['--bolt', 'x']])('rejects %s %s as a port (status 2)', (flag, port) => {
    const run = runCli([flag, port]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(flag);
  });

  it('rejects --bolt-tls-cert without its key, and a missing PEM file (status 2)', () => {
    const half = runCli(['--bolt', '0', '--bolt-tls-cert', 'c.pem']);
    expect(half.status).toBe(2);
    expect(half.stderr).toMatch(/go together/);
    const missing = runCli(['--bolt', '0', '--bolt-tls-cert', '/nonexistent/c.pem', '--bolt-tls-key', '/nonexistent/k.pem']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--bolt-tls-cert: cannot read/);
  });

  it('rejects --bolt-password without --bolt (status 2)', () => {
    const run = runCli(['--bolt-password', 'p']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--bolt-password applies to the Bolt server/);
  });

  it('rejects --api-key without a server (status 2)', () => {
    const run = runCli(['--api-key', 'k']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--api-key applies to the servers \(HTTP, TCP, PostgreSQL wire and Bolt\)/);
  });
});

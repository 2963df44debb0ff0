/** The REPL fed through stdin (not a terminal): statements, meta-commands, errors, :quit. */

import { describe, expect, it } from 'vitest';
import { EXAMPLE_QUERIES } from '../../src/cli/playground.js';
import { runCli } from './run-cli.js';

describe('graphdb REPL on piped stdin', () => {
  it('runs a session: multi-line statement, meta-command, error, :quit', () => {
    const session = [
      "CREATE (:Person {name: 'Ann', age: 31}),",
      "       (:Person {name: 'Bob', age: 42});",
      'MATCH (p:Person)',
      'RETURN p.name AS name, p.age AS age',
      'ORDER BY age;',
      ':stats',
      'MATCH (n RETURN n;',
      'RETURN "still alive" AS status;',
      ':quit',
      'RETURN "after quit" AS never;',
    ].join('\n');
    const run = runCli([], session + '\n');
    expect(run.stdout).toMatch(/0 rows, .*2 nodes created/);
    expect(run.stdout).toMatch(/name +.*age/);
    expect(run.stdout).toMatch(/'Ann' +.*31/);
    expect(run.stdout).toMatch(/'Bob' +.*42/);
    expect(run.stdout).toMatch(/^2 rows, /m);
    expect(run.stdout).toMatch(/^Nodes: +2$/m);
    expect(run.stdout).toMatch(/^Relationships: +0$/m);
    expect(run.stdout).toContain("'still alive'");
    expect(run.stdout).not.toContain('after quit');
    expect(run.stderr).toMatch(/COMPILE_ERR: .*line 1, column \d+/);
    // No prompts or banner when stdin is not a terminal.
    expect(run.stdout).not.toContain('graphdb>');
    // A script with a failed statement exits 1.
    expect(run.status).toBe(1);
  });

  it('exits 0 at the end of input and runs a last statement that lacks its ;', () => {
    const run = runCli([], 'RETURN 1 AS a; RETURN 2 AS b;\nRETURN 3 AS c');
    expect(run.status).toBe(0);
    expect(run.stdout.match(/^1 row, /gm)?.length).toBe(3);
    expect(run.stderr).toBe('');
  });

  it('keeps ; inside strings and comments', () => {
    const run = runCli([], "RETURN 'a;b' AS s; // comment; not a statement\nRETURN /* ; */ 2 AS n;\n");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("'a;b'");
    expect(run.stdout.match(/^1 row, /gm)?.length).toBe(2);
  });

  it('lists meta-commands with :help and reports unknown ones', () => {
    const run = runCli([], ':help\n:nope\n');
    for (const name of [':help', ':quit', ':stats', ':plan', ':js', ':param']) expect(run.stdout).toContain(name);
    expect(run.stderr).toMatch(/Unknown command :nope/);
  });

  it('shows plans and generated source, and uses session parameters', () => {
    const run = runCli([], ':plan RETURN 1 AS x;\n:js RETURN 1 AS x\n:param who="Ann"\nRETURN $who AS who;\n');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("'Ann'");
  });

  it('loads the playground graph', () => {
    const run = runCli(['--playground'], 'MATCH (p:Person) RETURN count(p) AS people;\n:stats\n');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/people[\s\S]*40/);
    expect(run.stdout).toMatch(/^Nodes: +68$/m);
    expect(run.stdout).toMatch(/^Relationships: +\d+$/m);
    expect(run.stdout).toMatch(/^Store memory: +\d+\.\d MiB \(properties \d+\.\d MiB, estimated\)$/m);
    expect(run.stdout).toMatch(/^Process RSS: +\d+\.\d MiB$/m);
  });

  it('runs every example query the playground banner suggests', () => {
    const run = runCli(['--playground'], EXAMPLE_QUERIES.join('\n') + '\n');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const footers = run.stdout.match(/^(\d+) rows?, /gm) ?? [];
    expect(footers.length).toBe(EXAMPLE_QUERIES.length);
    for (const footer of footers) expect(footer).not.toMatch(/^0 rows/);
  });
});

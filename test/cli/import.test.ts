// graphdb import: real CSV files in a temp dir, the built executable, then a query on the data dir.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-import-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const PEOPLE = 'id:ID,name,age:int,tags:string[],:LABEL\n1,Ann,30,a;b,Admin\n2,Bob,40,,\n';
const KNOWS = ':START_ID,:END_ID,since:int\n1,2,2020\n';

function count(dir: string): string {
  return runCli(['--data-dir', join(dir, 'db'), 'query', 'MATCH (n) OPTIONAL MATCH (n)-[r]->() RETURN count(DISTINCT n) AS n, count(r) AS r', '--json']).stdout.trim();
}

describe('graphdb import', () => {
  it('imports good files with labels, types and arrays', () => {
    const dir = workspace({ 'p.csv': PEOPLE, 'k.csv': KNOWS });
    const run = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=Person', join(dir, 'p.csv'), '--relationships=KNOWS', join(dir, 'k.csv')]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Imported 2 nodes, 1 relationships/);
    const q = runCli(['--data-dir', join(dir, 'db'), 'query', 'MATCH (a:Person:Admin)-[r:KNOWS]->(b) RETURN a.age AS age, a.tags AS tags, r.since AS since, b.name AS b', '--json']);
    expect(JSON.parse(q.stdout).rows).toEqual([{ age: '30', tags: "['a', 'b']", since: '2020', b: 'Bob' }]);
  });

  it('stops at a wrong type with file:line and writes nothing', () => {
    const dir = workspace({ 'p.csv': PEOPLE, 'k.csv': KNOWS + '1,2,soon\n' });
    const run = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=Person', join(dir, 'p.csv'), '--relationships=KNOWS', join(dir, 'k.csv')]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`${join(dir, 'k.csv')}:3: column since: "soon" is not an integer`);
    expect(count(dir)).toBe('{"columns":["n","r"],"rows":[{"n":"0","r":"0"}]}');
  });

  it('reports a missing column and an unknown end id', () => {
    const dir = workspace({ 'p.csv': PEOPLE + '3,Cy\n', 'k.csv': ':START_ID,:END_ID\n1,9\n' });
    const missing = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes', join(dir, 'p.csv')]);
    expect(missing.stderr).toContain('p.csv:4: expected 5 columns, found 2');
    const unknown = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes', join(dir, 'p.csv'), '--relationships=KNOWS', join(dir, 'k.csv'), '--skip-bad-rows']);
    expect(unknown.status).toBe(0);
    expect(unknown.stderr).toContain('skipped');
    expect(unknown.stderr).toContain('p.csv:4: expected 5 columns, found 2');
    expect(unknown.stderr).toContain('k.csv:2: unknown end id "9"');
    expect(unknown.stdout).toMatch(/Imported 2 nodes, 0 relationships.*skipped 2 bad rows/);
  });

  it('adds to a non-empty store: CSV ids are local to one import', () => {
    const dir = workspace({ 'p.csv': PEOPLE, 'k.csv': KNOWS });
    const args = ['import', '--data-dir', join(dir, 'db'), '--nodes=Person', join(dir, 'p.csv'), '--relationships=KNOWS', join(dir, 'k.csv')];
    expect(runCli(args).status).toBe(0);
    expect(runCli(args).status).toBe(0);
    expect(count(dir)).toBe('{"columns":["n","r"],"rows":[{"n":"4","r":"2"}]}');
  });
});

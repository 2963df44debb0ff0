// graphdb import: real CSV files in a temp dir, the built executable, then a query on the data dir.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from './run-cli.js';

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
    expect(run.stdout).toMatch(/Imported 2 nodes, 1 relationship,/);
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

  it('says what was meant by --nodes Person file.csv, names a missing file, and counts in the singular', () => {
    const dir = workspace({ 'p.csv': 'id:ID,name\n1,Ann\n' });
    const label = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes', 'Person', join(dir, 'p.csv')]);
    expect(label.status).toBe(2);
    expect(label.stderr).toContain(`graphdb: --nodes Person ${join(dir, 'p.csv')}: Person is not a file; to give a label, write --nodes=Person ${join(dir, 'p.csv')}`);
    const missing = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=Person', join(dir, 'nope.csv')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`graphdb: --nodes ${join(dir, 'nope.csv')}: no such file`);
    const one = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=Person', join(dir, 'p.csv')]);
    expect(one.stdout).toMatch(/^Imported 1 node, 0 relationships, 2 properties in /);
  });

  it('adds to a non-empty store: CSV ids are local to one import', () => {
    const dir = workspace({ 'p.csv': PEOPLE, 'k.csv': KNOWS });
    const args = ['import', '--data-dir', join(dir, 'db'), '--nodes=Person', join(dir, 'p.csv'), '--relationships=KNOWS', join(dir, 'k.csv')];
    expect(runCli(args).status).toBe(0);
    expect(runCli(args).status).toBe(0);
    expect(count(dir)).toBe('{"columns":["n","r"],"rows":[{"n":"4","r":"2"}]}');
  });

  it('reads float, temporal and duration columns as typed values, and places a bad row by its last line', () => {
    const dir = workspace({
      'e.csv': 'id:ID,score:float,born:date,at:datetime,wake:localtime,took:duration,seen:localdatetime[]\n' + '1,3.0,1990-04-01,2020-05-06T07:08:09+02:00,06:30,PT1H30M,2020-01-01T00:00;2021-01-01T00:00\n',
      'bad.csv': 'id:ID,note,born:date\n1,"two\nlines",2000-01-01\n2,ok,not-a-date\n',
    });
    const run = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=E', join(dir, 'e.csv')]);
    expect(run.stderr).toBe('');
    const q = runCli([
      '--data-dir',
      join(dir, 'db'),
      'query',
      'MATCH (e:E) RETURN e.score AS score, valueType(e.score) AS t, e.born.year AS y, e.at.offset AS o, e.wake.hour AS h, e.took.minutes AS m, size(e.seen) AS n, valueType(e.seen[0]) AS st',
      '--json',
    ]);
    expect(JSON.parse(q.stdout).rows).toEqual([{ score: '3.0', t: 'FLOAT NOT NULL', y: '1990', o: '+02:00', h: '6', m: '90', n: '2', st: 'LOCAL DATETIME NOT NULL' }]);
    const bad = runCli(['import', '--data-dir', join(dir, 'db2'), '--nodes=B', join(dir, 'bad.csv')]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain(`${join(dir, 'bad.csv')}:4: column born: "not-a-date" is not a date`);
  });

  it('an import killed at any moment leaves the store as it was before, never half-written', async () => {
    const rows = 60_000;
    let people = 'id:ID,name,n:int\n';
    for (let i = 0; i < rows; i++) people += `${i},p${i},${i}\n`;
    let knows = ':START_ID,:END_ID\n';
    for (let i = 0; i < rows; i++) knows += `${i},${(i * 7) % rows}\n`;
    const dir = workspace({ 'p.csv': PEOPLE, 'k.csv': KNOWS, 'big.csv': people, 'bigk.csv': knows });
    const db = join(dir, 'db');
    expect(runCli(['import', '--data-dir', db, '--nodes=Person', join(dir, 'p.csv'), '--relationships=KNOWS', join(dir, 'k.csv')]).status).toBe(0);
    const outcomes = new Set<string>();
    const big = ['import', '--data-dir', db, '--nodes=Big', join(dir, 'big.csv'), '--relationships=NEXT', join(dir, 'bigk.csv')];
    const before = '{"columns":["n","r"],"rows":[{"n":"2","r":"1"}]}';
    const after = `{"columns":["n","r"],"rows":[{"n":"${2 + rows}","r":"${1 + rows}"}]}`;
    // Kill after a growing delay: whenever the signal lands, the store holds the first import
    // only, or both; a directory that does not open, or anything in between, fails the test.
    for (const delayMs of [50, 300, 800, 1500, 2500, 4000]) {
      const child = spawn(process.execPath, [BIN, ...big], { stdio: 'ignore' });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const timer = setTimeout(() => child.kill('SIGKILL'), delayMs);
      const code = await exited;
      clearTimeout(timer);
      const state = count(dir);
      expect([before, after]).toContain(state);
      outcomes.add(state === before ? 'before' : 'after');
      // A kill that lands after the atomic swap (code null) still leaves the whole import.
      if (state === after) {
        expect([0, null]).toContain(code);
        break;
      }
    }
    // On a loaded machine every kill may land before the swap, the last one leaving its
    // half-written import.tmp: the next import clears it and completes.
    if (!outcomes.has('after')) {
      expect(runCli(big).status).toBe(0);
      expect(count(dir)).toBe(after);
    }
    expect(existsSync(join(db, 'import.tmp', 'graphdb.lmdb'))).toBe(false);
  }, 180_000);

  it('takes the transactional path into a store with indexes or constraints, and still checks them', () => {
    const dir = workspace({ 'p.csv': PEOPLE, 'dup.csv': 'id:ID,name\n7,Ann\n' });
    const db = join(dir, 'db');
    expect(runCli(['--data-dir', db, 'query', 'CREATE CONSTRAINT FOR (p:Person) REQUIRE p.name IS UNIQUE']).status).toBe(0);
    expect(runCli(['import', '--data-dir', db, '--nodes=Person', join(dir, 'p.csv')]).status).toBe(0);
    const dup = runCli(['import', '--data-dir', db, '--nodes=Person', join(dir, 'dup.csv')]);
    expect(dup.status).not.toBe(0);
    expect(dup.stderr).toMatch(/already exists|unique/i);
    expect(count(dir)).toBe('{"columns":["n","r"],"rows":[{"n":"2","r":"0"}]}');
  });
  it('--threads 3 reads 17 MB on worker threads into the same graph as --threads 1, and refuses --threads 0', () => {
    // Over the 16 MiB below which the import reads on one thread; quoted fields with line breaks put some cuts inside quotes.
    const rows = Array.from({ length: 600_000 }, (_, i) => (i % 997 === 0 ? `${i},"line\nbreak, ""${i}"""` : `${i},name ${i}`));
    const links = Array.from({ length: 600_000 }, (_, i) => `${i},${(i * 7) % 600_000},${i % 50}`);
    const dir = workspace({ 'p.csv': `id:ID,name\n${rows.join('\n')}\n`, 'k.csv': `:START_ID,:END_ID,w:int\n${links.join('\n')}\n` });
    const query = 'MATCH (a)-[r:L]->(b) WHERE a.id IN ["0", "997", "599999"] RETURN a.id AS a, a.name AS name, r.w AS w, b.id AS b ORDER BY a';
    const results = ['1', '3'].map((threads) => {
      const run = runCli(['import', '--data-dir', join(dir, `db${threads}`), '--threads', threads, '--nodes=P', join(dir, 'p.csv'), '--relationships=L', join(dir, 'k.csv')]);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/Imported 600,?000 nodes, 600,?000 relationships/);
      return runCli(['--data-dir', join(dir, `db${threads}`), 'query', query, '--json']).stdout;
    });
    expect(JSON.parse(results[1]).rows).toEqual(JSON.parse(results[0]).rows);
    expect(JSON.parse(results[1]).rows[2]).toEqual({ a: '997', name: 'line\nbreak, "997"', w: '47', b: '6979' });
    // Integer ids: the workers resolve the ends, node rows and relationships without properties
    // go a range at a time (quoted names and w fall back to row by row), into a data directory.
    writeFileSync(join(dir, 'k2.csv'), `:START_ID,:END_ID\n${Array.from({ length: 300_000 }, (_, i) => `${(i * 13) % 600_000},${i}`).join('\n')}\n`);
    const byNumber = 'MATCH (a)-[r]->(b) WHERE a.id IN [0, 997, 599999] RETURN a.id AS a, a.name AS name, type(r) AS t, r.w AS w, b.id AS b ORDER BY a, t, b';
    const integers = ['1', '3'].map((threads) => {
      const run = runCli(['import', '--data-dir', join(dir, `int${threads}`), '--id-type', 'integer', '--threads', threads, '--nodes=P', join(dir, 'p.csv'), '--relationships=L', join(dir, 'k.csv'), '--relationships=M', join(dir, 'k2.csv')]);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/Imported 600,?000 nodes, 900,?000 relationships/);
      return JSON.parse(runCli(['--data-dir', join(dir, `int${threads}`), 'query', byNumber, '--json']).stdout).rows as unknown[];
    });
    expect(integers[1]).toEqual(integers[0]);
    expect(integers[0]).toContainEqual({ a: '997', name: 'line\nbreak, "997"', t: 'L', w: '47', b: '6979' });
    expect(integers[0]).toContainEqual({ a: '599999', name: 'name 599999', t: 'M', w: 'null', b: '276923' });
    const bad = runCli(['import', '--data-dir', join(dir, 'db0'), '--threads', '0', '--nodes=P', join(dir, 'p.csv')]);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--threads must be a whole number of at least 1');
  }, 180_000);
});

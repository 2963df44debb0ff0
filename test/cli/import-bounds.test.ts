/**
 * The bulk import's reading and checking (issues 26 and 27), through the real `graphdb import`
 * binary and `importCsv`: a file with no line break (/dev/zero) stops at the record bound
 * with a clear error and the data directory's lock released; bytes that are not UTF-8 are
 * refused by file, line and byte offset instead of becoming U+FFFD; and `observation_class`
 * and `confidence` are checked as a query's write checks them, on every load path (store
 * swap, in-memory bulk load, transaction), naming the file and line.
 */

import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database, importCsv } from '../../src/index.js';
import { MAX_RECORD_BYTES } from '../../src/engine/csv-scanner.js';
import { runCli } from './run-cli.js';

function workspace(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-import-bounds-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function names(dir: string): string {
  return runCli(['--data-dir', join(dir, 'db'), 'query', 'MATCH (n) RETURN n.name AS name ORDER BY name', '--json']).stdout.trim();
}

describe('graphdb import: bounded reading', () => {
  it('/dev/zero stops at the record bound with a clear error, and the lock is released', () => {
    const dir = workspace({ 'p.csv': 'name\nAnn\n' });
    const db = join(dir, 'db');
    const run = runCli(['import', '--data-dir', db, '--nodes=X', '/dev/zero']);
    expect(run.status).not.toBe(134);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`/dev/zero:1: a record (line) is longer than ${MAX_RECORD_BYTES} bytes`);
    expect(existsSync(join(db, 'graphdb.lock'))).toBe(false);
    const again = runCli(['import', '--data-dir', db, '--nodes=P', join(dir, 'p.csv')]);
    expect(again.status).toBe(0);
    expect(again.stderr).not.toMatch(/took over the lock/);
    expect(names(dir)).toBe('{"columns":["name"],"rows":[{"name":"Ann"}]}');
  });

  it('invalid UTF-8 is refused with file, line and byte offset; nothing is imported', () => {
    const bad = Buffer.concat([Buffer.from('id:ID,name\n1,Ann\n2,B'), Buffer.from([0xff, 0xfe]), Buffer.from('b\n')]);
    const cut = Buffer.concat([Buffer.from('id:ID,name\n1,Zo'), Buffer.from([0xc3])]);
    const dir = workspace({ 'bad.csv': bad, 'cut.csv': cut, 'good.csv': 'id:ID,name\n1,Zoë\n2,日本\n' });
    const run = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=P', join(dir, 'bad.csv')]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`${join(dir, 'bad.csv')}:3: invalid UTF-8 at byte offset 20 of the file`);
    const truncated = runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=P', join(dir, 'cut.csv')]);
    expect(truncated.stderr).toContain(`${join(dir, 'cut.csv')}:2: invalid UTF-8 at byte offset 15 of the file`);
    expect(names(dir)).toBe('{"columns":["name"],"rows":[]}');
    expect(runCli(['import', '--data-dir', join(dir, 'db'), '--nodes=P', join(dir, 'good.csv')]).status).toBe(0);
    expect(names(dir)).toBe('{"columns":["name"],"rows":[{"name":"Zoë"},{"name":"日本"}]}');
  });
});

const OBS_BAD_CONFIDENCE = 'id:ID,name,confidence:float,observation_class\n1,Ann,0.5,inferred\n2,Bob,1.5,observed\n';
const OBS_BAD_CLASS = 'id:ID,name,confidence:float,observation_class\n1,Ann,0.5,inferred\n2,Bob,1.0,bogus\n';
const OBS_STRING_CONFIDENCE = 'id:ID,name,confidence\n1,Ann,0.5\n';
const OBS_GOOD = 'id:ID,name,confidence:float,observation_class\n1,Ann,0.5,inferred\n2,Bob,1.0,\n';
const REL_BAD = ':START_ID,:END_ID,confidence:double\n1,2,-0.1\n';

describe('import runs the observation checks of a query write (issue 27, one commit gate)', () => {
  it('graphdb import (store path) refuses confidence 1.5 and observation_class bogus by file and line', () => {
    const dir = workspace({ 'c.csv': OBS_BAD_CONFIDENCE, 'k.csv': OBS_BAD_CLASS, 's.csv': OBS_STRING_CONFIDENCE, 'g.csv': OBS_GOOD, 'r.csv': REL_BAD });
    const db = join(dir, 'db');
    const conf = runCli(['import', '--data-dir', db, '--nodes=P', join(dir, 'c.csv')]);
    expect(conf.status).not.toBe(0);
    expect(conf.stderr).toContain(`${join(dir, 'c.csv')}:3: column confidence: confidence must be in [0, 1], got 1.5`);
    const cls = runCli(['import', '--data-dir', db, '--nodes=P', join(dir, 'k.csv')]);
    expect(cls.stderr).toContain(`${join(dir, 'k.csv')}:3: column observation_class: observation_class must be one of observed, inferred, predicted, got "bogus"`);
    const str = runCli(['import', '--data-dir', db, '--nodes=P', join(dir, 's.csv')]);
    expect(str.stderr).toContain(`${join(dir, 's.csv')}:2: column confidence: confidence must be a number in [0, 1], got "0.5"`);
    const rel = runCli(['import', '--data-dir', db, '--nodes=P', join(dir, 'g.csv'), '--relationships=R', join(dir, 'r.csv')]);
    expect(rel.stderr).toContain(`${join(dir, 'r.csv')}:2: column confidence: confidence must be in [0, 1], got -0.1`);
    expect(names(dir)).toBe('{"columns":["name"],"rows":[]}');
    // The same values through CREATE are refused too: one rule.
    const create = runCli(['--data-dir', db, 'query', "CREATE (:P {name: 'Q', confidence: 1.5})"]);
    expect(create.status).not.toBe(0);
    expect(create.stderr).toMatch(/confidence must be in \[0, 1\], got 1.5/);
    // With --skip-bad-rows the bad row is reported and the rest loads.
    const skip = runCli(['import', '--data-dir', db, '--nodes=P', join(dir, 'c.csv'), '--skip-bad-rows']);
    expect(skip.status).toBe(0);
    expect(skip.stderr).toContain(`skipped ${join(dir, 'c.csv')}:3: column confidence`);
    expect(names(dir)).toBe('{"columns":["name"],"rows":[{"name":"Ann"}]}');
  });

  it('importCsv refuses them on the in-memory and the transaction paths, and loads good values', async () => {
    const dir = workspace({ 'c.csv': OBS_BAD_CONFIDENCE, 'k.csv': OBS_BAD_CLASS, 'g.csv': OBS_GOOD });
    const empty = Database.openInMemory();
    await expect(importCsv(empty, [{ kind: 'nodes', defaults: ['P'], path: join(dir, 'c.csv') }])).rejects.toThrow(`${join(dir, 'c.csv')}:3: column confidence: confidence must be in [0, 1], got 1.5`);
    const held = Database.openInMemory();
    held.executeSync("CREATE (:Other {name: 'x'})");
    await expect(importCsv(held, [{ kind: 'nodes', defaults: ['P'], path: join(dir, 'k.csv') }])).rejects.toThrow(/k\.csv:3: column observation_class: .*got "bogus"/);
    expect(held.executeSync('MATCH (n) RETURN count(n)').records).toEqual([[1]]);
    const ok = await importCsv(empty, [{ kind: 'nodes', defaults: ['P'], path: join(dir, 'g.csv') }]);
    expect(ok.path).toBe('memory');
    expect(empty.executeSync('MATCH (p:P) RETURN p.name, p.confidence, p.observation_class ORDER BY p.name').records).toEqual([
      ['Ann', 0.5, 'inferred'],
      ['Bob', expect.anything(), null],
    ]);
  });

  it('constraints refuse an import by file and line (the transaction path), through the binary and importCsv', async () => {
    const dir = workspace({ 'a.csv': 'id:ID,name\n10,Ann\n', 'u.csv': 'id:ID,name,age:int\n1,Ann,3\n2,Bob,4\n3,Ann,5\n', 'n.csv': 'id:ID,name,age:int\n1,Cy,3\n2,Di,\n' });
    const db = join(dir, 'db');
    expect(runCli(['--data-dir', db, 'query', 'CREATE CONSTRAINT u FOR (p:P) REQUIRE p.name IS UNIQUE']).status).toBe(0);
    const dup = runCli(['import', '--data-dir', db, '--nodes=P', join(dir, 'a.csv'), '--nodes=P', join(dir, 'u.csv')]);
    expect(dup.status).not.toBe(0);
    expect(dup.stderr).toMatch(new RegExp(`${join(dir, '(a|u)')}\\.csv:(2|4): Node\\(\\d+\\) already exists with label \`P\` and property \`name\` = 'Ann' \\(constraint u\\) \\(nothing was imported\\)`));
    expect(names(dir)).toBe('{"columns":["name"],"rows":[]}');
    const mem = Database.openInMemory();
    mem.executeSync('CREATE CONSTRAINT a FOR (p:P) REQUIRE p.age IS NOT NULL');
    await expect(importCsv(mem, [{ kind: 'nodes', defaults: ['P'], path: join(dir, 'n.csv') }])).rejects.toThrow(`${join(dir, 'n.csv')}:3: Node(1) with label \`P\` must have the property \`age\` (constraint a)`);
    expect(mem.executeSync('MATCH (n) RETURN count(n)').records).toEqual([[0]]);
  });
});

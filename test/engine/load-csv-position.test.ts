/** linenumber() and file() report where LOAD CSV read each row. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { toJs } from '../../runtime/format.js';

const dir = mkdtempSync(join(tmpdir(), 'graphdb-csvpos-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function rows(db: Database, query: string): unknown[] {
  return db.executeSync(query).records.map((r) => r.map(toJs));
}

describe('linenumber() and file()', () => {
  const file = join(dir, 'people.csv');
  writeFileSync(file, 'name,age\nAnn,31\n\n"Bob\nJr",42\nCid,7\n');
  const db = Database.openInMemory();

  it('give each row its line and the absolute file path, with and without headers', () => {
    expect(rows(db, `LOAD CSV WITH HEADERS FROM 'file://${file}' AS r RETURN r.age AS age, linenumber() AS line, file() AS f`)).toEqual([
      ['31', 2, file],
      ['42', 5, file],
      ['7', 6, file],
    ]);
    expect(rows(db, `LOAD CSV FROM 'file://${file}' AS r RETURN linenumber() AS line`)).toEqual([[1], [2], [5], [6]]);
  });

  it('are null outside LOAD CSV', () => {
    expect(rows(db, 'RETURN linenumber() AS l, file() AS f')).toEqual([[null, null]]);
  });
});

describe('LOAD CSV fields', () => {
  const db = Database.openInMemory();

  it('reads an unquoted empty field as null and a quoted one as the empty string, past a byte order mark', () => {
    const file = join(dir, 'fields.csv');
    writeFileSync(file, '\ufeffa;b;c\n1;;""\n"x;y";"say ""hi""";\n2\n');
    expect(rows(db, `LOAD CSV WITH HEADERS FROM 'file://${file}' AS r FIELDTERMINATOR ';' RETURN r.a AS a, r.b AS b, r.c AS c`)).toEqual([
      ['1', null, ''],
      ['x;y', 'say "hi"', null],
      ['2', null, null],
    ]);
    expect(rows(db, `LOAD CSV FROM 'file://${file}' AS r FIELDTERMINATOR ';' RETURN size(r) AS n`)).toEqual([[3], [3], [3], [1]]);
  });

  it('names the file and line of malformed CSV', () => {
    const file = join(dir, 'broken.csv');
    writeFileSync(file, 'a,b\n1,2\n3,"open\n');
    expect(() => db.executeSync(`LOAD CSV FROM 'file://${file}' AS r RETURN r`)).toThrow(/LOAD CSV cannot parse .*broken\.csv:3: a quoted field is not closed/);
  });
});

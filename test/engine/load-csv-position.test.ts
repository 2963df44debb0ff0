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

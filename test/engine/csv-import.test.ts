/**
 * `importCsv` in process: an empty in-memory database is bulk-loaded from the files, one
 * with data (or indexes) takes one write transaction, and both give the same graph.
 */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database, importCsv, type ImportInput } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'graphdb-csv-import-'));
writeFileSync(join(dir, 'people.csv'), 'id,name,born\n1,Ann,1990-01-02\n2,"Bob ""B"" Smith",\n3,Cy,2001-12-31\n');
writeFileSync(join(dir, 'knows.csv'), 'a,b,since\n1,2,2020\n2,3,2021\n1,3,\n');
const inputs: ImportInput[] = [
  { kind: 'nodes', defaults: ['Person'], path: join(dir, 'people.csv'), header: ['id:ID(P)', 'name', 'born:date'] },
  { kind: 'relationships', defaults: ['KNOWS'], path: join(dir, 'knows.csv'), header: [':START_ID(P)', ':END_ID(P)', 'since:int'] },
];
const QUERY = 'MATCH (a:Person)-[k:KNOWS]->(b) RETURN a.id AS a, a.name AS name, a.born.year AS y, b.id AS b, k.since AS since ORDER BY a, b';

describe('importCsv', () => {
  it('bulk-loads an empty in-memory database, with integer ids on request', async () => {
    const db = Database.openInMemory();
    const summary = await importCsv(db, inputs, { idType: 'integer' });
    expect(summary).toEqual({ nodes: 3, relationships: 3, properties: 10, skipped: 0, path: 'memory' });
    expect(db.executeSync(QUERY).records).toEqual([
      [1, 'Ann', 1990, 2, 2020],
      [1, 'Ann', 1990, 3, null],
      [2, 'Bob "B" Smith', null, 3, 2021],
    ]);
    // The bulk-loaded graph takes writes and queries like any other.
    db.executeSync("MATCH (a:Person {id: 3}) CREATE (a)-[:KNOWS]->(:Person {id: 4, name: 'Di'})");
    expect(db.executeSync('MATCH (:Person {id: 3})-[:KNOWS]->(d) RETURN d.name').records).toEqual([['Di']]);
  });

  it('takes one transaction into a database that holds data, and the result is the same graph', async () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Other {x: 1})");
    const summary = await importCsv(db, inputs, { idType: 'integer' });
    expect(summary.path).toBe('transaction');
    expect(db.executeSync(QUERY).records).toEqual([
      [1, 'Ann', 1990, 2, 2020],
      [1, 'Ann', 1990, 3, null],
      [2, 'Bob "B" Smith', null, 3, 2021],
    ]);
    expect(db.executeSync('MATCH (n) RETURN count(n)').records).toEqual([[4]]);
  });

  it('checks observation_class and confidence as every commit does, on the in-memory and the transaction path alike', async () => {
    writeFileSync(join(dir, 'obs.csv'), 'id,observation_class,confidence\n1,observed,0.5\n2,bogus,0.5\n');
    writeFileSync(join(dir, 'conf.csv'), 'id,observation_class,confidence\n1,observed,0.5\n2,inferred,1.5\n');
    const header = ['id:ID(O)', 'observation_class', 'confidence:double'];
    for (const holdsData of [false, true]) {
      const db = Database.openInMemory();
      if (holdsData) db.executeSync('CREATE (:Other)');
      await expect(importCsv(db, [{ kind: 'nodes', defaults: ['O'], path: join(dir, 'obs.csv'), header }])).rejects.toThrow(/obs\.csv:3: column observation_class: observation_class must be one of/);
      await expect(importCsv(db, [{ kind: 'nodes', defaults: ['O'], path: join(dir, 'conf.csv'), header }])).rejects.toThrow(/conf\.csv:3: column confidence: confidence must be in \[0, 1\], got 1\.5/);
      expect(db.executeSync('MATCH (o:O) RETURN count(o)').records).toEqual([[0]]);
      // CREATE refuses the same values.
      expect(() => db.executeSync("CREATE (:O {confidence: 1.5})")).toThrow(/confidence must be in \[0, 1\]/);
    }
  });

  it('refuses a bad row with its file and line, importing nothing', async () => {
    writeFileSync(join(dir, 'bad.csv'), 'id,name,born\n1,Ann,1990-01-02\n2,Bob,yesterday\n');
    const db = Database.openInMemory();
    await expect(importCsv(db, [{ ...inputs[0], path: join(dir, 'bad.csv') }])).rejects.toThrow(`${join(dir, 'bad.csv')}:3: column born: "yesterday" is not a date (nothing was imported)`);
    expect(db.executeSync('MATCH (n) RETURN count(n)').records).toEqual([[0]]);
  });

  it('maps integer ids wherever they fall: dense runs, far outliers, negatives, and duplicates across them', async () => {
    // Dense ids from 1000 up, then keys far outside any dense window and below its start.
    const ids = [...Array.from({ length: 3000 }, (_, i) => 1000 + i), 5_000_000_000, -7, 3, 999_999, 4100];
    writeFileSync(join(dir, 'many.csv'), `id\n${ids.join('\n')}\n`);
    writeFileSync(join(dir, 'links.csv'), `a,b\n${ids.map((id, i) => `${id},${ids[(i * 7) % ids.length]}`).join('\n')}\n`);
    const many: ImportInput[] = [
      { kind: 'nodes', defaults: ['M'], path: join(dir, 'many.csv'), header: ['id:ID(M)'] },
      { kind: 'relationships', defaults: ['L'], path: join(dir, 'links.csv'), header: [':START_ID(M)', ':END_ID(M)'] },
    ];
    const db = Database.openInMemory();
    await importCsv(db, many, { idType: 'integer' });
    const links = db.executeSync('MATCH (a:M)-[:L]->(b:M) RETURN a.id AS a, b.id AS b').records.map(([a, b]) => `${a}>${b}`).sort();
    expect(links).toEqual(ids.map((id, i) => `${id}>${ids[(i * 7) % ids.length]}`).sort());
    for (const duplicate of [1500, 5_000_000_000, -7]) {
      writeFileSync(join(dir, 'dup.csv'), `id\n${ids.join('\n')}\n${duplicate}\n`);
      await expect(importCsv(Database.openInMemory(), [{ ...many[0], path: join(dir, 'dup.csv') }], { idType: 'integer' })).rejects.toThrow(`duplicate id ${duplicate}`);
    }
  });

  it('keeps mostly distinct text as bytes, ASCII or not, quoted or not, and integers past 15 digits exact', async () => {
    // Past 4096 distinct strings the column keeps UTF-8 bytes; ASCII rows are copied from the file as they are.
    const rows = Array.from({ length: 6000 }, (_, i) => [i, i % 1000 === 7 ? `"q ""${i}"", x"` : i % 1000 === 9 ? `é${i}日` : `text ${i}`, i === 5 ? '12345678901234567' : String(i * 3)]);
    writeFileSync(join(dir, 'text.csv'), `id,body,n\n${rows.map((r) => r.join(',')).join('\n')}\n`);
    const db = Database.openInMemory();
    await importCsv(db, [{ kind: 'nodes', defaults: ['T'], path: join(dir, 'text.csv'), header: ['id:ID(T)', 'body', 'n:long'] }], { idType: 'integer' });
    const got = db.executeSync('MATCH (t:T) WHERE t.id IN [0, 5, 7, 9, 4999, 5007, 5009, 5999] RETURN t.id, t.body, t.n ORDER BY t.id').records;
    expect(got).toEqual([
      [0, 'text 0', 0],
      [5, 'text 5', 12345678901234567n],
      [7, 'q "7", x', 21],
      [9, 'é9日', 27],
      [4999, 'text 4999', 14997],
      [5007, 'q "5007", x', 15021],
      [5009, 'é5009日', 15027],
      [5999, 'text 5999', 17997],
    ]);
  });
});

/**
 * The parallel tokenizing of `importCsv` (src/engine/csv-parallel.ts) against the serial
 * import: on generated files cut into ranges of a few hundred bytes (so that cuts fall inside
 * quoted fields and records span ranges), with several worker threads, the graph is the same
 * — every node's labels and properties and every relationship's type, ends and properties, in
 * order — and so are the errors, the skipped rows and the onRow count; a worker that throws or
 * dies leaves its ranges to the main thread.
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Database, importCsv, type ImportInput } from '../../src/index.js';
import type { ImportOptions } from '../../src/engine/csv-import.js';

const dir = mkdtempSync(join(tmpdir(), 'graphdb-csv-parallel-'));

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x80000000;
  };
}

const quote = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** Text of every awkward kind: plain, with commas, quotes and line breaks (quoted), non-ASCII, empty. */
function text(r: () => number, i: number): string {
  switch (Math.floor(r() * 7)) {
    case 0:
      return quote(`a, b ${i}`);
    case 1:
      return quote(`line one ${i}\nline "two"\r\nthree`);
    case 2:
      return `Zoë ${i} 日本 🙂`;
    case 3:
      return '';
    case 4:
      return quote('');
    case 5:
      return quote(`"${i}"`);
    default:
      return `plain ${i}`;
  }
}

/** Writes the files of a small graph: people (string ids), cities (integer ids), two relationship files. */
function writeGraph(name: string, people: number, seed: number, extra: { personLine?: (i: number) => string | undefined } = {}): ImportInput[] {
  const r = random(seed);
  const personRows = ['pid:ID(P),name,age:int,score:double,tags:string[],born:date,seen:datetime,ok:boolean,:LABEL,note'];
  for (let i = 0; i < people; i++) {
    const replaced = extra.personLine?.(i);
    if (replaced !== undefined) {
      personRows.push(replaced);
      continue;
    }
    const age = r() < 0.1 ? '' : String(Math.floor(r() * 90));
    const score = r() < 0.1 ? '' : (r() * 100).toFixed(r() < 0.5 ? 0 : 3);
    const tags = r() < 0.2 ? '' : Array.from({ length: 1 + Math.floor(r() * 3) }, (_, k) => `t${(i + k) % 7}`).join(';');
    const born = `19${10 + Math.floor(r() * 89)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`;
    const seen = r() < 0.3 ? '' : `2024-03-0${1 + Math.floor(r() * 9)}T12:3${Math.floor(r() * 9)}:00Z`;
    const labels = r() < 0.3 ? 'Admin' : r() < 0.5 ? 'Admin;Staff' : '';
    personRows.push([`p-${i}`, text(r, i), age, score, tags, born, seen, r() < 0.5 ? 'true' : 'FALSE', labels, text(r, i + 1)].join(','));
  }
  writeFileSync(join(dir, `${name}-people.csv`), `${personRows.join(r() < 0.5 ? '\n' : '\r\n')}\n`);
  const cities = Math.max(3, people >> 3);
  const cityRows = ['cid:ID(C),name'];
  for (let i = 0; i < cities; i++) cityRows.push(`${1000 + i * 3},${text(r, i)}`);
  writeFileSync(join(dir, `${name}-cities.csv`), `${cityRows.join('\n')}\n`);
  const knows = [':START_ID(P),:END_ID(P),since:int,:TYPE,how'];
  for (let i = 0; i < people * 2; i++) knows.push(`p-${Math.floor(r() * people)},p-${Math.floor(r() * people)},${2000 + Math.floor(r() * 24)},${r() < 0.2 ? 'LIKES' : ''},${text(r, i)}`);
  writeFileSync(join(dir, `${name}-knows.csv`), `${knows.join('\n')}\n`);
  const lives = [':START_ID(P),:END_ID(C),from:date'];
  for (let i = 0; i < people; i++) lives.push(`p-${i},${1000 + Math.floor(r() * cities) * 3},${r() < 0.5 ? '' : '2020-01-01'}`);
  // No line break after the last record.
  writeFileSync(join(dir, `${name}-lives.csv`), lives.join('\n'));
  return [
    { kind: 'nodes', defaults: ['Person'], path: join(dir, `${name}-people.csv`) },
    { kind: 'nodes', defaults: ['City'], path: join(dir, `${name}-cities.csv`) },
    { kind: 'relationships', defaults: ['KNOWS'], path: join(dir, `${name}-knows.csv`) },
    { kind: 'relationships', defaults: ['LIVES_IN'], path: join(dir, `${name}-lives.csv`) },
  ];
}

/** Every node (labels, properties) and relationship (type, ends, properties) in id order, as text. */
function dump(db: Database): string[] {
  const out: string[] = [];
  for (const [id, labels, props] of db.executeSync('MATCH (n) RETURN id(n), labels(n), properties(n) ORDER BY id(n)').records) out.push(`N ${String(id)} ${JSON.stringify(labels)} ${show(props)}`);
  for (const [id, type, a, b, props] of db.executeSync('MATCH (a)-[r]->(b) RETURN id(r), type(r), id(a), id(b), properties(r) ORDER BY id(r)').records) {
    out.push(`R ${String(id)} ${String(type)} ${String(a)}->${String(b)} ${show(props)}`);
  }
  return out;
}

/** A value as text that tells its type (integers from floats, temporal values by their text). */
function show(value: unknown): string {
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${String(k)}:${show(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(show).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return `${value.constructor.name}(${entries.length > 0 ? entries.map(([k, v]) => `${k}:${show(v)}`).join(',') : String(value)})`;
  }
  return `${typeof value}:${String(value)}`;
}

/** Forces the parallel path on small files: three workers, ranges of `chunkBytes`. */
const parallel = (chunkBytes: number, more: ImportOptions = {}): ImportOptions => ({ ...more, threads: 3, parallel: { minBytes: 0, ...more.parallel, chunkBytes } });

async function both(inputs: ImportInput[], options: ImportOptions, chunkBytes: number): Promise<{ serial: Database; par: Database; serialSummary: unknown; parSummary: unknown }> {
  const serial = Database.openInMemory();
  const serialSummary = await importCsv(serial, inputs, { ...options, threads: 1 });
  const par = Database.openInMemory();
  const parSummary = await importCsv(par, inputs, parallel(chunkBytes, options));
  return { serial, par, serialSummary, parSummary };
}

describe('importCsv on several threads', () => {
  it('gives the serial import’s graph: quoted fields with commas, quotes and line breaks, non-ASCII, arrays, temporal values, empty fields, labels and types', async () => {
    const inputs = writeGraph('g', 400, 7);
    for (const chunkBytes of [97, 300, 4096]) {
      const { serial, par, serialSummary, parSummary } = await both(inputs, {}, chunkBytes);
      expect(parSummary).toEqual(serialSummary);
      const want = dump(serial);
      expect(want.length).toBe(400 + 50 + 800 + 400);
      expect(dump(par)).toEqual(want);
    }
  });

  it('gives the same graph with integer ids, and onRow counts every row', async () => {
    writeFileSync(join(dir, 'ints.csv'), `id,name\n${Array.from({ length: 3000 }, (_, i) => `${i * 2},n${i}`).join('\n')}\n`);
    writeFileSync(join(dir, 'int-links.csv'), `a,b,w\n${Array.from({ length: 6000 }, (_, i) => `${((i * 7) % 3000) * 2},${((i * 13) % 3000) * 2},${i % 3 === 0 ? '' : i}`).join('\n')}\n`);
    const inputs: ImportInput[] = [
      { kind: 'nodes', defaults: ['I'], path: join(dir, 'ints.csv'), header: ['id:ID(I)', 'name'] },
      { kind: 'relationships', defaults: ['L'], path: join(dir, 'int-links.csv'), header: [':START_ID(I)', ':END_ID(I)', 'w:long'] },
    ];
    const rows: number[] = [];
    const { serial, par } = await both(inputs, { idType: 'integer', onRow: (n, done, total) => rows.push(n, done <= total ? 1 : 0) }, 512);
    expect(dump(par)).toEqual(dump(serial));
    // Both runs counted 9000 rows, each with progress within the total.
    expect(rows.length).toBe(2 * 2 * 9000);
    expect(rows.filter((x, i) => i % 2 === 1 && x !== 1)).toEqual([]);
  });

  it('gives the same graph over many ranges of different shapes, whose buffers the workers fill again', async () => {
    // Long node rows and short relationship rows: the workers' arrays grow past their guesses
    // and buffers of one size come back to be used for another.
    const r = random(21);
    const nodes = Array.from({ length: 40_000 }, (_, i) => `${i},${'x'.repeat(Math.floor(r() * 60))},${Math.floor(r() * 1e6)}`);
    const links = Array.from({ length: 150_000 }, (_, i) => `${i % 40_000},${Math.floor(r() * 40_000)}`);
    writeFileSync(join(dir, 'shapes.csv'), `id,name,n\n${nodes.join('\n')}\n`);
    writeFileSync(join(dir, 'shape-links.csv'), `a,b\n${links.join('\n')}\n`);
    const inputs: ImportInput[] = [
      { kind: 'nodes', defaults: ['S'], path: join(dir, 'shapes.csv'), header: ['id:ID(S)', 'name', 'n:long'] },
      { kind: 'relationships', defaults: ['T'], path: join(dir, 'shape-links.csv'), header: [':START_ID(S)', ':END_ID(S)'] },
    ];
    for (const chunkBytes of [70_000, 300_000]) {
      const { serial, par } = await both(inputs, { idType: 'integer' }, chunkBytes);
      expect(dump(par)).toEqual(dump(serial));
    }
  });

  it('refuses a bad row in a later range with its file and line, writing nothing', async () => {
    const inputs = writeGraph('bad', 300, 11, { personLine: (i) => (i === 250 ? 'p-250,x,notanumber,1.5,,1990-01-01,,true,,' : undefined) });
    const serial = Database.openInMemory();
    const error = await importCsv(serial, inputs, { threads: 1 }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(error?.message).toMatch(/bad-people\.csv:\d+: column age: "notanumber" is not an integer \(nothing was imported\)/);
    for (const chunkBytes of [128, 1000]) {
      const db = Database.openInMemory();
      await expect(importCsv(db, inputs, parallel(chunkBytes))).rejects.toMatchObject({ name: error!.name, message: error!.message, detail: 'InvalidImportRow' });
      expect(db.executeSync('MATCH (n) RETURN count(n)').records).toEqual([[0]]);
    }
  });

  it('refuses a syntax error (a stray quote) in a later range at the serial scan’s line', async () => {
    const inputs = writeGraph('syntax', 300, 12, { personLine: (i) => (i === 280 ? 'p-280,a"b,1,1,,1990-01-01,,true,,' : undefined) });
    const serialError = await importCsv(Database.openInMemory(), inputs, { threads: 1 }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(serialError?.message).toMatch(/syntax-people\.csv:\d+: a quote inside an unquoted field/);
    const db = Database.openInMemory();
    await expect(importCsv(db, inputs, parallel(150))).rejects.toMatchObject({ message: serialError!.message, detail: 'InvalidImportFile' });
    expect(db.executeSync('MATCH (n) RETURN count(n)').records).toEqual([[0]]);
  });

  it('refuses bytes that are not UTF-8 in a later range with the serial scan’s line and byte offset', async () => {
    const inputs = writeGraph('utf8', 300, 16);
    const good = readFileSync(inputs[0].path);
    const at = good.indexOf('p-270,');
    writeFileSync(inputs[0].path, Buffer.concat([good.subarray(0, at + 4), Buffer.from([0xc3, 0x28]), good.subarray(at + 4)]));
    const serialError = await importCsv(Database.openInMemory(), inputs, { threads: 1 }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(serialError?.message).toMatch(/utf8-people\.csv:\d+: invalid UTF-8 at byte offset \d+ of the file/);
    for (const chunkBytes of [120, 700]) {
      await expect(importCsv(Database.openInMemory(), inputs, parallel(chunkBytes))).rejects.toMatchObject({ message: serialError!.message });
    }
  });

  it('skips the same bad rows as the serial import with skipBadRows: bad values, duplicate ids, unknown ends', async () => {
    const inputs = writeGraph('skip', 300, 13, {
      personLine: (i) => (i === 100 ? 'p-100,x,12x,,,1990-01-01,,true,,' : i === 200 ? 'p-3,dup,1,,,1990-01-01,,true,,' : i === 260 ? 'p-260,too,few' : undefined),
    });
    writeFileSync(inputs[3].path, `${':START_ID(P),:END_ID(C),from:date'}\np-1,1000,\np-2,999999,\np-nobody,1000,\np-4,1003,2020-13-45\np-5,1003,\n`);
    const skipped = { serial: [] as string[], par: [] as string[] };
    const serial = Database.openInMemory();
    const s = await importCsv(serial, inputs, { threads: 1, skipBadRows: true, onSkip: (where, why) => skipped.serial.push(`${where} ${why}`) });
    const par = Database.openInMemory();
    const p = await importCsv(par, inputs, { ...parallel(200), skipBadRows: true, onSkip: (where, why) => skipped.par.push(`${where} ${why}`) });
    expect(skipped.serial.length).toBeGreaterThanOrEqual(6);
    expect(skipped.par).toEqual(skipped.serial);
    expect(p).toEqual(s);
    expect(dump(par)).toEqual(dump(serial));
  });

  it('resolves integer relationship ends on the workers, as runs or row by row, and leaves to the main thread the ranges that do not resolve', async () => {
    // Nodes in two id spaces; a few keys far outside a space's dense window (the map beside it).
    const r = random(31);
    const people = Array.from({ length: 6000 }, (_, i) => `${i},p${i}`);
    people.unshift('-5,negative');
    people.push('900000000,far');
    const places = Array.from({ length: 300 }, (_, i) => `${10_000 + i * 2},c${i}`);
    writeFileSync(join(dir, 'ends-people.csv'), `id,name\n${people.join('\n')}\n`);
    writeFileSync(join(dir, 'ends-places.csv'), `id,name\n${places.join('\n')}\n`);
    // No stored property (appended as runs) and a stored property (row by row); :TYPE column; then odd rows.
    const knows = Array.from({ length: 20_000 }, () => `${Math.floor(r() * 6000)},${Math.floor(r() * 6000)}`);
    const lives = Array.from({ length: 6000 }, (_, i) => `${i},${10_000 + Math.floor(r() * 300) * 2},${r() < 0.3 ? '' : i}`);
    const typed = Array.from({ length: 3000 }, (_, i) => `${i},${(i * 7) % 6000},${i % 5 === 0 ? 'MET' : ''}`);
    const odd = Array.from({ length: 4000 }, (_, i) => `${i},${(i * 11) % 6000}`);
    odd[3500] = '900000000,1'; // a key the window does not hold: that range goes to the main thread
    odd[3600] = '-5,07'; // below the window, and an integer written with a leading zero
    writeFileSync(join(dir, 'ends-knows.csv'), `a,b\n${knows.join('\n')}\n`);
    writeFileSync(join(dir, 'ends-lives.csv'), `a,b,since\n${lives.join('\n')}\n`);
    writeFileSync(join(dir, 'ends-typed.csv'), `a,b,t\n${typed.join('\n')}\n`);
    writeFileSync(join(dir, 'ends-odd.csv'), `a,b\n${odd.join('\n')}\n`);
    const inputs: ImportInput[] = [
      { kind: 'nodes', defaults: ['P'], path: join(dir, 'ends-people.csv'), header: ['id:ID(P)', 'name'] },
      { kind: 'nodes', defaults: ['C'], path: join(dir, 'ends-places.csv'), header: ['id:ID(C)', 'name'] },
      { kind: 'relationships', defaults: ['KNOWS'], path: join(dir, 'ends-knows.csv'), header: [':START_ID(P)', ':END_ID(P)'] },
      { kind: 'relationships', defaults: ['LIVES'], path: join(dir, 'ends-lives.csv'), header: [':START_ID(P)', ':END_ID(C)', 'since:long'] },
      { kind: 'relationships', defaults: ['SEES'], path: join(dir, 'ends-typed.csv'), header: [':START_ID(P)', ':END_ID(P)', ':TYPE'] },
      { kind: 'relationships', defaults: ['ODD'], path: join(dir, 'ends-odd.csv'), header: [':START_ID(P)', ':END_ID(P)'] },
    ];
    const same = async (files: ImportInput[], chunkBytes: number): Promise<{ resolved: number; inRuns: number; nodesInRuns: number }> => {
      const serial = Database.openInMemory();
      await importCsv(serial, files, { threads: 1, idType: 'integer' });
      const seen = { resolved: 0, inRuns: 0, nodesInRuns: 0 };
      const db = Database.openInMemory();
      const rows: number[] = [];
      const summary = await importCsv(db, files, { idType: 'integer', threads: 3, onRow: (n) => rows.push(n), parallel: { minBytes: 0, chunkBytes, seen } });
      expect(dump(db)).toEqual(dump(serial));
      expect(rows).toEqual(Array.from({ length: summary.nodes + summary.relationships }, (_, i) => i + 1));
      return seen;
    };
    // Small ranges: the workers tokenize the first relationship ranges before the node files
    // are in (those go back to a worker to be resolved), and odd rows fall in ranges apart.
    for (const chunkBytes of [400, 5000]) {
      // Every row of knows goes as runs; lives (a stored property) and typed (a :TYPE column)
      // row by row with their resolved ends.
      // The node files' rows go a range at a time (ids increasing, plain integers and strings).
      expect(await same(inputs.slice(0, 5), chunkBytes)).toEqual({ resolved: 29_000, inRuns: 20_000, nodesInRuns: 6302 });
      // Of odd, only the ranges away from its two rows.
      const odd = await same([...inputs.slice(0, 2), inputs[5]], chunkBytes);
      expect(odd.inRuns).toBe(odd.resolved);
      expect(odd.resolved).toBeGreaterThan(2000);
      expect(odd.resolved).toBeLessThan(3998);
    }
    // A worker that throws or dies on a node range or on a relationship range (with resolve
    // jobs of its own in flight, perhaps) leaves its work to the others and the main thread.
    const serial = Database.openInMemory();
    await importCsv(serial, inputs.slice(0, 5), { threads: 1, idType: 'integer' });
    for (const kind of ['throw', 'exit'] as const) {
      for (const job of [3, 14, 30]) {
        const db = Database.openInMemory();
        await importCsv(db, inputs.slice(0, 5), { idType: 'integer', threads: 3, parallel: { minBytes: 0, chunkBytes: 5000, fault: { job, kind } } });
        expect(dump(db)).toEqual(dump(serial));
      }
    }
    // String ids are never resolved on the workers (without the odd file: as text, "07" is no id).
    const seen = { resolved: 0, inRuns: 0, nodesInRuns: 0 };
    await importCsv(Database.openInMemory(), inputs.slice(0, 5), { threads: 3, parallel: { minBytes: 0, chunkBytes: 5000, seen } });
    expect(seen).toEqual({ resolved: 0, inRuns: 0, nodesInRuns: 0 });
  });

  it('appends node ranges column by column only where the row path has nothing to say, and leaves the rest to it', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${i * 3},n${i},${i % 4 === 0 ? '' : i - 1500},${i % 7 === 0 ? '"quoted, text"' : i % 11 === 0 ? '""' : `Zoë ${i}`}`);
    rows[500] = '1498,late,1,x'; // a key lower than the one before (a new id all the same)
    rows[1200] = '"3600",quoted id,1,x';
    rows[1900] = '5700,spaced, 7,x'; // " 7": the row path's integer, not a plain one
    rows[2400] = '7200,short';
    rows[2600] = '3,duplicate,1,x';
    writeFileSync(join(dir, 'runs-nodes.csv'), `id,name,n,note\n${rows.join('\n')}\n`);
    // A second file in the same id space: its first key is one of the first file's.
    const more = Array.from({ length: 500 }, (_, i) => `${i === 0 ? 30 : 10_000 + i},m${i},${i},y`);
    writeFileSync(join(dir, 'runs-more.csv'), `id,name,n,note\n${more.join('\n')}\n`);
    const header = ['id:ID(N)', 'name', 'n:long', 'note'];
    const inputs: ImportInput[] = [
      { kind: 'nodes', defaults: ['N'], path: join(dir, 'runs-nodes.csv'), header },
      { kind: 'nodes', defaults: ['N', 'M'], path: join(dir, 'runs-more.csv'), header },
    ];
    const skipped = { serial: [] as string[], par: [] as string[] };
    const serial = Database.openInMemory();
    const s = await importCsv(serial, inputs, { threads: 1, idType: 'integer', skipBadRows: true, onSkip: (where, why) => skipped.serial.push(`${where} ${why}`) });
    expect(skipped.serial).toHaveLength(3); // the short row and the two duplicates
    for (const chunkBytes of [300, 4000]) {
      const seen = { resolved: 0, inRuns: 0, nodesInRuns: 0 };
      const par = Database.openInMemory();
      skipped.par = [];
      const p = await importCsv(par, inputs, { idType: 'integer', threads: 3, skipBadRows: true, onSkip: (where, why) => skipped.par.push(`${where} ${why}`), parallel: { minBytes: 0, chunkBytes, seen } });
      expect(p).toEqual(s);
      expect(skipped.par).toEqual(skipped.serial);
      expect(dump(par)).toEqual(dump(serial));
      // All but the ranges holding the five odd rows.
      expect(seen.nodesInRuns).toBeGreaterThan(1500);
      expect(seen.nodesInRuns).toBeLessThan(3495);
    }
  });

  it('falls back to tokenizing on the main thread where a worker throws or dies, with the same graph', async () => {
    const inputs = writeGraph('fault', 300, 14);
    const serial = Database.openInMemory();
    await importCsv(serial, inputs, { threads: 1 });
    const want = dump(serial);
    for (const kind of ['throw', 'exit'] as const) {
      for (const job of [0, 3, 9]) {
        const db = Database.openInMemory();
        await importCsv(db, inputs, { threads: 2, parallel: { chunkBytes: 500, minBytes: 0, fault: { job, kind } } });
        expect(dump(db)).toEqual(want);
      }
    }
  });

  it.runIf(existsSync('/proc/self/fd'))('leaves no file open after an import on several threads', async () => {
    const inputs = writeGraph('fds', 200, 17);
    const open = (): number => readdirSync('/proc/self/fd').length;
    await importCsv(Database.openInMemory(), inputs, parallel(300)); // workers' own start-up opens
    const before = open();
    for (let i = 0; i < 3; i++) await importCsv(Database.openInMemory(), inputs, parallel(300));
    expect(open()).toBeLessThanOrEqual(before);
  });

  it('reads inputs under minBytes on the calling thread, and refuses a missing file as the serial import does', async () => {
    const inputs = writeGraph('small', 50, 15);
    const db = Database.openInMemory();
    const serialDb = Database.openInMemory();
    await importCsv(serialDb, inputs, { threads: 1 });
    await importCsv(db, inputs, { threads: 4 });
    expect(dump(db)).toEqual(dump(serialDb));
    const missing = [...inputs, { kind: 'relationships' as const, defaults: ['X'], path: join(dir, 'none.csv') }];
    await expect(importCsv(Database.openInMemory(), missing, parallel(100))).rejects.toThrow(`${join(dir, 'none.csv')}: ENOENT`);
  });
});

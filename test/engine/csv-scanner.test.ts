/**
 * The import's byte-level CSV tokenizer (`CsvScanner` through `scanFile`) against `csv-parse`
 * as the oracle: generated files with quotes, doubled quotes, delimiters and line breaks
 * inside fields, CRLF, empty lines and non-ASCII text, read in chunks as small as a few bytes
 * (so records straddle chunks and outgrow the buffer); a multi-byte delimiter; plain integers
 * read from the bytes; and the errors for malformed quoting.
 */

import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvScanner, scanFile } from '../../src/engine/csv-scanner.js';

const dir = mkdtempSync(join(tmpdir(), 'graphdb-csv-scanner-'));
let files = 0;

interface Read {
  fields: string[];
  line: number;
  ints: number[];
}

async function read(text: string, chunk: number, delimiter = ','): Promise<Read[]> {
  const path = join(dir, `f${files++}.csv`);
  writeFileSync(path, text);
  const out: Read[] = [];
  const scanner = new CsvScanner(delimiter, 'f.csv', (r) => {
    const fields = Array.from({ length: r.count }, (_, i) => r.text(i));
    out.push({ fields, line: r.line, ints: fields.map((_, i) => r.plainInt(i)) });
  });
  await scanFile(path, scanner, chunk);
  expect(scanner.bytesRead).toBe(Buffer.byteLength(text));
  return out;
}

/** A field as written and whether it is quoted (quoted fields are text, never plain integers). */
const field = fc.oneof(
  fc.stringMatching(/^[a-z0-9 .;:+-]{0,6}$/).map((raw) => ({ raw, quoted: false })),
  fc.stringMatching(/^[0-9]{1,17}$/).map((raw) => ({ raw, quoted: false })),
  fc.constantFrom('é', 'ß€', '日本', '-0', '+12').map((raw) => ({ raw, quoted: false })),
  fc.stringMatching(/^[a-zé,"\n ]{0,6}$/).map((s) => ({ raw: `"${s.replace(/"/g, '""')}"`, quoted: true })),
);
const record = fc.array(field, { minLength: 1, maxLength: 5 });
const file = fc.tuple(fc.array(record, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([rs, eol, trailing]) => ({
  text: rs.map((fs) => fs.map((f) => f.raw).join(',')).join(eol) + (trailing ? eol : ''),
  quoted: rs.filter((fs) => fs.length > 1 || fs[0].quoted || fs[0].raw !== '').map((fs) => fs.map((f) => f.quoted)),
}));

/** What `plainInt` promises: the number for an optionally signed run of at most 15 digits, else NaN. */
function plain(text: string): number {
  return /^[+-]?\d{1,15}$/.test(text) ? Number(text) : NaN;
}

describe('CsvScanner', () => {
  it('reads what csv-parse reads, whatever the chunk size, with the line each record ends on', async () => {
    await fc.assert(
      fc.asyncProperty(file, fc.integer({ min: 1, max: 64 }), async ({ text, quoted }, chunk) => {
        const expected = parse(text, { relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
        const got = await read(text, chunk);
        expect(got.map((r) => r.fields)).toEqual(expected.map((r) => r.record));
        expect(got.map((r) => r.line)).toEqual(expected.map((r) => r.info.lines));
        expect(got.map((r) => r.ints)).toEqual(expected.map((r, i) => r.record.map((f, j) => (quoted[i][j] ? NaN : plain(f)))));
      }),
      { numRuns: Number(process.env.CSV_FUZZ_RUNS ?? 300) },
    );
  });

  it('takes a multi-byte delimiter, even cut across chunks', async () => {
    for (const chunk of [1, 2, 3, 5, 64]) {
      expect((await read('a→b→"c→d"\n1→2→3\n', chunk, '→')).map((r) => r.fields)).toEqual([
        ['a', 'b', 'c→d'],
        ['1', '2', '3'],
      ]);
    }
  });

  it('reads integers from the bytes: a sign, leading zeros, and NaN past 15 digits or for anything else', async () => {
    const [r] = await read('7,-12,+3,007,-0,123456789012345,1234567890123456,1e3, 5,"9",\n', 4);
    expect(r.ints).toEqual([7, -12, 3, 7, -0, 123456789012345, NaN, NaN, NaN, NaN, NaN]);
  });

  it('names the file and line of malformed quoting', async () => {
    await expect(read('a,b\n"open,x\n', 3)).rejects.toThrow(/f\.csv:2: a quoted field is not closed/);
    await expect(read('a,b\nx,"y"z\n', 3)).rejects.toThrow(/f\.csv:2: a character after the closing quote/);
    await expect(read('a,b\n1,2\nx,y"z\n', 3)).rejects.toThrow(/f\.csv:3: a quote inside an unquoted field/);
  });
});

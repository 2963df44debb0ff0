/**
 * The import's CSV tokenizer against `csv-parse` (the package LOAD CSV uses) as the oracle:
 * generated files with quotes, doubled quotes, delimiters and line breaks inside fields, CRLF
 * and empty lines, cut into chunks at random places; and the errors for malformed quoting.
 */

import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvReader } from '../../src/engine/csv-reader.js';

function read(text: string, cuts: number[], delimiter = ','): { fields: string[]; line: number }[] {
  const out: { fields: string[]; line: number }[] = [];
  const reader = new CsvReader<string>(delimiter, (fields, line) => out.push({ fields, line }), 'f.csv', '');
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.push(text.slice(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  reader.push(text.slice(at));
  reader.end();
  return out;
}

const field = fc.oneof(
  fc.stringMatching(/^[a-z0-9 .;:-]{0,6}$/),
  fc.stringMatching(/^[a-z,"\n ]{0,6}$/).map((s) => `"${s.replace(/"/g, '""')}"`),
);
const record = fc.array(field, { minLength: 1, maxLength: 5 }).map((fs) => fs.join(','));
const file = fc.tuple(fc.array(record, { minLength: 1, maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.boolean()).map(([rs, eol, trailing]) => rs.join(eol) + (trailing ? eol : ''));

describe('CsvReader', () => {
  it('reads what csv-parse reads, whatever the chunking, with the line each record ends on', () => {
    fc.assert(
      fc.property(file, fc.array(fc.nat({ max: 200 }), { maxLength: 6 }), (text, cuts) => {
        const expected = parse(text, { relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
        const got = read(text, cuts);
        expect(got.map((r) => r.fields)).toEqual(expected.map((r) => r.record));
        expect(got.map((r) => r.line)).toEqual(expected.map((r) => r.info.lines));
      }),
      { numRuns: Number(process.env.CSV_FUZZ_RUNS ?? 500) },
    );
  });

  it('takes another delimiter, skips empty lines and keeps a quoted empty field', () => {
    expect(read('a;b\n\n"";x\n\n', [3], ';')).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['', 'x'], line: 3 },
    ]);
    expect(read('""\n', [])).toEqual([{ fields: [''], line: 1 }]);
  });

  it('names the file and line of malformed quoting', () => {
    expect(() => read('a,b\n"open,x\n', [])).toThrow(/f\.csv:2: a quoted field is not closed/);
    expect(() => read('a,b\nx,"y"z\n', [])).toThrow(/f\.csv:2: a character after the closing quote/);
    expect(() => read('a,b\n1,2\nx,y"z\n', [])).toThrow(/f\.csv:3: a quote inside an unquoted field/);
  });
});

/**
 * A streaming CSV tokenizer (RFC 4180) over text, for LOAD CSV (`CsvReader.forLoadCsv`, with
 * unquoted empty fields as null): text arrives in chunks, records leave as arrays of strings
 * through a callback with the line each one ends on. Fields may be quoted (`"a,b"`, `""` for
 * a quote inside, line breaks inside); records end at LF or CRLF; empty lines are skipped. It
 * is hand-written because a general parser with options and per-record bookkeeping is several
 * times slower. The bulk import reads the same dialect from bytes (`csv-scanner.ts`).
 */

import { ArgumentError } from '../errors.js';

const QUOTE = 34;
const LF = 10;
const CR = 13;

/** Where a record's text stops short of its end: wait for more input. */
const INCOMPLETE = -1;

/**
 * `Empty` is what an unquoted empty field becomes: `''` for the import, `null` for LOAD CSV
 * (where `a,,b` has a null and `a,"",b` an empty string).
 */
export class CsvReader<Empty extends string | null = string> {
  /** Text of a record not yet complete, carried to the next chunk. */
  private rest = '';
  /** Line number at the start of `rest`. */
  private line = 1;
  private readonly delimiter: number;

  /** A reader for LOAD CSV: unquoted empty fields are null. */
  static forLoadCsv(delimiter: string, onRecord: (fields: (string | null)[], line: number) => void, source: string): CsvReader<null> {
    return new CsvReader<null>(delimiter, onRecord, source, null);
  }

  constructor(
    delimiter: string,
    private readonly onRecord: (fields: (string | Empty)[], line: number) => void,
    /** For messages: the file name. */
    private readonly source: string,
    private readonly unquotedEmpty: Empty,
  ) {
    if (delimiter.length !== 1) throw new ArgumentError(`The CSV delimiter must be one character, not ${JSON.stringify(delimiter)}`, 'InvalidImportFile');
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Takes the next piece of the text; calls `onRecord` for each record it completes. */
  push(chunk: string): void {
    this.parse(this.rest + chunk, false);
  }

  /** The end of the text: the last record may end without a line break. */
  end(): void {
    if (this.rest !== '') this.parse(this.rest, true);
    this.rest = '';
  }

  private parse(text: string, final: boolean): void {
    let at = 0;
    while (at < text.length) {
      const fields: (string | Empty)[] = [];
      const next = this.record(text, at, final, fields);
      if (next === INCOMPLETE) break;
      at = next;
    }
    this.rest = at < text.length ? text.slice(at) : '';
  }

  /** Reads one record from `at` into `fields`; returns where the next one starts, or INCOMPLETE. */
  private record(text: string, at: number, final: boolean, fields: (string | Empty)[]): number {
    const n = text.length;
    const delimiter = this.delimiter;
    let p = at;
    let breaks = 0;
    let quoted = false;
    for (;;) {
      if (p < n && text.charCodeAt(p) === QUOTE) {
        quoted = true;
        let value = '';
        let q = p + 1;
        for (;;) {
          const close = text.indexOf('"', q);
          if (close < 0) {
            if (!final) return INCOMPLETE;
            throw this.error(this.line, 'a quoted field is not closed before the end of the file');
          }
          const part = text.slice(q, close);
          value += part;
          for (let i = part.indexOf('\n'); i >= 0; i = part.indexOf('\n', i + 1)) breaks++;
          if (close + 1 < n && text.charCodeAt(close + 1) === QUOTE) {
            value += '"';
            q = close + 2;
            continue;
          }
          if (close + 1 >= n && !final) return INCOMPLETE; // a doubled quote may follow in the next chunk
          p = close + 1;
          break;
        }
        fields.push(value);
      } else {
        let e = p;
        while (e < n) {
          const c = text.charCodeAt(e);
          if (c === delimiter || c === LF || c === CR) break;
          if (c === QUOTE) throw this.error(this.line + breaks, 'a quote inside an unquoted field (quote the whole field and double the quote)');
          e++;
        }
        if (e >= n && !final) return INCOMPLETE;
        fields.push(e === p ? this.unquotedEmpty : text.slice(p, e));
        p = e;
      }
      if (p >= n) {
        if (!final) return INCOMPLETE;
        this.emit(fields, breaks, quoted);
        return p;
      }
      const c = text.charCodeAt(p);
      if (c === delimiter) {
        p++;
        continue;
      }
      if (c === LF || c === CR) {
        if (c === CR) {
          if (p + 1 >= n && !final) return INCOMPLETE;
          if (p + 1 < n && text.charCodeAt(p + 1) === LF) p++;
        }
        this.emit(fields, breaks, quoted);
        this.line++;
        return p + 1;
      }
      throw this.error(this.line + breaks, 'a character after the closing quote of a field (expected a delimiter or the end of the line)');
    }
  }

  private emit(fields: (string | Empty)[], breaks: number, quoted: boolean): void {
    this.line += breaks;
    if (!quoted && fields.length === 1 && fields[0] === this.unquotedEmpty) return; // an empty line
    this.onRecord(fields, this.line);
  }

  private error(line: number, why: string): ArgumentError {
    return new ArgumentError(`${this.source}:${line}: ${why}`, 'InvalidImportFile');
  }
}

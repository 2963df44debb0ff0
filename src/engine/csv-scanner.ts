/**
 * The bulk import's CSV tokenizer over bytes (RFC 4180, the same dialect as `CsvReader`):
 * the file is read in large binary chunks and never decoded as a whole; a record is a set
 * of field offsets into the chunk (`CsvRecord`), reused for every record, so a row costs no
 * array and no string until the importer asks for one. Integers are read from the bytes
 * (`plainInt`), text is decoded per field only where a value needs a string, and a column
 * that keeps UTF-8 bytes takes them as they are. Quoted fields (rare in bulk files) are
 * unescaped into a string at once.
 *
 * Records end at LF or CRLF (or a lone CR), empty lines are skipped, a record's line is the
 * line it ends on, and the errors are `CsvReader`'s: a quote inside an unquoted field, a
 * character after a closing quote, a quoted field not closed by the end of the file.
 */

import { isAscii, isUtf8 } from 'node:buffer';
import { open, type FileHandle } from 'node:fs/promises';
import { ArgumentError } from '../errors.js';

const QUOTE = 34;
const LF = 10;
const CR = 13;
const PLUS = 43;
const MINUS = 45;
const ZERO = 48;
/** Digits a plain integer may have and still be exact as a double without checking. */
const SAFE_DIGITS = 15;

/** Bytes read from a file at a time (a record longer than that grows the buffer). */
const CHUNK = 4 << 20;
/**
 * Longest record (one line, or several where a quoted field spans lines), in bytes: a file
 * with no line break (/dev/zero, a binary file) stops here with a clear error instead of
 * doubling the buffer until the process aborts.
 */
export const MAX_RECORD_BYTES = 64 << 20;

/** Where a record's bytes stop short of its end: wait for more input. */
const INCOMPLETE = -1;
/** `nextPlain` met something only `next` handles: `next` reads the record again from its start. */
const NOT_PLAIN = -2;

/**
 * A CSV syntax error (a stray quote, an unclosed quoted field, bytes that are not UTF-8) at a
 * line: the message names `source:line`, and the line and reason are kept apart so that a
 * scan of part of a file (csv-parallel.ts) can be reported at the file's own line.
 */
export class CsvSyntaxError extends ArgumentError {
  constructor(
    source: string,
    readonly line: number,
    readonly why: string,
  ) {
    super(`${source}:${line}: ${why}`, 'InvalidImportFile');
  }
}

/** One record of a chunk: fields as byte ranges, quoted ones as unescaped text. */
export class CsvRecord {
  buf: Buffer = Buffer.alloc(0);
  count = 0;
  starts: Int32Array = new Int32Array(16);
  ends: Int32Array = new Int32Array(16);
  /**
   * Field i's offsets are `starts/ends[first + i]`: 0 while the scanner fills the record;
   * a replayed record (csv-parallel.ts) reads a whole range's arrays in place.
   */
  first = 0;
  /** Unescaped text of the quoted fields of this record (by field; read only where `anyQuoted`). */
  readonly quoted: (string | undefined)[] = [];
  anyQuoted = false;
  /** No byte of the chunk is above 127: a field's bytes are its text as Latin-1. */
  ascii = true;
  /** The line the record ends on (1-based). */
  line = 0;
  /**
   * A relationship record's start and end node ids where a parse worker resolved them
   * (csv-parallel.ts), else -1: the row reader then looks them up itself.
   */
  startNode = -1;
  endNode = -1;

  isQuoted(i: number): boolean {
    return this.anyQuoted && this.quoted[i] !== undefined;
  }

  /** Whether field `i` is empty (`a,,b` or `a,"",b`). */
  isEmpty(i: number): boolean {
    return this.isQuoted(i) ? this.quoted[i] === '' : this.starts[this.first + i] === this.ends[this.first + i];
  }

  /** Field `i` as a string. */
  text(i: number): string {
    if (this.isQuoted(i)) return this.quoted[i]!;
    return this.buf.toString(this.ascii ? 'latin1' : 'utf8', this.starts[this.first + i], this.ends[this.first + i]);
  }

  /** Where field `i`'s bytes start in `buf` (a quoted field's: after the opening quote, not unescaped). */
  fieldStart(i: number): number {
    return this.starts[this.first + i];
  }

  fieldEnd(i: number): number {
    return this.ends[this.first + i];
  }

  /**
   * Field `i` as a number when it is plain decimal digits with an optional sign and at most 15
   * digits (so exact, and what `Number` of its text gives); NaN for anything else, which the
   * caller then reads from `text`.
   */
  plainInt(i: number): number {
    if (this.ints !== undefined) return this.ints[this.first + i];
    return this.bytesPlainInt(i);
  }

  /**
   * Field values as `plainInt` gives them, where a parse thread worked them out already
   * (csv-parallel.ts); undefined while the record reads its own bytes.
   */
  ints: Float64Array | undefined = undefined;

  /** `plainInt` from the field's bytes. */
  bytesPlainInt(i: number): number {
    if (this.isQuoted(i)) return NaN;
    const buf = this.buf;
    let p = this.starts[this.first + i];
    const end = this.ends[this.first + i];
    let negative = false;
    if (p < end && (buf[p] === MINUS || buf[p] === PLUS)) negative = buf[p++] === MINUS;
    if (p === end || end - p > SAFE_DIGITS) return NaN;
    let n = 0;
    for (; p < end; p++) {
      const d = buf[p] - ZERO;
      if (d < 0 || d > 9) return NaN;
      n = n * 10 + d;
    }
    return negative ? -n : n;
  }

  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    const ends = new Int32Array(this.ends.length * 2);
    starts.set(this.starts);
    ends.set(this.ends);
    this.starts = starts;
    this.ends = ends;
    if (this.ints !== undefined) {
      const ints = new Float64Array(this.starts.length);
      ints.set(this.ints);
      this.ints = ints;
    }
  }

  /** Room for field `count` (called before each field is stored). */
  room(count: number): void {
    if (count === this.starts.length) this.grow();
  }
}

export class CsvScanner {
  private readonly record = new CsvRecord();
  /** The delimiter's UTF-8 bytes: its first, and how many. */
  private readonly d0: number;
  private readonly delimiterBytes: Buffer;
  /** The largest byte that may end or break an unquoted field (delimiter, quote, CR or LF): the scan tests bytes above it once. */
  private readonly gate: number;
  /** Line number where the next record starts. */
  private line = 1;
  /** Bytes of the file before the current buffer's first byte. */
  private offset = 0;
  /** Bytes of the file read so far (by `scanFile`). */
  bytesRead = 0;

  constructor(
    delimiter: string,
    /** For messages: the file name. */
    private readonly source: string,
    private readonly onRecord: (record: CsvRecord) => void,
    /** Where the bytes scanned start: the line (for messages and `CsvRecord.line`) and the offset in the file (for messages). */
    start: { line: number; offset: number } = { line: 1, offset: 0 },
  ) {
    this.line = start.line;
    this.offset = start.offset;
    if (delimiter.length !== 1) throw new ArgumentError(`The CSV delimiter must be one character, not ${JSON.stringify(delimiter)}`, 'InvalidImportFile');
    this.delimiterBytes = Buffer.from(delimiter, 'utf8');
    this.d0 = this.delimiterBytes[0];
    this.gate = Math.max(this.d0, QUOTE, CR);
  }

  /**
   * Calls `onRecord` for each record complete in `buf[0, length)`; returns where the first
   * incomplete one starts (the caller keeps those bytes and appends more). With `final` the
   * bytes end the file, so everything is consumed.
   */
  scan(buf: Buffer, length: number, final: boolean): number {
    this.record.buf = buf;
    this.record.ascii = isAscii(buf.subarray(0, length));
    if (!this.record.ascii) this.checkUtf8(buf, length, final);
    let at = 0;
    const plain = this.delimiterBytes.length === 1 && this.d0 !== LF && this.d0 !== CR && this.d0 !== QUOTE;
    while (at < length) {
      let next = plain ? this.nextPlain(buf, at, length) : NOT_PLAIN;
      if (next === NOT_PLAIN) next = this.next(buf, at, length, final);
      if (next === INCOMPLETE) break;
      at = next;
    }
    this.offset += at;
    return at;
  }

  /** The line the scanner is at (where the record it waits to complete starts). */
  get currentLine(): number {
    return this.line;
  }

  /**
   * Refuses bytes that are not UTF-8 (decoding would turn them into U+FFFD without a word),
   * naming the line and the byte offset in the file. Only whole lines are checked, up to the
   * last LF (no UTF-8 sequence contains that byte), so a character cut by the chunk's end is
   * checked with the next chunk.
   */
  private checkUtf8(buf: Buffer, length: number, final: boolean): void {
    const end = final ? length : buf.lastIndexOf(LF, length - 1) + 1;
    if (end <= 0 || isUtf8(buf.subarray(0, end))) return;
    const bad = firstInvalidUtf8(buf, end);
    let line = this.line;
    for (let i = buf.indexOf(LF, 0); i >= 0 && i < bad; i = buf.indexOf(LF, i + 1)) line++;
    throw this.error(line, `invalid UTF-8 at byte offset ${this.offset + bad} of the file (the import reads UTF-8 text only)`);
  }

  /** Whether the delimiter (of more than one byte) starts at `p`; a cut-off one counts as not. */
  private delimiterAt(buf: Buffer, p: number, n: number): boolean {
    const d = this.delimiterBytes;
    if (p + d.length > n) return false;
    for (let i = 1; i < d.length; i++) if (buf[p + i] !== d[i]) return false;
    return true;
  }

  /**
   * The common record, read fast: a one-byte delimiter, no quote, ended by LF before the end
   * of the buffer. Returns where the next record starts, or NOT_PLAIN (having emitted
   * nothing) for `next` to read the record whole — a quote anywhere, a CR, the buffer's end —
   * so every other case, and every error, is `next`'s alone.
   */
  private nextPlain(buf: Buffer, at: number, n: number): number {
    const rec = this.record;
    const d0 = this.d0;
    const gate = this.gate;
    let starts = rec.starts;
    let ends = rec.ends;
    let p = at;
    let count = 0;
    for (;;) {
      if (count === starts.length) {
        rec.room(count);
        starts = rec.starts;
        ends = rec.ends;
      }
      let e = p;
      let c = 0;
      for (; e < n; e++) {
        c = buf[e];
        if (c <= gate && (c === d0 || c === LF || c === CR || c === QUOTE)) break;
      }
      if (e >= n || c === QUOTE || c === CR) return NOT_PLAIN;
      starts[count] = p;
      ends[count++] = e;
      if (c === LF) {
        rec.anyQuoted = false;
        this.emit(count, 0);
        this.line++;
        return e + 1;
      }
      p = e + 1;
    }
  }

  /** Reads one record from `at`; returns where the next one starts, or INCOMPLETE. */
  private next(buf: Buffer, at: number, n: number, final: boolean): number {
    const rec = this.record;
    const d0 = this.d0;
    const wide = this.delimiterBytes.length > 1;
    let p = at;
    let count = 0;
    let breaks = 0;
    rec.anyQuoted = false;
    for (;;) {
      rec.room(count);
      if (p < n && buf[p] === QUOTE) {
        const close = this.quotedField(buf, p, n, final, count);
        if (close === INCOMPLETE) return INCOMPLETE;
        breaks += this.lastBreaks;
        p = close + 1;
      } else {
        let e = p;
        const gate = this.gate;
        while (e < n) {
          const c = buf[e];
          if (c <= gate) {
            if (c === LF || c === CR) break;
            // A lead byte of a multi-byte delimiter counts only where the whole delimiter follows (near the end, wait).
            if (c === d0 && (!wide || this.delimiterAt(buf, e, n) || (e + this.delimiterBytes.length > n && !final))) break;
            if (c === QUOTE) throw this.error(this.line + breaks, 'a quote inside an unquoted field (quote the whole field and double the quote)');
          }
          e++;
        }
        if (e >= n && !final) return INCOMPLETE;
        if (wide && e < n && buf[e] === d0 && !this.delimiterAt(buf, e, n)) return INCOMPLETE;
        rec.starts[count] = p;
        rec.ends[count] = e;
        if (rec.anyQuoted) rec.quoted[count] = undefined;
        p = e;
      }
      count++;
      if (p >= n) {
        if (!final) return INCOMPLETE;
        this.emit(count, breaks);
        return p;
      }
      const c = buf[p];
      if (c === d0) {
        if (!wide || this.delimiterAt(buf, p, n)) {
          p += this.delimiterBytes.length;
          continue;
        }
        if (p + this.delimiterBytes.length > n && !final) return INCOMPLETE;
      }
      if (c === LF || c === CR) {
        if (c === CR) {
          if (p + 1 >= n && !final) return INCOMPLETE;
          if (p + 1 < n && buf[p + 1] === LF) p++;
        }
        this.emit(count, breaks);
        this.line++;
        return p + 1;
      }
      throw this.error(this.line + breaks, 'a character after the closing quote of a field (expected a delimiter or the end of the line)');
    }
  }

  /** Line breaks inside the last quoted field read. */
  private lastBreaks = 0;

  /**
   * Reads the quoted field opening at `open` as field `index` of the record (its unescaped
   * text); returns the offset of its closing quote, or INCOMPLETE.
   */
  private quotedField(buf: Buffer, open: number, n: number, final: boolean, index: number): number {
    const rec = this.record;
    let q = open + 1;
    let escaped = false;
    let breaks = 0;
    let close: number;
    for (;;) {
      close = buf.indexOf(QUOTE, q);
      if (close < 0 || close >= n) {
        if (!final) return INCOMPLETE;
        throw this.error(this.line, 'a quoted field is not closed before the end of the file');
      }
      for (let i = q; i < close; i++) if (buf[i] === LF) breaks++;
      if (close + 1 < n && buf[close + 1] === QUOTE) {
        escaped = true;
        q = close + 2;
        continue;
      }
      if (close + 1 >= n && !final) return INCOMPLETE; // a doubled quote may follow in the next chunk
      break;
    }
    if (!rec.anyQuoted) {
      rec.anyQuoted = true;
      for (let i = 0; i < index; i++) rec.quoted[i] = undefined;
    }
    const raw = buf.toString('utf8', open + 1, close);
    rec.quoted[index] = escaped ? raw.replaceAll('""', '"') : raw;
    rec.starts[index] = open + 1;
    rec.ends[index] = close;
    this.lastBreaks = breaks;
    return close;
  }

  private emit(count: number, breaks: number): void {
    const rec = this.record;
    this.line += breaks;
    if (count === 1 && !rec.anyQuoted && rec.starts[0] === rec.ends[0]) return; // an empty line
    rec.count = count;
    rec.line = this.line;
    this.onRecord(rec);
  }

  private error(line: number, why: string): CsvSyntaxError {
    return new CsvSyntaxError(this.source, line, why);
  }
}

/** Offset of the first byte of `buf[0, end)` that does not belong to a well-formed UTF-8 sequence (`end` if none). */
function firstInvalidUtf8(buf: Buffer, end: number): number {
  let i = 0;
  while (i < end) {
    const b = buf[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    const [n, min, max] = b >= 0xc2 && b <= 0xdf ? [1, 0x80, 0xbf] : b === 0xe0 ? [2, 0xa0, 0xbf] : b === 0xed ? [2, 0x80, 0x9f] : b >= 0xe1 && b <= 0xef ? [2, 0x80, 0xbf] : b === 0xf0 ? [3, 0x90, 0xbf] : b === 0xf4 ? [3, 0x80, 0x8f] : b >= 0xf1 && b <= 0xf3 ? [3, 0x80, 0xbf] : [0, 0, 0];
    if (n === 0 || i + n >= end) return i;
    if (buf[i + 1] < min || buf[i + 1] > max) return i;
    for (let k = 2; k <= n; k++) if (buf[i + k] < 0x80 || buf[i + k] > 0xbf) return i;
    i += n + 1;
  }
  return end;
}

/**
 * Reads the file at `path` through `scanner` in chunks of `chunkBytes` (a buffer twice as
 * large where one record does not fit, up to MAX_RECORD_BYTES), calling its `onRecord` for
 * every record.
 */
export async function scanFile(path: string, scanner: CsvScanner, chunkBytes = CHUNK, maxRecordBytes = MAX_RECORD_BYTES): Promise<void> {
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
    let buf = Buffer.allocUnsafe(chunkBytes);
    // `buf[0, filled)` holds bytes not yet scanned: the start of an unfinished record, then what was read after it.
    let filled = 0;
    for (;;) {
      if (filled === buf.length) {
        if (filled >= maxRecordBytes) {
          throw new ArgumentError(`${path}:${scanner.currentLine}: a record (line) is longer than ${maxRecordBytes} bytes, the limit (is this a CSV file?)`, 'InvalidImportFile');
        }
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxRecordBytes));
        buf.copy(bigger);
        buf = bigger;
      }
      const { bytesRead } = await file.read(buf, filled, buf.length - filled, null);
      scanner.bytesRead += bytesRead;
      filled += bytesRead;
      const used = scanner.scan(buf, filled, bytesRead === 0);
      if (bytesRead === 0) return;
      buf.copy(buf, 0, used, filled);
      filled -= used;
    }
  } finally {
    await file?.close();
  }
}

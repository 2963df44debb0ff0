/**
 * Cuts a byte stream into lines at `\n`, working on bytes so that a multi-byte character
 * split across chunks is never mangled (decoding happens per whole line, later). A line
 * longer than the cap is not buffered without end: the splitter reports an overflow and
 * stops, and the caller answers with an error and closes the connection — or, made with
 * `skipOversized`, drops that line up to its `\n`, counts it in `skipped`, and goes on.
 */

export interface SplitResult {
  /** Complete lines, without their `\n` (a trailing `\r` is left for the caller). */
  lines: Buffer[];
  /** True once a line grew past the cap; the splitter accepts nothing more. */
  overflow: boolean;
  /** With skipOversized: how many oversized lines were dropped (reported when their dropping begins). */
  skipped?: number;
}

const NEWLINE = 0x0a;

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowed = false;
  /** skipOversized: inside an oversized line, dropping bytes up to its end. */
  private dropping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly options: { skipOversized?: boolean } = {},
  ) {}

  push(chunk: Buffer): SplitResult {
    const lines: Buffer[] = [];
    if (this.overflowed) return { lines, overflow: true };
    let start = 0;
    let skipped = 0;
    if (this.dropping) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl < 0) return { lines, overflow: false };
      this.dropping = false;
      start = nl + 1;
    }
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      if (this.pendingBytes + piece.length > this.maxLineBytes) {
        if (!this.options.skipOversized) return this.overflow(lines);
        skipped++;
        this.pending = [];
        this.pendingBytes = 0;
        start = nl + 1;
        continue;
      }
      if (this.pending.length > 0) {
        this.pending.push(piece);
        lines.push(Buffer.concat(this.pending, this.pendingBytes + piece.length));
        this.pending = [];
        this.pendingBytes = 0;
      } else {
        lines.push(piece);
      }
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.pendingBytes + rest.length > this.maxLineBytes) {
        if (!this.options.skipOversized) return this.overflow(lines);
        this.pending = [];
        this.pendingBytes = 0;
        this.dropping = true;
        return { lines, overflow: false, skipped: skipped + 1 };
      }
      // Copy: the socket may reuse its chunk buffer.
      this.pending.push(Buffer.from(rest));
      this.pendingBytes += rest.length;
    }
    return { lines, overflow: false, skipped };
  }

  /** The unterminated last line at end of input, if any (and not an overflow). */
  flush(): Buffer | undefined {
    if (this.overflowed || this.pendingBytes === 0) return undefined;
    const line = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    return line;
  }

  private overflow(lines: Buffer[]): SplitResult {
    this.overflowed = true;
    this.pending = [];
    this.pendingBytes = 0;
    return { lines, overflow: true };
  }
}

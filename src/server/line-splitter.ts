/**
 * Cuts a byte stream into lines at `\n`, working on bytes so that a multi-byte character
 * split across chunks is never mangled (decoding happens per whole line, later). A line
 * longer than the cap is not buffered without end: the splitter reports an overflow and
 * stops, and the caller answers with an error and closes the connection.
 */

export interface SplitResult {
  /** Complete lines, without their `\n` (a trailing `\r` is left for the caller). */
  lines: Buffer[];
  /** True once a line grew past the cap; the splitter accepts nothing more. */
  overflow: boolean;
}

const NEWLINE = 0x0a;

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflowed = false;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): SplitResult {
    const lines: Buffer[] = [];
    if (this.overflowed) return { lines, overflow: true };
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) break;
      const piece = chunk.subarray(start, nl);
      if (this.pendingBytes + piece.length > this.maxLineBytes) return this.overflow(lines);
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
      if (this.pendingBytes + rest.length > this.maxLineBytes) return this.overflow(lines);
      // Copy: the socket may reuse its chunk buffer.
      this.pending.push(Buffer.from(rest));
      this.pendingBytes += rest.length;
    }
    return { lines, overflow: false };
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

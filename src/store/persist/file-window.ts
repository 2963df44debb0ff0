/**
 * `FileWindow`: random-access reads of a large file through one reusable buffer, so the
 * WAL reader can walk a file of any size with bounded memory and few system calls.
 */

import * as fs from 'node:fs';

const WINDOW = 8 * 1024 * 1024;

export class FileWindow {
  private store = Buffer.alloc(0);
  private len = 0;
  private start = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  /** Bytes [offset, offset + n) of the file, or undefined when they run past its end. Valid until the next call. */
  bytes(offset: number, n: number): Buffer | undefined {
    if (offset < 0 || offset + n > this.size) return undefined;
    if (offset >= this.start && offset + n <= this.start + this.len) {
      return this.store.subarray(offset - this.start, offset - this.start + n);
    }
    const want = Math.min(Math.max(n, WINDOW), this.size - offset);
    if (this.store.length < want) this.store = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const r = fs.readSync(this.fd, this.store, got, want - got, offset + got);
      if (r === 0) break;
      got += r;
    }
    this.start = offset;
    this.len = got;
    if (got < n) return undefined;
    return this.store.subarray(0, n);
  }
}

/**
 * `graphdb.wal.ack`: the sequence number of the last WAL record that was acknowledged
 * (made durable, so a client may have been told). Recovery compares it with the end of
 * the valid log: a bad record at or below it is damage to acknowledged data, never a torn
 * write from a crash, so start-up refuses instead of cutting the log there (zeroing the
 * log from some offset, say, must not lose acknowledged writes silently).
 *
 * 24 bytes, rewritten in place after each fsync of the log: the magic `GDBACK01`, the
 * sequence number (uint64 LE), a CRC-32 of those 16 bytes and 4 zero bytes. It is written
 * only after the records it names are durable, so it never claims more than the log holds;
 * it is not fsynced per commit (a stale value after a power cut only weakens the check).
 */

import * as fs from 'node:fs';
import { StorageError } from '../../errors.js';
import { crc32 } from './crc32.js';
import { writeSeq } from './wal-format.js';

export const ACK_FILE = 'graphdb.wal.ack';
const MAGIC = Buffer.from('GDBACK01', 'latin1');
const SIZE = 24;

/** The file's 24 bytes for `seq`, into `buf` (one buffer per writer: it is rewritten after every fsync). */
function encode(seq: number, buf: Buffer): Buffer {
  MAGIC.copy(buf, 0);
  writeSeq(buf, seq, 8);
  buf.writeUInt32LE(crc32(buf.subarray(0, 16)), 16);
  buf.writeUInt32LE(0, 20);
  return buf;
}

/** The acknowledged sequence number recorded in `file`; 0 when there is no file. Throws StorageError when it is damaged. */
export function readAck(file: string): number {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw new StorageError(`Cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`, 'AckUnreadable');
  }
  if (buf.length !== SIZE || !buf.subarray(0, 8).equals(MAGIC) || buf.readUInt32LE(16) !== crc32(buf.subarray(0, 16))) {
    throw new StorageError(
      `${file} (the record of the last acknowledged write) is damaged, so graphdb cannot tell a torn write from lost acknowledged data. ` +
        `If graphdb.wal is intact, remove ${file} to start (the log is then trusted as it is); otherwise restore the data directory from a backup.`,
      'AckDamaged',
    );
  }
  return Number(buf.readBigUInt64LE(8));
}

/** Keeps `graphdb.wal.ack` up to date; failures to write it are ignored (a stale value is safe). */
export class AckWriter {
  private fd: number | undefined;
  private written: number;
  private readonly buf = Buffer.alloc(SIZE);

  constructor(
    readonly file: string,
    seq: number,
  ) {
    this.written = seq;
    try {
      this.fd = fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+');
      fs.writeSync(this.fd, encode(seq, this.buf), 0, SIZE, 0);
    } catch {
      this.close();
    }
  }

  /** Records `seq` as acknowledged (its records are durable). */
  note(seq: number): void {
    if (seq <= this.written || this.fd === undefined) return;
    try {
      fs.writeSync(this.fd, encode(seq, this.buf), 0, SIZE, 0);
      this.written = seq;
    } catch {
      // A full disk or the like: the older value stays, which only weakens the check.
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // already gone
    }
    this.fd = undefined;
  }
}

/**
 * Reading `graphdb.wal` at start-up: walks the records in order, checking length,
 * checksum and sequence continuity, and hands each good record's payload to the caller.
 *
 * The log ends at the file's end, or where the rest of the file is zeros (space the writer
 * took ahead of its records). Otherwise, what a bad record means is decided by what follows it:
 * - nothing valid after it: a torn write from a crash (the record was never acknowledged,
 *   or its acknowledgement never left the process) → the caller cuts the file there and warns;
 * - a valid record after it: damage in the middle of the log → StorageError naming the
 *   file and the offset and saying what the user can do. Nothing is dropped silently.
 */

import * as fs from 'node:fs';
import { StorageError } from '../../errors.js';
import { FileWindow } from './file-window.js';
import { checksumMatches, MAX_PAYLOAD, readHeader, RECORD_HEADER_SIZE, WAL_MAGIC } from './wal-format.js';

export interface WalRecordView {
  seq: number;
  /** Byte offset of the record's header in the file. */
  offset: number;
  payload: Buffer;
}

export interface WalScan {
  /** Sequence number of the last good record, or undefined when there is none. */
  lastSeq: number | undefined;
  /** Records read. */
  records: number;
  /** Where the good part of the file ends (the writer continues there). */
  validEnd: number;
  /** Set when a torn tail was found after `validEnd`. */
  torn?: { offset: number; reason: string; bytes: number };
  /** True when the file is missing or shorter than its magic (a crash while creating it). */
  fresh: boolean;
}

type Check = { ok: true; seq: number; length: number; payload: Buffer } | { ok: false; reason: string };

function checkAt(win: FileWindow, offset: number): Check {
  const head = win.bytes(offset, RECORD_HEADER_SIZE);
  if (!head) return { ok: false, reason: 'the record header is incomplete' };
  const header = Buffer.from(head);
  const { length, seq } = readHeader(header);
  if (length > MAX_PAYLOAD) return { ok: false, reason: `the record claims an implausible length of ${length} bytes` };
  const payload = win.bytes(offset + RECORD_HEADER_SIZE, length);
  if (!payload) return { ok: false, reason: `the record's ${length}-byte payload runs past the end of the file` };
  if (!checksumMatches(header, payload)) return { ok: false, reason: 'the checksum does not match' };
  return { ok: true, seq, length, payload };
}

/** True when every byte from `from` to the end of the file is zero: space taken ahead, no record. */
function zerosFrom(win: FileWindow, from: number): boolean {
  const STEP = 1024 * 1024;
  for (let offset = from; offset < win.size; offset += STEP) {
    const chunk = win.bytes(offset, Math.min(STEP, win.size - offset));
    if (!chunk) return false;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] !== 0) return false;
  }
  return true;
}

/** The first offset after `from` where a valid record with a sequence number above `afterSeq` starts. */
function findValidRecord(win: FileWindow, from: number, afterSeq: number): number | undefined {
  for (let offset = from; offset + RECORD_HEADER_SIZE <= win.size; offset++) {
    const head = win.bytes(offset, RECORD_HEADER_SIZE);
    if (!head) return undefined;
    const { length, seq } = readHeader(head);
    // Cheap filters before the checksum: a plausible sequence number and length.
    if (seq <= afterSeq || seq > afterSeq + 1_000_000_000 || length > MAX_PAYLOAD) continue;
    if (offset + RECORD_HEADER_SIZE + length > win.size) continue;
    if (checkAt(win, offset).ok) return offset;
  }
  return undefined;
}

/** The StorageError for damage in the middle of the log. */
export function walDamaged(file: string, offset: number, lastSeq: number | undefined, reason: string, nextValid: number): StorageError {
  const after = lastSeq === undefined ? 'at its first record' : `after the record with sequence number ${lastSeq}`;
  return new StorageError(
    `The write-ahead log ${file} is damaged at byte offset ${offset} (${after}): ${reason}. ` +
      `Valid records follow at offset ${nextValid}, so this is not a torn write from a crash; start-up stopped so that no ` +
      `committed data is dropped silently. What you can do: restore the data directory from a backup; or keep a copy of ` +
      `the file and cut the log at the damage (truncate -s ${offset} '${file}'), accepting that the changes recorded ` +
      `after that offset are lost.`,
    'WalDamaged',
  );
}

/**
 * Reads every good record of `file` in order, calling `onRecord` for each; returns where
 * the good part ends. Throws StorageError for damage in the middle, for a foreign file,
 * and for whatever `onRecord` throws (wrapped with the record's offset by the caller).
 */
export function scanWal(file: string, onRecord: (record: WalRecordView) => void): WalScan {
  if (!fs.existsSync(file)) return { lastSeq: undefined, records: 0, validEnd: 0, fresh: true };
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const win = new FileWindow(fd, size);
    if (size < WAL_MAGIC.length) return { lastSeq: undefined, records: 0, validEnd: 0, fresh: true, torn: size > 0 ? { offset: 0, reason: 'the file header is incomplete', bytes: size } : undefined };
    const magic = win.bytes(0, WAL_MAGIC.length);
    if (!magic || !magic.equals(WAL_MAGIC)) {
      throw new StorageError(
        `${file} is not a graphdb write-ahead log (its first bytes are not '${WAL_MAGIC.toString('latin1')}', at offset 0). ` +
          `Move it out of the data directory if it belongs to something else.`,
        'WalForeign',
      );
    }
    let offset = WAL_MAGIC.length;
    let lastSeq: number | undefined;
    let records = 0;
    while (offset < size) {
      if (zerosFrom(win, offset)) break;
      const check = checkAt(win, offset);
      let reason = check.ok ? '' : check.reason;
      if (check.ok && lastSeq !== undefined && check.seq !== lastSeq + 1) {
        reason = `its sequence number is ${check.seq} where ${lastSeq + 1} was expected`;
      }
      if (reason !== '') {
        const next = findValidRecord(win, offset + 1, lastSeq ?? 0);
        if (next !== undefined) throw walDamaged(file, offset, lastSeq, reason, next);
        return { lastSeq, records, validEnd: offset, torn: { offset, reason, bytes: size - offset }, fresh: false };
      }
      if (!check.ok) break; // unreachable: a failed check always has a reason
      onRecord({ seq: check.seq, offset, payload: check.payload });
      lastSeq = check.seq;
      records++;
      offset += RECORD_HEADER_SIZE + check.length;
    }
    return { lastSeq, records, validEnd: offset, fresh: false };
  } finally {
    fs.closeSync(fd);
  }
}

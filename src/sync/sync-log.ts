/**
 * The sync WAL on disk (`graphdb.sync.log` beside the store's `graphdb.wal`): one line per
 * record, `<crc32 hex> <json>`, appended and fsynced before the write it describes is
 * acknowledged. Opening reads every record; a torn or damaged last line (a crash mid-append)
 * is cut, damage before the last line stops start-up with a StorageError rather than dropping
 * acknowledged records silently. Compaction writes a fresh file (a snapshot record of the
 * replicated state, then the entries still owed to some peer) and renames it into place.
 * Without a data directory the log is kept in memory only (`MemorySyncLog`).
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { StorageError } from '../errors.js';
import { crc32 } from '../store/persist/crc32.js';
import { durableRename, fsyncDir } from '../store/persist/fsync-dir.js';
import type { IdMapChange } from './id-map.js';

export const SYNC_LOG_FILE = 'graphdb.sync.log';

/** A feed entry: one committed local write, or the effective part of a payload relayed from a peer. */
export interface SyncEntry {
  seq: number;
  origin: string;
  queries: string[];
}

export type SyncLogRecord =
  | {
      t: 'commit';
      entry?: SyncEntry;
      map?: IdMapChange[];
      applied?: [peer: string, seq: number];
      /**
       * The store's WAL sequence number just before this commit's WAL record: the commit is
       * durable only if the WAL got past it (`SyncNode` drops it at open otherwise).
       */
      wal?: number;
    }
  | { t: 'acked'; peer: string; seq: number }
  | {
      t: 'snapshot';
      /** The replicated state as statements. */
      state: string[];
      map: IdMapChange[];
      applied: [string, number][];
      acked: [string, number][];
      /** Feed entries before this sequence number were compacted away. */
      floor: number;
      lastSeq: number;
    };

export interface SyncLog {
  append(record: SyncLogRecord): void;
  rewrite(records: readonly SyncLogRecord[]): void;
  close(): void;
}

export class MemorySyncLog implements SyncLog {
  append(): void {}
  rewrite(): void {}
  close(): void {}
}

/** A record as the log keeps it: `<crc32 hex> <json>\n` (also the browser build's OPFS sync log). */
export function syncLogLine(record: SyncLogRecord): string {
  const json = JSON.stringify(record);
  const crc = crc32(Buffer.from(json, 'utf8')) >>> 0;
  return `${crc.toString(16).padStart(8, '0')} ${json}\n`;
}

export class FileSyncLog implements SyncLog {
  private constructor(
    private readonly file: string,
    private fd: number,
  ) {}

  /** Opens (creating) the log in `dir` and returns it with the records it holds. */
  static open(dir: string): { log: FileSyncLog; records: SyncLogRecord[] } {
    const file = path.join(dir, SYNC_LOG_FILE);
    const records: SyncLogRecord[] = [];
    let keep = 0;
    if (fs.existsSync(file)) {
      const text = fs.readFileSync(file, 'utf8');
      let at = 0;
      while (at < text.length) {
        const nl = text.indexOf('\n', at);
        const isLast = nl < 0 || nl === text.length - 1;
        const record = nl < 0 ? undefined : parseSyncLogLine(text.slice(at, nl));
        if (!record) {
          if (isLast) break; // torn tail: cut below
          throw new StorageError(`${file}: record at byte ${Buffer.byteLength(text.slice(0, at))} is damaged (checksum or format); the sync log cannot be trusted`);
        }
        records.push(record);
        at = nl + 1;
        keep = at;
      }
      const keepBytes = Buffer.byteLength(text.slice(0, keep));
      if (keepBytes !== fs.statSync(file).size) fs.truncateSync(file, keepBytes);
    }
    const fd = fs.openSync(file, 'a');
    fsyncDir(dir);
    return { log: new FileSyncLog(file, fd), records };
  }

  append(record: SyncLogRecord): void {
    fs.writeSync(this.fd, syncLogLine(record));
    fs.fsyncSync(this.fd);
  }

  rewrite(records: readonly SyncLogRecord[]): void {
    const tmp = `${this.file}.tmp`;
    const fd = fs.openSync(tmp, 'w');
    try {
      for (const r of records) fs.writeSync(fd, syncLogLine(r));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.closeSync(this.fd);
    durableRename(tmp, this.file);
    this.fd = fs.openSync(this.file, 'a');
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** A line of the log (without its newline) back to its record; undefined when torn or damaged. */
export function parseSyncLogLine(text: string): SyncLogRecord | undefined {
  const m = /^([0-9a-f]{8}) (.*)$/s.exec(text);
  if (!m) return undefined;
  if ((crc32(Buffer.from(m[2], 'utf8')) >>> 0) !== parseInt(m[1], 16)) return undefined;
  try {
    const r = JSON.parse(m[2]) as SyncLogRecord;
    return typeof r === 'object' && r !== null && typeof r.t === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

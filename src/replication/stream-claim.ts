/**
 * `StreamClaim`: which primary process's history a replica's content is a state of — the
 * epoch of the stream that last resumed or snapshotted it — kept in
 * `<data dir>/replication/stream.json` (in memory without a data directory).
 *
 * Why: a position and a fingerprint do not identify content. The fingerprint hashes the
 * generation, the counts and the mutation sequence, not the data, so a replica that applied a
 * write its primary published and then lost in a crash (published before its group commit
 * wrote it) has the same position and fingerprint as the restarted primary after the
 * primary's own next write. Resumed on that match, the replica would never receive that
 * write, and its acknowledgement of later batches would count for it: a synchronous write
 * acknowledged and held by no replica. So a primary resumes a replica only when the replica
 * claims this primary process's epoch, or stands exactly where this process started (its
 * recovered state, which any replica of the same history at that position holds too);
 * anything else gets a snapshot.
 *
 * The claim is written (durably) before the first batch of a new epoch is applied, removed
 * before a snapshot is installed and written after it is stored, and removed whenever the
 * instance stops being a replica (its own writes are then in no primary's history). At
 * every crash point the file names an epoch whose history holds the durable content, or
 * nothing.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fsyncDir, writeFileDurably } from '../store/persist/fsync-dir.js';

export class StreamClaim {
  readonly file: string | undefined;
  private current: string | undefined;

  constructor(dataDir: string | undefined) {
    this.file = dataDir === undefined ? undefined : path.join(dataDir, 'replication', 'stream.json');
    if (this.file === undefined || !fs.existsSync(this.file)) return;
    try {
      const data = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      const epoch = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).epoch : undefined;
      if (typeof epoch === 'string' && epoch.length > 0) this.current = epoch;
    } catch {
      // Unreadable: claim nothing, which costs at most a snapshot.
      this.current = undefined;
    }
  }

  /** The epoch claimed, or undefined (the replica then resumes only at a primary's start state). */
  get epoch(): string | undefined {
    return this.current;
  }

  /** Claims `epoch` (durable before it returns); nothing is written when it is claimed already. */
  hold(epoch: string): void {
    if (epoch === this.current || epoch === '') return;
    if (this.file !== undefined) writeFileDurably(this.file, JSON.stringify({ epoch }) + '\n');
    this.current = epoch;
  }

  /** Claims nothing (durable before it returns). */
  clear(): void {
    if (this.file !== undefined && fs.existsSync(this.file)) {
      fs.rmSync(this.file, { force: true });
      fsyncDir(path.dirname(this.file));
    }
    this.current = undefined;
  }
}

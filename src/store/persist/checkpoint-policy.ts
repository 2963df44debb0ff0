/**
 * When to checkpoint (fold the WAL into the store of record and trim it): when enough
 * change records or WAL bytes have piled up, or a while after the first change since the
 * last checkpoint. When to refresh `graphdb.snapshot.json` (after a checkpoint, from the
 * store): when enough change records have been committed since the last snapshot, or
 * when changes are older than the snapshot interval. Runs the checkpoint from the event loop (`setImmediate`/timer), never
 * inside a query, and keeps no process alive on its own (timers are unref'd).
 */

export interface CheckpointLimits {
  /** Change records since the last checkpoint that make one due (default 100 000). */
  records: number;
  /** WAL bytes that make one due (default 64 MiB). */
  walBytes: number;
  /** Longest time a change waits in the WAL alone (default 10 s). */
  intervalMs: number;
  /** Change records since the last snapshot that make a new one due (default 1 000 000). */
  snapshotRecords: number;
  /** Age of the snapshot after which any change makes a new one due (default 10 min). */
  snapshotMs: number;
}

function envNumber(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

/** Defaults; GRAPHDB_CHECKPOINT_RECORDS / _BYTES / _MS and GRAPHDB_SNAPSHOT_RECORDS / _MS override them (tests, tuning). */
export const DEFAULT_LIMITS: CheckpointLimits = {
  records: envNumber('GRAPHDB_CHECKPOINT_RECORDS', 100_000),
  walBytes: envNumber('GRAPHDB_CHECKPOINT_BYTES', 64 * 1024 * 1024),
  intervalMs: envNumber('GRAPHDB_CHECKPOINT_MS', 10_000),
  snapshotRecords: envNumber('GRAPHDB_SNAPSHOT_RECORDS', 1_000_000),
  snapshotMs: envNumber('GRAPHDB_SNAPSHOT_MS', 600_000),
};

/** Whether a snapshot is due, given the change records since the last one and its age. */
export function snapshotDue(limits: CheckpointLimits, recordsSince: number, ageMs: number): boolean {
  return recordsSince > 0 && (recordsSince >= limits.snapshotRecords || ageMs >= limits.snapshotMs);
}

export class CheckpointPolicy {
  private records = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;

  constructor(
    readonly limits: CheckpointLimits,
    private readonly run: () => void,
  ) {}

  /** Counts a commit of `records` change records; `walBytes` is the WAL's current size. */
  noteCommit(records: number, walBytes: number): void {
    this.records += records;
    if (this.records >= this.limits.records || walBytes >= this.limits.walBytes) {
      this.immediate ??= setImmediate(() => this.fire());
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.fire(), this.limits.intervalMs);
      this.timer.unref();
    }
  }

  /** A checkpoint just happened (by policy or by request): start counting again. */
  reset(): void {
    this.records = 0;
    this.stop();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    this.immediate = undefined;
    this.run();
  }
}

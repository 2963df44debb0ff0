/**
 * `ChangeFeed`: the primary's side of WAL streaming. Every committed transaction becomes a
 * numbered `Batch`, kept in a bounded ring (so a replica that reconnects shortly after can
 * resume without a snapshot) and written to every subscribed replica stream in commit
 * order. It also holds what each replica has acknowledged, and in synchronous mode hands
 * the committing write a promise that settles once `factor - 1` replicas hold its batch.
 */

import { randomUUID } from 'node:crypto';
import type { LoggedChange } from '../store/persist/record-codec.js';
import { ReplicationError } from './errors.js';
import type { SchemaDef } from '../store/persist/schema-def.js';
import { encodeBatch, type Batch } from './protocol.js';

/** A live replica stream: where its lines go, and what it has acknowledged. */
export interface Subscriber {
  name: string;
  address: string;
  /** Writes one line; false when the stream is gone or too far behind (it is then dropped). */
  send(line: string): boolean;
  /** Ends the stream; `graceful`: after what was written reaches the replica (a fence's last word). */
  close(graceful?: boolean): void;
  connectedAt: number;
}

export interface ReplicaProgress {
  name: string;
  address: string;
  /** Highest batch number acknowledged (stream numbers of this primary process). */
  ackedN: number;
  ackedSeq: number;
  connected: boolean;
  lastError: string | null;
  lastAckAt: number;
}

interface Waiter {
  n: number;
  resolve(): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

export interface FeedOptions {
  /** Batches kept for resuming replicas. */
  ringSize: number;
  /** Synchronous mode: how many copies (this primary included) a write needs before it is acknowledged. */
  syncFactor: number;
  /** How long a synchronous write waits for its replica acknowledgements. */
  syncTimeoutMs: number;
}

/** Where a feed's history begins: the graph as the primary process held it when it became primary. */
export interface FeedStart {
  seq: number;
  fingerprint: string;
  /** The schema then (sent first to a replica resumed from this start, whose schema may differ). */
  schema: SchemaDef;
}

export class ChangeFeed {
  /** Recent batches, each with the primary's fingerprint before it (what a resuming replica must match). */
  private readonly ring: { batch: Batch; fpBefore: string }[] = [];
  /** The graph's fingerprint after the last published batch. */
  private lastFingerprint: string;
  private nextN = 1;
  private readonly subscribers = new Set<Subscriber>();
  readonly replicas = new Map<string, ReplicaProgress>();
  private waiters: Waiter[] = [];
  /** Names this feed's batch numbering: acknowledgements carrying another epoch are ignored. */
  readonly epoch = randomUUID();

  constructor(
    private readonly options: FeedOptions,
    readonly start: FeedStart,
  ) {
    this.lastFingerprint = start.fingerprint;
  }

  /** Number of the last batch published (0 before any). */
  get lastN(): number {
    return this.nextN - 1;
  }

  /** Publishes one committed transaction; in synchronous mode, the promise the write's acknowledgement waits for. */
  publish(changes: readonly LoggedChange[], seqAfter: number, fingerprintAfter: string): Promise<void> | undefined {
    const graphChanges = changes.filter((c) => c.op !== 'schema').length;
    const batch: Batch = { n: this.nextN++, before: seqAfter - graphChanges, after: seqAfter, at: Date.now(), changes };
    this.ring.push({ batch, fpBefore: this.lastFingerprint });
    this.lastFingerprint = fingerprintAfter;
    if (this.ring.length > this.options.ringSize) this.ring.splice(0, this.ring.length - this.options.ringSize);
    if (this.subscribers.size > 0) {
      const line = encodeBatch(batch);
      for (const s of this.subscribers) if (!s.send(line)) this.drop(s, 'the replica fell too far behind its stream');
    }
    if (this.options.syncFactor <= 1) return undefined;
    return this.waitFor(batch.n);
  }

  /**
   * The batches a replica at mutation sequence `seq` with fingerprint `fingerprint`, whose
   * content is a state of the history claimed by `epoch` (stream-claim.ts), still needs —
   * [] when it is where the graph is now (`seqNow`, `fingerprintNow`) — when the ring holds
   * all of them; else undefined (the replica needs a snapshot).
   *
   * A position and fingerprint match proves nothing about content (the fingerprint hashes
   * counts and the sequence, not data): a replica that applied a write a previous process of
   * this primary published and then lost in a crash matches this process's state once it
   * has made a write of the same shape. So only a replica that claims this feed's epoch is
   * resumed wherever it matches; any other only from exactly this feed's start (the state
   * this process recovered, a prefix of the history the replica followed too), with the
   * start's schema first, as its schema may hold a change the primary lost.
   */
  resumeFrom(epoch: string | undefined, seq: number, fingerprint: string, seqNow: number, fingerprintNow: string): Batch[] | undefined {
    const ours = epoch === this.epoch;
    const atStart = seq === this.start.seq && fingerprint === this.start.fingerprint;
    if (!ours && !atStart) return undefined;
    // Caught up: the caller sends the schema as it is now, the one thing left to agree on.
    if (seq === seqNow && fingerprint === fingerprintNow) return [];
    const i = this.ring.findIndex((r) => r.batch.before === seq && r.fpBefore === fingerprint);
    if (i < 0) return undefined;
    const batches = this.ring.slice(i).map((r) => r.batch);
    if (ours) return batches;
    // Numbered 0: acknowledging it says nothing (the batches after it are acknowledged by their own numbers).
    return [{ n: 0, before: seq, after: seq, at: Date.now(), changes: [{ op: 'schema', def: this.start.schema }] }, ...batches];
  }

  /** Whether the replica `name` has a live stream. */
  isStreaming(name: string): boolean {
    for (const s of this.subscribers) if (s.name === name) return true;
    return false;
  }

  subscribe(s: Subscriber): void {
    for (const other of this.subscribers) if (other.name === s.name) this.drop(other, 'replaced by a new stream from the same replica');
    this.subscribers.add(s);
    const p = this.progress(s.name, s.address);
    p.connected = true;
    p.lastError = null;
  }

  unsubscribe(s: Subscriber, reason: string | null): void {
    if (!this.subscribers.delete(s)) return;
    const p = this.replicas.get(s.name);
    if (p) {
      p.connected = false;
      if (reason) p.lastError = reason;
    }
  }

  private drop(s: Subscriber, reason: string, graceful = false): void {
    this.unsubscribe(s, reason);
    s.close(graceful);
  }

  /** Forgets a replica (unregister): its stream is closed and its acknowledgements no longer count. */
  forget(name: string): boolean {
    for (const s of this.subscribers) if (s.name === name) this.drop(s, 'unregistered');
    return this.replicas.delete(name);
  }

  progress(name: string, address = ''): ReplicaProgress {
    let p = this.replicas.get(name);
    if (!p) {
      p = { name, address, ackedN: 0, ackedSeq: 0, connected: false, lastError: null, lastAckAt: 0 };
      this.replicas.set(name, p);
    }
    if (address) p.address = address;
    return p;
  }

  /** Records a replica's acknowledgement and releases the synchronous writes it completes. */
  acknowledge(name: string, epoch: string, n: number, seq: number): void {
    if (epoch !== this.epoch) return;
    const p = this.progress(name);
    if (n > p.ackedN) p.ackedN = n;
    p.ackedSeq = seq;
    p.lastAckAt = Date.now();
    this.release();
  }

  /** Commit time of the oldest batch a replica has not acknowledged (for lag in ms), or undefined when it is caught up. */
  oldestUnacked(ackedN: number): Batch | undefined {
    if (ackedN >= this.lastN) return undefined;
    return this.ring.find((r) => r.batch.n > ackedN)?.batch;
  }

  private copies(n: number): number {
    let count = 1;
    for (const p of this.replicas.values()) if (p.ackedN >= n) count++;
    return count;
  }

  private waitFor(n: number): Promise<void> {
    if (this.copies(n) >= this.options.syncFactor) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new ReplicationError(
            `The write was committed on the primary, but only ${this.copies(n) - 1} of the ${this.options.syncFactor - 1} replicas ` +
              `it needs acknowledged it within ${this.options.syncTimeoutMs} ms; it will reach the others when they catch up`,
            'SyncReplicationTimeout',
          ),
        );
      }, this.options.syncTimeoutMs);
      const waiter: Waiter = { n, resolve, reject, timer };
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (this.copies(w.n) >= this.options.syncFactor) {
        clearTimeout(w.timer);
        w.resolve();
      } else still.push(w);
    }
    this.waiters = still;
  }

  /** Ends every stream (the primary is shutting down); synchronous writes keep waiting until their time-out. */
  closeStreams(reason: string): void {
    for (const s of [...this.subscribers]) this.drop(s, reason);
  }

  /** Ends every stream and fails the synchronous writes still waiting (a demotion, a fence or shutdown). */
  close(reason: string, graceful = false): void {
    for (const s of [...this.subscribers]) this.drop(s, reason, graceful);
    for (const w of this.waiters) {
      clearTimeout(w.timer);
      w.reject(new ReplicationError(`The write was committed on the primary, but ${reason} before its replicas acknowledged it`, 'SyncReplicationAborted'));
    }
    this.waiters = [];
  }

  /** Writes `line` to every stream (pings). */
  broadcast(line: string): void {
    for (const s of [...this.subscribers]) if (!s.send(line)) this.drop(s, 'the replica fell too far behind its stream');
  }

  get streams(): number {
    return this.subscribers.size;
  }
}

/**
 * What the main thread and a query worker share for the HTTP door the worker serves itself
 * (`--worker-doors`, src/server/http/worker-door.ts): the door's settings, and the primary's
 * committed and durable mutation sequences in shared memory, by which a worker's door keeps
 * read-your-writes without asking the main thread.
 */

import type { ServerLimits } from '../../server/limits.js';

/** `Atomics.waitAsync` (Node 16 and later; the compiler's library predates it). */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: BigInt64Array, index: number, value: bigint, timeoutMs: number): { async: boolean; value: Promise<string> | string };
}).waitAsync;

/** What a worker needs to serve the door (posted by the main thread; plain data). */
export interface WorkerDoorConfig {
  /** This worker's own descriptor of the listening socket. */
  fd: number;
  /** The main thread's relay listener (`door-relay.ts`). */
  relayPort: number;
  apiKey?: string;
  allowOrigins: readonly string[];
  limits: ServerLimits;
  /** How answers name this thread. */
  thread: string;
}

/**
 * The primary's committed and durable mutation sequences, published by the main thread
 * (`QueryWorkerPool`) in two shared 64-bit words; the durable word is notified when it moves.
 */
export class DoorSequences {
  static readonly BYTES = 16;
  private readonly words: BigInt64Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new BigInt64Array(buffer);
  }

  get committed(): number {
    return Number(Atomics.load(this.words, 0));
  }

  get durable(): number {
    return Number(Atomics.load(this.words, 1));
  }

  publishCommitted(seq: number): void {
    Atomics.store(this.words, 0, BigInt(seq));
  }

  publishDurable(seq: number): void {
    // Group commits may settle out of order with the observer's calls: the word only moves forward.
    if (seq <= this.durable) return;
    Atomics.store(this.words, 1, BigInt(seq));
    Atomics.notify(this.words, 1);
  }

  /** Settles once the durable sequence reaches `seq` (true), or at `deadline` (false). */
  async durableAt(seq: number, deadline: number): Promise<boolean> {
    for (;;) {
      const now = this.durable;
      if (now >= seq) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const waited = waitAsync(this.words, 1, BigInt(now), left);
      if (waited.async) await waited.value;
    }
  }
}


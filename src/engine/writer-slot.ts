/**
 * The single writer slot (SPEC: one writer at a time), held by an explicit write transaction
 * from its first write to its end, and for a moment by each asynchronous single write while a
 * transaction holds it. Waiters are served first come, first served, each for at most its own
 * time limit. Synchronous writers (`executeSync`, sync and replication apply) cannot wait and
 * do not take it: a write transaction they overtake fails its next step with a conflict.
 */

import { QueryCancelledError, TransactionLockTimeoutError } from '../errors.js';

interface Waiter {
  grant(): void;
  timer: NodeJS.Timeout | undefined;
}

export class WriterSlot {
  private held = false;
  private readonly waiters: Waiter[] = [];

  /** Whether someone holds the slot now. */
  get busy(): boolean {
    return this.held;
  }

  /** Takes the slot if it is free, without waiting; true when taken. */
  tryTake(): boolean {
    if (this.held) return false;
    this.held = true;
    return true;
  }

  /**
   * Takes the slot, waiting behind earlier waiters for at most `timeoutMs` (0: no limit);
   * rejects with TransactionLockTimeoutError past it, and with QueryCancelledError when
   * `signal` aborts first (the waiter leaves the queue either way).
   */
  take(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new QueryCancelledError());
    if (this.tryTake()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const leave = (err: Error): void => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        if (waiter.timer !== undefined) clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
        reject(err);
      };
      const onAbort = (): void => leave(new QueryCancelledError());
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        timer: undefined,
      };
      if (timeoutMs > 0) {
        waiter.timer = setTimeout(() => leave(new TransactionLockTimeoutError(timeoutMs)), timeoutMs);
        waiter.timer.unref();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Hands the slot to the next waiter, or frees it. */
  release(): void {
    const next = this.waiters.shift();
    if (next === undefined) {
      this.held = false;
      return;
    }
    if (next.timer !== undefined) clearTimeout(next.timer);
    next.grant();
  }
}

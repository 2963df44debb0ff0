/**
 * Background auto-sync (`sync.start()`, `graphdb sync start`): runs the sync cycle against
 * each peer every `intervalMs`; a peer that fails is retried with exponential back-off (up to
 * `maxBackoffMs`), so an absent peer costs little and a returning one is picked up. Stops
 * with `stop()` or when the database closes.
 */

import { syncWith, type SyncCycleResult } from './client.js';
import type { SyncNode } from './sync-node.js';
import type { SyncTransport } from './transport.js';

export interface AutoSyncOptions {
  intervalMs?: number;
  maxBackoffMs?: number;
  /** Told of every cycle's outcome (logging). */
  onCycle?: (peer: string, outcome: SyncCycleResult | Error) => void;
}

export class AutoSync {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly failures = new Map<SyncTransport, { count: number; nextAt: number }>();
  private readonly unregister: () => void;
  private running: Promise<void> | undefined;

  constructor(
    private readonly node: SyncNode,
    private readonly peers: () => readonly SyncTransport[],
    private readonly options: AutoSyncOptions = {},
  ) {
    this.unregister = node.onClose(() => this.stopNow());
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => this.schedule(this.options.intervalMs ?? 5000));
    }, delay);
    this.timer.unref?.();
  }

  private async round(): Promise<void> {
    for (const peer of this.peers()) {
      if (this.stopped || this.node.isClosed) return;
      const f = this.failures.get(peer);
      if (f && Date.now() < f.nextAt) continue;
      try {
        const r = await syncWith(this.node, peer);
        this.failures.delete(peer);
        this.options.onCycle?.(peer.label, r);
      } catch (err) {
        const count = (f?.count ?? 0) + 1;
        const backoff = Math.min((this.options.intervalMs ?? 5000) * 2 ** count, this.options.maxBackoffMs ?? 60_000);
        this.failures.set(peer, { count, nextAt: Date.now() + backoff });
        this.options.onCycle?.(peer.label, err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  private stopNow(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  /** Stops the loop and waits for a cycle in flight. */
  async stop(): Promise<void> {
    this.stopNow();
    this.unregister();
    await this.running?.catch(() => undefined);
  }
}

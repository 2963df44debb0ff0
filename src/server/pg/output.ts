/**
 * Buffered output of one connection. Messages are gathered and written in batches (at the
 * end of each burst of client messages, or every 64 KiB), and a writer waits for the socket
 * to drain when the client reads slowly, so one slow client holds only its own session.
 */

import type { Socket } from 'node:net';
import { drainedOrClosed } from '../running.js';

const BATCH_BYTES = 64 * 1024;

export class Output {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(private readonly socket: Socket) {}

  /** True while the socket can still be written. */
  get open(): boolean {
    return !this.socket.destroyed && this.socket.writable;
  }

  /** Queues one message; writes the batch when it is large. */
  send(message: Buffer): void {
    this.pending.push(message);
    this.pendingBytes += message.length;
    if (this.pendingBytes >= BATCH_BYTES) this.flush();
  }

  /** Writes everything queued. */
  flush(): void {
    if (this.pending.length === 0) return;
    const data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    if (this.open) this.socket.write(data);
  }

  /** Resolves once the socket has room again (at once when it has). */
  async drained(): Promise<void> {
    if (!this.open || !this.socket.writableNeedDrain) return;
    await drainedOrClosed(this.socket);
  }

  /** Writes what is queued, then ends the connection. */
  end(): void {
    this.flush();
    if (this.open) this.socket.end();
    const timer = setTimeout(() => this.socket.destroy(), 1000);
    timer.unref();
  }
}

/**
 * Results held on the server for paging (the console's "load more", page-routes.ts): the rows
 * of an answer not sent yet, under an unguessable id, until they are read to the end, closed,
 * left idle too long, or pushed out by newer ones. The engine materialises an answer anyway
 * (within `maxResultRows`, as the PG door's portals do); a cursor keeps the part a client has
 * not asked for out of the client, where a browser tab would otherwise hold all of it.
 */

import { randomBytes } from 'node:crypto';
import type { Value } from '../../../runtime/values.js';

export interface CursorLimits {
  /** Cursors open at once; opening one more closes the least recently used. */
  maxOpen: number;
  /** Rows held across all cursors; past it the least recently used close (the newest always stays). */
  maxHeldRows: number;
  /** A cursor not read for this long closes. */
  idleMs: number;
}

export const DEFAULT_CURSOR_LIMITS: CursorLimits = { maxOpen: 32, maxHeldRows: 2_000_000, idleMs: 5 * 60_000 };

interface Cursor {
  rows: Value[][];
  at: number;
  /** Rows a page holds when the reader does not say. */
  pageSize: number;
  timer: NodeJS.Timeout;
}

export interface CursorPage {
  rows: Value[][];
  /** Rows left after this page (0: the cursor is closed). */
  remaining: number;
}

export class ResultCursors {
  // A Map keeps insertion order: re-inserting on use makes the first entry the least recently used.
  private readonly open = new Map<string, Cursor>();
  private held = 0;

  constructor(private readonly limits: CursorLimits = DEFAULT_CURSOR_LIMITS) {}

  /** Holds `rows[from..]`, to be read `pageSize` rows at a time unless a reader asks otherwise, and returns the cursor's id. */
  add(rows: Value[][], from: number, pageSize: number): string {
    const id = randomBytes(18).toString('base64url');
    this.open.set(id, { rows, at: from, pageSize, timer: this.idleTimer(id) });
    this.held += rows.length - from;
    for (const [oldest] of this.open) {
      if (oldest === id || (this.open.size <= this.limits.maxOpen && this.held <= this.limits.maxHeldRows)) break;
      this.close(oldest);
    }
    return id;
  }

  /** The next `count` rows (default: its page size) of cursor `id`, or undefined when no such cursor is open. */
  next(id: string, count?: number): CursorPage | undefined {
    const c = this.open.get(id);
    if (c === undefined) return undefined;
    const rows = c.rows.slice(c.at, c.at + (count ?? c.pageSize));
    c.at += rows.length;
    this.held -= rows.length;
    const remaining = c.rows.length - c.at;
    if (remaining === 0) this.close(id);
    else {
      clearTimeout(c.timer);
      this.open.delete(id);
      this.open.set(id, { ...c, timer: this.idleTimer(id) });
    }
    return { rows, remaining };
  }

  /** Closes cursor `id`; false when it was not open. */
  close(id: string): boolean {
    const c = this.open.get(id);
    if (c === undefined) return false;
    clearTimeout(c.timer);
    this.held -= c.rows.length - c.at;
    this.open.delete(id);
    return true;
  }

  closeAll(): void {
    for (const id of [...this.open.keys()]) this.close(id);
  }

  get size(): number {
    return this.open.size;
  }

  private idleTimer(id: string): NodeJS.Timeout {
    const timer = setTimeout(() => this.close(id), this.limits.idleMs);
    // A held result must not keep the process alive on its own.
    timer.unref();
    return timer;
  }
}

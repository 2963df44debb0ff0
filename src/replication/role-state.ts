/**
 * `RoleState`: what a process must remember about replication across restarts, kept in
 * `<data dir>/replication/role.json` and replaced durably (`writeFileDurably` in store/persist/fsync-dir.ts) before the change
 * it records takes effect:
 *
 * - `term`: the replication term (an epoch number). It only grows: every promotion takes the
 *   highest term this instance has seen plus one, and a replica adopts its primary's term. A
 *   replica refuses a primary whose term is older than one it has seen; a primary that hears
 *   of a newer term is fenced (it stops accepting writes).
 * - `role` and `primary`: the role a procedure (promote, demote), a fence, or a redirect by a
 *   fenced primary set, with the primary it follows. Only those transitions write them; a
 *   role that came from the command line is not written. When present they win over the
 *   command line's `--replication-role` / `--replica-of` (docs/REPLICATION.md, "Restarts").
 *
 * Without a data directory the state lives in memory only.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileDurably } from '../store/persist/fsync-dir.js';
import { ReplicationError } from './errors.js';
import type { ReplicationRole } from './settings.js';

export interface KeptRole {
  role: ReplicationRole;
  /** The primary a replica follows; for a fenced primary, the new primary when known. */
  primary?: string;
  /** Which transition set it: promote, demote, fence, redirect. */
  setBy: string;
  /** When (ISO time), for the operator reading the file. */
  at: string;
}

interface StateFile {
  term: number;
  kept?: KeptRole;
}

const ROLES: readonly string[] = ['standalone', 'primary', 'replica', 'fenced'];

export class RoleState {
  readonly file: string | undefined;
  private state: StateFile = { term: 0 };

  constructor(dataDir: string | undefined) {
    this.file = dataDir === undefined ? undefined : path.join(dataDir, 'replication', 'role.json');
    if (this.file === undefined || !fs.existsSync(this.file)) return;
    try {
      this.state = parse(JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown);
    } catch (err) {
      // Guessing a role here could make a fenced primary writable again: refuse to start.
      throw new ReplicationError(`${this.file} is unreadable (${err instanceof Error ? err.message : String(err)}); fix or remove it`, 'RoleStateDamaged');
    }
  }

  get term(): number {
    return this.state.term;
  }

  /** The role a transition set, if any (it wins over the command line). */
  get kept(): KeptRole | undefined {
    return this.state.kept;
  }

  /** Records a role set by a transition, and the term (never lowered). Durable before it returns. */
  keep(role: ReplicationRole, setBy: string, primary?: string, term = this.state.term): void {
    this.save({ term: Math.max(term, this.state.term), kept: { role, ...(primary === undefined ? {} : { primary }), setBy, at: new Date().toISOString() } });
  }

  /** Records a newer term heard from a primary; the kept role is unchanged. Returns whether it was newer. */
  learn(term: number): boolean {
    if (term <= this.state.term) return false;
    this.save({ ...this.state, term });
    return true;
  }

  /** Forgets the kept role (--replication-reset-role): the command line decides again. The term stays. */
  forgetRole(): void {
    if (this.state.kept !== undefined) this.save({ term: this.state.term });
  }

  private save(next: StateFile): void {
    if (this.file !== undefined) writeFileDurably(this.file, JSON.stringify(next, null, 2) + '\n');
    this.state = next;
  }
}

function parse(data: unknown): StateFile {
  if (typeof data !== 'object' || data === null) throw new Error('not an object');
  const o = data as Record<string, unknown>;
  if (typeof o.term !== 'number' || !Number.isSafeInteger(o.term) || o.term < 0) throw new Error('"term" is not a non-negative integer');
  if (o.kept === undefined) return { term: o.term };
  const k = o.kept as Record<string, unknown> | null;
  if (typeof k !== 'object' || k === null || typeof k.role !== 'string' || !ROLES.includes(k.role)) throw new Error('"kept.role" is not a replication role');
  if (k.primary !== undefined && typeof k.primary !== 'string') throw new Error('"kept.primary" is not a URL');
  if (k.role === 'replica' && typeof k.primary !== 'string') throw new Error('a kept replica role needs "kept.primary"');
  return {
    term: o.term,
    kept: { role: k.role as ReplicationRole, ...(typeof k.primary === 'string' ? { primary: k.primary } : {}), setBy: String(k.setBy ?? ''), at: String(k.at ?? '') },
  };
}

/**
 * The primary's list of registered replicas (`graphdb.replication.registerReplica`), kept in
 * `<data dir>/replication/replicas.json` (replaced durably: `writeFileDurably`), so
 * a restarted primary still lists replicas that have not reconnected yet. When the list is
 * not empty, only the replicas on it may open a stream.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileDurably } from '../store/persist/fsync-dir.js';
import { ReplicationError } from './errors.js';

export interface RegisteredReplica {
  name: string;
  address: string;
}

export class RegisteredReplicas {
  private readonly entries = new Map<string, RegisteredReplica>();
  private readonly file: string | undefined;

  constructor(dataDir: string | undefined) {
    this.file = dataDir === undefined ? undefined : path.join(dataDir, 'replication', 'replicas.json');
    if (this.file === undefined || !fs.existsSync(this.file)) return;
    try {
      const list = JSON.parse(fs.readFileSync(this.file, 'utf8')) as unknown;
      if (!Array.isArray(list)) throw new Error('not a list');
      for (const e of list as RegisteredReplica[]) if (typeof e?.name === 'string') this.entries.set(e.name, { name: e.name, address: String(e.address ?? '') });
    } catch (err) {
      throw new ReplicationError(`${this.file} is unreadable (${err instanceof Error ? err.message : String(err)}); fix or remove it`, 'RegistryDamaged');
    }
  }

  list(): RegisteredReplica[] {
    return [...this.entries.values()];
  }

  /** Whether `name` may stream: anyone while nothing is registered. */
  admits(name: string): boolean {
    return this.entries.size === 0 || this.entries.has(name);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  add(entry: RegisteredReplica): void {
    this.entries.set(entry.name, entry);
    this.save();
  }

  remove(name: string): boolean {
    const had = this.entries.delete(name);
    if (had) this.save();
    return had;
  }

  private save(): void {
    if (this.file !== undefined) writeFileDurably(this.file, JSON.stringify(this.list(), null, 2));
  }
}

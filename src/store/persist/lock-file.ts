/**
 * The data directory's owner lock, `graphdb.lock`: created exclusively, it holds the
 * owning process's PID (and host), so a second process gets a clear error naming the
 * holder instead of writing into the same files. A lock left by a process that no longer
 * runs (after a crash or SIGKILL) is taken over with a warning.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StorageError } from '../../errors.js';

export const LOCK_FILE = 'graphdb.lock';

interface LockContent {
  pid: number;
  host: string;
  since: string;
}

function readLock(file: string): LockContent | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockContent>;
    if (typeof data.pid !== 'number') return undefined;
    return { pid: data.pid, host: String(data.host ?? ''), since: String(data.since ?? '') };
  } catch {
    return undefined;
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class DirLock {
  private released = false;

  private constructor(readonly file: string) {}

  /** Takes the lock of `dir`; throws StorageError (`DataDirLocked`) when another live process holds it. */
  static acquire(dir: string, warn: (message: string) => void): DirLock {
    const file = path.join(dir, LOCK_FILE);
    const content = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString() }) + '\n';
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        fs.writeFileSync(file, content, { flag: 'wx' });
        return new DirLock(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readLock(file);
      const sameHost = holder !== undefined && (holder.host === '' || holder.host === os.hostname());
      if (holder && holder.pid !== process.pid && (!sameHost || processRuns(holder.pid))) {
        throw new StorageError(
          `The data directory ${dir} is in use by process ${holder.pid}` +
            (holder.host ? ` on ${holder.host}` : '') +
            (holder.since ? ` (since ${holder.since})` : '') +
            `. Stop that process first, or use another --data-dir. (Lock file: ${file})`,
          'DataDirLocked',
        );
      }
      if (holder?.pid === process.pid) {
        throw new StorageError(`The data directory ${dir} is already open in this process (lock file ${file})`, 'DataDirLocked');
      }
      warn(
        holder
          ? `graphdb: taking over the lock of ${dir} from process ${holder.pid}, which is no longer running (it did not shut down cleanly)`
          : `graphdb: replacing the unreadable lock file ${file}`,
      );
      try {
        fs.unlinkSync(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    }
    throw new StorageError(`Could not take the lock file ${file}; another process keeps creating it`, 'DataDirLocked');
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      fs.unlinkSync(this.file);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

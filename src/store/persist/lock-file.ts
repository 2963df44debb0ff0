/**
 * The data directory's owner lock, `graphdb.lock`: created exclusively (O_EXCL), it holds
 * the owning process's PID, host, a random token and — where the platform tells — the
 * process's start time, so a second process gets a clear error naming the holder instead
 * of writing into the same files.
 *
 * A lock left by a process that no longer runs (after a crash or SIGKILL) is taken over
 * with a warning. Two guards make that safe:
 * - a PID that the system has since given to another process is not mistaken for the
 *   holder: the recorded start time (Linux: boot id and start tick from /proc) must match
 *   the running process's;
 * - two processes taking over the same stale lock at once cannot both win: the takeover
 *   runs under a second file, `graphdb.lock.takeover`, also created with O_EXCL; under it
 *   the lock is read again, must still be the stale one, and is replaced atomically
 *   (written to a temporary file and renamed over it, so it never disappears for an
 *   O_EXCL creator to slip in). A takeover file whose own creator died is cleared the
 *   same way, after a grace period.
 *
 * Release removes the lock only while it still holds this process's token.
 */

import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StorageError } from '../../errors.js';
import { fsyncDir } from './fsync-dir.js';

export const LOCK_FILE = 'graphdb.lock';
export const TAKEOVER_FILE = 'graphdb.lock.takeover';
/** A takeover file older than this whose creator is gone is stale. */
const TAKEOVER_GRACE_MS = 2_000;
/** How long acquiring keeps trying while a takeover by another process is under way. */
const ACQUIRE_PATIENCE_MS = 5_000;

export interface LockContent {
  pid: number;
  host: string;
  since: string;
  /** Random per acquisition; tells this lock apart from an earlier one of the same PID. */
  token: string;
  /** Process start identity (`<boot id>:<start tick>` on Linux), '' where unknown. */
  start: string;
}

function readLock(file: string): LockContent | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockContent>;
    if (typeof data.pid !== 'number') return undefined;
    return {
      pid: data.pid,
      host: String(data.host ?? ''),
      since: String(data.since ?? ''),
      token: String(data.token ?? ''),
      start: String(data.start ?? ''),
    };
  } catch {
    return undefined;
  }
}

function sameLock(a: LockContent | undefined, b: LockContent | undefined): boolean {
  return a !== undefined && b !== undefined && a.pid === b.pid && a.token === b.token && a.since === b.since && a.host === b.host;
}

/** `<boot id>:<start time in clock ticks>` of a process (Linux), or '' when it cannot be told. */
export function processStartId(pid: number): string {
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = rest[22 - 3];
    return startTicks ? `${boot}:${startTicks}` : '';
  } catch {
    return '';
  }
}

/** Whether the process that wrote `holder` still runs (on this host). */
function holderRuns(holder: LockContent): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (holder.start === '') return true;
  const now = processStartId(holder.pid);
  // Unknown here (no /proc): trust the PID. Known and different: the PID was reused.
  return now === '' || now === holder.start;
}

function sameHost(holder: LockContent): boolean {
  return holder.host === '' || holder.host === os.hostname();
}

const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export class DirLock {
  private released = false;

  private constructor(
    readonly file: string,
    private readonly token: string,
  ) {}

  /** Takes the lock of `dir`; throws StorageError (`DataDirLocked`) when another live process holds it. */
  static acquire(dir: string, warn: (message: string) => void): DirLock {
    const file = path.join(dir, LOCK_FILE);
    const mine: LockContent = {
      pid: process.pid,
      host: os.hostname(),
      since: new Date().toISOString(),
      token: randomBytes(8).toString('hex'),
      start: processStartId(process.pid),
    };
    const content = JSON.stringify(mine) + '\n';
    const deadline = Date.now() + ACQUIRE_PATIENCE_MS;
    while (Date.now() < deadline) {
      try {
        fs.writeFileSync(file, content, { flag: 'wx' });
        fsyncDir(dir);
        return new DirLock(file, mine.token);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const holder = readLock(file);
      if (holder && holder.pid === process.pid && holder.start === mine.start) {
        throw new StorageError(`The data directory ${dir} is already open in this process (lock file ${file})`, 'DataDirLocked');
      }
      if (holder && (!sameHost(holder) || holderRuns(holder))) {
        throw new StorageError(
          `The data directory ${dir} is in use by process ${holder.pid}` +
            (holder.host ? ` on ${holder.host}` : '') +
            (holder.since ? ` (since ${holder.since})` : '') +
            `. Stop that process first, or use another --data-dir. (Lock file: ${file})`,
          'DataDirLocked',
        );
      }
      if (!holder && fs.existsSync(file) && Date.now() - mtimeMs(file) < TAKEOVER_GRACE_MS) {
        // Probably being written right now by its creator: look again shortly.
        sleep(20);
        continue;
      }
      const outcome = takeOver(dir, file, holder, content);
      if (outcome === 'taken') {
        warn(
          holder
            ? `graphdb: took over the lock of ${dir} from process ${holder.pid}, which is no longer running (it did not shut down cleanly)`
            : `graphdb: replaced the unreadable lock file ${file}`,
        );
        return new DirLock(file, mine.token);
      }
      // 'busy' (another process is taking over) or 'changed' (the lock moved on): look again.
      if (outcome === 'busy') sleep(25 + Math.random() * 50);
    }
    throw new StorageError(`Could not take the lock file ${file}; other processes keep changing it. Try again.`, 'DataDirLocked');
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      if (readLock(this.file)?.token === this.token) fs.unlinkSync(this.file);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function mtimeMs(file: string): number {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Replaces the stale lock `stale` (undefined: unreadable) with `content`, under the takeover file. */
function takeOver(dir: string, file: string, stale: LockContent | undefined, content: string): 'taken' | 'busy' | 'changed' {
  const guard = path.join(dir, TAKEOVER_FILE);
  const guardContent = JSON.stringify({ pid: process.pid, host: os.hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex'), start: processStartId(process.pid) });
  try {
    fs.writeFileSync(guard, guardContent, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    clearStaleGuard(guard);
    return 'busy';
  }
  try {
    const now = readLock(file);
    const stillStale = stale === undefined ? now === undefined && fs.existsSync(file) : sameLock(now, stale);
    if (!stillStale) return 'changed';
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, file);
    fsyncDir(dir);
    return 'taken';
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/** Removes a takeover file whose creator is gone (it crashed mid-takeover). */
function clearStaleGuard(guard: string): void {
  const holder = readLock(guard);
  const age = Date.now() - mtimeMs(guard);
  if (age < TAKEOVER_GRACE_MS) return;
  if (holder && sameHost(holder) && holderRuns(holder)) return;
  // Remove it only if it is still the same file we judged (compare-and-delete by renaming aside).
  const aside = `${guard}.${process.pid}.stale`;
  try {
    fs.renameSync(guard, aside);
  } catch {
    return;
  }
  const moved = readLock(aside);
  if (holder && !sameLock(moved, holder)) {
    // Someone else's fresh guard: put it back if the name is still free.
    try {
      fs.linkSync(aside, guard);
    } catch {
      // A newer guard exists; the one we moved belonged to a takeover that now fails its own checks.
    }
  }
  fs.rmSync(aside, { force: true });
}

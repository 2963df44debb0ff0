/**
 * Durable file-system helpers: syncing a directory (so a created or renamed entry
 * survives a crash) and writing a small file atomically.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';

/** fsync a directory; ignored where the platform cannot open directories (Windows). */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw err;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Renames `from` over `to` and syncs the directory, making the replacement durable. */
export function durableRename(from: string, to: string): void {
  fs.renameSync(from, to);
  fsyncDir(path.dirname(to));
}

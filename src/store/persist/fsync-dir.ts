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

/**
 * Replaces the small file `file` with `text` so that a crash leaves either the old or the new
 * content, never a torn one, and the new one survives a power loss once this returns: written
 * to a temporary file, fsynced, renamed over the old one, and the directory fsynced. Creates
 * the directory when it is missing.
 */
export function writeFileDurably(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  durableRename(tmp, file);
}

/**
 * Replaces a small file in the data directory so that a crash leaves either the old or the
 * new content, never a torn one, and the new content survives a power loss once this
 * returns: written to a temporary file, fsynced, renamed over the old one, and the directory
 * fsynced (the rename itself lives in the directory). Used for the role state, the
 * registered-replica list and the replica's name.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';

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
  fs.renameSync(tmp, file);
  const dirFd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(dirFd);
  } finally {
    fs.closeSync(dirFd);
  }
}

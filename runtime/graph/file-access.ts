/**
 * The one place that decides which local files a query may read (LOAD CSV today; any later
 * file-reading procedure such as apoc.load.* or apoc.import.* must go through it too) and
 * reads them safely.
 *
 * Three policies:
 * - `local`: any local file (the library and the CLI, where the user already has the files);
 * - `none`: no file at all (every server and graphdb-mcp unless started with --import-dir);
 * - `confined(dir)`: only files whose real path (after every symbolic link is resolved) lies
 *   inside the real path of `dir`.
 *
 * Whatever the policy, only regular files are read — never a FIFO, a socket or a device such
 * as /dev/zero — and the check is made on the opened descriptor (opened non-blocking, so
 * opening a FIFO cannot wait for a writer). Reading is done in chunks, checking the query's
 * deadline between chunks and stopping at the size bound, so no file makes a query run past
 * its time limit or fill memory.
 */

import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArgumentError, FileAccessError } from '../../src/errors.js';

/** Largest file a server reads by default (confined policy): 256 MiB. */
export const DEFAULT_CONFINED_MAX_BYTES = 256 * 1024 * 1024;
/** Largest file read under the local policy: about the longest string V8 can hold. */
export const DEFAULT_LOCAL_MAX_BYTES = 512 * 1024 * 1024 - 64;

const CHUNK_BYTES = 1024 * 1024;

type Mode = { kind: 'local' } | { kind: 'none' } | { kind: 'confined'; root: string };

/** A policy as plain data, to recreate it in another thread. */
export interface FileAccessPlain {
  mode: Mode;
  maxBytes: number;
}

export class FileAccessPolicy {
  private constructor(
    private readonly mode: Mode,
    /** Largest file this policy lets a query read, in bytes. */
    readonly maxBytes: number,
  ) {}

  /** Any local file (embedded library, CLI). */
  static local(maxBytes = DEFAULT_LOCAL_MAX_BYTES): FileAccessPolicy {
    return new FileAccessPolicy({ kind: 'local' }, maxBytes);
  }

  /** No file access at all (servers without --import-dir). */
  static none(): FileAccessPolicy {
    return new FileAccessPolicy({ kind: 'none' }, 0);
  }

  /** Files inside `dir` only (checked on real paths). The directory must exist. */
  static confined(dir: string, maxBytes = DEFAULT_CONFINED_MAX_BYTES): FileAccessPolicy {
    let root: string;
    try {
      root = realpathSync(resolve(dir));
    } catch (err) {
      throw new ArgumentError(`The import directory ${dir} cannot be used: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, 'InvalidImportDirectory');
    }
    const st = fstatOf(root);
    if (!st?.isDirectory()) throw new ArgumentError(`The import directory ${dir} is not a directory`, 'InvalidImportDirectory');
    return new FileAccessPolicy({ kind: 'confined', root }, maxBytes);
  }

  toPlain(): FileAccessPlain {
    return { mode: this.mode, maxBytes: this.maxBytes };
  }

  /** The policy `toPlain` described (its directory was checked when it was first made). */
  static fromPlain(plain: FileAccessPlain): FileAccessPolicy {
    return new FileAccessPolicy(plain.mode, plain.maxBytes);
  }

  /** What the policy allows, for banners and errors. */
  describe(): string {
    switch (this.mode.kind) {
      case 'local':
        return 'any local file';
      case 'none':
        return 'no file access (start with --import-dir <dir> to allow LOAD CSV from that directory)';
      case 'confined':
        return `files under ${this.mode.root}`;
    }
  }

  /** The import directory of a confined policy. */
  get root(): string | undefined {
    return this.mode.kind === 'confined' ? this.mode.root : undefined;
  }

  /**
   * The text of the file `url` names (a `file:` URL or a path; under a confined policy a
   * path is taken relative to the import directory, an absolute one too), read as UTF-8.
   * `checkDeadline` is called between chunks and throws when the query is out of time.
   * `what` names the caller in errors (e.g. `LOAD CSV`).
   */
  readText(url: string, what: string, checkDeadline: () => void = () => undefined): string {
    if (this.mode.kind === 'none') {
      throw new FileAccessError(`${what} cannot read ${url}: file access is disabled on this server; start it with --import-dir <dir> to allow reading files from that directory`);
    }
    const path = this.resolvePath(url, what);
    return readBounded(path, url, what, this.maxBytes, checkDeadline);
  }

  private resolvePath(url: string, what: string): string {
    let path: string;
    if (/^file:/i.test(url)) {
      try {
        path = fileURLToPath(url);
      } catch {
        throw new ArgumentError(`${what} cannot read ${url}: not a valid file URL`, 'InvalidCsvUrl');
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
      throw new ArgumentError(`${what} reads local files only (file:///…), not ${url}`, 'InvalidCsvUrl');
    } else {
      path = url;
    }
    if (this.mode.kind !== 'confined') return resolve(path);
    const root = this.mode.root;
    const full = resolve(root, isAbsolute(path) ? `.${path}` : path);
    if (!inside(root, full)) throw new FileAccessError(`${what} path ${url} is outside the import directory`);
    let real: string;
    try {
      real = realpathSync(full);
    } catch (err) {
      throw new ArgumentError(`${what} cannot read ${url}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, 'CsvReadFailed');
    }
    // A symbolic link inside the directory may point anywhere: the real path decides.
    if (!inside(root, real)) throw new FileAccessError(`${what} path ${url} leads outside the import directory (through a symbolic link)`);
    return real;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

function fstatOf(path: string): ReturnType<typeof fstatSync> | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    return fstatSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readBounded(path: string, url: string, what: string, maxBytes: number, checkDeadline: () => void): string {
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading must not wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    throw new ArgumentError(`${what} cannot read ${url}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'CsvReadFailed');
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      throw new FileAccessError(`${what} cannot read ${url}: it is not a regular file (FIFOs, sockets, devices and directories are refused)`);
    }
    if (st.size > maxBytes) throw tooLarge(what, url, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      checkDeadline();
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      let n: number;
      try {
        n = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      } catch (err) {
        throw new ArgumentError(`${what} cannot read ${url}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'CsvReadFailed');
      }
      if (n === 0) break;
      total += n;
      // Files that report size 0 but keep producing bytes (/proc) are cut at the bound too.
      if (total > maxBytes) throw tooLarge(what, url, maxBytes);
      chunks.push(n === CHUNK_BYTES ? chunk : chunk.subarray(0, n));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function tooLarge(what: string, url: string, maxBytes: number): FileAccessError {
  return new FileAccessError(`${what} cannot read ${url}: the file is larger than the limit of ${maxBytes} bytes`);
}

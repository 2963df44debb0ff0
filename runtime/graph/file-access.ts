/**
 * The one place that decides which local files a query may read (LOAD CSV, apoc.load.*,
 * apoc.import.*) or write (apoc.export.*), and reads and writes them safely.
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

import { closeSync, constants, fstatSync, ftruncateSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ArgumentError, FileAccessError, GraphDbError } from '../../src/errors.js';

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

  /**
   * Writes `text` to the file `url` names (resolved as `readText` resolves it). Under a
   * confined policy no component of the path below the import directory may be a symbolic
   * link, and the file itself is opened with O_NOFOLLOW, so a link planted in the directory
   * leads nowhere. Only a new file is created (O_CREAT | O_EXCL) unless `overwrite` is set,
   * and then only a regular file is emptied and rewritten. Every open is non-blocking and the
   * descriptor is checked before a byte is written, so a FIFO (with or without a reader) or a
   * device is refused at once instead of holding the thread. `checkDeadline` is called
   * between chunks.
   */
  writeText(url: string, what: string, text: string, overwrite: boolean, checkDeadline: () => void = () => undefined): void {
    if (this.mode.kind === 'none') {
      throw new FileAccessError(`${what} cannot write ${url}: file access is disabled on this server; start it with --import-dir <dir> to allow writing files to that directory`);
    }
    const full = this.targetPath(url, what, 'write');
    const root = this.mode.kind === 'confined' ? this.mode.root : undefined;
    if (root !== undefined) refuseLinksBelow(root, dirname(full), url, what);
    const { fd, created } = openTarget(full, url, what, overwrite);
    let written = false;
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new FileAccessError(`${what} cannot write ${url}: it is not a regular file (FIFOs, sockets, devices and directories are refused)`);
      // The descriptor's own path (Linux): a directory swapped for a link after the check above still cannot lead out.
      if (root !== undefined) {
        const opened = descriptorPath(fd);
        if (opened !== undefined && !inside(root, opened)) throw new FileAccessError(`${what} path ${url} leads outside the import directory (through a symbolic link)`);
      }
      if (!created) ftruncateSync(fd, 0);
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) {
        checkDeadline();
        at += writeSync(fd, bytes, at, Math.min(CHUNK_BYTES, bytes.length - at));
      }
      written = true;
    } catch (err) {
      if (err instanceof GraphDbError) throw err;
      throw new ArgumentError(`${what} cannot write ${url}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'FileWriteFailed');
    } finally {
      closeSync(fd);
      // A file this call created and could not fill is not left behind half-written.
      if (created && !written) {
        try {
          unlinkSync(full);
        } catch {
          // already gone
        }
      }
    }
  }

  private resolvePath(url: string, what: string): string {
    const full = this.targetPath(url, what, 'read');
    if (this.mode.kind !== 'confined') return full;
    const root = this.mode.root;
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

  /** The absolute path `url` names; under a confined policy taken inside the import directory (lexically: links are the callers' concern). */
  private targetPath(url: string, what: string, verb: 'read' | 'write'): string {
    let path: string;
    if (/^file:/i.test(url)) {
      try {
        path = fileURLToPath(url);
      } catch {
        throw new ArgumentError(`${what} cannot ${verb} ${url}: not a valid file URL`, 'InvalidCsvUrl');
      }
    } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
      throw new ArgumentError(`${what} ${verb}s local files only (file:///…), not ${url}`, 'InvalidCsvUrl');
    } else {
      path = url;
    }
    if (this.mode.kind !== 'confined') return resolve(path);
    const root = this.mode.root;
    const full = resolve(root, isAbsolute(path) ? `.${path}` : path);
    if (!inside(root, full) || full === root) throw new FileAccessError(`${what} path ${url} is outside the import directory`);
    return full;
  }
}

/** Every directory from just below `root` down to `dir` must be a real directory, not a link to one. */
function refuseLinksBelow(root: string, dir: string, url: string, what: string): void {
  const rel = relative(root, dir);
  if (rel === '') return;
  let at = root;
  for (const part of rel.split(sep)) {
    at = resolve(at, part);
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(at);
    } catch (err) {
      throw new ArgumentError(`${what} cannot write ${url}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, 'FileWriteFailed');
    }
    if (st.isSymbolicLink()) throw new FileAccessError(`${what} cannot write ${url}: a directory on its path is a symbolic link (refused inside the import directory)`);
    if (!st.isDirectory()) throw new ArgumentError(`${what} cannot write ${url}: ENOTDIR`, 'FileWriteFailed');
  }
}

/** Opens the export target: a new file, or with `overwrite` an existing one too; never through a final link, never waiting on a FIFO. */
function openTarget(full: string, url: string, what: string, overwrite: boolean): { fd: number; created: boolean } {
  const base = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
  const fail = (err: unknown): never => {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || (code === 'EEXIST' && isLink(full))) throw new FileAccessError(`${what} cannot write ${url}: it is a symbolic link (refused)`);
    if (code === 'EEXIST') throw new FileAccessError(`${what} cannot write ${url}: the file exists; pass {overwrite: true} in the config to replace it`);
    // A FIFO with no reader: opening it non-blocking for writing fails at once instead of waiting.
    if (code === 'ENXIO') throw new FileAccessError(`${what} cannot write ${url}: it is not a regular file (FIFOs, sockets, devices and directories are refused)`);
    throw new ArgumentError(`${what} cannot write ${url}: ${code ?? (err as Error).message}`, 'FileWriteFailed');
  };
  try {
    return { fd: openSync(full, base | constants.O_CREAT | constants.O_EXCL, 0o644), created: true };
  } catch (err) {
    if (!overwrite || (err as NodeJS.ErrnoException).code !== 'EEXIST') return fail(err);
  }
  try {
    return { fd: openSync(full, base), created: false };
  } catch (err) {
    return fail(err);
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function descriptorPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
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

/**
 * Checks `graphdb.lmdb` before the `lmdb` package maps it. LMDB's native code trusts its
 * file: a truncated file, random bytes or a flipped bit in a page pointer end the process
 * (SIGBUS, SIGSEGV, a failed assertion) instead of raising an error. So:
 *
 * 1. `checkLmdbFile` reads the two meta pages in JavaScript: LMDB's magic number and
 *    version, a sane page size, transaction ids that alternate between the two pages, and
 *    a file long enough for the last page the newer meta page names; roots inside it.
 * 2. It then reads every entry of every database in a child process (the same reads the
 *    store makes when it opens), so that damage deeper in the B-tree kills the child, not
 *    this process; a child that dies or fails is reported as a damaged store.
 *
 * Either way the error is a StorageError (`StoreDamaged`) naming the file and what to do.
 * The child check is skipped when the file is exactly as a clean close left it: a close
 * records the file's identity (inode, size, change time to the nanosecond) in
 * `graphdb.lmdb.verified`, and any later write to the file, or a crash before the close,
 * changes the change time. It can also be turned off with `GRAPHDB_STORE_PROBE=0`
 * (benchmarks of the load alone); the header check always runs. The checksums of graphdb's own blocks
 * (block-format.ts) catch damage to the data itself.
 */

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { StorageError } from '../../errors.js';

const MDB_MAGIC = 0xbeefc0de;
/** The data-file version of the LMDB build the `lmdb` package ships. */
const MDB_DATA_VERSION = 2;
const P_META = 0x08;
/** Offsets inside a meta page (64-bit build): after a 16-byte page header and … */
const META = { flags: 18, magic: 24, version: 28, pageSize: 48, freeRoot: 88, mainRoot: 136, lastPage: 144, txnid: 152 } as const;
const P_INVALID = 0xffffffffffffffffn;

function damaged(file: string, why: string): StorageError {
  const name = path.basename(file);
  return new StorageError(
    `The store ${file} is damaged (${why}); graphdb did not open it. Restore the data directory from a backup; or, if ${name} alone is damaged and ` +
      `graphdb.snapshot.json and graphdb.wal are intact, move ${name} and ${name}-lock aside to start from them.`,
    'StoreDamaged',
  );
}

interface MetaPage {
  pageSize: number;
  lastPage: bigint;
  txnid: bigint;
  roots: bigint[];
}

function readMetaPage(file: string, buf: Buffer, index: number): MetaPage {
  const at = index * 4096;
  const what = `meta page ${index}`;
  if (buf.readUInt16LE(at + META.flags) !== P_META) throw damaged(file, `${what} is not marked as a meta page`);
  if (buf.readUInt32LE(at + META.magic) !== MDB_MAGIC) throw damaged(file, `${what} lacks LMDB's magic number: not an LMDB file, or overwritten`);
  const version = buf.readUInt32LE(at + META.version);
  if (version !== MDB_DATA_VERSION) throw damaged(file, `${what} has LMDB data version ${version}, not ${MDB_DATA_VERSION}`);
  const pageSize = buf.readUInt32LE(at + META.pageSize);
  if (pageSize !== 4096) throw damaged(file, `${what} gives a page size of ${pageSize} bytes, not 4096`);
  return {
    pageSize,
    lastPage: buf.readBigUInt64LE(at + META.lastPage),
    txnid: buf.readBigUInt64LE(at + META.txnid),
    roots: [buf.readBigUInt64LE(at + META.freeRoot), buf.readBigUInt64LE(at + META.mainRoot)],
  };
}

/** Throws StorageError (`StoreDamaged`) when `file` exists and is not a sound LMDB file; see the module comment. */
export function checkLmdbFile(file: string): void {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return; // No file yet: LMDB creates it.
  }
  if (size === 0) return; // Created but never written (a crash at the first open): LMDB initialises it.
  if (size < 2 * 4096) throw damaged(file, `it is ${size} bytes, shorter than LMDB's two meta pages`);
  const head = Buffer.alloc(2 * 4096);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  const metas = [readMetaPage(file, head, 0), readMetaPage(file, head, 1)];
  metas.forEach((m, i) => {
    if (Number(m.txnid & 1n) !== i && m.txnid !== 0n) throw damaged(file, `meta page ${i} holds transaction ${m.txnid}, which belongs on the other meta page`);
  });
  const gap = metas[0].txnid > metas[1].txnid ? metas[0].txnid - metas[1].txnid : metas[1].txnid - metas[0].txnid;
  if (gap !== 1n && !(metas[0].txnid === 0n || metas[1].txnid === 0n)) throw damaged(file, `its meta pages hold transactions ${metas[0].txnid} and ${metas[1].txnid}, which are not consecutive`);
  const newest = metas[0].txnid > metas[1].txnid ? metas[0] : metas[1];
  const pages = BigInt(Math.floor(size / newest.pageSize));
  for (const m of metas) {
    if (m.lastPage + 1n > pages && m === newest) throw damaged(file, `it is ${size} bytes, but its last transaction uses ${m.lastPage + 1n} pages of ${m.pageSize} bytes: the file was truncated`);
    for (const root of m.roots) {
      if (root !== P_INVALID && (root < 2n || root > m.lastPage)) throw damaged(file, `a database root (page ${root}) lies outside the ${m.lastPage + 1n} pages in use`);
    }
  }
  if (process.env.GRAPHDB_STORE_PROBE !== '0' && !unchangedSinceClose(file)) probeInChild(file);
}

const VERIFIED_SUFFIX = '.verified';

/** The file's identity as the kernel keeps it: a write by anyone changes the change time. */
function identity(file: string): string {
  const st = fs.statSync(file, { bigint: true });
  return `${st.dev}:${st.ino}:${st.size}:${st.ctimeNs}`;
}

/**
 * Records that `file` was closed cleanly by graphdb, as it now is (best effort: a failure
 * only costs a probe). The kernel stamps change times from a coarse clock (a few ms), so
 * the record waits until that clock has moved past the last write: any later write then
 * carries a different change time.
 */
export async function markVerified(file: string): Promise<void> {
  try {
    const lastWrite = Number(fs.statSync(file, { bigint: true }).ctimeNs / 1_000_000n);
    const wait = lastWrite + 25 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    fs.writeFileSync(file + VERIFIED_SUFFIX, identity(file));
  } catch {
    // A missing marker means the next open probes: safe.
  }
}

/** Whether `file` is exactly as graphdb's last clean close left it (then the child probe is skipped). */
export function unchangedSinceClose(file: string): boolean {
  try {
    return fs.readFileSync(file + VERIFIED_SUFFIX, 'utf8') === identity(file);
  } catch {
    return false;
  }
}

/** Run in a child: opens the store read-only and reads every entry of every database. */
const PROBE_SOURCE = `
const [lmdbPath, file] = process.argv.slice(1);
const lmdb = await import(lmdbPath);
const open = lmdb.open ?? lmdb.default.open;
const raw = { encoding: 'binary', keyEncoding: 'binary' };
const root = open({ path: file, noSubdir: true, readOnly: true, compression: false, maxDbs: 4, ...raw });
let n = 0;
for (const { value } of root.getRange({ snapshot: true })) n += value.length;
for (const name of ['blocks', 'nodes', 'rels']) {
  const db = root.openDB({ name, ...raw });
  for (const { value } of db.getRange({ snapshot: true })) n += value.length;
}
await root.close();
process.stdout.write(String(n));
`;

function probeInChild(file: string): void {
  const lmdbUrl = pathToFileURL(createRequire(import.meta.url).resolve('lmdb')).href;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE_SOURCE, '--', lmdbUrl, file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 600_000,
  });
  if (result.error) throw new StorageError(`Could not check the store ${file}: ${result.error.message}`, 'StoreOpenFailed');
  if (result.status === 0) return;
  const how = result.signal ? `reading it crashed LMDB (${result.signal})` : `LMDB could not read it: ${lastLine(result.stderr)}`;
  throw damaged(file, how);
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n').filter((l) => l.trim() !== '');
  const error = lines.find((l) => /Error/.test(l));
  return (error ?? lines[lines.length - 1] ?? 'no message').trim().slice(0, 300);
}

/**
 * The sync log (src/sync/sync-log.ts's records and line format) in the browser store's OPFS
 * directory, so that writes made offline stay queued across reloads: `sync-<generation>.log`,
 * appended and flushed before the write it describes is made visible. Compaction writes the
 * next generation whole and then removes the older one; opening takes the newest file whose
 * last line is the rewrite's end mark, or else the older one. The peer id is kept in
 * `sync.peer`.
 */
import { StorageError } from '../errors.js';
import { parseSyncLogLine, syncLogLine, type SyncLog, type SyncLogRecord } from '../sync/sync-log.js';
import type { SyncAccessHandle, SyncFileHandle, ListedDirectory } from './opfs-store.js';

const LOG = /^sync-(\d+)\.log$/;
const PEER_FILE = 'sync.peer';
const encoder = new TextEncoder();

async function readAll(dir: FileSystemDirectoryHandle, name: string): Promise<string | undefined> {
  try {
    return await (await (await dir.getFileHandle(name)).getFile()).text();
  } catch (err) {
    if (err instanceof DOMException && err.name === 'NotFoundError') return undefined;
    throw err;
  }
}

/** The store's sync peer id: the one kept, or `wanted` (else a new UUID) kept from now on. */
export async function storePeerId(dir: FileSystemDirectoryHandle, wanted: string | undefined, pattern: RegExp): Promise<string> {
  const stored = (await readAll(dir, PEER_FILE))?.trim();
  if (stored) {
    if (!pattern.test(stored)) throw new StorageError(`The browser store's ${PEER_FILE} does not hold a valid peer id`);
    if (wanted !== undefined && wanted !== stored) throw new StorageError(`This browser store belongs to sync peer ${stored}; it cannot become ${wanted}`);
    return stored;
  }
  const id = wanted ?? crypto.randomUUID();
  const handle = await ((await dir.getFileHandle(PEER_FILE, { create: true })) as SyncFileHandle).createSyncAccessHandle();
  try {
    handle.truncate(0);
    handle.write(encoder.encode(id + '\n'), { at: 0 });
    handle.flush();
  } finally {
    handle.close();
  }
  return id;
}

/** The first line of a compacted log: written as PENDING, turned into COMPLETE once the rest is flushed. */
const PENDING = '#pending \n';
const COMPLETE = '#complete\n';

export class OpfsSyncLog implements SyncLog {
  /** The next generation's file, opened ahead: `rewrite` is synchronous and OPFS opens files only asynchronously. */
  private spare: SyncAccessHandle | undefined;
  private spareReady: Promise<void> | undefined;

  private constructor(
    private readonly dir: FileSystemDirectoryHandle,
    private handle: SyncAccessHandle,
    private generation: number,
    private size: number,
  ) {
    this.prepareSpare();
  }

  static async open(dir: FileSystemDirectoryHandle): Promise<{ log: OpfsSyncLog; records: SyncLogRecord[] }> {
    const generations: number[] = [];
    for await (const name of (dir as ListedDirectory).keys()) {
      const m = LOG.exec(name);
      if (m) generations.push(Number(m[1]));
    }
    generations.sort((a, b) => b - a);
    let generation = 0;
    let text = '';
    for (const g of generations) {
      const t = (await readAll(dir, `sync-${g}.log`)) ?? '';
      // A compaction cut short (or a spare never used): the older generation still holds everything.
      if (t.startsWith(PENDING) || (g > 0 && t === '')) continue;
      generation = g;
      text = t;
      break;
    }
    const records: SyncLogRecord[] = [];
    let at = text.startsWith(COMPLETE) ? COMPLETE.length : 0;
    let keep = at;
    while (at < text.length) {
      const nl = text.indexOf('\n', at);
      const record = nl < 0 ? undefined : parseSyncLogLine(text.slice(at, nl));
      if (!record) {
        if (nl < 0 || nl === text.length - 1) break; // torn tail: cut below
        throw new StorageError(`The browser store's sync log is damaged before its last line; it cannot be trusted`);
      }
      records.push(record);
      at = nl + 1;
      keep = at;
    }
    for (const g of generations) if (g !== generation) await dir.removeEntry(`sync-${g}.log`).catch(() => undefined);
    const handle = await ((await dir.getFileHandle(`sync-${generation}.log`, { create: true })) as SyncFileHandle).createSyncAccessHandle();
    const size = encoder.encode(text.slice(0, keep)).length;
    if (size !== handle.getSize()) {
      handle.truncate(size);
      handle.flush();
    }
    return { log: new OpfsSyncLog(dir, handle, generation, size), records };
  }

  append(record: SyncLogRecord): void {
    const bytes = encoder.encode(syncLogLine(record));
    let done = 0;
    while (done < bytes.length) done += this.handle.write(bytes.subarray(done), { at: this.size + done });
    this.handle.flush();
    this.size += bytes.length;
  }

  /** Compaction: the records go to the next generation's file (marked complete once flushed), which then replaces this one. */
  rewrite(records: readonly SyncLogRecord[]): void {
    const spare = this.spare;
    // The spare is opened moments after open or the last compaction; until then the log just grows.
    if (spare === undefined) return;
    const bytes = encoder.encode(PENDING + records.map(syncLogLine).join(''));
    spare.truncate(0);
    let done = 0;
    while (done < bytes.length) done += spare.write(bytes.subarray(done), { at: done });
    spare.flush();
    spare.write(encoder.encode(COMPLETE), { at: 0 });
    spare.flush();
    const old = this.generation;
    this.handle.close();
    this.handle = spare;
    this.generation = old + 1;
    this.size = bytes.length;
    this.spare = undefined;
    void this.dir.removeEntry(`sync-${old}.log`).catch(() => undefined);
    this.prepareSpare();
  }

  private prepareSpare(): void {
    const next = this.generation + 1;
    this.spareReady = this.dir
      .getFileHandle(`sync-${next}.log`, { create: true })
      .then((h) => (h as SyncFileHandle).createSyncAccessHandle())
      .then((spare) => {
        if (this.generation + 1 === next && this.spare === undefined) this.spare = spare;
        else spare.close();
      })
      .catch(() => undefined);
  }

  close(): void {
    this.handle.close();
    this.spare?.close();
    this.spare = undefined;
    void this.spareReady?.then(() => {
      this.spare?.close();
      this.spare = undefined;
    });
  }
}

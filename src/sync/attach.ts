/**
 * Switching sync on for a Database (`sync` option of `Database.open`/`openInMemory`,
 * `--sync` on the command line): the peer id is generated once and kept in the data directory
 * (`graphdb.sync.peer`; `peerId` chooses it the first time and must match afterwards), the sync
 * log is opened and replayed, and the returned `SyncHandle` is what the Database calls on
 * every commit and what embedders use to push, pull and auto-sync.
 */

import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SyncHost } from './host.js';
import type { SyncOptions } from './options.js';
import type { ChangeRecord } from '../store/changes.js';
import { StorageError } from '../errors.js';
import { durableRename } from '../store/persist/fsync-dir.js';
import { AutoSync, type AutoSyncOptions } from './auto-sync.js';
import { pullFrom, pushTo, syncWith, type SyncCycleResult } from './client.js';
import { SyncPayloadError } from './errors.js';
import { resolveScope } from './scopes.js';
import { PEER_ID_PATTERN } from './statements.js';
import { FileSyncLog, MemorySyncLog, type SyncLog, type SyncLogRecord } from './sync-log.js';
import { SyncNode, type SyncCommit } from './sync-node.js';
import { HttpTransport, type HttpTransportOptions, type SyncTransport } from './transport.js';

export const PEER_ID_FILE = 'graphdb.sync.peer';

export type { SyncOptions } from './options.js';

/** A peer: a transport, or the base URL of its HTTP server. */
export type SyncPeer = SyncTransport | string;

export class SyncHandle {
  constructor(
    readonly node: SyncNode,
    private readonly http: HttpTransportOptions = {},
  ) {}

  get peerId(): string {
    return this.node.peerId;
  }

  /** Records a commit before the store logs it; call `undo` on the answer if the store's log write fails. */
  committed(changes: readonly ChangeRecord[]): SyncCommit {
    return this.node.committed(changes);
  }

  pending(): number {
    return this.node.pending();
  }

  fingerprint(): string {
    return this.node.fingerprint();
  }

  transport(peer: SyncPeer, http: HttpTransportOptions = this.http): SyncTransport {
    return typeof peer === 'string' ? new HttpTransport(peer, http) : peer;
  }

  /** Sends this node's unacknowledged feed to `peer`. */
  async push(peer: SyncPeer): Promise<{ peer: string; statements: number; fingerprint: number }> {
    return pushTo(this.node, this.transport(peer));
  }

  /** Fetches and replays `peer`'s feed after the remote high-water mark. */
  async pull(peer: SyncPeer): Promise<{ peer: string; statements: number; fingerprint: number }> {
    return pullFrom(this.node, this.transport(peer));
  }

  /** One full cycle: push, pull, compare fingerprints. */
  async syncWith(peer: SyncPeer): Promise<SyncCycleResult> {
    return syncWith(this.node, this.transport(peer));
  }

  /** Background auto-sync with back-off against `peers` (a list, or a function for discovered peers). */
  start(peers: readonly SyncPeer[] | (() => readonly SyncPeer[]), options: AutoSyncOptions & { http?: HttpTransportOptions } = {}): AutoSync {
    const http = options.http ?? this.http;
    const fixed = Array.isArray(peers) ? peers.map((p) => this.transport(p, http)) : undefined;
    const cache = new Map<string, SyncTransport>();
    const list = (): readonly SyncTransport[] =>
      fixed ??
      (peers as () => readonly SyncPeer[])().map((p) => {
        if (typeof p !== 'string') return p;
        let t = cache.get(p);
        if (!t) cache.set(p, (t = this.transport(p, http)));
        return t;
      });
    return new AutoSync(this.node, list, options);
  }

  compact(): void {
    this.node.compact();
  }

  close(): void {
    this.node.close();
  }
}

function readOrCreatePeerId(dir: string, wanted: string | undefined): string {
  const file = path.join(dir, PEER_ID_FILE);
  if (fs.existsSync(file)) {
    const stored = fs.readFileSync(file, 'utf8').trim();
    if (!PEER_ID_PATTERN.test(stored)) throw new StorageError(`${file} does not hold a valid peer id`);
    if (wanted !== undefined && wanted !== stored) {
      throw new StorageError(`${dir} belongs to sync peer ${stored}; it cannot become ${wanted} (its history is ${stored}'s)`);
    }
    return stored;
  }
  const id = wanted ?? randomUUID();
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeSync(fd, `${id}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  durableRename(tmp, file);
  return id;
}

/**
 * Turns sync on for `db`: `install` puts the handle on the database (before reconciling, whose
 * commits must reach it; with `undefined` again if that fails); `dataDir` makes the state durable.
 */
export function attachSync(
  db: SyncHost,
  setting: boolean | SyncOptions,
  install: (handle: SyncHandle | undefined) => void,
  dataDir?: string,
  http?: HttpTransportOptions,
): SyncHandle {
  const options: SyncOptions = setting === true || setting === false ? {} : setting;
  if (options.peerId !== undefined && !PEER_ID_PATTERN.test(options.peerId)) {
    throw new SyncPayloadError(`peer id ${JSON.stringify(options.peerId)} is not valid: use 1–64 letters, digits, _ or -`);
  }
  let log: SyncLog = new MemorySyncLog();
  let records: SyncLogRecord[] = [];
  let peerId = options.peerId ?? randomUUID();
  if (dataDir !== undefined) {
    peerId = readOrCreatePeerId(dataDir, options.peerId);
    ({ log, records } = FileSyncLog.open(dataDir));
  }
  let handle: SyncHandle;
  try {
    const scope = options.scope === undefined ? undefined : resolveScope(options.scope, dataDir);
    handle = new SyncHandle(new SyncNode(db, peerId, log, records, { ...options, scope }), http);
  } catch (err) {
    log.close();
    throw err;
  }
  // Reconciling writes to the graph, and those commits must reach the handle.
  install(handle);
  try {
    handle.node.reconcile();
  } catch (err) {
    install(undefined);
    handle.close();
    throw err;
  }
  return handle;
}

/**
 * `ReplicationManager`: one process's replication role and its transitions. It is the
 * Database's `ReplicationHook` — a replica refuses writes (READ_ONLY), a primary publishes
 * every commit to its `ChangeFeed` — and it owns the pieces of the current role: the feed
 * and the replica streams it serves as a primary, the `ReplicaClient` as a replica.
 *
 * Transitions (docs/REPLICATION.md says what happens to writes in flight):
 * - `promote()`: replica → primary (the client stops; the next write is published);
 *   standalone → primary.
 * - `demote(url)`: primary or standalone → replica of `url` (streams close, synchronous
 *   writes still waiting fail with REPLICATION_ERR); a replica is re-pointed to `url`.
 * - `standalone()`: any role → standalone.
 */

import type { Database } from '../engine/database.js';
import type { ReplicationHook, ReplicationStatusRow } from './hook.js';
import type { LoggedChange } from '../store/persist/record-codec.js';
import { encodeSchemaDef, schemaDefinition } from '../store/persist/schema-def.js';
import { storeNode, storeRel } from '../store/persist/stored-entity.js';
import { ReplicaApplier } from './applier.js';
import { archiveClient, WalArchiver } from './archive.js';
import { ChangeFeed, type Subscriber } from './change-feed.js';
import { ReadOnlyError, ReplicationError } from './errors.js';
import { encodeBatch, encodeMessage, PING_MS } from './protocol.js';
import { RegisteredReplicas } from './registered.js';
import { ReplicaClient } from './replica-client.js';
import type { ReplicationMode, ReplicationRole, ReplicationSettings } from './settings.js';

/** How far (bytes) a replica stream may lag in its socket buffer before it is dropped and must resume. */
const MAX_STREAM_BUFFER = 64 * 1024 * 1024;

/** Where a stream's lines go (the HTTP response in http-routes.ts). */
export interface StreamSink {
  write(line: string): boolean;
  bufferedBytes(): number;
  end(): void;
  onClose(fn: () => void): void;
}


export class ReplicationManager implements ReplicationHook {
  role: ReplicationRole;
  primaryUrl: string | undefined;
  readonly mode: ReplicationMode;
  readonly factor: number;
  readonly name: string;
  readonly registered: RegisteredReplicas;
  readonly secret: string | undefined;
  private feed: ChangeFeed | undefined;
  private client: ReplicaClient | undefined;
  private readonly applier: ReplicaApplier;
  private pingTimer: NodeJS.Timeout | undefined;
  private readonly settings: ReplicationSettings;
  /** Ships segments to object storage while this instance is not a replica (--wal-archive). */
  private readonly archiver: WalArchiver | undefined;

  constructor(
    private readonly db: Database,
    settings: ReplicationSettings,
  ) {
    this.settings = settings;
    this.role = 'standalone';
    this.mode = settings.mode;
    this.factor = settings.factor;
    this.name = settings.name;
    this.secret = settings.secret;
    this.registered = new RegisteredReplicas(settings.dataDir);
    this.applier = new ReplicaApplier(db);
    if (settings.archive) this.archiver = new WalArchiver(db, settings.archive, archiveClient(settings.archive), settings.log);
    if (settings.role !== 'replica') this.archiver?.start();
    if (settings.role === 'primary') this.becomePrimary();
    else if (settings.role === 'replica' && settings.primaryUrl !== undefined) this.becomeReplica(settings.primaryUrl);
  }

  // ---------------------------------------------------------------- the Database hook

  beforeWrite(): void {
    if (this.role === 'replica') throw new ReadOnlyError(this.primaryUrl);
  }

  committed(changes: readonly LoggedChange[]): Promise<void> | undefined {
    if (this.role !== 'replica' && changes.length > 0) this.archiver?.add(changes, this.db.graph.mutationSeq);
    const feed = this.feed;
    if (this.role !== 'primary' || feed === undefined || changes.length === 0) return undefined;
    const g = this.db.graph;
    return feed.publish(changes, g.mutationSeq, g.fingerprint());
  }

  // ---------------------------------------------------------------- transitions

  private becomePrimary(): void {
    this.role = 'primary';
    this.primaryUrl = undefined;
    this.feed = new ChangeFeed(
      { ringSize: this.settings.ringSize, syncFactor: this.mode === 'sync' ? this.factor : 1, syncTimeoutMs: this.settings.syncTimeoutMs },
      this.db.graph.fingerprint(),
    );
    for (const r of this.registered.list()) this.feed.progress(r.name, r.address);
    this.pingTimer = setInterval(() => this.ping(), PING_MS);
    this.pingTimer.unref();
  }

  private leavePrimary(reason: string): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.feed?.close(reason);
    this.feed = undefined;
  }

  private becomeReplica(primaryUrl: string): void {
    this.role = 'replica';
    this.primaryUrl = primaryUrl;
    this.client = new ReplicaClient({ primaryUrl, name: this.name, secret: this.secret, log: this.settings.log }, this.applier);
    this.client.start();
  }

  private leaveReplica(): void {
    this.client?.stop();
    this.client = undefined;
  }

  /** Replica or standalone → primary. Returns the previous role. */
  promote(): ReplicationRole {
    const before = this.role;
    if (before === 'primary') return before;
    if (before === 'replica') this.leaveReplica();
    this.becomePrimary();
    // What this instance applied as a replica never reached its archive: a new base covers it.
    if (before === 'replica') this.archiver?.start();
    this.settings.log(`graphdb: replication: ${before} → primary (writes enabled at mutation sequence ${this.db.graph.mutationSeq})`);
    return before;
  }

  /** Any role → replica of `primaryUrl`. */
  demote(primaryUrl: string): ReplicationRole {
    const before = this.role;
    checkPrimaryUrl(primaryUrl);
    if (before === 'primary') this.leavePrimary('the primary was demoted');
    if (before === 'replica') this.leaveReplica();
    this.becomeReplica(primaryUrl);
    this.settings.log(`graphdb: replication: ${before} → replica of ${primaryUrl}`);
    return before;
  }

  /** Any role → standalone. */
  standalone(): ReplicationRole {
    const before = this.role;
    if (before === 'primary') this.leavePrimary('replication was switched off');
    if (before === 'replica') this.leaveReplica();
    this.role = 'standalone';
    this.primaryUrl = undefined;
    return before;
  }

  register(name: string, address: string): void {
    this.registered.add({ name, address });
    this.feed?.progress(name, address);
  }

  unregister(name: string): boolean {
    const had = this.registered.remove(name);
    const known = this.feed?.forget(name) ?? false;
    return had || known;
  }

  /** Leaves every role; with an archive, ships the open segment first. */
  async close(): Promise<void> {
    this.standalone();
    await this.archiver?.close();
  }

  /** Ends every replica stream (server shutdown); replicas reconnect when the primary is back. */
  closeStreams(reason: string): void {
    this.feed?.closeStreams(reason);
  }

  // ---------------------------------------------------------------- serving streams (primary)

  /**
   * Serves one replica's stream: a hello, then what it lacks (nothing, the ring's batches
   * after its position, or a snapshot), then every new batch. All of it is written within
   * one turn of the event loop, so no commit can fall between the catch-up and the tail.
   */
  openStream(name: string, address: string, from: number, fingerprint: string, sink: StreamSink): void {
    const feed = this.feed;
    if (this.role !== 'primary' || feed === undefined) throw new ReplicationError(`This instance is ${this.role}, not a primary: it serves no replication stream`, 'NotPrimary');
    if (!this.registered.admits(name)) throw new ReplicationError(`The replica ${name} is not registered on this primary (graphdb.replication.registerReplica)`, 'NotRegistered');
    const g = this.db.graph;
    const fp = g.fingerprint();
    const seq = g.mutationSeq;
    const send = (line: string): boolean => sink.write(line + '\n') && sink.bufferedBytes() < MAX_STREAM_BUFFER;
    send(encodeMessage({ t: 'hello', epoch: feed.epoch, mode: this.mode, n: feed.lastN, seq, fingerprint: fp }));
    const schema = schemaDefinition(this.db.schema);
    const resume = from === seq && fingerprint === fp ? [] : feed.batchesFrom(from, fingerprint);
    if (resume === undefined) {
      send(
        encodeMessage({
          t: 'snapshot',
          meta: { mutationSeq: seq, generation: g.generation, nextNodeId: g.nextNodeId, nextRelId: g.nextRelId, nodeCount: g.nodeCount, relCount: g.relCount, schema: encodeSchemaDef(schema) },
        }),
      );
      for (const node of g.allNodes()) sink.write(JSON.stringify({ t: 'node', e: storeNode(node) }) + '\n');
      for (const rel of g.allRels()) sink.write(JSON.stringify({ t: 'rel', e: storeRel(rel) }) + '\n');
      send(encodeMessage({ t: 'snapshotEnd', n: feed.lastN }));
    } else if (resume.length === 0) {
      // Caught up: the schema is the one thing a restarted primary might have changed without a data change.
      send(encodeBatch({ n: feed.lastN, before: seq, after: seq, at: Date.now(), changes: [{ op: 'schema', def: schema }] }));
    } else {
      for (const b of resume) send(encodeBatch(b));
    }
    const subscriber: Subscriber = {
      name,
      address,
      connectedAt: Date.now(),
      send,
      close: () => sink.end(),
    };
    feed.subscribe(subscriber);
    sink.onClose(() => feed.unsubscribe(subscriber, 'the stream closed'));
  }

  acknowledge(name: string, epoch: string, n: number, seq: number): void {
    if (this.role !== 'primary' || !this.feed) throw new ReplicationError(`This instance is ${this.role}, not a primary`, 'NotPrimary');
    this.feed.acknowledge(name, epoch, n, seq);
  }

  private ping(): void {
    const feed = this.feed;
    if (!feed) return;
    feed.broadcast(encodeMessage({ t: 'ping', n: feed.lastN, seq: this.db.graph.mutationSeq }));
  }

  // ---------------------------------------------------------------- what the procedures show

  get writesEnabled(): boolean {
    return this.role !== 'replica';
  }

  status(): ReplicationStatusRow[] {
    const seq = this.db.graph.mutationSeq;
    if (this.role === 'replica') {
      const c = this.client;
      const lagRecords = Math.max(0, (c?.primarySeq ?? seq) - seq);
      return [
        {
          name: this.name,
          address: this.primaryUrl ?? '',
          role: 'replica',
          state: c?.state ?? 'stopped',
          mode: this.mode,
          appliedSeq: seq,
          lagRecords,
          lagMs: lagRecords > 0 && c && c.behindSince > 0 ? Date.now() - c.behindSince : 0,
          lastError: c?.lastError ?? null,
        },
      ];
    }
    const feed = this.feed;
    if (!feed) return [];
    return [...feed.replicas.values()].map((p) => {
      const oldest = feed.oldestUnacked(p.ackedN);
      return {
        name: p.name,
        address: p.address,
        role: 'replica',
        state: p.connected ? (oldest ? 'catching_up' : 'streaming') : this.registered.has(p.name) && p.lastAckAt === 0 ? 'registered' : 'disconnected',
        mode: this.mode,
        appliedSeq: p.ackedSeq,
        lagRecords: Math.max(0, seq - p.ackedSeq),
        lagMs: oldest ? Date.now() - oldest.at : 0,
        lastError: p.lastError,
      };
    });
  }

  /** Facts for graphdb.replication.objectStoreFanout(). */
  archiveFacts(): [string, string, string][] {
    if (this.archiver) return this.archiver.facts();
    return [
      ['enabled', 'false', 'no --wal-archive s3://bucket/prefix configured'],
      ['targets', 's3', 'S3 and S3-compatible endpoints (--wal-archive-endpoint); GCS and Azure only through S3-compatible gateways'],
    ];
  }

  /** Facts about the stream for graphdb.replication.walTailing(). */
  tailingFacts(): [string, string, string][] {
    const feed = this.feed;
    const rows: [string, string, string][] = [
      ['role', this.role, 'standalone, primary or replica'],
      ['transport', 'http-ndjson', `GET /api/replication/stream streams committed change records; POST /api/replication/ack acknowledges`],
      ['mode', this.mode, 'async: writes are acknowledged once durable on the primary; sync: also on replication_factor - 1 replicas'],
      ['replication_factor', String(this.factor), 'copies a synchronous write needs, the primary included'],
      ['mutation_seq', String(this.db.graph.mutationSeq), 'this instance\'s position (the graph\'s mutation sequence)'],
      ['fingerprint', this.db.graph.fingerprint(), 'equal fingerprints mean identical content'],
    ];
    if (feed) {
      rows.push(['last_batch', String(feed.lastN), 'number of the last batch published by this primary process']);
      rows.push(['connected_replicas', String(feed.streams), 'replica streams open now']);
      rows.push(['ring_batches', String(this.settings.ringSize), 'batches kept for replicas that reconnect; older positions get a snapshot']);
      rows.push(['sync_timeout_ms', String(this.settings.syncTimeoutMs), 'how long a synchronous write waits for replica acknowledgements']);
    }
    if (this.role === 'replica') {
      rows.push(['primary', this.primaryUrl ?? '', 'the primary this replica follows']);
      rows.push(['primary_seq', String(this.client?.primarySeq ?? 0), 'the primary\'s position as last heard']);
      rows.push(['state', this.client?.state ?? 'stopped', 'connecting, snapshot or streaming']);
    }
    return rows;
  }
}

/** A primary URL must be http(s) with a host: anything else is a usage error of the caller. */
export function checkPrimaryUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ReplicationError(`The primary address ${JSON.stringify(url)} is not a URL; give its HTTP base URL such as http://127.0.0.1:7474`, 'BadPrimaryUrl');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ReplicationError(`The primary address ${JSON.stringify(url)} must be an http:// or https:// URL`, 'BadPrimaryUrl');
  }
}


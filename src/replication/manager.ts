/**
 * `ReplicationManager`: one process's replication role and its transitions. It is the
 * Database's `ReplicationHook` — a replica refuses writes (READ_ONLY), a primary publishes
 * every commit to its `ChangeFeed` — and it owns the pieces of the current role: the feed
 * and the replica streams it serves as a primary, the `ReplicaClient` as a replica.
 *
 * Transitions (docs/REPLICATION.md says what happens to writes in flight):
 * - `promote()`: replica, standalone or fenced → primary at a new replication term (the
 *   highest seen plus one); a replica then tells its old primary, which is fenced.
 * - `demote(url)`: primary, standalone or fenced → replica of `url` (streams close,
 *   synchronous writes still waiting fail with REPLICATION_ERR); a replica is re-pointed.
 * - `fence(term)`: primary → fenced, when it hears of a newer term (a fence notice, a
 *   replica's stream request): writes are refused with READ_ONLY, streams end with `fenced`.
 * - `standalone()`: any role → standalone (shutdown).
 *
 * Promote, demote, fence and a replica's redirect by a fenced primary are kept in the data
 * directory (`RoleState`) before they take effect, and win over the command line at the next
 * start; the term is kept whenever it grows.
 */

import { escapeForLog } from '../server/log-text.js';
import type { Database } from '../engine/database.js';
import type { ReplicationHook, ReplicationStatusRow } from './hook.js';
import type { LoggedChange } from '../store/persist/record-codec.js';
import { encodeSchemaDef, schemaDefinition } from '../store/persist/schema-def.js';
import { storeNode, storeRel } from '../store/persist/stored-entity.js';
import { ReplicaApplier } from './applier.js';
import { archiveClient, WalArchiver } from './archive.js';
import { ChangeFeed, type Subscriber } from './change-feed.js';
import { ReadOnlyError, ReplicationError } from './errors.js';
import { encodeBatch, encodeMessage, FENCE_PATH, PING_MS, secretHeaders } from './protocol.js';
import { RegisteredReplicas } from './registered.js';
import { ReplicaClient } from './replica-client.js';
import { RoleState } from './role-state.js';
import { StreamClaim } from './stream-claim.js';
import type { ReplicationMode, ReplicationRole, ReplicationSettings } from './settings.js';

/** How far (bytes) a replica stream may lag in its socket buffer before it is dropped and must resume. */
const MAX_STREAM_BUFFER = 64 * 1024 * 1024;

/** Where a stream's lines go (the HTTP response in http-routes.ts). */
export interface StreamSink {
  write(line: string): boolean;
  bufferedBytes(): number;
  /** Closes the stream: at once, or (graceful) once what was written is sent. */
  end(graceful: boolean): void;
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
  /** Without a secret, serve replicas on other machines too (--replication-insecure); otherwise only local ones. */
  readonly insecure: boolean;
  private readonly log: (line: string) => void;
  private feed: ChangeFeed | undefined;
  private client: ReplicaClient | undefined;
  /** This instance's Bolt address once its Bolt door listens (a replica tells its primary). */
  private boltAddress: string | undefined;
  /** The Bolt addresses replicas gave when they opened their streams, by replica name. */
  private readonly replicaBolt = new Map<string, string>();
  private readonly applier: ReplicaApplier;
  private pingTimer: NodeJS.Timeout | undefined;
  private readonly settings: ReplicationSettings;
  /** Ships segments to object storage while this instance is not a replica (--wal-archive). */
  private readonly archiver: WalArchiver | undefined;
  /** This instance's HTTP base URL as others reach it (--replication-advertise-url, else the bound address). */
  advertiseUrl: string | undefined;
  /** The term and the role transitions kept in the data directory. */
  readonly state: RoleState;
  /** As a replica: the primary process (stream epoch) whose history this instance's content is a state of. */
  private readonly claim: StreamClaim;
  /** A promoted replica's notice to its old primary: the URL, and the outcome so far (walTailing shows it). */
  private fenceNotice: { oldPrimary: string; term: number; outcome: string; timer?: NodeJS.Timeout } | undefined;

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
    this.insecure = settings.insecure === true;
    // URLs and names in these lines come from callers (demote, fence notices): escaped in one place.
    this.log = (line) => settings.log(escapeForLog(line));
    this.registered = new RegisteredReplicas(settings.dataDir);
    this.applier = new ReplicaApplier(db);
    this.advertiseUrl = settings.advertiseUrl;
    this.state = new RoleState(settings.dataDir);
    if (settings.resetRole) this.state.forgetRole();
    const kept = this.state.kept;
    const role = kept?.role ?? settings.role;
    const primaryUrl = kept ? kept.primary : settings.primaryUrl;
    // Kept with the content it describes: the database's own directory when the settings name none (an embedder's).
    this.claim = new StreamClaim(settings.dataDir ?? db.storage?.dir);
    // Any other role may write here: the content is then no state of the history the claim names.
    if (role !== 'replica') this.claim.clear();
    if (kept && (kept.role !== settings.role || kept.primary !== settings.primaryUrl)) {
      this.log(
        `graphdb: replication: starting as ${kept.role}${kept.primary ? ` (${kept.role === 'replica' ? 'of' : 'superseded by'} ${kept.primary})` : ''}, ` +
          `kept in ${this.state.file ?? 'memory'} by ${kept.setBy} at ${kept.at}, instead of the command line's ${settings.role}; --replication-reset-role takes the command line's`,
      );
    }
    if (settings.archive) this.archiver = new WalArchiver(db, settings.archive, archiveClient(settings.archive), this.log);
    // A fenced instance's content is not the archive's history any more: it ships nothing.
    if (role !== 'replica' && role !== 'fenced') this.archiver?.start();
    if (role === 'primary') this.becomePrimary();
    else if (role === 'replica' && primaryUrl !== undefined) this.becomeReplica(primaryUrl);
    else if (role === 'fenced') {
      this.role = 'fenced';
      this.primaryUrl = primaryUrl;
    }
    settings.log(`graphdb: replication: ${this.roleLine()}`);
  }

  /** The role as the start-up log says it. */
  private roleLine(): string {
    const term = `replication term ${this.term}`;
    const target = this.settings.archive;
    const archive = this.archiver && target ? `, archiving the WAL to s3://${target.bucket}/${target.prefix}` : '';
    switch (this.role) {
      case 'primary':
        return `role primary (${term}, ${this.mode}${this.mode === 'sync' ? `, ${this.factor} copies` : ''})${archive}; replicas connect to this server's HTTP port`;
      case 'replica':
        return `role replica of ${this.primaryUrl} (${term}, name ${this.name}); writes are refused with READ_ONLY`;
      case 'fenced':
        return `role fenced (${term}${this.primaryUrl ? `, superseded by ${this.primaryUrl}` : ''}); writes are refused`;
      default:
        return `role standalone${archive}`;
    }
  }

  get term(): number {
    return this.state.term;
  }

  // ---------------------------------------------------------------- the Database hook

  beforeWrite(): void {
    if (this.role === 'replica') throw ReadOnlyError.replica(this.primaryUrl);
    if (this.role === 'fenced') throw ReadOnlyError.fenced(this.term, this.primaryUrl);
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
    const g = this.db.graph;
    this.feed = new ChangeFeed(
      { ringSize: this.settings.ringSize, syncFactor: this.mode === 'sync' ? this.factor : 1, syncTimeoutMs: this.settings.syncTimeoutMs },
      { seq: g.mutationSeq, fingerprint: g.fingerprint(), schema: schemaDefinition(this.db.schema) },
    );
    for (const r of this.registered.list()) this.feed.progress(r.name, r.address);
    this.pingTimer = setInterval(() => this.ping(), PING_MS);
    this.pingTimer.unref();
  }

  private leavePrimary(reason: string, graceful = false): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    this.feed?.close(reason, graceful);
    this.feed = undefined;
  }

  private becomeReplica(primaryUrl: string): void {
    this.role = 'replica';
    this.primaryUrl = primaryUrl;
    this.client = new ReplicaClient(
      {
        primaryUrl,
        name: this.name,
        secret: this.secret,
        log: this.log,
        term: () => this.term,
        learnTerm: (term) => {
          if (this.state.learn(term)) this.log(`graphdb: replication: following ${primaryUrl} at replication term ${term}`);
        },
        onFenced: (term, successor) => this.followSuccessor(primaryUrl, term, successor),
        bolt: () => this.boltAddress,
        claim: this.claim,
      },
      this.applier,
    );
    this.client.start();
  }

  /** This replica's primary was fenced by `term`: follow its successor when it named one (kept, like a demote). */
  private followSuccessor(oldPrimary: string, term: number, successor: string | undefined): void {
    if (this.role !== 'replica' || this.primaryUrl !== oldPrimary) return;
    this.state.learn(term);
    if (successor === undefined || successor === oldPrimary) return;
    try {
      checkPrimaryUrl(successor);
    } catch {
      return;
    }
    this.state.keep('replica', 'redirect', successor);
    this.leaveReplica();
    this.becomeReplica(successor);
    this.log(`graphdb: replication: ${oldPrimary} was fenced by term ${term}; now a replica of ${successor}`);
  }

  private leaveReplica(): void {
    this.client?.stop();
    this.client = undefined;
  }

  /** Replica, standalone or fenced → primary at a new term. Returns the previous role. */
  promote(): ReplicationRole {
    const before = this.role;
    if (before === 'primary') return before;
    // A replica's primary, or the primary that fenced this one: either is told of the new term.
    const oldPrimary = before === 'replica' || before === 'fenced' ? this.primaryUrl : undefined;
    // Kept before it takes effect: a crash right after must not bring back the old role or term.
    const term = this.term + 1;
    this.state.keep('primary', 'promote', undefined, term);
    // Its writes from now on are in no other primary's history (a shutdown keeps the claim: a restarted replica resumes).
    this.claim.clear();
    if (before === 'replica') this.leaveReplica();
    this.becomePrimary();
    if (oldPrimary !== undefined) this.noticeOldPrimary(oldPrimary, term);
    // What this instance applied as a replica (or held while fenced) is not in its archive: a new base covers it.
    if (before === 'replica' || before === 'fenced') this.archiver?.start();
    this.log(`graphdb: replication: ${before} → primary at replication term ${term} (writes enabled at mutation sequence ${this.db.graph.mutationSeq})`);
    return before;
  }

  /** Any role → replica of `primaryUrl`. */
  demote(primaryUrl: string): ReplicationRole {
    const before = this.role;
    checkPrimaryUrl(primaryUrl);
    this.state.keep('replica', 'demote', primaryUrl);
    this.stopFenceNotice();
    if (before === 'primary') this.leavePrimary('the primary was demoted');
    if (before === 'replica') this.leaveReplica();
    this.becomeReplica(primaryUrl);
    this.log(`graphdb: replication: ${before} → replica of ${primaryUrl}`);
    return before;
  }

  /**
   * A newer term exists (`term`, with its primary when known): a primary stops accepting
   * writes and ends its streams with `fenced`, so its replicas follow the successor or say
   * they must be re-pointed. Any other role only records the term. Returns whether it fenced.
   */
  fence(term: number, successor: string | undefined): boolean {
    if (term <= this.term) return false;
    if (this.role !== 'primary') {
      this.state.learn(term);
      return false;
    }
    this.state.keep('fenced', 'fence', successor, term);
    this.feed?.broadcast(encodeMessage({ t: 'fenced', term, ...(successor === undefined ? {} : { primary: successor }) }));
    this.leavePrimary(`replication term ${term} began${successor ? ` with the primary ${successor}` : ''}`, true);
    this.role = 'fenced';
    this.primaryUrl = successor;
    this.log(`graphdb: replication: fenced by replication term ${term}${successor ? ` (new primary ${successor})` : ''}: writes are refused from now on`);
    return true;
  }

  /**
   * Tells the old primary of the new term (POST /api/replication/fence), again every ping
   * interval until it answers: an old primary that is down now is fenced soon after it is back.
   */
  private noticeOldPrimary(oldPrimary: string, term: number): void {
    this.stopFenceNotice();
    const notice: NonNullable<ReplicationManager['fenceNotice']> = { oldPrimary, term, outcome: 'sending' };
    this.fenceNotice = notice;
    const send = async (): Promise<void> => {
      const body = JSON.stringify({ term, ...(this.advertiseUrl ? { primary: this.advertiseUrl } : {}) });
      const headers = { 'content-type': 'application/json', ...secretHeaders(this.secret) };
      try {
        const res = await fetch(new URL(FENCE_PATH, oldPrimary), { method: 'POST', headers, body, signal: AbortSignal.timeout(PING_MS * 2) });
        const answer = (await res.text()).slice(0, 300);
        if (this.fenceNotice !== notice) return;
        if (res.ok || res.status === 409) {
          notice.outcome = `delivered (HTTP ${res.status}): ${answer}`;
          return;
        }
        notice.outcome = `refused (HTTP ${res.status}): ${answer}`;
      } catch (err) {
        if (this.fenceNotice !== notice) return;
        notice.outcome = `not delivered yet: ${err instanceof Error ? err.message : String(err)}`;
      }
      notice.timer = setTimeout(() => void send(), PING_MS);
      notice.timer.unref();
    };
    void send();
  }

  private stopFenceNotice(): void {
    clearTimeout(this.fenceNotice?.timer);
    this.fenceNotice = undefined;
  }

  /** Any role → standalone. */
  standalone(): ReplicationRole {
    const before = this.role;
    this.stopFenceNotice();
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
  /** This instance serves Bolt at `address` (host:port): a replica reopens its stream to tell its primary. */
  announceBolt(address: string): void {
    this.boltAddress = address;
    if (this.role === 'replica') this.client?.reconnect(`telling the primary this replica's Bolt address (${address})`);
  }

  /** A replica's stream named its Bolt address. */
  noteReplicaBolt(name: string, address: string): void {
    this.replicaBolt.set(name, address);
  }

  /** On a primary: the Bolt addresses of the replicas streaming now (readers in Bolt routing tables). */
  boltReaders(): string[] {
    const feed = this.feed;
    if (this.role !== 'primary' || feed === undefined) return [];
    return [...this.replicaBolt].filter(([name]) => feed.isStreaming(name)).map(([, address]) => address);
  }

  /** `epoch`: the stream epoch the replica claims its content follows (stream-claim.ts); undefined when it claims none. */
  openStream(name: string, address: string, from: number, fingerprint: string, epoch: string | undefined, sink: StreamSink): void {
    const feed = this.feed;
    if (this.role !== 'primary' || feed === undefined) throw this.notPrimary();
    if (!this.registered.admits(name)) throw new ReplicationError(`The replica ${name} is not registered on this primary (graphdb.replication.registerReplica)`, 'NotRegistered');
    const g = this.db.graph;
    const fp = g.fingerprint();
    const seq = g.mutationSeq;
    const send = (line: string): boolean => sink.write(line + '\n') && sink.bufferedBytes() < MAX_STREAM_BUFFER;
    send(encodeMessage({ t: 'hello', epoch: feed.epoch, term: this.term, mode: this.mode, n: feed.lastN, seq, fingerprint: fp }));
    const schema = schemaDefinition(this.db.schema);
    const resume = feed.resumeFrom(epoch, from, fingerprint, seq, fp);
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
      close: (graceful) => sink.end(graceful === true),
    };
    feed.subscribe(subscriber);
    sink.onClose(() => feed.unsubscribe(subscriber, 'the stream closed'));
  }

  /** Why this instance serves no stream (HTTP 409): a fenced primary names the new term and primary. */
  notPrimary(): ReplicationError {
    if (this.role === 'fenced') {
      return new ReplicationError(
        `This instance was fenced by replication term ${this.term}${this.primaryUrl ? `; the primary is ${this.primaryUrl}` : ''}: it serves no replication stream. ` +
          `Point replicas at the current primary with CALL graphdb.replication.demote('<primary URL>')`,
        'NotPrimary',
      );
    }
    return new ReplicationError(`This instance is ${this.role}, not a primary: it serves no replication stream`, 'NotPrimary');
  }

  acknowledge(name: string, epoch: string, n: number, seq: number): void {
    if (this.role !== 'primary' || !this.feed) throw this.notPrimary();
    this.feed.acknowledge(name, epoch, n, seq);
  }

  private ping(): void {
    const feed = this.feed;
    if (!feed) return;
    // The sequence of the last commit: a ping must not finish a worker's write being applied on the main thread.
    feed.broadcast(encodeMessage({ t: 'ping', n: feed.lastN, seq: this.db.committedSeq }));
  }

  // ---------------------------------------------------------------- what the procedures show

  get writesEnabled(): boolean {
    return this.role !== 'replica' && this.role !== 'fenced';
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
      ['role', this.role, 'standalone, primary, replica, or fenced (a former primary superseded by a newer term)'],
      ['term', String(this.term), 'the replication term: grows with every promotion; a replica refuses a primary with an older one'],
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
      rows.push(['state', this.client?.state ?? 'stopped', 'connecting, snapshot, streaming, or refused (the primary is superseded: re-point this replica)']);
      rows.push(['last_error', this.client?.lastError ?? '', 'why the stream last failed']);
    }
    if (this.role === 'fenced') rows.push(['new_primary', this.primaryUrl ?? '', 'the primary of the newer term, when it was named']);
    if (this.fenceNotice) rows.push(['fence_notice', `${this.fenceNotice.oldPrimary}: ${this.fenceNotice.outcome}`, 'the new term told to the primary this instance was promoted from']);
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


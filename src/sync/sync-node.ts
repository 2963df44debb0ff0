/**
 * `SyncNode`: one peer's sync engine, attached to a Database. It turns each committed local
 * write (the store's change records) into one feed entry of canonical statements, keeps the
 * replicated state, the id map and the content fingerprint up to date, serves its feed to
 * peers (`payloadSince`), and applies what peers send (`receive`) to the graph through
 * `graph-view.ts` — so replay never re-enters the feed as a local write. Everything it must
 * not forget goes to the sync log before the write is acknowledged.
 */

import type { SyncHost } from './host.js';
import type { ScopeFilter, SyncNodeOptions } from './options.js';
import { scopedOps, scopedStatements } from './scopes.js';
import type { ChangeRecord } from '../store/changes.js';
import { canonicalContent, ContentHash, type ElementContent } from './content-hash.js';
import { SyncPayloadError } from './errors.js';
import { HybridClock, MAX_CLOCK_SKEW_MS, parseHlc } from './hlc.js';
import { IdMap } from './id-map.js';
import { liveNodeIds, liveRelIds, materializeNode, materializeRel, nodeContent, relContent } from './graph-view.js';
import { checkPayload, type SyncAck, type SyncPullResponse } from './protocol.js';
import { formatStatement, parseStatement, type ElementKind, type SyncOp } from './statements.js';
import { SyncState, type ElementState } from './state.js';
import type { SyncEntry, SyncLog, SyncLogRecord } from './sync-log.js';

type CommitRecord = Omit<Extract<SyncLogRecord, { t: 'commit' }>, 't' | 'wal'>;

/** A commit sync has recorded; `undo` when the store could not make it durable. */
export interface SyncCommit {
  undo(): void;
}

export type { SyncNodeOptions } from './options.js';

export class SyncNode {
  readonly clock: HybridClock;
  readonly state = new SyncState();
  readonly ids = new IdMap();
  private readonly hash = new ContentHash();
  /** Retained feed entries, in sequence order. */
  private feed: SyncEntry[] = [];
  /** Sequence numbers of retained local entries (what `pending` counts). */
  private localSeqs: number[] = [];
  private floor = 1;
  private lastSeq = 0;
  private minted = 0;
  /** How far of each peer's feed this node has applied. */
  readonly applied = new Map<string, number>();
  /** How far of this node's feed each peer has acknowledged. */
  readonly acked = new Map<string, number>();
  /** Set while this node writes to the graph itself (replay, repair): those commits are not local writes. */
  private applying: CommitRecord | undefined;
  private readonly compactAfter: number;
  private readonly now: () => number;
  readonly batchEntries: number;
  /** The subset this peer exchanges, when it is scoped. */
  readonly scope: ScopeFilter | undefined;
  private closed = false;
  private readonly stoppers = new Set<() => void>();

  constructor(
    private readonly db: SyncHost,
    readonly peerId: string,
    private readonly log: SyncLog,
    records: readonly SyncLogRecord[],
    options: SyncNodeOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.clock = new HybridClock(peerId, this.now);
    this.compactAfter = options.compactAfter ?? 10_000;
    this.batchEntries = options.batchEntries ?? 500;
    this.scope = options.scope;
    const dropped = notDurable(records, db.storage?.seq);
    records.forEach((r, i) => {
      if (!dropped.has(i)) this.restore(r);
    });
    this.ids.drain();
    const own = `${peerId}:`;
    for (const gid of this.state.elements.keys()) if (gid.startsWith(own)) this.minted = Math.max(this.minted, Number(gid.slice(own.length)));
    if (this.state.maxHlc !== '') this.clock.observe(this.state.maxHlc);
    for (const gid of this.state.elements.keys()) this.hash.update(gid, this.state.content(gid));
  }

  // ---------------------------------------------------------------- Database hooks

  /**
   * Called by Database for every committed write transaction, before it is made durable (so
   * its statements can be logged first). When the store then fails to log the transaction
   * (a full disk), Database calls `undo` on the answer: sync forgets the commit, and its log
   * record, tagged with the WAL position it expected, is dropped at the next open.
   */
  committed(changes: readonly ChangeRecord[]): SyncCommit {
    return this.record(changes, changes.length > 0 ? this.db.storage?.seq : undefined);
  }

  /** `wal`: the WAL's sequence number before the commit's record, when the commit has one. */
  private record(changes: readonly ChangeRecord[], wal: number | undefined): SyncCommit {
    const tag = wal === undefined ? {} : { wal };
    if (this.applying) {
      for (const c of changes) {
        if (c.op === 'deleteNode') this.ids.unmapLocal('node', c.id);
        else if (c.op === 'deleteRel') this.ids.unmapLocal('rel', c.id);
      }
      const map = this.ids.drain();
      // The rest of a failed replay is undone by `apply`, which sees the transaction fail.
      return this.logOrUndo({ t: 'commit', ...this.applying, ...(map.length > 0 ? { map } : {}), ...tag }, () => this.ids.revertLastDrain());
    }
    const saved = new Map<string, ElementState | undefined>();
    const maxBefore = this.state.maxHlc;
    const ops: SyncOp[] = [];
    for (const c of changes) this.localOps(c, ops);
    const touched = new Set<string>();
    for (const op of ops) {
      if (!saved.has(op.gid)) saved.set(op.gid, this.state.saved(op.gid));
      for (const g of this.state.merge(op)) touched.add(g);
    }
    for (const g of touched) this.hash.update(g, this.state.content(g));
    const entry: SyncEntry = { seq: ++this.lastSeq, origin: this.peerId, queries: ops.map(formatStatement) };
    this.feed.push(entry);
    this.localSeqs.push(entry.seq);
    const map = this.ids.drain();
    return this.logOrUndo({ t: 'commit', entry, ...(map.length > 0 ? { map } : {}), ...tag }, () => {
      this.state.restore(saved, maxBefore);
      for (const g of touched) this.hash.update(g, this.state.content(g));
      this.feed.pop();
      this.localSeqs.pop();
      this.lastSeq--;
      this.ids.revertLastDrain();
    });
  }

  /** Appends `record`; if that fails, or later the store fails to log the same commit, `undo` takes the commit back (once). */
  private logOrUndo(record: SyncLogRecord, undo: () => void): SyncCommit {
    let undone = false;
    const once = (): void => {
      if (undone) return;
      undone = true;
      undo();
    };
    try {
      this.log.append(record);
    } catch (err) {
      once();
      throw err;
    }
    return { undo: once };
  }

  /** SPEC "Sync counters": local writes not yet acknowledged by every known peer. */
  pending(): number {
    const done = this.minAcked();
    let lo = 0;
    let hi = this.localSeqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.localSeqs[mid] <= done) lo = mid + 1;
      else hi = mid;
    }
    return this.localSeqs.length - lo;
  }

  fingerprintValue(): number {
    return this.hash.value();
  }

  fingerprint(): string {
    return String(this.hash.value());
  }

  get lastSequence(): number {
    return this.lastSeq;
  }

  // ---------------------------------------------------------------- serving the feed

  /**
   * This node's feed after `since`, at most `batchEntries` entries, for `forPeer` (statements
   * that came from that peer are left out; the range still covers them). When the entries
   * asked for were compacted away, the whole state is sent instead, which is equivalent.
   * With `scope`, only what is in it travels (scopes.ts).
   */
  payloadSince(since: number, forPeer?: string, scope?: ScopeFilter): SyncPullResponse {
    const base = { peer_id: this.peerId, fingerprint: this.hash.value(), last_seq: this.lastSeq };
    if (since >= this.lastSeq) return { ...base, seq_start: since + 1, seq_end: since, queries: [] };
    if (since + 1 < this.floor) {
      const queries = scope ? scopedStatements(this.state, this.state.elements.keys(), scope) : [...this.state.statements()].map(formatStatement);
      return { ...base, seq_start: since + 1, seq_end: this.lastSeq, queries };
    }
    let i = this.indexAfter(since);
    const queries: string[] = [];
    let end = since;
    for (let n = 0; i < this.feed.length && n < this.batchEntries; i++, n++) {
      const e = this.feed[i];
      if (e.origin !== forPeer) for (const q of e.queries) queries.push(q);
      end = e.seq;
    }
    if (!scope) return { ...base, seq_start: since + 1, seq_end: end, queries };
    const touched = new Set(queries.map((q, k) => parseStatement(q, k).gid));
    return { ...base, seq_start: since + 1, seq_end: end, queries: scopedStatements(this.state, touched, scope) };
  }

  /**
   * The pull route: `peer` (when it names itself) says it holds this node's feed up to `since`
   * (an acknowledgement) and asks for more, within `scope` when it is a scoped peer.
   */
  servePull(peer: string | undefined, since: number, scope?: ScopeFilter): SyncPullResponse {
    if (!Number.isSafeInteger(since) || since < 0) throw new SyncPayloadError('"since" must be an integer ≥ 0');
    const held = Math.min(since, this.lastSeq);
    if (peer !== undefined) this.recordAck(peer, held);
    return this.payloadSince(held, peer, scope);
  }

  /** Records that `peer` holds this node's feed up to `seq`. */
  recordAck(peer: string, seq: number): void {
    if (peer === this.peerId || (this.acked.get(peer) ?? -1) >= seq) return;
    this.acked.set(peer, seq);
    this.log.append({ t: 'acked', peer, seq });
    this.maybeCompact();
  }

  // ---------------------------------------------------------------- applying a peer's feed

  /** Applies a payload from a peer (push body or pull answer); all or nothing. */
  receive(data: unknown): SyncAck {
    const payload = checkPayload(data);
    if (payload.peer_id === this.peerId) throw new SyncPayloadError('the payload comes from this peer itself');
    const have = this.applied.get(payload.peer_id) ?? 0;
    if (payload.seq_start > have + 1) {
      throw new SyncPayloadError(`sequence gap: this peer holds ${payload.peer_id}'s feed up to ${have}, the payload starts at ${payload.seq_start}`);
    }
    let ops = payload.queries.map((q, i) => parseStatement(q, i));
    this.checkOps(ops);
    if (this.scope) ops = scopedOps(this.state, ops, this.scope);
    if (payload.seq_end > have) this.apply(ops, payload.peer_id, payload.seq_end);
    return { acked_seq: Math.max(have, payload.seq_end), fingerprint: this.hash.value(), peer_id: this.peerId };
  }

  private checkOps(ops: readonly SyncOp[]): void {
    const limit = this.now() + MAX_CLOCK_SKEW_MS;
    const kinds = new Map<string, ElementKind>();
    ops.forEach((op, i) => {
      if ((parseHlc(op.hlc)?.wall ?? 0) > limit) throw new SyncPayloadError(`queries[${i}]: the clock stamp is more than a day ahead of this peer's clock`);
      const conflict = this.state.kindConflict(op);
      const k = kinds.get(op.gid);
      if (conflict !== undefined || (k !== undefined && k !== op.kind)) {
        throw new SyncPayloadError(`queries[${i}]: ${conflict ?? `${op.gid} is used as both a node and a relationship`}`);
      }
      kinds.set(op.gid, op.kind);
      if (op.verb === 'CREATE' && op.kind === 'rel') for (const end of [op.start, op.end]) if (kinds.get(end) === 'rel') throw new SyncPayloadError(`queries[${i}]: endpoint ${end} is a relationship`);
    });
  }

  private apply(ops: readonly SyncOp[], from: string, seqEnd: number): void {
    const undo = new Map<string, ElementState | undefined>();
    const maxBefore = this.state.maxHlc;
    const touched = new Set<string>();
    const effective: string[] = [];
    for (const op of ops) {
      if (!undo.has(op.gid)) undo.set(op.gid, this.state.saved(op.gid));
      const changed = this.state.merge(op);
      if (changed.length > 0) effective.push(formatStatement(op));
      for (const g of changed) touched.add(g);
      this.clock.observe(op.hlc);
    }
    const entry: SyncEntry | undefined = effective.length > 0 ? { seq: this.lastSeq + 1, origin: from, queries: effective } : undefined;
    try {
      this.materialize(touched, { entry, applied: [from, seqEnd] });
    } catch (err) {
      this.state.restore(undo, maxBefore);
      throw err;
    }
    if (entry) {
      this.lastSeq = entry.seq;
      this.feed.push(entry);
    }
    this.applied.set(from, seqEnd);
    for (const g of touched) this.hash.update(g, this.state.content(g));
  }

  /**
   * Makes the graph hold what the state says for `gids` in one write transaction; `committed`
   * logs `record` (with the id-map changes) before the store makes it durable.
   */
  private materialize(gids: Iterable<string>, record: CommitRecord): void {
    const rels: string[] = [];
    const nodes: string[] = [];
    for (const g of gids) (this.state.get(g)?.kind === 'rel' ? rels : nodes).push(g);
    this.applying = record;
    try {
      this.db.writeTransaction((graph) => {
        // Relationships go first where they disappear, last where they appear, so nodes are there for them.
        for (const g of rels) if (!this.state.isLive(g)) this.ids.set('rel', g, materializeRel(graph, this.ids.local('rel', g), undefined, undefined, undefined));
        for (const g of nodes) this.ids.set('node', g, materializeNode(graph, this.ids.local('node', g), this.state.content(g)));
        for (const g of rels) {
          const want = this.state.content(g);
          if (!want) continue;
          const local = materializeRel(graph, this.ids.local('rel', g), want, this.ids.local('node', want.start), this.ids.local('node', want.end));
          this.ids.set('rel', g, local);
        }
      });
    } finally {
      this.applying = undefined;
    }
  }

  // ---------------------------------------------------------------- local writes → statements

  private mint(): string {
    return `${this.peerId}:${++this.minted}`;
  }

  private localOps(c: ChangeRecord, out: SyncOp[]): void {
    const hlc = this.clock.tick();
    switch (c.op) {
      case 'createNode': {
        const gid = this.mint();
        this.ids.set('node', gid, c.id);
        out.push({ verb: 'CREATE', kind: 'node', gid, hlc, labels: [...c.labels], type: '', start: '', end: '', props: [...c.props].filter(([, v]) => v !== null) });
        return;
      }
      case 'createRel': {
        const gid = this.mint();
        this.ids.set('rel', gid, c.id);
        const start = this.gidOf('node', c.start, out);
        const end = this.gidOf('node', c.end, out);
        out.push({ verb: 'CREATE', kind: 'rel', gid, hlc, labels: [], type: c.type, start, end, props: [...c.props].filter(([, v]) => v !== null) });
        return;
      }
      case 'deleteNode':
      case 'deleteRel': {
        const kind: ElementKind = c.op === 'deleteNode' ? 'node' : 'rel';
        const gid = this.ids[kind === 'node' ? 'nodeGid' : 'relGid'](c.id);
        if (gid === undefined) return;
        this.ids.set(kind, gid, undefined);
        out.push({ verb: 'DELETE', kind, gid, hlc });
        return;
      }
      case 'setProperty': {
        const kind: ElementKind = c.entity;
        out.push({ verb: 'MERGE', kind, gid: this.gidOf(kind, c.id, out), hlc, set: [[c.key, c.value]], add: [], remove: [] });
        return;
      }
      case 'addLabel':
      case 'removeLabel': {
        const add = c.op === 'addLabel';
        out.push({ verb: 'MERGE', kind: 'node', gid: this.gidOf('node', c.id, out), hlc, set: [], add: add ? [c.label] : [], remove: add ? [] : [c.label] });
        return;
      }
    }
  }

  /** The global id of a local element; one sync has not seen (created while sync was off) is adopted with a CREATE. */
  private gidOf(kind: ElementKind, localId: number, out: SyncOp[]): string {
    const known = kind === 'node' ? this.ids.nodeGid(localId) : this.ids.relGid(localId);
    if (known !== undefined) return known;
    const gid = this.mint();
    this.ids.set(kind, gid, localId);
    const graph = this.db.graph;
    const content = kind === 'node' ? nodeContent(graph, localId, gid) : relContent(graph, localId, gid, { nodeGid: (id) => this.gidOf('node', id, out), relGid: () => undefined });
    if (content) {
      out.push({ verb: 'CREATE', kind, gid, hlc: this.clock.tick(), labels: [...content.labels], type: content.type, start: content.start, end: content.end, props: [...content.props] });
    }
    return gid;
  }

  // ---------------------------------------------------------------- restart

  private restore(r: SyncLogRecord): void {
    switch (r.t) {
      case 'snapshot':
        for (const q of r.state) this.state.merge(parseStatement(q, 0));
        for (const m of r.map) this.ids.apply(m);
        for (const [p, s] of r.applied) this.applied.set(p, s);
        for (const [p, s] of r.acked) this.acked.set(p, s);
        this.floor = r.floor;
        this.lastSeq = r.lastSeq;
        break;
      case 'commit':
        if (r.entry) {
          for (const q of r.entry.queries) this.state.merge(parseStatement(q, 0));
          this.feed.push(r.entry);
          if (r.entry.origin === this.peerId) this.localSeqs.push(r.entry.seq);
          this.lastSeq = Math.max(this.lastSeq, r.entry.seq);
        }
        for (const m of r.map ?? []) this.ids.apply(m);
        if (r.applied) this.applied.set(r.applied[0], Math.max(this.applied.get(r.applied[0]) ?? 0, r.applied[1]));
        break;
      case 'acked':
        this.acked.set(r.peer, Math.max(this.acked.get(r.peer) ?? 0, r.seq));
        break;
    }
  }

  /**
   * After opening: makes the graph agree with the replicated state (the sync log is written
   * before the store's WAL, so after a crash it may be ahead), and adopts elements the graph
   * holds that sync has never seen (written while sync was off) as one local entry.
   */
  reconcile(): void {
    const graph = this.db.graph;
    const differs: string[] = [];
    const lookup = { nodeGid: (id: number) => this.ids.nodeGid(id), relGid: (id: number) => this.ids.relGid(id) };
    const compare = (want: ElementContent | undefined, have: ElementContent | undefined): boolean =>
      (want === undefined) !== (have === undefined) || (want !== undefined && have !== undefined && canonicalContent(want) !== canonicalContent(have));
    for (const [gid, e] of this.state.elements) {
      const local = this.ids.local(e.kind, gid);
      const have = local === undefined ? undefined : e.kind === 'node' ? nodeContent(graph, local, gid) : relContent(graph, local, gid, lookup);
      if (compare(this.state.content(gid), have)) differs.push(gid);
    }
    if (differs.length > 0) this.materialize(differs, {});
    const unknownNodes = [...liveNodeIds(graph)].filter((id) => this.ids.nodeGid(id) === undefined);
    const unknownRels = [...liveRelIds(graph)].filter((id) => this.ids.relGid(id) === undefined);
    if (unknownNodes.length + unknownRels.length === 0) return;
    const changes: ChangeRecord[] = [];
    for (const id of unknownNodes) {
      const n = graph.node(id);
      if (n) changes.push({ op: 'createNode', id, labels: [...n.labels], props: new Map(n.propertyMap()) });
    }
    for (const id of unknownRels) {
      const r = graph.rel(id);
      if (r) changes.push({ op: 'createRel', id, type: r.type, start: r.start.id, end: r.end.id, props: new Map(r.propertyMap()) });
    }
    // Not tagged with a WAL position: this commit has no WAL record of its own (the graph already holds it).
    this.record(changes, undefined);
  }

  // ---------------------------------------------------------------- compaction and shutdown

  private minAcked(): number {
    if (this.acked.size === 0) return 0;
    let min = Infinity;
    for (const s of this.acked.values()) min = Math.min(min, s);
    return min;
  }

  private indexAfter(seq: number): number {
    let lo = 0;
    let hi = this.feed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.feed[mid].seq <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private maybeCompact(): void {
    if (this.indexAfter(this.minAcked()) >= this.compactAfter) this.compact();
  }

  /** Drops the feed entries every known peer has acknowledged and rewrites the log around a snapshot of the state. */
  compact(): void {
    const done = this.minAcked();
    const cut = this.indexAfter(done);
    this.feed = this.feed.slice(cut);
    this.localSeqs = this.localSeqs.filter((s) => s > done);
    this.floor = Math.max(this.floor, done + 1);
    this.log.rewrite([
      {
        t: 'snapshot',
        state: [...this.state.statements()].map(formatStatement),
        map: this.ids.all(),
        applied: [...this.applied],
        acked: [...this.acked],
        floor: this.floor,
        lastSeq: this.lastSeq,
      },
      ...this.feed.map((entry): SyncLogRecord => ({ t: 'commit', entry })),
    ]);
  }

  /** Registers something to stop when the database closes (auto-sync loops, discovery). */
  onClose(stop: () => void): () => void {
    this.stoppers.add(stop);
    return () => this.stoppers.delete(stop);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stop of [...this.stoppers]) stop();
    this.log.close();
  }
}

/**
 * The log records of commits the store never made durable: tagged with the WAL position they
 * expected, and either the WAL did not get past it (`storeSeq`, after recovery) or a later
 * commit was tagged with the same or an earlier position (the store's log write failed and
 * the next commit took that place).
 */
function notDurable(records: readonly SyncLogRecord[], storeSeq: number | undefined): Set<number> {
  const out = new Set<number>();
  let later = Infinity;
  for (let i = records.length - 1; i >= 0; i--) {
    const r = records[i];
    if (r.t !== 'commit' || r.wal === undefined) continue;
    if (r.wal >= later || (storeSeq !== undefined && r.wal >= storeSeq)) out.add(i);
    later = Math.min(later, r.wal);
  }
  return out;
}

/**
 * The replicated state every peer converges on: per global element id, its creation (type
 * and endpoints for relationships), a tombstone, and last-writer-wins registers per property
 * and per label, each stamped with a hybrid-clock time. Merging a statement is idempotent,
 * commutative and associative, so peers that have seen the same statements hold the same
 * state whatever the order, duplication or batching of delivery.
 *
 * Rules (docs/SYNC.md says why):
 * - property and label: the register with the greatest stamp wins (peer id breaks ties);
 * - delete wins: a tombstone is final, later or concurrent updates and re-creations of that
 *   id are dropped (ids are never reused, so nothing legitimate is lost);
 * - a relationship is live while it is created, not deleted, and both endpoints are live, so
 *   deleting a node removes relationships another peer attached to it concurrently;
 * - statements about an element not yet created are kept, and take effect when it arrives.
 */

import type { Value } from '../../runtime/values.js';
import { compareHlc } from './hlc.js';
import type { ElementContent } from './content-hash.js';
import type { ElementKind, SyncOp } from './statements.js';

const EMPTY: ReadonlySet<string> = new Set();

interface Register<T> {
  hlc: string;
  value: T;
}

export interface ElementState {
  kind: ElementKind;
  /** Stamp of the CREATE, once seen. */
  created: string | undefined;
  /** Stamp of the DELETE, once seen; final. */
  deleted: string | undefined;
  type: string;
  start: string;
  end: string;
  props: Map<string, Register<Value>>;
  labels: Map<string, Register<boolean>>;
}

export class SyncState {
  readonly elements = new Map<string, ElementState>();
  /** Relationship ids by endpoint node id: a node's liveness decides theirs. */
  private readonly relsByNode = new Map<string, Set<string>>();
  /** Greatest stamp merged, to restore the clock after a restart. */
  maxHlc = '';

  get(gid: string): ElementState | undefined {
    return this.elements.get(gid);
  }

  /** The kind an op would conflict with (an id already known as the other kind), if any. */
  kindConflict(op: SyncOp): string | undefined {
    const e = this.elements.get(op.gid);
    if (e && e.kind !== op.kind) return `${op.gid} is a ${e.kind === 'node' ? 'node' : 'relationship'}`;
    if (op.verb === 'CREATE' && op.kind === 'rel') {
      for (const end of [op.start, op.end]) {
        const n = this.elements.get(end);
        if (n && n.kind !== 'node') return `endpoint ${end} is a relationship`;
      }
    }
    return undefined;
  }

  /**
   * Merges one statement; returns the ids whose content may have changed (empty when the
   * statement was already known or lost to a newer one).
   */
  merge(op: SyncOp): string[] {
    if (this.maxHlc === '' || compareHlc(op.hlc, this.maxHlc) > 0) this.maxHlc = op.hlc;
    const e = this.element(op.gid, op.kind);
    if (e.deleted !== undefined) return [];
    let changed = false;
    switch (op.verb) {
      case 'CREATE':
        if (e.created === undefined) {
          e.created = op.hlc;
          changed = true;
          if (op.kind === 'rel') {
            e.type = op.type;
            e.start = op.start;
            e.end = op.end;
            this.index(op.start, op.gid);
            this.index(op.end, op.gid);
          }
        }
        for (const label of op.labels) changed = setRegister(e.labels, label, op.hlc, true) || changed;
        for (const [k, v] of op.props) changed = setRegister(e.props, k, op.hlc, v) || changed;
        break;
      case 'MERGE':
        for (const [k, v] of op.set) changed = setRegister(e.props, k, op.hlc, v) || changed;
        for (const label of op.add) changed = setRegister(e.labels, label, op.hlc, true) || changed;
        for (const label of op.remove) changed = setRegister(e.labels, label, op.hlc, false) || changed;
        break;
      case 'DELETE':
        e.deleted = op.hlc;
        e.props.clear();
        e.labels.clear();
        changed = true;
        break;
    }
    if (!changed) return [];
    return op.kind === 'node' ? [op.gid, ...(this.relsByNode.get(op.gid) ?? [])] : [op.gid];
  }

  /** A copy of the element's state as it is now (undefined when unknown), for `restore`. */
  saved(gid: string): ElementState | undefined {
    const e = this.elements.get(gid);
    return e && { ...e, props: new Map(e.props), labels: new Map(e.labels) };
  }

  /** Puts elements back as `saved` gave them, and the greatest stamp (merges whose commit failed). */
  restore(saved: ReadonlyMap<string, ElementState | undefined>, maxHlc: string): void {
    for (const [gid, e] of saved) {
      const now = this.elements.get(gid);
      if (now?.kind === 'rel' && now.created !== undefined && e?.created === undefined) {
        this.relsByNode.get(now.start)?.delete(gid);
        this.relsByNode.get(now.end)?.delete(gid);
      }
      if (e) this.elements.set(gid, e);
      else this.elements.delete(gid);
    }
    this.maxHlc = maxHlc;
  }

  isLive(gid: string): boolean {
    const e = this.elements.get(gid);
    if (!e || e.created === undefined || e.deleted !== undefined) return false;
    return e.kind === 'node' || (this.isLive(e.start) && this.isLive(e.end));
  }

  /** The element's content while it is live, else undefined. */
  content(gid: string): ElementContent | undefined {
    if (!this.isLive(gid)) return undefined;
    const e = this.elements.get(gid) as ElementState;
    const props = new Map<string, Value>();
    for (const [k, r] of e.props) if (r.value !== null) props.set(k, r.value);
    const labels: string[] = [];
    for (const [l, r] of e.labels) if (r.value) labels.push(l);
    return { kind: e.kind, gid, labels, type: e.type, start: e.start, end: e.end, props };
  }

  /** The whole state as statements (compaction, and peers that ask for history already compacted). */
  *statements(): Generator<SyncOp> {
    for (const gid of this.elements.keys()) yield* this.statementsOf(gid);
  }

  /** One element's state as statements: merging them anywhere gives that element this state. */
  *statementsOf(gid: string): Generator<SyncOp> {
    const e = this.elements.get(gid);
    if (!e) return;
    if (e.deleted !== undefined) {
      yield { verb: 'DELETE', kind: e.kind, gid, hlc: e.deleted };
      return;
    }
    if (e.created !== undefined) {
      yield { verb: 'CREATE', kind: e.kind, gid, hlc: e.created, labels: [], type: e.type, start: e.start, end: e.end, props: [] };
    }
    for (const [k, r] of e.props) yield { verb: 'MERGE', kind: e.kind, gid, hlc: r.hlc, set: [[k, r.value]], add: [], remove: [] };
    for (const [l, r] of e.labels) {
      yield { verb: 'MERGE', kind: e.kind, gid, hlc: r.hlc, set: [], add: r.value ? [l] : [], remove: r.value ? [] : [l] };
    }
  }

  /** The relationships created with `node` as an endpoint. */
  relsOf(node: string): ReadonlySet<string> {
    return this.relsByNode.get(node) ?? EMPTY;
  }

  private element(gid: string, kind: ElementKind): ElementState {
    let e = this.elements.get(gid);
    if (!e) {
      e = { kind, created: undefined, deleted: undefined, type: '', start: '', end: '', props: new Map(), labels: new Map() };
      this.elements.set(gid, e);
    }
    return e;
  }

  private index(node: string, rel: string): void {
    let set = this.relsByNode.get(node);
    if (!set) this.relsByNode.set(node, (set = new Set()));
    set.add(rel);
  }
}

function setRegister<T>(registers: Map<string, Register<T>>, key: string, hlc: string, value: T): boolean {
  const r = registers.get(key);
  if (r && compareHlc(hlc, r.hlc) <= 0) return false;
  registers.set(key, { hlc, value });
  return true;
}

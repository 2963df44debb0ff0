/**
 * Property test of the Graph against a plain model: random transactions of random
 * mutations, each ending in commit or rollback. After every operation the store's
 * invariants hold (adjacency both ways, label and type sets, counts) and its content equals
 * the model's; a rollback restores the exact previous state; a commit that leaves a deleted
 * node connected fails with DeleteConnectedNode exactly when the model says so; and
 * replaying the committed change records rebuilds the same graph and fingerprint.
 *
 * Change records are also checked one operation at a time: replaying the records of each
 * operation onto a replica must reproduce the content the graph had right after that
 * operation (so a record describes the state at the time of its change, even though the
 * store shares labels and property maps between entities and records), and records keep
 * their content after later transactions (nothing changes a record once handed out).
 * Creations randomly hand their property map over (`handOverProps`) or keep ownership,
 * in which case the caller's map and label list are changed afterwards, which must not
 * reach the graph.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { ConstraintError, EntityNotFoundError } from '../../src/errors.js';
import type { ChangeRecord } from '../../src/store/changes.js';
import type { Node, Rel } from '../../src/store/entities.js';
import { EMPTY_PROPS } from '../../src/store/entities.js';
import { Graph, handOverProps } from '../../src/store/graph.js';
import { type Content, checkInvariants, contentDump, contentNode, contentRel, exactDump } from './helpers.js';

// ------------------------------------------------------------------ operations

type Props = [string, Value][];
type Target = 'node' | 'rel';

type Op =
  | { k: 'createNode'; labels: string[]; props: Props; handOver: boolean }
  | { k: 'createRel'; type: string; a: number; b: number; props: Props; handOver: boolean }
  | { k: 'deleteRel'; pick: number }
  | { k: 'deleteNode'; pick: number }
  | { k: 'detachDelete'; pick: number }
  | { k: 'setProp'; target: Target; pick: number; key: string; value: Value }
  | { k: 'replace'; target: Target; pick: number; props: Props }
  | { k: 'merge'; target: Target; pick: number; props: Props }
  | { k: 'addLabel'; pick: number; label: string }
  | { k: 'removeLabel'; pick: number; label: string }
  | { k: 'writeDeleted'; pick: number };

const label = fc.constantFrom('A', 'B', 'C');
const key = fc.constantFrom('x', 'y', 'z');
const value: fc.Arbitrary<Value> = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('s', 't'),
  fc.constant(null),
  fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 2 }),
);
const props: fc.Arbitrary<Props> = fc.array(fc.tuple(key, value), { maxLength: 3 });
const pick = fc.nat(50);
const target = fc.constantFrom<Target>('node', 'rel');

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ k: fc.constant('createNode' as const), labels: fc.array(label, { maxLength: 3 }), props, handOver: fc.boolean() }),
  },
  {
    weight: 5,
    arbitrary: fc.record({ k: fc.constant('createRel' as const), type: fc.constantFrom('R', 'S', 'T'), a: pick, b: pick, props, handOver: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('deleteRel' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('deleteNode' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('detachDelete' as const), pick }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('setProp' as const), target, pick, key, value }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('replace' as const), target, pick, props }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('merge' as const), target, pick, props }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('addLabel' as const), pick, label }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('removeLabel' as const), pick, label }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('writeDeleted' as const), pick }) },
);

const transaction = fc.record({
  ops: fc.array(op, { minLength: 1, maxLength: 12 }),
  rollback: fc.boolean(),
});

// ------------------------------------------------------------------ model

interface ModelNode {
  labels: string[];
  props: Map<string, Value>;
}

interface ModelRel {
  type: string;
  start: number;
  end: number;
  props: Map<string, Value>;
}

class Model {
  nodes = new Map<number, ModelNode>();
  rels = new Map<number, ModelRel>();
  /** Nodes deleted in the open transaction (checked at commit). */
  deletedInTx = new Set<number>();
  nextNodeId = 0;
  nextRelId = 0;
  created = { nodes: 0, rels: 0 };
  deleted = { nodes: 0, rels: 0 };

  clone(): Model {
    const copy = new Model();
    for (const [id, n] of this.nodes) copy.nodes.set(id, { labels: [...n.labels], props: new Map(n.props) });
    for (const [id, r] of this.rels) copy.rels.set(id, { ...r, props: new Map(r.props) });
    copy.nextNodeId = this.nextNodeId;
    copy.nextRelId = this.nextRelId;
    return copy;
  }

  nodeIds(): number[] {
    return [...this.nodes.keys()].sort((a, b) => a - b);
  }

  relIds(): number[] {
    return [...this.rels.keys()].sort((a, b) => a - b);
  }

  content(): Content {
    return {
      nodes: this.nodeIds().map((id) => contentNode(id, this.nodes.get(id)!.labels, this.nodes.get(id)!.props)),
      rels: this.relIds().map((id) => {
        const r = this.rels.get(id)!;
        return contentRel(id, r.type, r.start, r.end, r.props);
      }),
    };
  }

  commitFails(): boolean {
    for (const rel of this.rels.values()) {
      if (this.deletedInTx.has(rel.start) || this.deletedInTx.has(rel.end)) return true;
    }
    return false;
  }
}

function nonNull(entries: Props): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [k, v] of new Map(entries)) if (v !== null) out.set(k, v);
  return out;
}

function apply(entries: Props, into: Map<string, Value>): void {
  for (const [k, v] of entries) {
    if (v === null) into.delete(k);
    else into.set(k, v);
  }
}

function nth<T>(items: T[], pick: number): T | undefined {
  return items.length === 0 ? undefined : items[pick % items.length];
}

// ------------------------------------------------------------------ running

/** Records as text, maps spelled out, so that a later change to any of them shows. */
function recordsText(records: ChangeRecord[]): string {
  return JSON.stringify(records, (_key, v: unknown) => (v instanceof Map ? [...(v as Map<string, unknown>)] : v));
}

/** Applies one operation to both the graph and the model. */
function step(g: Graph, m: Model, o: Op): void {
  const node = (p: number): [number, Node] | undefined => {
    const id = nth(m.nodeIds(), p);
    return id === undefined ? undefined : [id, g.node(id)!];
  };
  const rel = (p: number): [number, Rel] | undefined => {
    const id = nth(m.relIds(), p);
    return id === undefined ? undefined : [id, g.rel(id)!];
  };
  const entity = (t: Target, p: number): [Node | Rel, ModelNode | ModelRel] | undefined => {
    const hit = t === 'node' ? node(p) : rel(p);
    if (hit === undefined) return undefined;
    return [hit[1], t === 'node' ? m.nodes.get(hit[0])! : m.rels.get(hit[0])!];
  };

  switch (o.k) {
    case 'createNode': {
      const labels = [...o.labels];
      const input = new Map(o.props);
      const n = g.createNode(labels, o.handOver ? handOverProps(input) : input);
      if (!o.handOver) {
        // The caller still owns its map and label list: changing them must not reach the graph.
        input.set('x', 'caller');
        labels.push('Caller');
      }
      expect(n.id).toBe(m.nextNodeId);
      m.nodes.set(m.nextNodeId++, { labels: [...new Set(o.labels)], props: nonNull(o.props) });
      m.created.nodes++;
      return;
    }
    case 'createRel': {
      const a = node(o.a);
      const b = node(o.b);
      if (a === undefined || b === undefined) return;
      const input = new Map(o.props);
      const r = g.createRel(o.type, a[1], b[1], o.handOver ? handOverProps(input) : input);
      if (!o.handOver) input.set('x', 'caller');
      expect(r.id).toBe(m.nextRelId);
      m.rels.set(m.nextRelId++, { type: o.type, start: a[0], end: b[0], props: nonNull(o.props) });
      m.created.rels++;
      return;
    }
    case 'deleteRel': {
      const r = rel(o.pick);
      if (r === undefined) return;
      g.deleteRel(r[1]);
      g.deleteRel(r[1]); // idempotent
      m.rels.delete(r[0]);
      m.deleted.rels++;
      return;
    }
    case 'deleteNode': {
      const n = node(o.pick);
      if (n === undefined) return;
      g.deleteNode(n[1]);
      m.nodes.delete(n[0]);
      m.deletedInTx.add(n[0]);
      m.deleted.nodes++;
      return;
    }
    case 'detachDelete': {
      const n = node(o.pick);
      if (n === undefined) return;
      g.detachDeleteNode(n[1]);
      for (const [id, r] of [...m.rels]) {
        if (r.start === n[0] || r.end === n[0]) {
          m.rels.delete(id);
          m.deleted.rels++;
        }
      }
      m.nodes.delete(n[0]);
      m.deleted.nodes++;
      return;
    }
    case 'setProp': {
      const e = entity(o.target, o.pick);
      if (e === undefined) return;
      g.setProperty(e[0], o.key, o.value);
      apply([[o.key, o.value]], e[1].props);
      return;
    }
    case 'replace': {
      const e = entity(o.target, o.pick);
      if (e === undefined) return;
      g.replaceProperties(e[0], new Map(o.props));
      e[1].props = nonNull(o.props);
      return;
    }
    case 'merge': {
      const e = entity(o.target, o.pick);
      if (e === undefined) return;
      g.mergeProperties(e[0], new Map(o.props));
      apply(o.props, e[1].props);
      return;
    }
    case 'addLabel': {
      const n = node(o.pick);
      if (n === undefined) return;
      const model = m.nodes.get(n[0])!;
      expect(g.addLabel(n[1], o.label)).toBe(!model.labels.includes(o.label));
      if (!model.labels.includes(o.label)) model.labels.push(o.label);
      return;
    }
    case 'removeLabel': {
      const n = node(o.pick);
      if (n === undefined) return;
      const model = m.nodes.get(n[0])!;
      expect(g.removeLabel(n[1], o.label)).toBe(model.labels.includes(o.label));
      model.labels = model.labels.filter((l) => l !== o.label);
      return;
    }
    case 'writeDeleted': {
      const id = nth([...m.deletedInTx].sort((a, b) => a - b), o.pick);
      if (id === undefined) return;
      const dead = g.nodes.get(id)!;
      expect(dead.deleted).toBe(true);
      expect(() => g.setProperty(dead, 'x', 1)).toThrow(EntityNotFoundError);
      expect(() => g.addLabel(dead, 'A')).toThrow(EntityNotFoundError);
      return;
    }
  }
}

describe('Graph vs model (fast-check)', () => {
  it('keeps invariants, matches the model, rolls back exactly, replays deterministically', () => {
    fc.assert(
      fc.property(fc.array(transaction, { minLength: 1, maxLength: 8 }), (txs) => {
        const g = new Graph();
        let m = new Model();
        const log: ChangeRecord[] = [];
        /** The log as it read when each transaction committed. */
        const logAtCommit: string[] = [];
        /** Follows `g` by replaying its records operation by operation. */
        const follower = new Graph();
        for (const tx of txs) {
          const dumpBefore = exactDump(g);
          const modelBefore = m.clone();
          g.begin();
          m.deletedInTx.clear();
          m.created = { nodes: 0, rels: 0 };
          m.deleted = { nodes: 0, rels: 0 };
          const seqAtBegin = g.mutationSeq;
          /** Per operation: the records it emitted (as a range of sequence numbers) and the content after it. */
          const afterOps: { seq: number; content: Content }[] = [];
          for (const o of tx.ops) {
            step(g, m, o);
            checkInvariants(g);
            const content = contentDump(g);
            expect(content).toEqual(m.content());
            afterOps.push({ seq: g.mutationSeq, content });
          }
          const stats = g.txStats();
          expect(stats.nodesCreated).toBe(m.created.nodes);
          expect(stats.relationshipsCreated).toBe(m.created.rels);
          expect(stats.nodesDeleted).toBe(m.deleted.nodes);
          expect(stats.relationshipsDeleted).toBe(m.deleted.rels);

          let rollback = tx.rollback;
          if (!rollback) {
            const shouldFail = m.commitFails();
            let failed = false;
            try {
              const records = g.commit();
              expect(records.length).toBe(g.mutationSeq - seqAtBegin);
              // Each operation's records, replayed, reproduce the content right after it.
              follower.begin();
              let from = 0;
              for (const { seq, content } of afterOps) {
                const to = seq - seqAtBegin;
                for (const record of records.slice(from, to)) follower.applyChange(record);
                from = to;
                expect(contentDump(follower)).toEqual(content);
              }
              follower.commit();
              log.push(...records);
              logAtCommit.push(recordsText(log));
            } catch (err) {
              expect(err).toBeInstanceOf(ConstraintError);
              expect((err as ConstraintError).detail).toBe('DeleteConnectedNode');
              failed = true;
            }
            expect(failed).toBe(shouldFail);
            rollback = failed;
            if (!failed) {
              // After a commit the tables hold live entities only.
              for (const n of g.nodes) if (n !== undefined) expect(n.deleted).toBe(false);
              for (const r of g.rels) if (r !== undefined) expect(r.deleted).toBe(false);
            }
          }
          if (rollback) {
            g.rollback();
            const { nextNodeId, nextRelId } = m;
            m = modelBefore;
            m.nextNodeId = nextNodeId; // ids stay consumed
            m.nextRelId = nextRelId;
            expect(exactDump(g)).toBe(dumpBefore);
          }
          expect(g.inTransaction).toBe(false);
          checkInvariants(g);
          expect(contentDump(g)).toEqual(m.content());
        }

        // Later transactions (and rollbacks) left every handed-out record as it was.
        if (logAtCommit.length > 0) expect(recordsText(log)).toBe(logAtCommit[logAtCommit.length - 1]);
        for (const text of logAtCommit) expect(recordsText(log).startsWith(text.slice(0, -1))).toBe(true);
        expect(EMPTY_PROPS.size).toBe(0);
        checkInvariants(follower);
        expect(contentDump(follower)).toEqual(contentDump(g));

        const replica = new Graph();
        replica.begin();
        for (const change of log) replica.applyChange(change);
        replica.commit();
        checkInvariants(replica);
        expect(contentDump(replica)).toEqual(contentDump(g));
        expect(replica.fingerprint()).toBe(g.fingerprint());
        expect(replica.mutationSeq).toBe(g.mutationSeq);
      }),
      { numRuns: 400 },
    );
  }, 180_000);
});

/** Unit tests of the in-memory Graph: mutations, transactions, indexes, statistics, replay. */

import { describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { ConstraintError, EntityNotFoundError, InternalError, StorageError } from '../../src/errors.js';
import { Graph } from '../../src/store/graph.js';
import { checkInvariants, contentDump, exactDump, listNbrs, listRels } from './helpers.js';

const props = (entries: Record<string, Value>): Map<string, Value> => new Map(Object.entries(entries));
const none = (): Map<string, Value> => new Map();

describe('Graph basics', () => {
  it('requires a transaction for mutations', () => {
    const g = new Graph();
    expect(() => g.createNode([], none())).toThrow(InternalError);
    g.begin();
    expect(() => g.begin()).toThrow(InternalError);
    g.createNode([], none());
    g.commit();
    expect(() => g.commit()).toThrow(InternalError);
    expect(() => g.rollback()).toThrow(InternalError);
  });

  it('creates nodes with deduplicated labels and without null properties', () => {
    const g = new Graph();
    g.begin();
    const n = g.createNode(['A', 'B', 'A'], props({ x: 1, y: null, z: 's' }));
    const changes = g.commit();
    expect(n.id).toBe(0);
    expect(n.labels).toEqual(['A', 'B']);
    expect([...n.propertyMap()]).toEqual([['x', 1], ['z', 's']]);
    expect(changes).toEqual([{ op: 'createNode', id: 0, labels: ['A', 'B'], props: props({ x: 1, z: 's' }) }]);
    expect(g.nodeCount).toBe(1);
    expect(g.labelCount('A')).toBe(1);
    expect(g.labelSet('B')?.has(0)).toBe(true);
    expect(g.labelSet('C')).toBeUndefined();
    expect(g.labels()).toEqual(['A', 'B']);
    expect(g.propertyKeys()).toEqual(['x', 'z']);
    checkInvariants(g);
  });

  it('does not alias the caller’s maps and label arrays', () => {
    const g = new Graph();
    g.begin();
    const labels = ['A'];
    const p = props({ x: 1 });
    const n = g.createNode(labels, p);
    labels.push('B');
    p.set('y', 2);
    const [record] = g.commit();
    expect(n.labels).toEqual(['A']);
    expect(n.hasProp('y')).toBe(false);
    g.transact(() => g.setProperty(n, 'w', 3));
    expect(record).toMatchObject({ op: 'createNode', props: props({ x: 1 }) });
  });

  it('keeps adjacency by type in both directions, self-loops in both lists', () => {
    const g = new Graph();
    const { result } = g.transact(() => {
      const a = g.createNode(['P'], none());
      const b = g.createNode(['P'], none());
      const r1 = g.createRel('KNOWS', a, b, props({ since: 2000 }));
      const r2 = g.createRel('LIKES', a, a, none());
      return { a, b, r1, r2 };
    });
    const { a, b, r1, r2 } = result;
    const knows = g.typeId('KNOWS')!;
    const likes = g.typeId('LIKES')!;
    expect(g.typeName(knows)).toBe('KNOWS');
    expect(r1.typeId).toBe(knows);
    expect(listRels(g, a, knows, 'out')).toEqual([r1.id]);
    expect(listNbrs(g, a, knows, 'out')).toEqual([b.id]);
    expect(listNbrs(g, b, knows, 'in')).toEqual([a.id]);
    expect(listRels(g, a, likes, 'out')).toHaveLength(1);
    expect(listRels(g, a, likes, 'in')).toHaveLength(1);
    expect(r2.other(a)).toBe(a);
    expect(g.degree(a, undefined, 'both')).toBe(3);
    expect(g.degree(a, likes, 'in')).toBe(1);
    expect(g.typeCount('KNOWS')).toBe(1);
    expect(g.relationshipTypes()).toEqual(['KNOWS', 'LIKES']);
    expect(g.averageDegree(undefined, 'out')).toBe(1);
    expect(g.averageDegree('KNOWS', 'both')).toBe(1);
    expect(g.typeId('NOPE')).toBeUndefined();
    checkInvariants(g);
  });

  it('interns names to stable small ints', () => {
    const g = new Graph();
    expect(g.internLabel('A')).toBe(0);
    expect(g.internLabel('B')).toBe(1);
    expect(g.internLabel('A')).toBe(0);
    expect(g.labelId('B')).toBe(1);
    expect(g.labelName(1)).toBe('B');
    expect(g.internKey('k')).toBe(0);
    expect(g.keyName(0)).toBe('k');
    expect(g.internType('T')).toBe(0);
    expect(() => g.typeName(5)).toThrow(InternalError);
    g.clear();
    expect(g.labelId('B')).toBe(1);
  });
});

describe('deletion', () => {
  function triangle(): { g: Graph; ids: number[] } {
    const g = new Graph();
    const { result } = g.transact(() => {
      const a = g.createNode(['X'], none());
      const b = g.createNode([], none());
      const c = g.createNode([], none());
      g.createRel('R', a, b, none());
      g.createRel('R', a, c, none());
      g.createRel('S', c, a, none());
      return [a.id, b.id, c.id];
    });
    return { g, ids: result };
  }

  it('refuses at commit to delete a node that still has relationships', () => {
    const { g } = triangle();
    const before = exactDump(g);
    g.begin();
    g.deleteNode(g.node(0)!);
    expect(g.nodes.get(0)!.deleted).toBe(true);
    expect(g.labelCount('X')).toBe(0);
    let error: unknown;
    try {
      g.commit();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConstraintError);
    expect((error as ConstraintError).detail).toBe('DeleteConnectedNode');
    expect((error as ConstraintError).kind).toBe('ConstraintVerificationFailed');
    expect(g.inTransaction).toBe(true);
    g.rollback();
    expect(exactDump(g)).toBe(before);
    checkInvariants(g);
  });

  it('allows DELETE a, r in either order within one transaction', () => {
    const g = new Graph();
    const { result: r } = g.transact(() => g.createRel('R', g.createNode([], none()), g.createNode([], none()), none()));
    g.begin();
    g.deleteNode(r.start);
    g.deleteRel(r);
    g.deleteNode(r.end);
    g.deleteNode(r.end); // idempotent
    g.deleteRel(r); // idempotent
    const stats = g.txStats();
    const changes = g.commit();
    expect(changes.map((c) => c.op)).toEqual(['deleteNode', 'deleteRel', 'deleteNode']);
    expect(stats).toMatchObject({ nodesDeleted: 2, relationshipsDeleted: 1 });
    expect(g.nodeCount).toBe(0);
    expect(g.relCount).toBe(0);
    expect([...g.nodes]).toEqual([undefined, undefined]);
    expect([...g.rels]).toEqual([undefined]);
    // Deleting already-committed deletions is still a no-op.
    g.transact(() => {
      g.deleteNode(r.start);
      g.detachDeleteNode(r.end);
      g.deleteRel(r);
    });
    checkInvariants(g);
  });

  it('detach-deletes a node with its relationships, self-loops once', () => {
    const { g } = triangle();
    const a = g.node(0)!;
    g.begin();
    g.createRel('LOOP', a, a, none());
    g.detachDeleteNode(a);
    const stats = g.txStats();
    g.commit();
    expect(stats.relationshipsDeleted).toBe(4);
    expect(stats.nodesDeleted).toBe(1);
    expect(g.relCount).toBe(0);
    expect(g.nodeCount).toBe(2);
    expect(g.relationshipTypes()).toEqual([]);
    checkInvariants(g);
  });

  it('refuses writes to deleted entities with EntityNotFound/DeletedEntityAccess', () => {
    const { g } = triangle();
    g.begin();
    const b = g.node(1)!;
    const rel = g.rel(0)!;
    g.deleteRel(rel);
    g.deleteNode(b);
    for (const write of [
      () => g.setProperty(b, 'x', 1),
      () => g.setProperty(rel, 'x', 1),
      () => g.addLabel(b, 'L'),
      () => g.removeLabel(b, 'X'),
      () => g.replaceProperties(b, none()),
      () => g.mergeProperties(rel, props({ a: 1 })),
      () => g.createRel('R', b, g.node(2)!, none()),
    ]) {
      let error: unknown;
      try {
        write();
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(EntityNotFoundError);
      expect((error as EntityNotFoundError).detail).toBe('DeletedEntityAccess');
    }
    g.commit();
    checkInvariants(g);
  });

  it('does not find deleted entities in scans during the transaction', () => {
    const { g } = triangle();
    g.begin();
    g.detachDeleteNode(g.node(2)!);
    expect([...g.allNodes()].map((n) => n.id)).toEqual([0, 1]);
    expect([...g.allRels()].map((r) => r.id)).toEqual([0]);
    expect(g.node(2)).toBeUndefined();
    expect(g.typeCount('S')).toBe(0);
    checkInvariants(g);
    g.rollback();
    checkInvariants(g);
    expect(g.relCount).toBe(3);
  });
});

describe('properties and labels', () => {
  it('sets, removes, replaces and merges properties with change records', () => {
    const g = new Graph();
    const { result: n } = g.transact(() => g.createNode([], props({ a: 1, b: 2 })));
    g.begin();
    g.setProperty(n, 'c', 3);
    g.setProperty(n, 'a', null);
    g.setProperty(n, 'zz', null); // absent: no-op
    g.mergeProperties(n, props({ b: 20, d: 4, c: null }));
    const merged = [...n.propertyMap()];
    g.replaceProperties(n, props({ e: 5, b: 20, f: null }));
    const stats = g.txStats();
    const changes = g.commit();
    expect(merged).toEqual([['b', 20], ['d', 4]]);
    // An entity's keys come in key-id order (first seen by the graph), not insertion order.
    expect([...n.propertyMap()]).toEqual([['b', 20], ['e', 5]]);
    expect(changes).toEqual([
      { op: 'setProperty', entity: 'node', id: 0, key: 'c', value: 3 },
      { op: 'setProperty', entity: 'node', id: 0, key: 'a', value: null },
      { op: 'setProperty', entity: 'node', id: 0, key: 'b', value: 20 },
      { op: 'setProperty', entity: 'node', id: 0, key: 'd', value: 4 },
      { op: 'setProperty', entity: 'node', id: 0, key: 'c', value: null },
      { op: 'setProperty', entity: 'node', id: 0, key: 'd', value: null },
      { op: 'setProperty', entity: 'node', id: 0, key: 'e', value: 5 },
      { op: 'setProperty', entity: 'node', id: 0, key: 'b', value: 20 },
    ]);
    expect(stats.propertiesSet).toBe(8);
    expect(g.propertyKeys()).toEqual(['b', 'e']);
    checkInvariants(g);
  });

  it('restores properties exactly on rollback', () => {
    const g = new Graph();
    const { result: n } = g.transact(() => g.createNode([], props({ a: 1, b: 2, c: 3 })));
    const before = exactDump(g);
    g.begin();
    g.setProperty(n, 'b', null);
    g.setProperty(n, 'a', 10);
    g.setProperty(n, 'b', 7);
    g.replaceProperties(n, props({ q: 1 }));
    g.rollback();
    expect([...n.propertyMap()]).toEqual([['a', 1], ['b', 2], ['c', 3]]);
    expect(exactDump(g)).toBe(before);
  });

  it('adds and removes labels', () => {
    const g = new Graph();
    const { result: n } = g.transact(() => g.createNode(['A'], none()));
    g.begin();
    expect(g.addLabel(n, 'A')).toBe(false);
    expect(g.addLabel(n, 'B')).toBe(true);
    expect(g.removeLabel(n, 'A')).toBe(true);
    expect(g.removeLabel(n, 'A')).toBe(false);
    const stats = g.txStats();
    const changes = g.commit();
    expect(stats).toMatchObject({ labelsAdded: 1, labelsRemoved: 1 });
    expect(changes).toEqual([
      { op: 'addLabel', id: 0, label: 'B' },
      { op: 'removeLabel', id: 0, label: 'A' },
    ]);
    expect(n.labels).toEqual(['B']);
    expect(g.labels()).toEqual(['B']);
    checkInvariants(g);
  });
});

describe('transactions, fingerprint, replay', () => {
  it('counts statistics per transaction', () => {
    const g = new Graph();
    g.begin();
    const a = g.createNode(['A', 'B'], props({ x: 1 }));
    g.createRel('R', a, a, props({ y: 2, z: 3 }));
    expect(g.txStats()).toEqual({
      nodesCreated: 1,
      nodesDeleted: 0,
      relationshipsCreated: 1,
      relationshipsDeleted: 0,
      labelsAdded: 2,
      labelsRemoved: 0,
      propertiesSet: 3,
    });
    g.commit();
    g.begin();
    expect(g.txStats().nodesCreated).toBe(0);
    g.rollback();
  });

  it('never reuses ids, even after rollback or clear', () => {
    const g = new Graph();
    g.begin();
    g.createNode([], none());
    g.rollback();
    expect([...g.nodes]).toEqual([undefined]);
    g.begin();
    expect(g.createNode([], none()).id).toBe(1);
    g.commit();
    g.clear();
    expect(g.nodeCount).toBe(0);
    const { result } = g.transact(() => g.createNode([], none()));
    expect(result.id).toBe(2);
    expect(g.nextNodeId).toBe(3);
    checkInvariants(g);
  });

  it('changes the fingerprint on every mutation and restores it on rollback', () => {
    const g = new Graph();
    const seen = new Set<string>([g.fingerprint()]);
    g.begin();
    const n = g.createNode([], none());
    seen.add(g.fingerprint());
    g.setProperty(n, 'a', 1);
    seen.add(g.fingerprint());
    g.commit();
    const committed = g.fingerprint();
    g.begin();
    g.setProperty(n, 'a', 2);
    seen.add(g.fingerprint());
    const versionBefore = g.version;
    g.rollback();
    expect(g.fingerprint()).toBe(committed);
    expect(g.version).toBeGreaterThan(versionBefore);
    expect(seen.size).toBe(4);
    g.clear();
    expect(seen.has(g.fingerprint())).toBe(false);
    expect(g.fingerprint()).toMatch(/^\d+$/);
    expect(Number.isSafeInteger(Number(g.fingerprint()))).toBe(true);
  });

  it('replays change records into an identical graph with the same fingerprint', () => {
    const g = new Graph();
    const log = [];
    log.push(...g.transact(() => {
      const a = g.createNode(['A'], props({ k: 1 }));
      const b = g.createNode(['B'], none());
      g.createRel('R', a, b, props({ w: 'x' }));
      g.createRel('R', b, b, none());
    }).changes);
    g.begin();
    g.createNode(['Lost'], none());
    g.rollback();
    log.push(...g.transact(() => {
      const c = g.createNode([], none());
      g.detachDeleteNode(g.node(1)!);
      g.addLabel(c, 'C');
      g.mergeProperties(g.node(0)!, props({ k: null, m: [1, 2] }));
    }).changes);
    const replica = new Graph();
    replica.begin();
    for (const change of log) replica.applyChange(change);
    replica.commit();
    expect(contentDump(replica)).toEqual(contentDump(g));
    expect(replica.fingerprint()).toBe(g.fingerprint());
    expect(replica.nextNodeId).toBe(4);
    checkInvariants(replica);

    replica.begin();
    expect(() => replica.applyChange({ op: 'createNode', id: 0, labels: [], props: none() })).toThrow(StorageError);
    expect(() => replica.applyChange({ op: 'deleteRel', id: 99 })).toThrow(StorageError);
    replica.rollback();
  });

  it('rolls back a transaction failing half-way through transact()', () => {
    const g = new Graph();
    g.transact(() => g.createNode(['A'], none()));
    const before = exactDump(g);
    expect(() =>
      g.transact(() => {
        g.createNode(['A'], none());
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(g.inTransaction).toBe(false);
    expect(exactDump(g)).toBe(before);
  });
});

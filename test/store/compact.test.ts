/**
 * Tests of the store's memory-saving representations: `AdjList` columns that start as
 * one-entry arrays and move to typed arrays as they grow (against a plain-array model, with
 * fast-check), shared empty adjacency and property map, label lists shared between nodes,
 * change records sharing an entity's data under copy-on-write, creation undo entries as
 * numbers, and property maps handed over by the runtime.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { InternalError } from '../../src/errors.js';
import type { ChangeRecord } from '../../src/store/changes.js';
import { AdjList, EMPTY_PROPS, NO_ADJACENCY } from '../../src/store/entities.js';
import { Graph, handOverProps } from '../../src/store/graph.js';
import { checkInvariants, exactDump, listNbrs, listRels } from './helpers.js';

const props = (entries: Record<string, Value>): Map<string, Value> => new Map(Object.entries(entries));

/** A record with its maps spelled out, frozen in time. */
const text = (record: ChangeRecord): string =>
  JSON.stringify(record, (_key, v: unknown) => (v instanceof Map ? [...(v as Map<string, unknown>)] : v));

type ListOp = { k: 'push'; rel: number; nbr: number } | { k: 'removeAt'; at: number } | { k: 'remove'; at: number };

describe('AdjList', () => {
  it('matches a plain-array model through growth past the small-list size and back', () => {
    const listOp: fc.Arbitrary<ListOp> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ k: fc.constant('push' as const), rel: fc.nat(1 << 20), nbr: fc.nat(1000) }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('removeAt' as const), at: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant('remove' as const), at: fc.nat() }) },
    );
    fc.assert(
      fc.property(fc.array(listOp, { maxLength: 200 }), (ops) => {
        const list = new AdjList(7, 8);
        const rels = [7];
        const nbrs = [8];
        for (const o of ops) {
          if (o.k === 'push') {
            if (rels.includes(o.rel)) continue; // relationship ids are unique within a list
            list.push(o.rel, o.nbr);
            rels.push(o.rel);
            nbrs.push(o.nbr);
          } else if (rels.length > 0) {
            const at = o.at % rels.length;
            const [rel] = rels.splice(at, 1);
            const [nbr] = nbrs.splice(at, 1);
            if (o.k === 'remove') {
              expect(list.remove(rel)).toBe(true);
              expect(list.remove(rel)).toBe(false);
            } else {
              expect(list.indexOf(rel)).toBe(at);
              list.removeAt(at);
            }
            // insertAt is the exact inverse of removeAt; redo the removal afterwards.
            list.insertAt(at, rel, nbr);
            expect(listRels(list)).toEqual([...rels.slice(0, at), rel, ...rels.slice(at)]);
            list.removeAt(at);
          }
          expect(list.length).toBe(rels.length);
          expect(listRels(list)).toEqual(rels);
          expect(listNbrs(list)).toEqual(nbrs);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('starts with one-entry arrays and ends in typed arrays', () => {
    const list = new AdjList(0, 100);
    expect(Array.isArray(list.rels) && list.rels.length === 1).toBe(true);
    for (let i = 1; i < 200; i++) list.push(i, 100 + i);
    expect(list.rels).toBeInstanceOf(Int32Array);
    expect(list.nbrs).toBeInstanceOf(Int32Array);
    expect(listRels(list)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(listNbrs(list)).toEqual(Array.from({ length: 200 }, (_, i) => 100 + i));
  });
});

describe('Shared structures', () => {
  it('gives nodes without relationships the shared empty adjacency, and a node its own on the first one', () => {
    const g = new Graph();
    g.begin();
    const a = g.createNode([], new Map());
    const b = g.createNode([], new Map());
    expect(a.out).toBe(NO_ADJACENCY);
    expect(a.in).toBe(NO_ADJACENCY);
    // A type interned late lands at a higher type id: the adjacency array grows to it.
    for (const t of ['T0', 'T1', 'T2', 'T3']) g.internType(t);
    g.createRel('T3', a, b, new Map());
    g.createRel('T1', a, b, new Map());
    g.createRel('T0', b, a, new Map());
    g.commit();
    expect(a.out).not.toBe(NO_ADJACENCY);
    expect(a.out.length).toBe(4);
    expect(a.out[g.typeId('T3')!]!.length).toBe(1);
    expect(a.out[g.typeId('T1')!]!.length).toBe(1);
    expect(a.in[g.typeId('T0')!]!.length).toBe(1);
    expect(g.degree(a, undefined, 'both')).toBe(3);
    expect(NO_ADJACENCY.length).toBe(0);
    checkInvariants(g);
  });

  it('records property-less creations with the shared empty map, which refuses writes', () => {
    const g = new Graph();
    g.begin();
    const a = g.createNode([], new Map());
    const b = g.createNode([], props({ x: null }));
    const r = g.createRel('R', a, b, new Map());
    expect(a.propertyMap().size).toBe(0);
    expect(b.hasProp('x')).toBe(false);
    expect(() => EMPTY_PROPS.set('x', 1)).toThrow(InternalError);
    expect(() => EMPTY_PROPS.delete('x')).toThrow(InternalError);
    expect(() => EMPTY_PROPS.clear()).toThrow(InternalError);
    g.setProperty(r, 'w', 1);
    g.setProperty(a, 'x', null); // removing an absent key changes nothing
    const records = g.commit();
    expect(records.slice(0, 3).map((c) => (c as { props: Map<string, Value> }).props)).toEqual([EMPTY_PROPS, EMPTY_PROPS, EMPTY_PROPS]);
    expect((records[0] as { props: Map<string, Value> }).props).toBe(EMPTY_PROPS);
    expect([...r.propertyMap()]).toEqual([['w', 1]]);
    expect(a.propertyMap().size).toBe(0);
    expect(g.nodeProps.column('x')).toBeUndefined();
    expect(EMPTY_PROPS.size).toBe(0);
  });

  it('shares one label list between nodes created with the same labels; changing one copies it', () => {
    const g = new Graph();
    g.begin();
    const a = g.createNode(['P', 'Q'], new Map());
    g.createNode(['X'], new Map());
    const b = g.createNode(['P', 'Q', 'P'], new Map());
    expect(b.labels).toBe(a.labels);
    g.addLabel(b, 'R');
    g.removeLabel(a, 'P');
    const records = g.commit();
    expect(a.labels).toEqual(['Q']);
    expect(b.labels).toEqual(['P', 'Q', 'R']);
    expect(records[0]).toMatchObject({ op: 'createNode', labels: ['P', 'Q'] });
    expect(records[2]).toMatchObject({ op: 'createNode', labels: ['P', 'Q'] });
    checkInvariants(g);
  });
});

describe('Change records under copy-on-write', () => {
  it('keep describing the state at the time of the change, within and after the transaction', () => {
    const g = new Graph();
    g.begin();
    const n = g.createNode(['A'], props({ x: 1, y: 2 }));
    const m = g.createNode([], new Map());
    const r = g.createRel('R', n, m, props({ w: 1 }));
    g.setProperty(n, 'x', 10);
    g.setProperty(n, 'y', null);
    g.addLabel(n, 'B');
    g.removeLabel(n, 'A');
    g.mergeProperties(r, props({ w: 2, v: 3 }));
    const records = g.commit();
    const before = records.map(text);
    expect(records[0]).toEqual({ op: 'createNode', id: n.id, labels: ['A'], props: props({ x: 1, y: 2 }) });
    expect(records[2]).toEqual({ op: 'createRel', id: r.id, type: 'R', start: n.id, end: m.id, props: props({ w: 1 }) });

    // Later transactions, committed or rolled back, leave them alone too.
    g.transact(() => {
      g.replaceProperties(n, props({ z: 1 }));
      g.setProperty(m, 'q', 1);
      g.addLabel(n, 'C');
      g.setProperty(r, 'w', 99);
    });
    g.begin();
    g.setProperty(n, 'z', 2);
    g.replaceProperties(r, new Map());
    g.rollback();
    expect(records.map(text)).toEqual(before);

    // Replaying them still rebuilds the graph.
    const replica = new Graph();
    replica.transact(() => {
      for (const record of records) replica.applyChange(record);
    });
    expect([...replica.node(n.id)!.propertyMap()]).toEqual([['x', 10]]);
    expect(replica.node(n.id)!.labels).toEqual(['B']);
    expect([...replica.rel(r.id)!.propertyMap()]).toEqual([['w', 2], ['v', 3]]);
  });

  it('rolls back copy-on-write copies exactly, restoring the shared objects', () => {
    const g = new Graph();
    const { result: n, changes } = g.transact(() => g.createNode(['A'], props({ x: 1 })));
    const sharedLabels = n.labels;
    expect(changes[0]).toMatchObject({ props: props({ x: 1 }), labels: sharedLabels });
    const dump = exactDump(g);
    g.begin();
    g.setProperty(n, 'x', 2);
    g.addLabel(n, 'B');
    g.replaceProperties(n, props({ y: 1 }));
    g.rollback();
    expect(exactDump(g)).toBe(dump);
    expect([...n.propertyMap()]).toEqual([['x', 1]]);
    expect(n.labels).toBe(sharedLabels);
    // And a write after the rollback copies again rather than changing the record's map.
    g.transact(() => g.setProperty(n, 'x', 3));
    expect([...(changes[0] as { props: Map<string, Value> }).props]).toEqual([['x', 1]]);
  });

  it('undoes bulk creations (numbers in the undo log) exactly', () => {
    const g = new Graph();
    const { result: anchor } = g.transact(() => g.createNode(['A'], new Map()));
    const dump = exactDump(g);
    g.begin();
    const nodes = Array.from({ length: 50 }, (_, i) => g.createNode(['A', 'B'], props({ i })));
    for (let i = 0; i < 200; i++) g.createRel('R', nodes[i % 50], i % 7 === 0 ? anchor : nodes[(i * 13) % 50], props({ i }));
    checkInvariants(g);
    g.rollback();
    expect(exactDump(g)).toBe(dump);
    checkInvariants(g);
  });
});

describe('handOverProps', () => {
  it('lets a creation keep the very map it was handed, and copies every other map', () => {
    const g = new Graph();
    g.begin();
    const handed = handOverProps(props({ x: 1 }));
    const n = g.createNode([], handed);
    const kept = props({ x: 1 });
    const m = g.createNode([], kept);
    const rel = g.createRel('R', n, m, handOverProps(props({ w: 1 })));
    // A hand-over is used once: passing the same map again copies it.
    const again = g.createNode([], handed);
    const records = g.commit();
    expect((records[0] as { props: Map<string, Value> }).props).toBe(handed);
    expect((records[1] as { props: Map<string, Value> }).props).not.toBe(kept);
    expect((records[3] as { props: Map<string, Value> }).props).not.toBe(handed);
    expect([...n.propertyMap()]).toEqual([['x', 1]]);
    expect([...m.propertyMap()]).toEqual([['x', 1]]);
    expect([...again.propertyMap()]).toEqual([['x', 1]]);
    expect([...rel.propertyMap()]).toEqual([['w', 1]]);
    // The store never changes a handed-over map after the creation: writes copy it.
    g.transact(() => g.setProperty(n, 'x', 2));
    expect([...handed]).toEqual([['x', 1]]);
  });

  it('drops nulls from a handed-over map without changing it', () => {
    const g = new Graph();
    g.begin();
    const handed = handOverProps(props({ x: 1, y: null }));
    const n = g.createNode([], handed);
    g.commit();
    expect([...n.propertyMap()]).toEqual([['x', 1]]);
    expect([...handed]).toEqual([['x', 1], ['y', null]]);
  });
});

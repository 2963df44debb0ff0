/**
 * Tests of the store's memory-saving representations: the shared empty property map, label lists shared between nodes,
 * change records sharing an entity's data under copy-on-write, creation undo entries as
 * numbers, and property maps handed over by the runtime.
 */

import { describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import { InternalError } from '../../src/errors.js';
import type { ChangeRecord } from '../../src/store/changes.js';
import { EMPTY_PROPS } from '../../src/store/entities.js';
import { Graph, handOverProps } from '../../src/store/graph.js';
import { checkInvariants, exactDump } from './helpers.js';

const props = (entries: Record<string, Value>): Map<string, Value> => new Map(Object.entries(entries));

/** A record with its maps spelled out, frozen in time. */
const text = (record: ChangeRecord): string =>
  JSON.stringify(record, (_key, v: unknown) => (v instanceof Map ? [...(v as Map<string, unknown>)] : v));

describe('Shared structures', () => {
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

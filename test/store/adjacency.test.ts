/**
 * Tests of the adjacency blocks (src/store/adjacency.ts): CSR base plus delta, tombstoned
 * deletes, merges that keep expansion order, rollbacks across delta and base entries, and
 * buffers on shared memory.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Value } from '../../runtime/values.js';
import type { Node, Rel } from '../../src/store/entities.js';
import { AdjacencyBlock } from '../../src/store/adjacency.js';
import { Graph } from '../../src/store/graph.js';
import { adjacencyOf, checkInvariants, exactDump } from './helpers.js';

const none = (): Map<string, Value> => new Map<string, Value>();

describe('Adjacency blocks', () => {
  it('keeps each node in creation order across merges, deletes and rollbacks (against a model)', () => {
    type Op = { k: 'create'; a: number; b: number; t: number } | { k: 'delete'; at: number } | { k: 'merge' } | { k: 'rollback' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ k: fc.constant('create' as const), a: fc.nat(7), b: fc.nat(7), t: fc.nat(2) }) },
      { weight: 2, arbitrary: fc.record({ k: fc.constant('delete' as const), at: fc.nat() }) },
      { weight: 1, arbitrary: fc.constant({ k: 'merge' as const }) },
      { weight: 1, arbitrary: fc.constant({ k: 'rollback' as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const g = new Graph();
        g.begin();
        const nodes: Node[] = Array.from({ length: 8 }, () => g.createNode([], none()));
        g.commit();
        /** Live relationships in creation order: expansion order per node follows it. */
        let live: Rel[] = [];
        let committed: Rel[] = [];
        g.begin();
        for (const o of ops) {
          if (o.k === 'create') live.push(g.createRel(`T${o.t}`, nodes[o.a], nodes[o.b], none()));
          else if (o.k === 'delete' && live.length > 0) {
            const [rel] = live.splice(o.at % live.length, 1);
            g.deleteRel(rel);
          } else if (o.k === 'merge') {
            g.commit();
            g.mergeAdjacency(true);
            committed = [...live];
            g.begin();
          } else if (o.k === 'rollback') {
            g.rollback();
            live = [...committed];
            g.begin();
          }
        }
        g.commit();
        checkInvariants(g);
        for (const node of nodes) {
          for (const [typeId, list] of adjacencyOf(g, node, 'out')) {
            expect(list.rels).toEqual(live.filter((r) => r.start === node && r.typeId === typeId).map((r) => r.id));
          }
          for (const [typeId, list] of adjacencyOf(g, node, 'in')) {
            expect(list.rels).toEqual(live.filter((r) => r.end === node && r.typeId === typeId).map((r) => r.id));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('restores the exact state on rollback of deletes of merged relationships', () => {
    const g = new Graph();
    g.begin();
    const a = g.createNode([], none());
    const b = g.createNode([], none());
    const rels = Array.from({ length: 5 }, () => g.createRel('R', a, b, none()));
    g.commit();
    g.mergeAdjacency(true);
    const block = g.adjOut[g.typeId('R')!]!;
    expect(block.deltaEntries).toBe(0);
    expect(block.rels.buffer).toBeInstanceOf(SharedArrayBuffer);
    const before = exactDump(g);
    g.begin();
    g.deleteRel(rels[1]);
    g.deleteRel(rels[3]);
    g.createRel('R', a, b, none());
    expect(g.degree(a, undefined, 'out')).toBe(4);
    g.rollback();
    expect(exactDump(g)).toBe(before);
    expect(block.deadEntries).toBe(0);
    checkInvariants(g);
  });

  it('reclaims tombstones in a merge once they pass the threshold', () => {
    const g = new Graph();
    g.begin();
    const hub = g.createNode([], none());
    const others = Array.from({ length: 100 }, () => g.createNode([], none()));
    const rels = others.map((o) => g.createRel('R', hub, o, none()));
    g.commit();
    g.mergeAdjacency(true);
    const block = g.adjOut[g.typeId('R')!]!;
    expect(block.rels.length).toBe(100);
    g.begin();
    for (const rel of rels.slice(0, 60)) g.deleteRel(rel);
    g.commit();
    // Below the minimum pending count: the tombstones stay until a forced merge.
    expect(block.deadEntries).toBe(60);
    expect(g.degree(hub, undefined, 'out')).toBe(40);
    g.mergeAdjacency(true);
    expect(block.rels.length).toBe(40);
    expect(block.deadEntries).toBe(0);
    expect(adjacencyOf(g, hub, 'out').get(g.typeId('R')!)?.rels).toEqual(rels.slice(60).map((r) => r.id));
    checkInvariants(g);
  });

  it('merges by itself after a commit once the delta is large', () => {
    const g = new Graph();
    g.begin();
    const nodes = Array.from({ length: 100 }, () => g.createNode([], none()));
    for (let i = 0; i < 5000; i++) g.createRel('R', nodes[i % 100], nodes[(i * 7) % 100], none());
    expect(g.adjOut[g.typeId('R')!]!.deltaEntries).toBe(5000);
    g.commit();
    const block = g.adjOut[g.typeId('R')!]!;
    expect(block.deltaEntries).toBe(0);
    expect(block.rels.length).toBe(5000);
    checkInvariants(g);
  });

  it('merges after a commit of deletes alone, and a later commit without relationship writes leaves the blocks as they are', () => {
    const g = new Graph();
    g.begin();
    const nodes = Array.from({ length: 100 }, () => g.createNode([], none()));
    const rels = Array.from({ length: 10000 }, (_, i) => g.createRel('R', nodes[i % 100], nodes[(i * 7) % 100], none()));
    g.commit();
    const block = g.adjOut[g.typeId('R')!]!;
    expect(block.rels.length).toBe(10000);
    // Tombstones below the threshold stay; a node-only commit does not merge them either.
    g.begin();
    for (const rel of rels.slice(0, 100)) g.deleteRel(rel);
    g.commit();
    g.begin();
    g.createNode(['L'], none());
    g.commit();
    expect(block.deadEntries).toBe(100);
    // Past the threshold (4096 entries, and a quarter of the base) by deletes alone: merged at commit.
    g.begin();
    for (const rel of rels.slice(100, 4500)) g.deleteRel(rel);
    g.commit();
    expect(block.deadEntries).toBe(0);
    expect(block.rels.length).toBe(5500);
    checkInvariants(g);
  });

  it('fills a large base by partitions into the one-pass counting sort’s rows, each row in input order', () => {
    // Over 2^20 entries across over 2^16 rows takes the partitioned placing; skewed rows make
    // some partitions far larger than others, and a few rows are left empty.
    let seed = 11;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x80000000;
    };
    const count = (1 << 20) + 4321;
    const rows = 300_000;
    const from = new Int32Array(count);
    const to = new Int32Array(count);
    const ids = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      from[i] = 7 + Math.floor(rows * random() ** 2);
      to[i] = Math.floor(random() * 1e6);
      ids[i] = 3 * i + 1;
    }
    from[count - 1] = 7 + rows + 40; // a last row far off: empty rows before it
    // The reference: the entries' indexes by row, each row in input order (a stable counting sort).
    const rowCount = rows + 41;
    const starts = new Int32Array(rowCount + 1);
    for (let i = 0; i < count; i++) starts[from[i] - 7 + 1]++;
    for (let r = 0; r < rowCount; r++) starts[r + 1] += starts[r];
    const order = new Int32Array(count);
    const next = starts.slice(0, rowCount);
    for (let i = 0; i < count; i++) order[next[from[i] - 7]++] = i;
    for (const relIds of [ids, 1000] as const) {
      const block = new AdjacencyBlock();
      block.fill(count, relIds, from, to);
      expect([block.rowStart, block.rowEnd]).toEqual([7, 7 + rowCount]);
      expect(block.offsets.length).toBe(starts.length);
      expect(block.offsets.findIndex((at, r) => at !== starts[r])).toBe(-1);
      let wrong = -1;
      for (let k = 0; k < count && wrong < 0; k++) {
        const i = order[k];
        if (block.rels[k] !== (typeof relIds === 'number' ? relIds + i : relIds[i]) || block.nbrs[k] !== to[i]) wrong = k;
      }
      expect(wrong).toBe(-1);
    }
  });
});

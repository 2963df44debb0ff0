/** Tests of IdSet: membership, swap-removal, exact undo of removals (with a fast-check model). */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../src/store/idset.js';

describe('IdSet', () => {
  it('adds, removes and grows', () => {
    const set = new IdSet(2);
    for (const id of [5, 1, 100, 7]) expect(set.add(id)).toBe(true);
    expect(set.add(1)).toBe(false);
    expect(set.length).toBe(4);
    expect(set.has(100)).toBe(true);
    expect(set.has(99)).toBe(false);
    expect(set.has(100000)).toBe(false);
    expect(set.remove(5)).toBe(0);
    expect(set.toArray()).toEqual([7, 1, 100]);
    expect(set.remove(5)).toBe(-1);
    set.insertAt(5, 0);
    expect(set.toArray()).toEqual([5, 1, 100, 7]);
    set.clear();
    expect(set.length).toBe(0);
    expect(set.has(1)).toBe(false);
  });

  it('undoes any sequence of adds and removes exactly, in reverse', () => {
    const op = fc.record({ add: fc.boolean(), id: fc.integer({ min: 0, max: 40 }) });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 })), fc.array(op, { maxLength: 60 }), (initial, ops) => {
        const set = new IdSet(1);
        const model = new Set<number>();
        for (const id of initial) {
          set.add(id);
          model.add(id);
        }
        const before = set.toArray();
        const undo: (() => void)[] = [];
        for (const { add, id } of ops) {
          if (add) {
            if (set.add(id)) undo.push(() => set.remove(id));
            model.add(id);
          } else {
            const at = set.remove(id);
            if (at >= 0) undo.push(() => set.insertAt(id, at));
            model.delete(id);
          }
          expect(set.length).toBe(model.size);
          expect(new Set(set.toArray())).toEqual(model);
          for (let id = 0; id <= 40; id++) expect(set.has(id)).toBe(model.has(id));
        }
        for (let i = undo.length - 1; i >= 0; i--) undo[i]();
        expect(set.toArray()).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('a run set reads, scans and changes like the same set built by adds, with no member array until one is read', () => {
    for (const [first, count] of [[0, 1], [5, 27], [31, 70], [64, 64], [3, 200]]) {
      const run = IdSet.run(first, count, first + count + 10);
      const built = new IdSet(1);
      for (let i = 0; i < count; i++) built.add(first + i);
      // Before anything reads ids or changes the set: no arrays at all.
      expect(run.memoryBytes()).toBe(0);
      expect(run.runStart()).toBe(first);
      expect(run.length).toBe(count);
      for (let id = 0; id < first + count + 40; id++) expect(run.has(id)).toBe(built.has(id));
      expect(run.memberArray().subarray(0, count)).toEqual(built.ids.subarray(0, count));
      // A borrowing set over a lent run reads the same members.
      const borrowed = IdSet.borrowing(run.lend());
      expect(borrowed.runStart()).toBe(first);
      expect(borrowed.toArray()).toEqual(built.toArray());
      // Changes: a removal and its undo, then an add, as on the built set.
      const mid = first + (count >> 1);
      const at = run.remove(mid);
      expect(at).toBe(built.remove(mid));
      expect(run.toArray()).toEqual(built.toArray());
      run.insertAt(mid, at);
      built.insertAt(mid, at);
      expect(run.toArray()).toEqual(built.toArray());
      expect(run.add(first + count + 3)).toBe(true);
      built.add(first + count + 3);
      expect(run.toArray()).toEqual(built.toArray());
      expect(run.runStart()).toBe(-1);
      // The borrowing set did not see the lender's changes.
      expect(borrowed.length).toBe(count);
      expect(borrowed.has(first + count + 3)).toBe(false);
    }
  });

  it('IdSet.of turns consecutive ascending ids into a run', () => {
    const set = IdSet.of(Int32Array.from([7, 8, 9, 10]), 4, 20);
    expect(set.memoryBytes()).toBe(0); // no member array and no bitset until it changes
    expect(set.toArray()).toEqual([7, 8, 9, 10]);
    const gapped = IdSet.of(Int32Array.from([7, 9, 10]), 3, 20);
    expect(gapped.runStart()).toBe(-1);
    expect(gapped.toArray()).toEqual([7, 9, 10]);
  });
});

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
});

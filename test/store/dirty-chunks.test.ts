/**
 * `DirtyChunks` (src/store/persist/dirty-chunks.ts): a checkpoint rewrites the store chunks
 * that hold changed entities, so every change must mark its entity's chunk, on the right side
 * (node or relationship), whatever the order of the changes — the shortcut for a change in
 * the chunk marked last must not hide a chunk marked before it.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DirtyChunks } from '../../src/store/persist/dirty-chunks.js';
import { CHUNK_IDS } from '../../src/store/persist/graph-blocks.js';
import type { LoggedChange } from '../../src/store/persist/record-codec.js';

const sorted = (s: Set<number>): number[] => [...s].sort((a, b) => a - b);

describe('dirty chunks', () => {
  it('marks each change on its side, by chunk; schema changes mark nothing', () => {
    const d = new DirtyChunks();
    expect(d.empty).toBe(true);
    const changes: LoggedChange[] = [
      { op: 'createNode', id: 5, labels: ['A'], props: new Map() },
      { op: 'createNode', id: CHUNK_IDS - 1, labels: [], props: new Map() },
      { op: 'createNode', id: CHUNK_IDS, labels: [], props: new Map() },
      { op: 'createRel', id: 3 * CHUNK_IDS + 2, type: 'R', start: 5, end: CHUNK_IDS, props: new Map() },
      { op: 'setProperty', entity: 'rel', id: 7, key: 'k', value: 1 },
      { op: 'setProperty', entity: 'node', id: 9 * CHUNK_IDS, key: 'k', value: 1 },
      { op: 'deleteRel', id: 3 * CHUNK_IDS },
      { op: 'addLabel', id: 2 * CHUNK_IDS + 1, label: 'B' },
      { op: 'removeLabel', id: 5, label: 'A' },
      { op: 'deleteNode', id: 4 * CHUNK_IDS },
      { op: 'schema', def: { indexes: [], constraints: [] } },
    ];
    d.markChanges(changes);
    expect(d.empty).toBe(false);
    expect(sorted(d.nodes)).toEqual([0, 1, 2, 4, 9]);
    expect(sorted(d.rels)).toEqual([0, 3]);
    const schemaOnly = new DirtyChunks();
    schemaOnly.markChanges([{ op: 'schema', def: { indexes: [], constraints: [] } }]);
    expect(schemaOnly.empty).toBe(true);
  });

  it('holds the chunk of every id marked, in any order, and merges', () => {
    const ids = fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 6 * CHUNK_IDS })), { maxLength: 60 });
    fc.assert(
      fc.property(ids, ids, (first, second) => {
        const mark = (d: DirtyChunks, list: [boolean, number][]): void => {
          for (const [rel, id] of list) {
            if (rel) d.markRel(id);
            else d.markNode(id);
          }
        };
        const a = new DirtyChunks();
        const b = new DirtyChunks();
        mark(a, first);
        mark(b, second);
        const want = (list: [boolean, number][], rel: boolean): number[] => [...new Set(list.filter(([r]) => r === rel).map(([, id]) => Math.floor(id / CHUNK_IDS)))].sort((x, y) => x - y);
        expect(sorted(a.nodes)).toEqual(want(first, false));
        expect(sorted(a.rels)).toEqual(want(first, true));
        a.addAll(b);
        // After a merge, marking goes on correctly (the last-marked shortcut is reset).
        mark(a, second);
        expect(sorted(a.nodes)).toEqual(want([...first, ...second], false));
        expect(sorted(a.rels)).toEqual(want([...first, ...second], true));
      }),
    );
  });
});

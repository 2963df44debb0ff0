/**
 * The plan cache's LRU map (codegen/compile.ts): a hit on the most recent key moves nothing,
 * and that shortcut must not change which key is evicted. Checked against a model that
 * moves every hit to the back.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LruCache } from '../../codegen/compile.js';

type Op = { k: 'get' | 'set' | 'delete'; key: number } | { k: 'clear' };

describe('LruCache', () => {
  it('keeps and evicts the same keys as a move-on-every-hit model', () => {
    const op = fc.oneof(
      fc.record({ k: fc.constantFrom('get' as const, 'set' as const, 'delete' as const), key: fc.integer({ min: 0, max: 6 }) }),
      fc.constant({ k: 'clear' as const }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.array(op, { maxLength: 60 }), (capacity, ops: Op[]) => {
        const lru = new LruCache<number, number>(capacity);
        const model: [number, number][] = [];
        let value = 0;
        for (const o of ops) {
          if (o.k === 'clear') {
            lru.clear();
            model.length = 0;
            continue;
          }
          const at = model.findIndex(([k]) => k === o.key);
          if (o.k === 'get') {
            expect(lru.get(o.key)).toBe(at < 0 ? undefined : model[at][1]);
            if (at >= 0) model.push(...model.splice(at, 1));
          } else if (o.k === 'set') {
            value++;
            lru.set(o.key, value);
            if (at >= 0) model.splice(at, 1);
            model.push([o.key, value]);
            if (model.length > capacity) model.shift();
          } else {
            lru.delete(o.key);
            if (at >= 0) model.splice(at, 1);
          }
          expect(lru.size).toBe(model.length);
        }
        for (const [k, v] of model) expect(lru.get(k)).toBe(v);
      }),
      { numRuns: 300 },
    );
  });
});

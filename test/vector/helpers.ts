/** Shared helpers of the retrieval tests: run a query and read plain JS values back. */

import type { Database } from '../../src/engine/database.js';
import { Node, Rel } from '../../src/store/entities.js';
import { FloatBox, type Value } from '../../runtime/values.js';

export function plain(v: Value): unknown {
  if (v instanceof FloatBox) return v.value;
  if (v instanceof Node || v instanceof Rel) return { id: v.id, props: Object.fromEntries([...v.propertyMap()].map(([k, x]) => [k, plain(x)])) };
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, plain(x)]));
  return v;
}

export function rows(db: Database, query: string, params?: Record<string, unknown>): unknown[][] {
  return db.executeSync(query, params).records.map((r) => r.map(plain));
}

/** Seeded xorshift random numbers in [0, 1). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

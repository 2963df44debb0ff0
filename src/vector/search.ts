/**
 * Top-k search over a vector index, with or without a `YIELD … WHERE` filter. Unfiltered,
 * it is one HNSW search. Filtered, it must still return k rows when k qualify, so it
 * over-fetches by the planner's selectivity estimate and widens the search (4× each round,
 * with ef raised alongside) until k rows pass; when the candidates it would need approach
 * the index's size — a very selective filter — it scores every indexed vector exactly
 * instead, which is both faster there and exact.
 *
 * An over-fetching search's ef grows with the square root of the over-fetch (`overfetchEf`):
 * the rows that pass come from deeper in the HNSW answer than an unfiltered top k, where an
 * ef of max(64, candidates) leaves more of the true neighbours out (filtered recall@10 on
 * 100k clustered 384-dimension vectors at 50 % selectivity: 0.962 with it, 0.992 with the
 * square root, at 0.72× the queries per second; at 10 %: 0.988 and 0.998).
 */

import type { Value } from '../../runtime/values.js';
import type { VectorHit, VectorIndex } from './hnsw-index.js';
import type { QueryVector } from './vectors.js';

/** Beyond this fraction of the index, an exact scan replaces approximate over-fetching. */
const EXACT_FRACTION = 0.25;
const GROWTH = 4;
/** Safety margin on the selectivity estimate for the first round. */
const MARGIN = 1.5;

export type SearchStrategy = 'hnsw' | 'hnsw-overfetch' | 'exact';

/** The ef of a search fetching `fetch` candidates so that k rows can pass a filter: the index's base ef · √(fetch / k), and at least `fetch`. */
export function overfetchEf(fetch: number, k: number, baseEf: number): number {
  return Math.max(fetch, Math.ceil(baseEf * Math.sqrt(fetch / k)));
}

/** How a filtered search starts, given the index size and the estimated selectivity (also printed by EXPLAIN). */
export function initialStrategy(indexSize: number, k: number, selectivity: number): { strategy: SearchStrategy; fetch: number } {
  const fetch = Math.ceil((k / Math.max(selectivity, 1e-6)) * MARGIN);
  if (fetch >= indexSize * EXACT_FRACTION) return { strategy: 'exact', fetch: indexSize };
  return { strategy: 'hnsw-overfetch', fetch };
}

/** How a filtered search of `k` over an index of `size` will start, for EXPLAIN (either unknown when planning: not literals). */
export function describeStrategy(size: number | undefined, k: number | undefined, selectivity: number, baseEf = 64): string {
  if (size === undefined || k === undefined || !(k >= 1)) {
    return `strategy: over-fetch k / selectivity × ${MARGIN} candidates, widening ${GROWTH}× until k pass; exact scan once that reaches a quarter of the index`;
  }
  const { strategy, fetch } = initialStrategy(size, k, selectivity);
  return strategy === 'exact'
    ? `strategy: exact scan of ${size} vectors (over-fetching would need ${Math.ceil((k / Math.max(selectivity, 1e-6)) * MARGIN)} candidates, a quarter or more of the index)`
    : `strategy: over-fetch ${fetch} of ${size} candidates (ef ${overfetchEf(fetch, k, baseEf)}), widening ${GROWTH}× until ${k} pass`;
}

export interface SearchRun {
  rows: Value[][];
  strategy: SearchStrategy;
  rounds: number;
}

/**
 * Runs the search; `row` builds the output row of a hit (null when the entity is gone),
 * `accept` is the row filter, `tick` the deadline check, `baseEf` the ef of an unfiltered
 * search (the index's `vector.hnsw.ef_search` unless the query sets its own).
 */
export function topK(
  index: VectorIndex,
  query: QueryVector,
  k: number,
  row: (hit: VectorHit) => Value[] | null,
  accept: ((row: Value[]) => boolean) | undefined,
  selectivity: number,
  tick: () => void,
  baseEf = index.baseEf,
): SearchRun {
  if (accept === undefined) {
    const rows: Value[][] = [];
    for (const hit of index.search(query, k, k, undefined, baseEf)) {
      const r = row(hit);
      if (r) rows.push(r);
    }
    return { rows, strategy: 'hnsw', rounds: 1 };
  }
  const live = index.size;
  let { strategy, fetch } = initialStrategy(live, k, selectivity);
  const seen = new Set<number>();
  const accepted: { score: number; id: number; row: Value[] }[] = [];
  let rounds = 0;
  /** Judges hits in order until `quota` more rows have passed. */
  const consider = (hits: VectorHit[], quota: number): void => {
    const target = accepted.length + quota;
    for (const hit of hits) {
      if (accepted.length >= target) return;
      if (seen.has(hit.id)) continue;
      seen.add(hit.id);
      tick();
      const r = row(hit);
      if (r && accept(r)) accepted.push({ score: hit.score, id: hit.id, row: r });
    }
  };
  while (strategy === 'hnsw-overfetch') {
    rounds++;
    const hits = index.search(query, fetch, overfetchEf(fetch, k, baseEf), undefined, baseEf);
    consider(hits, k - accepted.length);
    if (accepted.length >= k || hits.length < fetch) break;
    fetch *= GROWTH;
    if (fetch >= live * EXACT_FRACTION) strategy = 'exact';
  }
  if (strategy === 'exact') {
    rounds++;
    // Rows already judged keep their verdict; the k best of the rest, in exact order, join them.
    consider(index.exactSearch(query, live), k);
  }
  accepted.sort((a, b) => b.score - a.score || a.id - b.id);
  return { rows: accepted.slice(0, k).map((a) => a.row), strategy, rounds };
}

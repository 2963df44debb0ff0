/**
 * Relationship isomorphism within one MATCH: no relationship may be bound twice. A few
 * relationships get pairwise predicates (each placed as soon as both ends are bound, so
 * repeated relationships are pruned early and the checks are single comparisons); a long
 * pattern gets one set-based predicate over all of them plus pairwise checks between
 * neighbours within a small window (which prune the short cycles early), so plan size and
 * per-row work stay linear in the pattern length (all pairs of a 10,000-hop chain would be
 * 50 million predicates).
 */

import type { Predicate } from '../planner/plan.js';

/** Up to this many relationships, pairwise predicates (at most 120 of them). */
export const PAIRWISE_MAX_RELS = 16;
/** Beyond that, each relationship is also compared pairwise with the next few in the pattern. */
const NEIGHBOUR_WINDOW = 8;

interface RelSlot {
  slot: string;
  varLength: boolean;
}

export function relationshipUniqueness(rels: RelSlot[]): { pred: Predicate; needs: string[] }[] {
  const distinct = [...new Map(rels.map((r) => [r.slot, r])).values()];
  if (distinct.length < 2) return [];
  const long = distinct.length > PAIRWISE_MAX_RELS;
  const out: { pred: Predicate; needs: string[] }[] = [];
  if (long) {
    out.push({ pred: { kind: 'relsAllDistinct', slots: distinct.map((r) => r.slot) }, needs: distinct.map((r) => r.slot) });
  }
  for (let i = 0; i < distinct.length; i++) {
    // A long pattern still compares near neighbours pairwise, so short cycles are pruned early.
    const last = long ? Math.min(distinct.length - 1, i + NEIGHBOUR_WINDOW) : distinct.length - 1;
    for (let j = i + 1; j <= last; j++) {
      const a = distinct[i];
      const b = distinct[j];
      out.push({
        pred: { kind: 'relsDistinct', a: a.slot, aList: a.varLength, b: b.slot, bList: b.varLength },
        needs: [a.slot, b.slot],
      });
    }
  }
  return out;
}

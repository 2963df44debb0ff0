/**
 * Greedy join ordering for one MATCH: which relationship to expand next from the bound
 * part of the pattern, and, when nothing is reachable, which unbound node to start a new
 * component from (label scan or seek). Both choices take the lowest estimate of the cost
 * model; ties keep pattern order.
 */

import { step } from '../../runtime/governor.js';
import type { PatternNode, PatternRel, PendingPredicate, Seek, Statistics } from './context.js';
import { expandCost, scanCost } from './cost.js';
import { bestSeek } from './rules/indexSeek.js';

/** An expansion the optimizer may take next; `fromEnd` means walking the relationship against the pattern's writing order. */
export interface ExpansionChoice {
  rel: PatternRel;
  fromEnd: boolean;
  cost: number;
}

/** Where a new component starts: a label scan (`label` or all nodes) or a seek. */
export interface StartChoice {
  node: PatternNode;
  cost: number;
  label?: string;
  seek?: Seek;
}

/** The cheapest relationship with at least one bound end; undefined when none touches the bound set. */
export function cheapestExpansion(
  stats: Statistics,
  remaining: ReadonlySet<PatternRel>,
  isBound: (n: PatternNode) => boolean,
): ExpansionChoice | undefined {
  // Bound relationship variables re-used from earlier clauses: check endpoints.
  let best: ExpansionChoice | undefined;
  for (const r of remaining) {
    step();
    const fromBound = isBound(r.from);
    const toBound = isBound(r.to);
    if (!fromBound && !toBound) continue;
    if (r.group && !fromBound) continue;
    const cost = expandCost(stats, r, fromBound ? r.to : r.from, fromBound && toBound);
    if (!best || cost < best.cost) best = { rel: r, fromEnd: !fromBound, cost };
    if (fromBound && toBound) {
      const c2 = cost * 0.5;
      if (c2 < best.cost) best = { rel: r, fromEnd: false, cost: c2 };
    }
  }
  return best;
}

/** The cheapest unbound node to start from, by label scan or seek; undefined when every node is bound. */
export function cheapestStart(
  stats: Statistics,
  nodes: readonly PatternNode[],
  pending: PendingPredicate[],
  boundSlots: ReadonlySet<string>,
): StartChoice | undefined {
  let start: StartChoice | undefined;
  // Relationship uniqueness never decides where to start; a long pattern has many such predicates.
  const relevant = pending.filter((p) => p.pred.kind !== 'relsDistinct' && p.pred.kind !== 'relsAllDistinct');
  for (const n of nodes) {
    step();
    if (boundSlots.has(n.slot)) continue;
    const { cost, label } = scanCost(stats, n, relevant);
    if (!start || cost < start.cost) start = { node: n, cost, label };
    const seek = bestSeek(stats, n, relevant, boundSlots);
    if (seek && seek.cost < start.cost) start = { node: n, cost: seek.cost, seek: seek.seek };
  }
  return start;
}

/**
 * The cardinality and cost model: estimated rows for scanning a pattern node (its most
 * selective label's count, scaled down for inline property maps) and for expanding a
 * relationship (the types' average fan-out, raised to the hop count for variable-length
 * ones, halved when both ends are bound).
 */

import type { PatternNode, PatternRel, PendingPredicate, Statistics } from './context.js';

function labelSelectivity(stats: Statistics, n: PatternNode, pending: PendingPredicate[]): { count: number; label?: string } {
  let best: { count: number; label?: string } = { count: stats.nodeCount };
  for (const p of pending) {
    if (p.pred.kind === 'hasLabels' && p.pred.slot === n.slot) {
      for (const l of p.pred.labels) {
        const c = stats.labelCount(l);
        if (c < best.count || best.label === undefined) best = { count: c, label: l };
      }
    }
  }
  return best;
}
export function scanCost(stats: Statistics, n: PatternNode, pending: PendingPredicate[]): { cost: number; label?: string } {
  const { count, label } = labelSelectivity(stats, n, pending);
  let cost = Math.max(count, 1);
  for (const p of pending) {
    if (p.pred.kind === 'propMap' && p.pred.slot === n.slot) cost = Math.max(1, cost * 0.1);
  }
  return { cost, label };
}
export function expandCost(stats: Statistics, r: PatternRel, target: PatternNode, into: boolean): number {
  const nodes = Math.max(stats.nodeCount, 1);
  const relsOfTypes = r.types.length ? r.types.reduce((s, t) => s + stats.typeCount(t), 0) : stats.relCount;
  let fanout = relsOfTypes / nodes;
  if (r.pattern.direction === 'both') fanout *= 2;
  if (r.varLength) {
    const max = Math.min(r.pattern.length?.max ?? 5, 5);
    fanout = Math.pow(Math.max(fanout, 1.5), max);
  }
  if (into) return fanout * 0.5;
  return Math.max(fanout, 0.01) + 0.001 * (target.bound ? 0 : 1);
}

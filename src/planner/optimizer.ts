/**
 * The optimizer driver for one MATCH: turns its pattern graph into a pipeline of operators.
 * It repeatedly takes the cheapest expansion from the bound part (or, when there is none,
 * the cheapest start of a new component — see joinOrder.ts) and applies the rewrite rules
 * in rules/ as it goes: predicates are pushed down to the first operator that binds what
 * they need, a label scan or index seek drops the label checks it guarantees, and a
 * variable-length expansion followed by DISTINCT keeps only distinct ends. Shortest paths,
 * named paths and predicates over names this MATCH does not bind come last.
 */

import type { PlanOp, Scope } from './plan.js';
import type { PatternGraph, PatternNode, PlanContext } from './context.js';
import { cheapestExpansion, cheapestStart, type ExpansionChoice } from './joinOrder.js';
import { flip } from './names.js';
import { otherEndExpr, relConnects } from './patternExprs.js';
import { onlyDistinctEndsMatter } from './rules/distinctEnds.js';
import { dropScannedLabel } from './rules/labelScan.js';
import { takeReadyPredicates } from './rules/predicatePushdown.js';

export function orderJoins(pl: PlanContext, graph: PatternGraph, input: PlanOp, scope: Scope, distinctNext: boolean): PlanOp {
  const { nodes, rels, pending, paths, shortests } = graph;
  const boundSlots = new Set<string>(scope.values());
  let op = input;
  const flush = () => {
    const ready = takeReadyPredicates(pending, boundSlots);
    if (ready.length) op = { op: 'Filter', input: op, predicates: ready };
  };
  flush();
  const remaining = new Set(rels);
  const isBound = (n: PatternNode) => boundSlots.has(n.slot);
  while (true) {
    const best = cheapestExpansion(pl.stats, remaining, isBound);
    if (best) {
      remaining.delete(best.rel);
      op = expansion(op, best, isBound, graph, distinctNext);
      boundSlots.add(best.rel.slot);
      boundSlots.add((best.fromEnd ? best.rel.from : best.rel.to).slot);
      flush();
      continue;
    }
    // Nothing to expand from: start a new component at the cheapest unbound node.
    const start = cheapestStart(pl.stats, nodes, pending, boundSlots);
    if (!start) break;
    const seek = start.seek;
    if (seek?.kind === 'id') {
      op = { op: 'NodeById', input: op, slot: start.node.slot, id: seek.id };
    } else if (seek?.kind === 'index') {
      dropScannedLabel(pending, start.node.slot, seek.label);
      op = {
        op: 'NodeIndexSeek',
        input: op,
        slot: start.node.slot,
        label: seek.label,
        key: seek.key,
        equals: seek.equals,
        lower: seek.lower,
        upper: seek.upper,
        estimate: start.cost,
      };
    } else {
      if (start.label !== undefined) dropScannedLabel(pending, start.node.slot, start.label);
      op = { op: 'NodeScan', input: op, slot: start.node.slot, label: start.label, estimate: start.cost };
    }
    boundSlots.add(start.node.slot);
    flush();
  }
  for (const sp of shortests) {
    op = { ...sp, input: op };
    boundSlots.add(sp.rel);
    boundSlots.add(sp.path);
    flush();
  }
  for (const p of paths) {
    op = {
      op: 'BuildPath',
      input: op,
      slot: p.slot,
      start: p.start.slot,
      segments: p.segments.map((s) => ({ slot: s.slot, list: s.varLength })),
    };
    boundSlots.add(p.slot);
    flush();
  }
  if (pending.length) {
    // Predicates over names this MATCH does not bind (e.g. outer variables) can run now.
    op = { op: 'Filter', input: op, predicates: pending.map((p) => p.pred) };
  }
  return op;
}

/** The operator for the chosen expansion on top of `op`. */
function expansion(
  op: PlanOp,
  best: ExpansionChoice,
  isBound: (n: PatternNode) => boolean,
  graph: PatternGraph,
  distinctNext: boolean,
): PlanOp {
  const r = best.rel;
  const from = best.fromEnd ? r.to : r.from;
  const to = best.fromEnd ? r.from : r.to;
  const into = isBound(to);
  const direction = best.fromEnd ? flip(r.pattern.direction) : r.pattern.direction;
  if (r.group) {
    return { ...r.group, op: 'GroupExpand', input: op, from: from.slot, to: to.slot, into };
  }
  if (r.bound) {
    // A relationship bound earlier: check it joins the endpoints as the pattern says.
    op = {
      op: 'Filter',
      input: op,
      predicates: [
        {
          kind: 'expr',
          bexpr: relConnects(r, direction, from, to, into),
        },
      ],
    };
    if (!into) {
      op = {
        op: 'Project',
        input: op,
        items: [{ slot: to.slot, bexpr: otherEndExpr(r.slot, from.slot, direction) }],
      };
    }
    return op;
  }
  if (r.varLength) {
    const len = r.pattern.length ?? {};
    const distinctEnds = onlyDistinctEndsMatter(graph, r, distinctNext);
    return {
      op: 'VarExpand',
      input: op,
      from: from.slot,
      rel: r.slot,
      to: to.slot,
      types: r.types,
      direction,
      min: len.min ?? 1,
      max: len.max ?? Number.POSITIVE_INFINITY,
      into,
      reversed: best.fromEnd,
      walk: r.walk,
      distinctEnds,
      estimate: best.cost,
    };
  }
  return {
    op: 'Expand',
    input: op,
    from: from.slot,
    rel: r.slot,
    to: to.slot,
    types: r.types,
    direction,
    into,
    estimate: best.cost,
  };
}

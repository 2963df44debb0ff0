/**
 * Shortest paths between two bound nodes: `shortestPath` (one path of minimal length) and
 * `allShortestPaths` (every path of minimal length), by breadth-first search that keeps,
 * for each node reached, every relationship that reached it at its depth.
 */

import type { Direction } from '../../src/frontend/ast.js';
import type { Node, Rel } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import { Path, type Value } from '../values.js';
import type { ExecContext } from './context.js';
import { eachAdjacent, tick, varExpand } from './patterns.js';

export interface FoundPath {
  rels: Rel[];
  path: Path;
}

export function shortestPaths(
  g: Graph,
  ctx: ExecContext,
  fromV: Value,
  toV: Value,
  types: number[] | null,
  direction: Direction,
  min: number,
  max: number,
  all: boolean,
): Iterable<FoundPath> {
  if (fromV === null || toV === null) return [];
  const from = fromV as Node;
  const to = toV as Node;
  if (min > 1) {
    // Rare: a lower bound above one hop. Enumerate trails and keep the shortest long enough.
    const found = [...varExpand(g, ctx, from, types, direction, min, max)].filter((p) => p.end === to);
    if (found.length === 0) return [];
    const best = Math.min(...found.map((p) => p.rels.length));
    const keep = found.filter((p) => p.rels.length === best);
    return (all ? keep : keep.slice(0, 1)).map((p) => ({ rels: p.rels, path: toPath(from, p.rels) }));
  }
  if (from === to) return min === 0 ? [{ rels: [], path: new Path([from], []) }] : [];
  if (!all) {
    const rels = bidirectionalShortest(g, ctx, from, to, types, direction, max);
    return rels === null ? [] : [{ rels, path: toPath(from, rels) }];
  }

  // parents: node id → relationships that first reached it (all of them at that depth).
  const parents = new Map<number, Rel[]>();
  const depthOf = new Map<number, number>([[from.id, 0]]);
  let frontier: Node[] = [from];
  let depth = 0;
  let reached = false;
  while (frontier.length && depth < max && !reached) {
    depth++;
    const next: Node[] = [];
    for (const node of frontier) {
      eachAdjacent(g, node, types, direction, (relId, nbrId, isIn) => {
        if (--ctx.budget < 0) tick(ctx);
        if (isIn && direction === 'both' && nbrId === node.id) return;
        const seen = depthOf.get(nbrId);
        if (seen !== undefined && seen < depth) return;
        const rel = g.relAt(relId) as Rel;
        if (seen === undefined) {
          depthOf.set(nbrId, depth);
          parents.set(nbrId, [rel]);
          next.push(g.nodeAt(nbrId) as Node);
        } else {
          (parents.get(nbrId) as Rel[]).push(rel);
        }
        if (nbrId === to.id) reached = true;
      });
    }
    frontier = next;
  }
  if (!reached) return [];

  // Walk back from `to` along parent relationships. There can be exponentially many
  // shortest paths, so they are produced lazily (a LIMIT stops the walk) with deadline checks.
  function* back(node: Node, suffix: Rel[]): Generator<FoundPath> {
    if (--ctx.budget < 0) tick(ctx);
    if (node === from) {
      const rels = suffix.slice().reverse();
      yield { rels, path: toPath(from, rels) };
      return;
    }
    for (const rel of parents.get(node.id) ?? []) {
      const prev = direction === 'out' ? rel.start : direction === 'in' ? rel.end : rel.start === node ? rel.end : rel.start;
      if (depthOf.get(prev.id) !== (depthOf.get(node.id) as number) - 1) continue;
      suffix.push(rel);
      yield* back(prev, suffix);
      suffix.pop();
    }
  }
  return back(to, []);
}

function toPath(from: Node, rels: Rel[]): Path {
  const nodes = [from];
  let cur = from;
  for (const r of rels) {
    cur = r.start === cur ? r.end : r.start;
    nodes.push(cur);
  }
  return new Path(nodes, rels);
}

/**
 * GQL `SHORTEST k` / `ANY k`: up to k trails from `from` to `to`, shortest first, found by
 * deepening the search one hop at a time.
 */
export function kShortestPaths(
  g: Graph,
  ctx: ExecContext,
  fromV: Value,
  toV: Value,
  types: number[] | null,
  direction: Direction,
  min: number,
  max: number,
  k: number,
): FoundPath[] {
  if (fromV === null || toV === null || k <= 0) return [];
  const from = fromV as Node;
  const to = toV as Node;
  const out: FoundPath[] = [];
  const limit = Math.min(max, g.relCount);
  for (let len = min; len <= limit && out.length < k; len++) {
    for (const p of varExpand(g, ctx, from, types, direction, len, len)) {
      if (p.end !== to) continue;
      out.push({ rels: p.rels, path: toPath(from, p.rels) });
      if (out.length === k) break;
    }
  }
  return out;
}

/**
 * One shortest path by breadth-first search from both ends, expanding the smaller
 * frontier each round; the search meets in the middle, visiting far fewer nodes than a
 * one-sided search on graphs with large fan-out. Returns the relationships in order from
 * `from` to `to`, or null when none is within `max` hops.
 */
function bidirectionalShortest(
  g: Graph,
  ctx: ExecContext,
  from: Node,
  to: Node,
  types: number[] | null,
  direction: Direction,
  max: number,
): Rel[] | null {
  // parent maps: node id → relationship used to reach it (null for the roots); depths beside.
  const fwd = new Map<number, Rel | null>([[from.id, null]]);
  const bwd = new Map<number, Rel | null>([[to.id, null]]);
  const fwdDepth = new Map<number, number>([[from.id, 0]]);
  const bwdDepth = new Map<number, number>([[to.id, 0]]);
  let fwdFrontier: Node[] = [from];
  let bwdFrontier: Node[] = [to];
  const backwards: Direction = direction === 'out' ? 'in' : direction === 'in' ? 'out' : 'both';
  let depth = 0;
  let fwdLevel = 0;
  let bwdLevel = 0;
  /**
   * Expands one frontier by one whole hop. Returns the best meeting node: the one whose
   * depths from both roots add up least (the first one found need not be best).
   */
  const step = (
    frontier: Node[],
    seen: Map<number, Rel | null>,
    seenDepth: Map<number, number>,
    otherDepth: Map<number, number>,
    dir: Direction,
    level: number,
  ): { next: Node[]; meet: number | null } => {
    const next: Node[] = [];
    let best: number | null = null;
    let bestTotal = Number.POSITIVE_INFINITY;
    for (const node of frontier) {
      eachAdjacent(g, node, types, dir, (relId, nbr, inList) => {
        const isIn = dir === 'both' && inList;
        if (--ctx.budget < 0) tick(ctx);
        if (isIn && nbr === node.id) return;
        if (seen.has(nbr)) return;
        seen.set(nbr, g.relAt(relId) as Rel);
        seenDepth.set(nbr, level);
        const there = otherDepth.get(nbr);
        if (there !== undefined && level + there < bestTotal) {
          best = nbr;
          bestTotal = level + there;
        }
        next.push(g.nodeAt(nbr) as Node);
      });
    }
    return { next, meet: best };
  };
  while (fwdFrontier.length && bwdFrontier.length && depth < max) {
    depth++;
    const forward = fwdFrontier.length <= bwdFrontier.length;
    const r = forward
      ? step(fwdFrontier, fwd, fwdDepth, bwdDepth, direction, ++fwdLevel)
      : step(bwdFrontier, bwd, bwdDepth, fwdDepth, backwards, ++bwdLevel);
    if (r.meet !== null) return joinAt(r.meet, fwd, bwd);
    if (forward) fwdFrontier = r.next;
    else bwdFrontier = r.next;
  }
  return null;
}

/** The relationships from the forward root to `meet`, then from `meet` to the backward root. */
function joinAt(meet: number, fwd: Map<number, Rel | null>, bwd: Map<number, Rel | null>): Rel[] {
  const head: Rel[] = [];
  let cur = meet;
  for (let r = fwd.get(cur); r; r = fwd.get(cur)) {
    head.push(r);
    cur = r.start.id === cur ? r.end.id : r.start.id;
  }
  head.reverse();
  const tail: Rel[] = [];
  cur = meet;
  for (let r = bwd.get(cur); r; r = bwd.get(cur)) {
    tail.push(r);
    cur = r.start.id === cur ? r.end.id : r.start.id;
  }
  return [...head, ...tail];
}

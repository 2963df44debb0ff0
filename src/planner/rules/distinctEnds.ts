/**
 * Rewrite rule: a variable-length expansion whose rows are de-duplicated right after the
 * MATCH (`WITH DISTINCT …`) only needs to find which end nodes are reachable, not every
 * path to them (runtime distinctEnds, by breadth-first search).
 */

import type { PatternGraph, PatternRel } from '../context.js';

/**
 * With one anonymous variable-length relationship, no path and DISTINCT rows next, only
 * which nodes are reachable matters (exact for min ≤ 1).
 */
export function onlyDistinctEndsMatter(graph: PatternGraph, r: PatternRel, distinctNext: boolean): boolean {
  const len = r.pattern.length ?? {};
  return (
    distinctNext &&
    graph.rels.length === 1 &&
    graph.paths.length === 0 &&
    r.pattern.variable === undefined &&
    r.pattern.properties === undefined &&
    r.pattern.where === undefined &&
    !r.walk &&
    (len.min ?? 1) <= 1
  );
}

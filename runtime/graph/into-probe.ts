/**
 * The neighbour filter of an expand-into (both ends of a relationship pattern already
 * bound, as the closing edge of a triangle): instead of walking the start node's
 * adjacency once per candidate end node, the ids it reaches are gathered into a set the
 * second time the same start node is probed, and later probes answer from the set. The set
 * is a superset check only — a hit still walks the adjacency to bind the relationships, so
 * parallel relationships, types and tombstones keep their exact semantics. Generated code
 * uses a probe only in read-only queries (the adjacency cannot change under it), one per
 * expand-into and execution.
 */

import { forEachInBlock, type AdjacencyBlocks } from '../../src/store/adjacency.js';
import type { Graph } from '../../src/store/graph.js';

export class IntoProbe {
  from = -1;
  ids: Set<number> | null = null;
}

export function intoProbe(): IntoProbe {
  return new IntoProbe();
}

/** Whether `from` may have a relationship to `to` (false only when it certainly has none). */
export function mayConnect(probe: IntoProbe, g: Graph, direction: 'out' | 'in' | 'both', typeIds: readonly number[] | null, from: number, to: number): boolean {
  if (probe.from !== from) {
    // The first probe of a start node walks its adjacency directly: a set pays off only when
    // the same start node is probed again.
    probe.from = from;
    probe.ids = null;
    return true;
  }
  probe.ids ??= neighbourIds(g, direction, typeIds, from);
  return probe.ids.has(to);
}

function neighbourIds(g: Graph, direction: 'out' | 'in' | 'both', typeIds: readonly number[] | null, from: number): Set<number> {
  const ids = new Set<number>();
  const add = (_rel: number, nbr: number): void => void ids.add(nbr);
  const gather = (blocks: AdjacencyBlocks): void => {
    for (const t of typeIds ?? blocks.keys()) {
      const block = blocks[t];
      if (block !== undefined) forEachInBlock(block, from, g.deadRels, add);
    }
  };
  if (direction !== 'in') gather(g.adjOut);
  if (direction !== 'out') gather(g.adjIn);
  return ids;
}

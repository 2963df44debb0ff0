/**
 * The counters a stored or copied graph carries besides its entities: the next ids, the
 * mutation sequence and generation its fingerprint is made of, and the entity counts a load
 * checks itself against. The store's meta, the JSON snapshot's header and the graph image
 * all hold them; restoring them makes a loaded graph continue exactly where the original was.
 */

import type { Graph } from '../graph.js';

export interface GraphCounters {
  nextNodeId: number;
  nextRelId: number;
  mutationSeq: number;
  generation: number;
  nodeCount: number;
  relCount: number;
}

export function graphCounters(graph: Graph): GraphCounters {
  return {
    nextNodeId: graph.nextNodeId,
    nextRelId: graph.nextRelId,
    mutationSeq: graph.mutationSeq,
    generation: graph.generation,
    nodeCount: graph.nodeCount,
    relCount: graph.relCount,
  };
}

/** Puts the counters of a loaded graph back (the entity counts are the load's own). */
export function restoreCounters(graph: Graph, meta: Pick<GraphCounters, 'nextNodeId' | 'nextRelId' | 'mutationSeq' | 'generation'>): void {
  graph.nextNodeId = Math.max(graph.nextNodeId, meta.nextNodeId);
  graph.nextRelId = Math.max(graph.nextRelId, meta.nextRelId);
  graph.mutationSeq = meta.mutationSeq;
  graph.generation = meta.generation;
}

/**
 * graph_rag's graph expansion: from each seed, relationships are followed in both
 * directions up to `hops` steps, at most `fanout` per node per step (hubs are sampled, not
 * walked whole). A reached node earns the seed's relevance × HOP_DECAY per hop × the weight
 * of each relationship type crossed. The path's trust travels with it: its weakest
 * observation class and lowest confidence among the relationships crossed.
 */

import { readTrust, CLASS_RANK, type ObservationClass, OBSERVATION_CLASSES } from '../observation/model.js';
import type { Node, Rel } from '../store/entities.js';
import type { Graph } from '../store/graph.js';
import type { RagOptions } from './options.js';
import type { Seed } from './seeds.js';

export const HOP_DECAY = 0.5;
/** Most nodes one retrieval will consider (bounds memory on any graph). */
export const MAX_REACHED = 20000;

export interface Reach {
  node: Node;
  seed: Seed;
  relevance: number;
  /** Relationships from the seed to the node, in order. */
  path: Rel[];
  /** Weakest class and lowest confidence among the path's relationships (observed / 1 for none). */
  pathClass: ObservationClass;
  pathConfidence: number;
  /** For a path-walk end (paths.ts): its coverage share of the question's relation phrases, in (0, 1]. */
  walked?: number;
}

function* incident(graph: Graph, node: Node, fanout: number): Generator<Rel> {
  // Outgoing first, then incoming, each in adjacency order; only the first `fanout` are kept.
  const relIds: number[] = [];
  graph.forEachAdjacent(node, null, 'both', (relId) => {
    if (relIds.length < fanout) relIds.push(relId);
  });
  for (const relId of relIds) {
    const rel = graph.rel(relId);
    if (rel !== undefined && !rel.deleted) yield rel;
  }
}

function weaker(a: ObservationClass, b: ObservationClass): ObservationClass {
  return OBSERVATION_CLASSES[Math.max(CLASS_RANK[a], CLASS_RANK[b])];
}

/** Every node reached from the seeds (seeds included, at hop 0), keyed by the best relevance per node and seed. */
export function expand(graph: Graph, seeds: readonly Seed[], options: RagOptions, expired: () => boolean, checkDeadline: () => void): Reach[] {
  const out: Reach[] = [];
  for (const seed of seeds) {
    const start: Reach = { node: seed.node, seed, relevance: seed.relevance, path: [], pathClass: 'observed', pathConfidence: 1 };
    out.push(start);
    let frontier = [start];
    const seen = new Set<Node>([seed.node]);
    for (let hop = 1; hop <= options.hops && frontier.length > 0; hop++) {
      const next: Reach[] = [];
      for (const at of frontier) {
        checkDeadline();
        if (expired() || out.length >= MAX_REACHED) return out;
        for (const rel of incident(graph, at.node, options.fanout)) {
          const weight = options.relWeights.get(rel.type) ?? 1;
          if (weight <= 0) continue;
          const other = rel.other(at.node);
          if (other.deleted || seen.has(other)) continue;
          seen.add(other);
          const trust = readTrust((k) => rel.prop(k));
          const reach: Reach = {
            node: other,
            seed,
            relevance: at.relevance * HOP_DECAY * weight,
            path: [...at.path, rel],
            pathClass: weaker(at.pathClass, trust.observationClass),
            pathConfidence: Math.min(at.pathConfidence, trust.confidence),
          };
          next.push(reach);
          out.push(reach);
        }
      }
      frontier = next;
    }
  }
  return out;
}

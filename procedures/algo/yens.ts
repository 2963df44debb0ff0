/**
 * The k shortest loopless paths from a source to a target by Yen's algorithm (1971): each
 * next path branches off a previous one at a "spur" node, with the edges the earlier paths
 * took from the same root removed and the root's nodes blocked, and the cheapest candidate
 * wins. Each spur search is a Dijkstra over the CSR that skips blocked nodes and edges.
 * O(k·n·(m + n log n)).
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';
import { IndexedMinHeap } from './heap.js';

export interface WeightedPath {
  nodes: number[];
  /** CSR edge positions between consecutive nodes. */
  edges: number[];
  cost: number;
}

/** Dijkstra from `source` to `target` avoiding blocked nodes and edges; undefined when unreachable. */
function shortest(csr: Csr, source: number, target: number, blockedNode: Uint8Array, blockedEdge: Uint8Array, deadline: Deadline): WeightedPath | undefined {
  const { n, offsets, targets, weights } = csr;
  const dist = new Float64Array(n).fill(Infinity);
  const via = new Int32Array(n).fill(-1); // edge that reached the node
  const from = new Int32Array(n).fill(-1);
  const heap = new IndexedMinHeap(n, dist);
  dist[source] = 0;
  heap.push(source);
  let settled = 0;
  while (heap.size > 0) {
    if ((++settled & CHECK_MASK) === 0) deadline();
    const v = heap.pop();
    if (v === target) break;
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      const u = targets[e];
      if (blockedEdge[e] === 1 || blockedNode[u] === 1) continue;
      const du = dist[v] + (weights === undefined ? 1 : weights[e]);
      if (du < dist[u]) {
        dist[u] = du;
        via[u] = e;
        from[u] = v;
        if (heap.has(u)) heap.decrease(u);
        else heap.push(u);
      }
    }
  }
  if (dist[target] === Infinity) return undefined;
  const nodes = [target];
  const edges: number[] = [];
  for (let v = target; v !== source; v = from[v]) {
    edges.push(via[v]);
    nodes.push(from[v]);
  }
  return { nodes: nodes.reverse(), edges: edges.reverse(), cost: dist[target] };
}

function edgeCost(csr: Csr, e: number): number {
  return csr.weights === undefined ? 1 : csr.weights[e];
}

export function yens(csr: Csr, source: number, target: number, k: number, deadline: Deadline): WeightedPath[] {
  const blockedNode = new Uint8Array(csr.n);
  const blockedEdge = new Uint8Array(csr.targets.length);
  const first = shortest(csr, source, target, blockedNode, blockedEdge, deadline);
  if (first === undefined || k <= 0) return [];
  const found: WeightedPath[] = [first];
  const candidates: WeightedPath[] = [];
  const seen = new Set<string>([first.edges.join(',')]);
  while (found.length < k) {
    const last = found[found.length - 1];
    for (let i = 0; i < last.nodes.length - 1; i++) {
      deadline();
      const spur = last.nodes[i];
      const rootEdges = last.edges.slice(0, i);
      let rootCost = 0;
      for (const e of rootEdges) rootCost += edgeCost(csr, e);
      const rootKey = rootEdges.join(',');
      const blockedEdges: number[] = [];
      for (const p of found) {
        if (p.edges.length > i && p.edges.slice(0, i).join(',') === rootKey) blockedEdges.push(p.edges[i]);
      }
      for (const e of blockedEdges) blockedEdge[e] = 1;
      for (let j = 0; j < i; j++) blockedNode[last.nodes[j]] = 1;
      const tail = shortest(csr, spur, target, blockedNode, blockedEdge, deadline);
      for (const e of blockedEdges) blockedEdge[e] = 0;
      for (let j = 0; j < i; j++) blockedNode[last.nodes[j]] = 0;
      if (tail === undefined) continue;
      const path: WeightedPath = { nodes: [...last.nodes.slice(0, i), ...tail.nodes], edges: [...rootEdges, ...tail.edges], cost: rootCost + tail.cost };
      const key = path.edges.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push(path);
    }
    if (candidates.length === 0) break;
    // Cheapest first; among equal costs the fewer hops, then the earlier found.
    let best = 0;
    for (let c = 1; c < candidates.length; c++) {
      const a = candidates[c];
      const b = candidates[best];
      if (a.cost < b.cost || (a.cost === b.cost && a.nodes.length < b.nodes.length)) best = c;
    }
    found.push(candidates.splice(best, 1)[0]);
  }
  return found;
}

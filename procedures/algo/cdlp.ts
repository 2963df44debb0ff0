/**
 * Community detection by synchronous label propagation (as LDBC Graphalytics defines CDLP):
 * every node starts with its own dense index as label; in each round every node takes, from
 * the previous round's labels, the label that occurs most often among its CSR neighbours
 * (a neighbour listed twice counts twice), the smallest label on a tie; a node without
 * neighbours keeps its label. Rounds stop after `maxIterations` or when no label changed.
 * Labels are then renamed to the smallest dense index carrying them, so a community's id is
 * the smallest node id among its members.
 */

import { CHECK_MASK, type Deadline } from './deadline.js';
import type { Csr } from './csr.js';

export interface CdlpResult {
  /** Community per dense index: the smallest dense index in the same community. */
  labels: Int32Array;
  iterations: number;
}

export function labelPropagation(csr: Csr, maxIterations: number, deadline: Deadline): CdlpResult {
  const { n, offsets, targets } = csr;
  let labels = new Int32Array(n);
  for (let v = 0; v < n; v++) labels[v] = v;
  let next = new Int32Array(n);
  const counts = new Int32Array(n); // occurrences per label, zero between nodes
  const seen = new Int32Array(n); // labels touched while counting one node
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations++;
    let changed = false;
    for (let v = 0; v < n; v++) {
      if ((v & CHECK_MASK) === 0) deadline();
      const start = offsets[v];
      const end = offsets[v + 1];
      if (start === end) {
        next[v] = labels[v];
        continue;
      }
      let touched = 0;
      for (let e = start; e < end; e++) {
        const l = labels[targets[e]];
        if (counts[l]++ === 0) seen[touched++] = l;
      }
      let best = -1;
      let bestCount = 0;
      for (let i = 0; i < touched; i++) {
        const l = seen[i];
        const c = counts[l];
        counts[l] = 0;
        if (c > bestCount || (c === bestCount && l < best)) {
          best = l;
          bestCount = c;
        }
      }
      next[v] = best;
      if (best !== labels[v]) changed = true;
    }
    const t = labels;
    labels = next;
    next = t;
    if (!changed) break;
  }
  const first = next.fill(-1); // smallest member per label
  for (let v = 0; v < n; v++) {
    const l = labels[v];
    if (first[l] < 0) first[l] = v;
    labels[v] = first[l];
  }
  return { labels, iterations };
}

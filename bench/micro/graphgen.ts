/**
 * Seeded generators of benchmark data: Person property rows for bulk loads, and a
 * directed power-law graph built by preferential attachment, together with the answers
 * the benchmark queries must return on it (computed directly in JavaScript), so every
 * timed query is also checked.
 */

import { mulberry32, randInt } from './harness.js';

/** One row of `$batch` in the bulk-create benchmark. */
export interface PersonRow {
  id: number;
  name: string;
  age: number;
}

/** `count` Person rows with ids `first, first+1, …`, seeded ages 0–79. */
export function personRows(first: number, count: number, seed: number): PersonRow[] {
  const rand = mulberry32(seed);
  const rows: PersonRow[] = new Array<PersonRow>(count);
  for (let i = 0; i < count; i++) {
    const id = first + i;
    rows[i] = { id, name: `person-${id}`, age: randInt(rand, 80) };
  }
  return rows;
}

/** Splits `items` into consecutive chunks of `size` (the last may be shorter). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A directed multigraph over nodes 0..nodes-1: relationship i goes from `src[i]` to `dst[i]`. */
export interface EdgeList {
  nodes: number;
  src: Int32Array;
  dst: Int32Array;
}

/**
 * Preferential attachment (Barabási–Albert style, seeded). Nodes arrive one by one; each
 * new node `v` gets `rels / nodes` relationships (rounded, so the total is exactly `rels`)
 * to earlier nodes. A target is, with probability `uniform`, a uniformly random earlier node
 * and otherwise the endpoint of a uniformly random earlier relationship — i.e. chosen in
 * proportion to its degree, which is what makes the degree distribution heavy-tailed. Each
 * relationship's direction is a coin flip, so both in- and out-degrees have hubs (a 2-hop
 * walk then really passes through them). No self-loops; parallel relationships can occur.
 */
export function preferentialAttachment(nodes: number, rels: number, seed: number, uniform = 0.2): EdgeList {
  const rand = mulberry32(seed);
  const src = new Int32Array(rels);
  const dst = new Int32Array(rels);
  /** Both endpoints of every relationship made so far: sampling it is degree-proportional. */
  const ends = new Int32Array(rels * 2);
  let made = 0;
  for (let v = 1; v < nodes && made < rels; v++) {
    const quota = Math.round((rels * v) / (nodes - 1)) - Math.round((rels * (v - 1)) / (nodes - 1));
    for (let k = 0; k < quota && made < rels; k++) {
      let t = made === 0 || rand() < uniform ? randInt(rand, v) : ends[randInt(rand, made * 2)];
      // `ends` already holds v's own earlier relationships of this round: no self-loops.
      if (t === v) t = randInt(rand, v);
      const [a, b] = rand() < 0.5 ? [v, t] : [t, v];
      src[made] = a;
      dst[made] = b;
      ends[made * 2] = a;
      ends[made * 2 + 1] = b;
      made++;
    }
  }
  return { nodes, src: src.subarray(0, made), dst: dst.subarray(0, made) };
}

/** The relationships of `edges` with index in [from, to), as `[start, end]` pairs for `$pairs`. */
export function pairSlice(edges: EdgeList, from: number, to: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = from; i < Math.min(to, edges.src.length); i++) out.push([edges.src[i], edges.dst[i]]);
  return out;
}

/** Degree statistics, for describing the generated graph. */
export function degreeSummary(edges: EdgeList): { maxOut: number; maxIn: number } {
  const outDeg = new Int32Array(edges.nodes);
  const inDeg = new Int32Array(edges.nodes);
  for (let i = 0; i < edges.src.length; i++) {
    outDeg[edges.src[i]]++;
    inDeg[edges.dst[i]]++;
  }
  let maxOut = 0;
  let maxIn = 0;
  for (let v = 0; v < edges.nodes; v++) {
    if (outDeg[v] > maxOut) maxOut = outDeg[v];
    if (inDeg[v] > maxIn) maxIn = inDeg[v];
  }
  return { maxOut, maxIn };
}

/**
 * Number of walks a→x→c along two distinct relationships: Σ_x in(x)·out(x). With no
 * self-loops the two relationships of such a walk are always distinct, so this is exactly
 * what `MATCH (a)-[:KNOWS]->()-[:KNOWS]->(c) RETURN count(*)` must return.
 */
export function twoHopCount(edges: EdgeList): number {
  const outDeg = new Float64Array(edges.nodes);
  const inDeg = new Float64Array(edges.nodes);
  for (let i = 0; i < edges.src.length; i++) {
    outDeg[edges.src[i]]++;
    inDeg[edges.dst[i]]++;
  }
  let total = 0;
  for (let v = 0; v < edges.nodes; v++) total += inDeg[v] * outDeg[v];
  return total;
}

/** Distinct nodes reachable in exactly two hops (outgoing) from the start nodes `isStart` selects. */
export function twoHopDistinct(edges: EdgeList, isStart: (v: number) => boolean): number {
  const offsets = new Int32Array(edges.nodes + 1);
  for (let i = 0; i < edges.src.length; i++) offsets[edges.src[i] + 1]++;
  for (let v = 0; v < edges.nodes; v++) offsets[v + 1] += offsets[v];
  const targets = new Int32Array(edges.src.length);
  const fill = offsets.slice(0, edges.nodes);
  for (let i = 0; i < edges.src.length; i++) targets[fill[edges.src[i]]++] = edges.dst[i];
  const seen = new Uint8Array(edges.nodes);
  let count = 0;
  for (let a = 0; a < edges.nodes; a++) {
    if (!isStart(a)) continue;
    for (let i = offsets[a]; i < offsets[a + 1]; i++) {
      const x = targets[i];
      for (let j = offsets[x]; j < offsets[x + 1]; j++) {
        const c = targets[j];
        if (seen[c] === 0) {
          seen[c] = 1;
          count++;
        }
      }
    }
  }
  return count;
}

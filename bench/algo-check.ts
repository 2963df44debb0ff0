/**
 * How the algorithm benchmarks check that every engine computed the same thing, so that a
 * fast wrong kernel cannot win a row: each engine's answer becomes one number per vertex
 * (NaN where the engine gave none) and is compared with graphdb's by the rule of its case.
 *
 * - `exact`: the same number for every vertex (k-core values, depths).
 * - `partition`: the same sets (labels renamed to the smallest vertex of their set first).
 * - `scores`: within `tolerance` of the largest score, after scaling each side by `scale`
 *   (`sum`: to total 1, `l2`: to unit length, `max`: to largest 1, a number: graphdb's side
 *   multiplied by it, where the engines define the measure with a different constant factor).
 * - `correlation`: Pearson correlation of the scores at least `min`, for a peer that defines
 *   the measure differently (Kuzu's PageRank drops the mass of dangling vertices) so that
 *   equal values cannot be asked of it, only the same shape.
 * - `modularity`: Louvain is not deterministic across engines; graphdb's partition must cover
 *   every vertex and its modularity (computed here, on the same edges) be at most `slack`
 *   below the peer's.
 * - `tree`: a DFS: the same vertices reached, and each side's depths a valid search tree (0 at
 *   the source, every other vertex one deeper than some neighbour); depths themselves follow
 *   each engine's neighbour order.
 *
 * `--corrupt-check` (the benchmarks pass it here through `corruptAnswers`) alters graphdb's
 * answers before the comparison, to show that the checks fail.
 */

export type Rule =
  | { kind: 'exact' }
  | { kind: 'partition' }
  | { kind: 'scores'; scale: 'sum' | 'l2' | 'max' | 'none' | number; tolerance: number }
  | { kind: 'correlation'; min: number }
  | { kind: 'modularity'; slack: number }
  | { kind: 'tree'; source: number };

/** One number per vertex from `[vertex, value]` pairs; vertices not named stay NaN. */
export function perVertex(n: number, pairs: Iterable<readonly [number, number]>): Float64Array {
  const out = new Float64Array(n).fill(NaN);
  for (const [v, x] of pairs) out[v] = x;
  return out;
}

/** A partition from a list of sets (graphology's components), each vertex labelled by its set's index. */
export function fromSets(n: number, sets: readonly (readonly (string | number)[])[]): Float64Array {
  const out = new Float64Array(n).fill(NaN);
  sets.forEach((set, i) => {
    for (const v of set) out[Number(v)] = i;
  });
  return out;
}

/** Labels renamed to the smallest vertex carrying them: equal arrays mean equal partitions. */
function canonical(labels: Float64Array): Float64Array {
  const first = new Map<number, number>();
  const out = new Float64Array(labels.length);
  for (let v = 0; v < labels.length; v++) {
    const l = labels[v];
    if (Number.isNaN(l)) {
      out[v] = NaN;
      continue;
    }
    let f = first.get(l);
    if (f === undefined) first.set(l, (f = v));
    out[v] = f;
  }
  return out;
}

function scaled(xs: Float64Array, how: 'sum' | 'l2' | 'max' | 'none' | number): Float64Array {
  if (how === 'none') return xs;
  if (typeof how === 'number') return xs.map((x) => x * how);
  let k = 0;
  for (const x of xs) if (!Number.isNaN(x)) k = how === 'sum' ? k + x : how === 'l2' ? k + x * x : Math.max(k, Math.abs(x));
  if (how === 'l2') k = Math.sqrt(k);
  return k === 0 ? xs : xs.map((x) => x / k);
}

/** Newman's modularity of `labels` on the undirected graph `edges` (no loops, no duplicates). */
export function modularity(n: number, edges: readonly (readonly [number, number])[], labels: Float64Array): number {
  const degree = new Float64Array(n);
  for (const [u, v] of edges) {
    degree[u]++;
    degree[v]++;
  }
  const inside = new Map<number, number>();
  const total = new Map<number, number>();
  for (let v = 0; v < n; v++) total.set(labels[v], (total.get(labels[v]) ?? 0) + degree[v]);
  for (const [u, v] of edges) if (labels[u] === labels[v]) inside.set(labels[u], (inside.get(labels[u]) ?? 0) + 1);
  const m = edges.length;
  let q = 0;
  for (const [c, t] of total) q += (inside.get(c) ?? 0) / m - (t / (2 * m)) ** 2;
  return q;
}

/** Whether `depth` is a search tree from `source` over `edges` (undirected): every reached vertex but the source has a neighbour one level up. */
function validTree(n: number, edges: readonly (readonly [number, number])[], depth: Float64Array, source: number): string | undefined {
  if (depth[source] !== 0) return `the source has depth ${depth[source]}`;
  const parentFound = new Uint8Array(n);
  for (const [u, v] of edges) {
    if (depth[u] >= 0 && depth[v] === depth[u] + 1) parentFound[v] = 1;
    if (depth[v] >= 0 && depth[u] === depth[v] + 1) parentFound[u] = 1;
  }
  for (let v = 0; v < n; v++) if (v !== source && depth[v] >= 0 && parentFound[v] === 0) return `vertex ${v} at depth ${depth[v]} has no neighbour at depth ${depth[v] - 1}`;
  return undefined;
}

/** Why `ours` and `theirs` disagree under `rule`, or undefined when they agree. */
export function disagreement(rule: Rule, ours: Float64Array, theirs: Float64Array, edges: readonly (readonly [number, number])[]): string | undefined {
  const n = ours.length;
  if (theirs.length !== n) return `${theirs.length} vertices against ${n}`;
  switch (rule.kind) {
    case 'exact':
      for (let v = 0; v < n; v++) if (!Object.is(ours[v], theirs[v])) return `vertex ${v}: ${ours[v]} against ${theirs[v]}`;
      return undefined;
    case 'partition': {
      const a = canonical(ours);
      const b = canonical(theirs);
      for (let v = 0; v < n; v++) if (!Object.is(a[v], b[v])) return `vertex ${v} is with vertex ${a[v]} here and with vertex ${b[v]} there`;
      return undefined;
    }
    case 'scores': {
      const a = scaled(ours, rule.scale);
      const b = scaled(theirs, rule.scale === 'sum' || rule.scale === 'l2' || rule.scale === 'max' ? rule.scale : 'none');
      let top = 0;
      for (const x of b) if (!Number.isNaN(x)) top = Math.max(top, Math.abs(x));
      let worst = 0;
      let at = -1;
      for (let v = 0; v < n; v++) {
        const d = Number.isNaN(a[v]) !== Number.isNaN(b[v]) ? Infinity : Number.isNaN(a[v]) ? 0 : Math.abs(a[v] - b[v]);
        if (d > worst) [worst, at] = [d, v];
      }
      return worst > rule.tolerance * Math.max(top, Number.MIN_VALUE) ? `vertex ${at}: ${a[at]} against ${b[at]} (difference ${(worst / top).toExponential(2)} of the largest score, allowed ${rule.tolerance})` : undefined;
    }
    case 'correlation': {
      let sa = 0, sb = 0, k = 0;
      for (let v = 0; v < n; v++) if (!Number.isNaN(ours[v]) && !Number.isNaN(theirs[v])) [sa, sb, k] = [sa + ours[v], sb + theirs[v], k + 1];
      if (k < n) return `${n - k} vertices without a score`;
      const ma = sa / k;
      const mb = sb / k;
      let cov = 0, va = 0, vb = 0;
      for (let v = 0; v < n; v++) {
        cov += (ours[v] - ma) * (theirs[v] - mb);
        va += (ours[v] - ma) ** 2;
        vb += (theirs[v] - mb) ** 2;
      }
      const r = cov / Math.sqrt(va * vb);
      return r >= rule.min ? undefined : `correlation ${r.toFixed(4)} below ${rule.min}`;
    }
    case 'modularity': {
      for (let v = 0; v < n; v++) if (Number.isNaN(ours[v])) return `vertex ${v} in no community`;
      const q = modularity(n, edges, ours);
      const p = modularity(n, edges, theirs.map((x, v) => (Number.isNaN(x) ? -1 - v : x)));
      return q >= p - rule.slack ? undefined : `modularity ${q.toFixed(4)} against ${p.toFixed(4)}`;
    }
    case 'tree': {
      for (let v = 0; v < n; v++) if ((ours[v] >= 0) !== (theirs[v] >= 0)) return `vertex ${v} reached on one side only`;
      return validTree(n, edges, ours, rule.source) ?? validTree(n, edges, theirs, rule.source);
    }
  }
}

/** Whether the command line asks for graphdb's answers to be altered (to see the checks fail). */
export const corruptAnswers = process.argv.includes('--corrupt-check');

/**
 * graphdb's answer as `--corrupt-check` leaves it, altered where `rule` looks: the vertex with
 * the largest value one more (exact), a tenth more (scores), two levels deeper (tree); every
 * vertex in one set (partition, modularity); the scores in reverse vertex order (correlation).
 */
export function corrupt(answer: Float64Array, rule: Rule): Float64Array {
  const out = answer.slice();
  let at = 0;
  for (let v = 1; v < out.length; v++) if (out[v] > out[at] || Number.isNaN(out[at])) at = v;
  switch (rule.kind) {
    case 'exact':
      out[at] += 1;
      break;
    case 'scores':
      out[at] = out[at] * 1.1 + 1e-9;
      break;
    case 'tree':
      out[at] += 2;
      break;
    case 'partition':
    case 'modularity':
      out.fill(0);
      break;
    case 'correlation':
      out.reverse();
      break;
  }
  return out;
}

/**
 * The community procedures: weakly and strongly connected components, label propagation
 * (`cdlp`, alias `labelPropagation`), Louvain, Leiden, k-core, triangles and the local
 * clustering coefficient. Declarations only: the kernels live in their own modules. Every
 * community id is the smallest node id among the community's members.
 */

import { makeFloat } from '../../runtime/values.js';
import { labelPropagation } from './cdlp.js';
import { MAX_INT32, type OptionSpec } from './config.js';
import { simpleUndirected } from './csr.js';
import type { Algorithm, AlgoRun, NodeResult } from './define.js';
import { coreNumbers } from './kcore.js';
import { detectCommunities } from './louvain.js';
import { stronglyConnected } from './scc.js';
import { localClustering, trianglesPerNode } from './triangles.js';
import { threadsForWork } from './parallel.js';
import { weaklyConnected } from './wcc.js';

const node = { name: 'node', type: 'NODE?' };
const communityId = { name: 'communityId', type: 'INTEGER?' };

/** Distinct values of `ids`, which are dense indices (0..length-1): a mark per index, no hashing. */
function countDistinct(ids: Int32Array): number {
  const seen = new Uint8Array(ids.length);
  let count = 0;
  for (let i = 0; i < ids.length; i++) {
    const x = ids[i];
    if (seen[x] === 0) {
      seen[x] = 1;
      count++;
    }
  }
  return count;
}

const MODULARITY_OPTIONS: readonly OptionSpec[] = [
  { name: 'gamma', type: 'float', default: 1, min: 0, max: 1e6, doc: 'resolution: larger values give smaller communities' },
  { name: 'maxLevels', type: 'integer', default: 10, min: 1, max: 1000, doc: 'upper bound on aggregation levels' },
  { name: 'maxIterations', type: 'integer', default: 10, min: 1, max: MAX_INT32, doc: 'upper bound on node-moving sweeps per level' },
  { name: 'tolerance', type: 'float', default: 1e-7, min: 0, max: 1, doc: 'stop when a level improves modularity by less than this' },
];

function modularityRun(a: AlgoRun, leiden: boolean): NodeResult {
  const csr = a.project({ direction: 'both' });
  const r = detectCommunities(
    csr,
    { leiden, gamma: a.cfg.number('gamma'), maxLevels: a.cfg.number('maxLevels'), maxIterations: a.cfg.number('maxIterations'), tolerance: a.cfg.number('tolerance') },
    a.deadline,
  );
  return {
    kind: 'nodes',
    csr,
    values: [(v) => csr.ids[r.community[v]]],
    summary: { communityCount: countDistinct(r.community), modularity: makeFloat(r.modularity), ranLevels: r.levels },
  };
}

export const COMMUNITY: readonly Algorithm[] = [
  {
    name: 'algo.wcc',
    summary: 'Weakly connected components by union-find (relationship direction ignored).',
    options: [],
    outputs: [node, { name: 'componentId', type: 'INTEGER?' }],
    run(a) {
      // One thread unless `concurrency` asks for more: on a loaded 2-core machine the parallel
      // kernel measured no faster than the sequential one. On the pool the kernel reads the
      // undirected projection, whose rows let it skip the largest component's (wcc.ts).
      const threads = a.cfg.has('concurrency') ? a.threads() : 1;
      const out = a.project({ direction: 'out' });
      const pooled = threads > 1 && out.n > 1 && threadsForWork(threads, out.offsets[out.n]) > 1;
      const csr = pooled ? a.project({ direction: 'both' }) : out;
      const root = weaklyConnected(csr, a.deadline, threads, pooled);
      return { kind: 'nodes', csr, values: [(v) => csr.ids[root[v]]], summary: { componentCount: countDistinct(root) } };
    },
  },
  {
    name: 'algo.scc',
    summary: 'Strongly connected components by iterative Tarjan.',
    options: [],
    direction: 'out',
    outputs: [node, { name: 'componentId', type: 'INTEGER?' }],
    run(a) {
      const csr = a.project();
      const c = stronglyConnected(csr, a.deadline);
      return { kind: 'nodes', csr, values: [(v) => csr.ids[c[v]]], summary: { componentCount: countDistinct(c) } };
    },
  },
  {
    name: 'algo.cdlp',
    aliases: ['algo.labelPropagation'],
    summary: 'Community detection by synchronous label propagation (LDBC Graphalytics CDLP); ties go to the smallest label.',
    options: [{ name: 'maxIterations', type: 'integer', default: 10, min: 0, max: MAX_INT32, doc: 'upper bound on rounds' }],
    direction: 'both',
    outputs: [node, communityId],
    run(a) {
      const csr = a.project();
      const { labels, iterations } = labelPropagation(csr, a.cfg.number('maxIterations'), a.deadline);
      return { kind: 'nodes', csr, values: [(v) => csr.ids[labels[v]]], summary: { communityCount: countDistinct(labels), ranIterations: iterations } };
    },
  },
  {
    name: 'algo.louvain',
    summary: 'Louvain modularity optimisation (deterministic), on the undirected graph, weighted when weightProperty is given.',
    options: MODULARITY_OPTIONS,
    weighted: true,
    outputs: [node, communityId],
    run: (a) => modularityRun(a, false),
  },
  {
    name: 'algo.leiden',
    summary: 'Leiden: Louvain with a refinement phase that keeps communities connected (deterministic greedy refinement).',
    options: MODULARITY_OPTIONS,
    weighted: true,
    outputs: [node, communityId],
    run: (a) => modularityRun(a, true),
  },
  {
    name: 'algo.kCore',
    summary: 'Core number of each node (the largest k such that it belongs to the k-core), on the undirected simple graph.',
    options: [],
    outputs: [node, { name: 'coreValue', type: 'INTEGER?' }],
    run(a) {
      const simple = simpleUndirected(a.project({ direction: 'both', weighted: false }));
      const core = coreNumbers(simple, a.deadline);
      let degeneracy = 0;
      for (const k of core) if (k > degeneracy) degeneracy = k;
      return { kind: 'nodes', csr: simple, values: [(v) => core[v]], summary: { degeneracy } };
    },
  },
  {
    name: 'algo.triangleCount',
    summary: 'Triangles through each node, on the undirected simple graph.',
    options: [],
    outputs: [node, { name: 'triangles', type: 'INTEGER?' }],
    run(a) {
      const simple = simpleUndirected(a.project({ direction: 'both' }));
      const t = trianglesPerNode(simple, a.threads(), a.deadline);
      let total = 0;
      for (const x of t) total += x;
      return { kind: 'nodes', csr: simple, values: [(v) => t[v]], summary: { globalTriangleCount: total / 3 } };
    },
  },
  {
    name: 'algo.lcc',
    summary: 'Local clustering coefficient on the undirected simple graph.',
    options: [],
    outputs: [node, { name: 'coefficient', type: 'FLOAT?' }],
    run(a) {
      const simple = simpleUndirected(a.project({ direction: 'both' }));
      const lcc = localClustering(simple, trianglesPerNode(simple, a.threads(), a.deadline));
      return { kind: 'nodes', csr: simple, values: [(v) => makeFloat(lcc[v])] };
    },
  },
];

/**
 * The centrality procedures: degree, PageRank (personalised with `sourceNodes`),
 * ArticleRank, eigenvector, HITS, betweenness and closeness (harmonic with `harmonic`).
 * Declarations only: the kernels live in their own modules.
 */

import { makeFloat } from '../../runtime/values.js';
import { betweenness } from './betweenness.js';
import { closeness } from './closeness.js';
import { MAX_INT32, type OptionSpec } from './config.js';
import type { Algorithm } from './define.js';
import { eigenvector, hits } from './eigenvector.js';
import { ONNX_MAX_NODES, onnxPageRank } from './onnx-pagerank.js';
import { articleRank, pageRank } from './pagerank.js';
import { sampleDistinct, seededRandom } from './random.js';
import { simpleDirected, transpose } from './simple.js';

const score = { name: 'score', type: 'FLOAT?' };
const node = { name: 'node', type: 'NODE?' };

const DAMPING: OptionSpec = { name: 'dampingFactor', type: 'float', default: 0.85, min: 0, max: 0.999999, doc: 'probability of following a relationship rather than teleporting' };
const tolerance = (d: number, what = 'the mean absolute change per node'): OptionSpec => ({ name: 'tolerance', type: 'float', default: d, min: 0, max: 1, doc: `stop when ${what} falls below this` });
const iterations = (d: number): OptionSpec => ({ name: 'maxIterations', type: 'integer', default: d, min: 0, max: MAX_INT32, doc: 'upper bound on rounds' });
const SEED: OptionSpec = { name: 'randomSeed', type: 'integer', default: 42, min: 0, max: 2 ** 32 - 1, doc: 'seed of the pseudo-random generator' };

export const CENTRALITY: readonly Algorithm[] = [
  {
    name: 'algo.degree',
    summary: 'Number of relationships per node within the projection (a self-loop counts once); weighted: the summed weights.',
    options: [],
    direction: 'out',
    weighted: true,
    outputs: [node, { name: 'degree', type: 'NUMBER?' }],
    run(a) {
      const csr = a.project();
      const w = csr.weights;
      return {
        kind: 'nodes',
        csr,
        values: [
          (v) => {
            if (w === undefined) return csr.offsets[v + 1] - csr.offsets[v];
            let s = 0;
            for (let e = csr.offsets[v]; e < csr.offsets[v + 1]; e++) s += w[e];
            return makeFloat(s);
          },
        ],
      };
    },
  },
  {
    name: 'algo.pageRank',
    summary: 'PageRank by power iteration; scores sum to 1. With sourceNodes, personalised PageRank (teleports and dangling mass go to the sources).',
    options: [DAMPING, iterations(20), tolerance(1e-7, 'the summed absolute change of all scores (which sum to 1)'), { name: 'sourceNodes', type: 'nodes', doc: 'personalisation: nodes (or ids) the random surfer restarts from' }, { name: 'device', type: 'choice', values: ['js', 'onnx'], default: 'js', doc: `'js' (the CSR kernel) or 'onnx' (dense MatMul rounds through ONNX Runtime, up to ${ONNX_MAX_NODES} nodes; the summary's \`device\` names the execution provider used)` }],
    direction: 'out',
    outputs: [node, score],
    run(a) {
      const csr = a.project();
      const sources = a.indicesOf(csr, 'sourceNodes');
      const opts = { dampingFactor: a.cfg.number('dampingFactor'), maxIterations: a.cfg.number('maxIterations'), tolerance: a.cfg.number('tolerance'), sources };
      if (a.cfg.choice('device') === 'onnx') {
        const r = onnxPageRank(csr, opts, a.deadline);
        return { kind: 'nodes', csr, values: [(v) => makeFloat(r.scores[v])], summary: { ranIterations: r.iterations, didConverge: r.converged, device: `onnx:${r.provider}` } };
      }
      const r = pageRank(csr, opts, a.deadline, a.threads());
      return { kind: 'nodes', csr, values: [(v) => makeFloat(r.scores[v])], summary: { ranIterations: r.iterations, didConverge: r.converged, device: 'js' } };
    },
  },
  {
    name: 'algo.articleRank',
    summary: 'ArticleRank: PageRank variant dividing a node\'s share by (out-degree + average out-degree); scores are not normalised.',
    options: [DAMPING, iterations(20), tolerance(1e-7)],
    direction: 'out',
    outputs: [node, score],
    run(a) {
      const csr = a.project();
      const r = articleRank(csr, { dampingFactor: a.cfg.number('dampingFactor'), maxIterations: a.cfg.number('maxIterations'), tolerance: a.cfg.number('tolerance') }, a.deadline);
      return { kind: 'nodes', csr, values: [(v) => makeFloat(r.scores[v])], summary: { ranIterations: r.iterations, didConverge: r.converged } };
    },
  },
  {
    name: 'algo.eigenvector',
    summary: 'Eigenvector centrality by power iteration on A + I (in-neighbours vote, weighted when weightProperty is given); unit Euclidean norm.',
    options: [iterations(100), tolerance(1e-6)],
    direction: 'out',
    weighted: true,
    outputs: [node, score],
    run(a) {
      const csr = a.project();
      const r = eigenvector(csr, a.cfg.number('maxIterations'), a.cfg.number('tolerance'), a.deadline);
      return { kind: 'nodes', csr, values: [(v) => makeFloat(r.scores[v])], summary: { ranIterations: r.iterations, didConverge: r.converged } };
    },
  },
  {
    name: 'algo.hits',
    summary: 'HITS hub and authority scores (Kleinberg), each scaled to sum 1.',
    options: [iterations(100), tolerance(1e-8, 'the summed absolute change of the hub scores (scaled to a maximum of 1)')],
    direction: 'out',
    outputs: [node, { name: 'hub', type: 'FLOAT?' }, { name: 'authority', type: 'FLOAT?' }],
    run(a) {
      const csr = a.project({ weighted: false });
      const r = hits(csr, transpose(csr), a.cfg.number('maxIterations'), a.cfg.number('tolerance'), a.deadline);
      return { kind: 'nodes', csr, values: [(v) => makeFloat(r.hubs[v]), (v) => makeFloat(r.authorities[v])], summary: { ranIterations: r.iterations, didConverge: r.converged } };
    },
  },
  {
    name: 'algo.betweenness',
    summary: 'Betweenness centrality by Brandes\' algorithm (weighted by Dijkstra when weightProperty is given; undirected scores halved). With samplingSize, estimated from that many random sources.',
    options: [{ name: 'samplingSize', type: 'integer', min: 1, max: MAX_INT32, doc: 'number of sampled source nodes (exact when absent)' }, SEED],
    direction: 'out',
    weighted: true,
    outputs: [node, score],
    run(a) {
      const base = a.project();
      const csr = simpleDirected(base);
      const sources = a.cfg.has('samplingSize') ? sampleDistinct(csr.n, a.cfg.number('samplingSize'), seededRandom(a.cfg.number('randomSeed'))) : undefined;
      const s = betweenness(csr, sources, a.cfg.direction() === 'both', a.threads(), a.deadline);
      return { kind: 'nodes', csr, values: [(v) => makeFloat(s[v])] };
    },
  },
  {
    name: 'algo.closeness',
    summary: 'Closeness centrality (r − 1) / Σ distance over the r nodes reached from each node; harmonic: Σ 1 / distance. Weighted by Dijkstra when weightProperty is given.',
    options: [
      { name: 'harmonic', type: 'boolean', default: false, doc: 'harmonic centrality instead of closeness' },
      { name: 'wassermanFaust', type: 'boolean', default: false, doc: 'scale closeness by (r − 1) / (n − 1) for disconnected graphs' },
    ],
    direction: 'out',
    weighted: true,
    outputs: [node, score],
    run(a) {
      const csr = a.project();
      const s = closeness(csr, { harmonic: a.cfg.boolean('harmonic'), wassermanFaust: a.cfg.boolean('wassermanFaust') }, a.threads(), a.deadline);
      return { kind: 'nodes', csr, values: [(v) => makeFloat(s[v])] };
    },
  },
];

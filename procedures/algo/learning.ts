/**
 * The similarity, link-prediction and embedding procedures: node similarity, k nearest
 * neighbours, link prediction, FastRP and node2vec. Declarations only: the kernels live in
 * their own modules.
 */

import { FloatBox, makeFloat, type Value } from '../../runtime/values.js';
import { ArgumentError } from '../../src/errors.js';
import { MAX_INT32, type OptionSpec } from './config.js';
import { simpleUndirected, type Csr } from './csr.js';
import type { Algorithm, AlgoRun } from './define.js';
import { fastRp, node2vec } from './embeddings.js';
import { knn, type KnnMetric } from './knn.js';
import { seededRandom } from './random.js';
import { simpleDirected, transpose } from './simple.js';
import { linkScore, nodeSimilarity, twoHop, type LinkMetric, type SimilarityMetric, type SimilarPair } from './similarity.js';

const node = { name: 'node', type: 'NODE?' };
const pairOutputs = [
  { name: 'node1', type: 'NODE?' },
  { name: 'node2', type: 'NODE?' },
  { name: 'similarity', type: 'FLOAT?' },
];
const SEED: OptionSpec = { name: 'randomSeed', type: 'integer', default: 42, min: 0, max: 2 ** 32 - 1, doc: 'seed of the pseudo-random generator' };
const TOP_K: OptionSpec = { name: 'topK', type: 'integer', default: 10, min: 1, max: MAX_INT32, doc: 'most similar nodes kept per node' };
const CUTOFF: OptionSpec = { name: 'similarityCutoff', type: 'float', default: 1e-42, min: 0, max: 1, doc: 'smallest similarity kept' };
const DIMENSION: OptionSpec = { name: 'embeddingDimension', type: 'integer', default: 64, min: 1, max: 4096, doc: 'length of each embedding' };

function pairRows(a: AlgoRun, csr: Csr, pairs: SimilarPair[]): Value[][] {
  return pairs.map((p) => [a.node(csr, p.a), a.node(csr, p.b), makeFloat(p.score)]);
}

function embeddingValues(x: Float32Array, d: number): (v: number) => Value {
  return (v) => Array.from(x.subarray(v * d, (v + 1) * d), (f) => makeFloat(f));
}

/** The numbers of a vector-valued property, or undefined. */
function vectorOf(value: Value | undefined): number[] | undefined {
  if (value instanceof Float32Array) return Array.from(value);
  if (!Array.isArray(value)) return undefined;
  const out: number[] = [];
  for (const x of value) {
    if (typeof x === 'number') out.push(x);
    else if (typeof x === 'bigint') out.push(Number(x));
    else if (x instanceof FloatBox) out.push(x.value);
    else return undefined;
  }
  return out;
}

export const LEARNING: readonly Algorithm[] = [
  {
    name: 'algo.nodeSimilarity',
    summary: 'Similarity of nodes that share neighbours (Jaccard or overlap of their neighbour sets), the topK best per node.',
    options: [
      { name: 'similarityMetric', type: 'choice', default: 'JACCARD', values: ['JACCARD', 'OVERLAP'], doc: "'JACCARD' or 'OVERLAP'" },
      TOP_K,
      CUTOFF,
      { name: 'degreeCutoff', type: 'integer', default: 1, min: 1, max: MAX_INT32, doc: 'nodes with fewer neighbours are left out' },
    ],
    direction: 'out',
    outputs: pairOutputs,
    run(a) {
      const csr = simpleDirected(a.project({ weighted: false }));
      const pairs = nodeSimilarity(
        csr,
        transpose(csr),
        a.cfg.choice('similarityMetric') as SimilarityMetric,
        a.cfg.number('topK'),
        a.cfg.number('similarityCutoff'),
        a.cfg.number('degreeCutoff'),
        a.deadline,
        a.threads(),
      );
      return { kind: 'rows', rows: pairRows(a, csr, pairs) };
    },
  },
  {
    name: 'algo.knn',
    summary: 'k nearest neighbours by a vector-valued node property (cosine, or 1 / (1 + Euclidean distance)); exact.',
    options: [
      { name: 'nodeProperties', type: 'string', required: true, doc: 'node property holding a list of numbers or a VECTOR' },
      { name: 'similarityMetric', type: 'choice', default: 'COSINE', values: ['COSINE', 'EUCLIDEAN'], doc: "'COSINE' or 'EUCLIDEAN'" },
      TOP_K,
      CUTOFF,
    ],
    outputs: pairOutputs,
    run(a) {
      const csr = a.project({ direction: 'out', weighted: false });
      const key = a.cfg.string('nodeProperties') as string;
      const present = new Uint8Array(csr.n);
      let dim = -1;
      let vectors = new Float64Array(0);
      for (let v = 0; v < csr.n; v++) {
        const vec = vectorOf(a.node(csr, v).prop(key));
        if (vec === undefined) continue;
        if (dim < 0) {
          dim = vec.length;
          vectors = new Float64Array(csr.n * dim);
        }
        if (vec.length !== dim) throw new ArgumentError(`${a.cfg.procedure}: \`${key}\` vectors differ in length (${dim} and ${vec.length})`, 'InvalidAlgorithmOption');
        vectors.set(vec, v * dim);
        present[v] = 1;
      }
      const pairs = dim < 0 ? [] : knn(vectors, dim, present, a.cfg.choice('similarityMetric') as KnnMetric, a.cfg.number('topK'), a.cfg.number('similarityCutoff'), a.deadline, a.threads());
      return { kind: 'rows', rows: pairRows(a, csr, pairs) };
    },
  },
  {
    name: 'algo.linkPrediction',
    summary: 'Link-prediction scores on the undirected simple graph for sourceNodes × targetNodes (default targets: the nodes two hops away).',
    options: [
      {
        name: 'metric',
        type: 'choice',
        default: 'adamicAdar',
        values: ['adamicAdar', 'commonNeighbours', 'preferentialAttachment', 'resourceAllocation', 'totalNeighbours'],
        doc: "'adamicAdar', 'commonNeighbours', 'preferentialAttachment', 'resourceAllocation' or 'totalNeighbours'",
      },
      { name: 'sourceNodes', type: 'nodes', required: true, doc: 'nodes (or ids) to predict links from' },
      { name: 'targetNodes', type: 'nodes', doc: 'candidate ends (default: nodes exactly two hops away)' },
    ],
    outputs: [
      { name: 'node1', type: 'NODE?' },
      { name: 'node2', type: 'NODE?' },
      { name: 'score', type: 'FLOAT?' },
    ],
    run(a) {
      const g = simpleUndirected(a.project({ direction: 'both', weighted: false }));
      const metric = a.cfg.choice('metric') as LinkMetric;
      const targets = a.cfg.has('targetNodes') ? a.indicesOf(g, 'targetNodes') : undefined;
      const rows: Value[][] = [];
      for (const s of a.indicesOf(g, 'sourceNodes')) {
        a.deadline();
        for (const t of targets ?? twoHop(g, s)) {
          if (t === s) continue;
          rows.push([a.node(g, s), a.node(g, t), makeFloat(linkScore(g, metric, s, t))]);
        }
      }
      return { kind: 'rows', rows };
    },
  },
  {
    name: 'algo.fastRP',
    summary: 'FastRP node embeddings: sparse random projection averaged over neighbourhoods, round by round.',
    options: [
      DIMENSION,
      { name: 'iterationWeights', type: 'floats', doc: 'weight of each round, a list of numbers (default [0.0, 1.0, 1.0])' },
      { name: 'normalizationStrength', type: 'float', default: 0, min: -10, max: 10, doc: 'initial vectors scaled by degree to this power' },
      { name: 'nodeSelfInfluence', type: 'float', default: 0, min: 0, max: 1e6, doc: 'weight of the initial random vector' },
      SEED,
    ],
    direction: 'both',
    outputs: [node, { name: 'embedding', type: 'LIST? OF FLOAT?' }],
    run(a) {
      const csr = a.project({ weighted: false });
      const d = a.cfg.number('embeddingDimension');
      const x = fastRp(
        csr,
        {
          dimension: d,
          iterationWeights: iterationWeights(a),
          normalizationStrength: a.cfg.number('normalizationStrength'),
          nodeSelfInfluence: a.cfg.number('nodeSelfInfluence'),
          seed: a.cfg.number('randomSeed'),
        },
        a.deadline,
        a.threads(),
      );
      return { kind: 'nodes', csr, values: [embeddingValues(x, d)] };
    },
  },
  {
    name: 'algo.node2vec',
    summary: 'node2vec embeddings: biased second-order random walks (p, q) fed to skip-gram with negative sampling.',
    options: [
      DIMENSION,
      { name: 'walkLength', type: 'integer', default: 80, min: 2, max: 100000, doc: 'nodes per walk' },
      { name: 'walksPerNode', type: 'integer', default: 10, min: 1, max: 100000, doc: 'walks started at each node' },
      { name: 'returnFactor', type: 'float', default: 1, min: 1e-6, max: 1e6, doc: 'p: larger values make stepping back less likely' },
      { name: 'inOutFactor', type: 'float', default: 1, min: 1e-6, max: 1e6, doc: 'q: larger values keep walks local' },
      { name: 'windowSize', type: 'integer', default: 10, min: 1, max: 1000, doc: 'context window on each side' },
      { name: 'negativeSamplingRate', type: 'integer', default: 5, min: 0, max: 1000, doc: 'negative samples per positive pair' },
      { name: 'iterations', type: 'integer', default: 1, min: 1, max: 1000, doc: 'passes over the walks' },
      { name: 'initialLearningRate', type: 'float', default: 0.025, min: 0, max: 10, doc: 'SGD step size, decayed linearly' },
      SEED,
    ],
    direction: 'both',
    outputs: [node, { name: 'embedding', type: 'LIST? OF FLOAT?' }],
    run(a) {
      const csr = simpleDirected(a.project({ weighted: false }));
      const d = a.cfg.number('embeddingDimension');
      const x = node2vec(
        csr,
        {
          dimension: d,
          walkLength: a.cfg.number('walkLength'),
          walksPerNode: a.cfg.number('walksPerNode'),
          returnFactor: a.cfg.number('returnFactor'),
          inOutFactor: a.cfg.number('inOutFactor'),
          windowSize: a.cfg.number('windowSize'),
          negativeSamples: a.cfg.number('negativeSamplingRate'),
          iterations: a.cfg.number('iterations'),
          learningRate: a.cfg.number('initialLearningRate'),
        },
        seededRandom(a.cfg.number('randomSeed')),
        a.deadline,
      );
      return { kind: 'nodes', csr, values: [embeddingValues(x, d)] };
    },
  },
];

function iterationWeights(a: AlgoRun): number[] {
  return a.cfg.floats('iterationWeights') ?? [0, 1, 1];
}

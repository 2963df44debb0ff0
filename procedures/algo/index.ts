/**
 * The `algo.*` procedures: graph algorithms callable as
 * `CALL algo.<name>(config) YIELD node, <value>`, all read-only. Each call projects the
 * store into a CSR (`csr.ts`) as the config selects it (`label`, `relationshipType` — one
 * name or a list —, `direction`: 'OUT' | 'IN' | 'BOTH'), runs a kernel over typed arrays and
 * yields one row per node. Rows come in ascending node-id order, except for `algo.bfs`
 * (visit order) and `algo.sssp` (settle order, i.e. by distance). Tie-breaking rules are in
 * each kernel's module comment.
 */

import type { Value } from '../../runtime/values.js';
import { makeFloat } from '../../runtime/values.js';
import { ArgumentError } from '../../src/errors.js';
import type { Node } from '../../src/store/entities.js';
import type { ProcedureContext, ProcedureDef, ProcedureRegistry } from '../registry.js';
import { bfs } from './bfs.js';
import { labelPropagation } from './cdlp.js';
import { AlgoConfig } from './config.js';
import { cachedCsr, simpleUndirected, type Csr, type Direction } from './csr.js';
import { deadlineOf } from './deadline.js';
import { pageRank } from './pagerank.js';
import { dijkstra } from './sssp.js';
import { localClustering, trianglesPerNode } from './triangles.js';
import { weaklyConnected } from './wcc.js';

const CONFIG = [{ name: 'config', type: 'MAP?', default: new Map() }];
const NODE = { name: 'node', type: 'NODE?' };
const SELECT = ['label', 'relationshipType'];
const SELECT_DIRECTED = [...SELECT, 'direction'];
const MAX_INT32 = 2 ** 31 - 1;

/** Reads the projection keys and builds the CSR. */
function project(ctx: ProcedureContext, cfg: AlgoConfig, direction: Direction, weightProperty?: string, defaultWeight?: number): Csr {
  return cachedCsr(ctx.graph, { label: cfg.string('label'), types: cfg.strings('relationshipType'), direction, weightProperty, defaultWeight });
}

/** The dense index of the config's `source` node, which must be part of the projection. */
function sourceIndex(name: string, ctx: ProcedureContext, cfg: AlgoConfig, csr: Csr): number {
  const node = cfg.node('source', ctx.graph);
  const v = node.id < csr.index.length ? csr.index[node.id] : -1;
  if (v < 0) throw new ArgumentError(`${name}: the source node is not part of the projected graph`);
  return v;
}

/** One row per node in dense order: the node and `value(v)`. */
function* perNode(ctx: ProcedureContext, csr: Csr, value: (v: number) => Value): Iterable<Value[]> {
  const nodes = ctx.graph.nodes;
  for (let v = 0; v < csr.n; v++) yield [nodes[csr.ids[v]] as Node, value(v)];
}

/** Rows for the first `count` dense indices of `order`. */
function* inOrder(ctx: ProcedureContext, csr: Csr, order: Int32Array, count: number, value: (v: number) => Value): Iterable<Value[]> {
  const nodes = ctx.graph.nodes;
  for (let i = 0; i < count; i++) yield [nodes[csr.ids[order[i]]] as Node, value(order[i])];
}

function def(name: string, output: { name: string; type: string }, description: string, invoke: ProcedureDef['invoke']): ProcedureDef {
  return { name, inputs: CONFIG, outputs: [NODE, output], mode: 'read', description, invoke };
}

export const ALGORITHMS: readonly ProcedureDef[] = [
  def(
    'algo.pageRank',
    { name: 'score', type: 'FLOAT?' },
    'PageRank by power iteration (config: label, relationshipType, direction = OUT, dampingFactor = 0.85, maxIterations = 20, tolerance = 1e-7). Scores sum to 1.',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.pageRank', raw, [...SELECT_DIRECTED, 'dampingFactor', 'maxIterations', 'tolerance']);
      const opts = {
        dampingFactor: cfg.number('dampingFactor', 0.85, 0, 0.999999),
        maxIterations: cfg.integer('maxIterations', 20, 0, MAX_INT32),
        tolerance: cfg.number('tolerance', 1e-7, 0, 1),
      };
      const csr = project(ctx, cfg, cfg.direction('out'));
      const { scores } = pageRank(csr, opts, deadlineOf(ctx));
      return perNode(ctx, csr, (v) => makeFloat(scores[v]));
    },
  ),
  def(
    'algo.wcc',
    { name: 'componentId', type: 'INTEGER?' },
    'Weakly connected components (config: label, relationshipType). A component id is the smallest node id in the component.',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.wcc', raw, SELECT);
      const csr = project(ctx, cfg, 'out');
      const root = weaklyConnected(csr, deadlineOf(ctx));
      return perNode(ctx, csr, (v) => csr.ids[root[v]]);
    },
  ),
  def(
    'algo.bfs',
    { name: 'depth', type: 'INTEGER?' },
    'Breadth-first search (config: source (node or id), maxDepth, label, relationshipType, direction = OUT). Yields the reached nodes in visit order.',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.bfs', raw, [...SELECT_DIRECTED, 'source', 'maxDepth']);
      const maxDepth = cfg.integer('maxDepth', MAX_INT32, 0, MAX_INT32);
      const csr = project(ctx, cfg, cfg.direction('out'));
      const { order, count, depth } = bfs(csr, sourceIndex('algo.bfs', ctx, cfg, csr), maxDepth, deadlineOf(ctx));
      return inOrder(ctx, csr, order, count, (v) => depth[v]);
    },
  ),
  def(
    'algo.sssp',
    { name: 'distance', type: 'FLOAT?' },
    'Single-source shortest paths by Dijkstra (config: source (node or id), weightProperty (unweighted when absent), defaultWeight = 1, label, relationshipType, direction = OUT). Yields the reached nodes by increasing distance.',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.sssp', raw, [...SELECT_DIRECTED, 'source', 'weightProperty', 'defaultWeight']);
      const weight = cfg.string('weightProperty');
      const fallback = cfg.number('defaultWeight', 1, 0, Number.MAX_VALUE);
      const csr = project(ctx, cfg, cfg.direction('out'), weight, fallback);
      const { order, count, dist } = dijkstra(csr, sourceIndex('algo.sssp', ctx, cfg, csr), deadlineOf(ctx));
      return inOrder(ctx, csr, order, count, (v) => makeFloat(dist[v]));
    },
  ),
  def(
    'algo.cdlp',
    { name: 'communityId', type: 'INTEGER?' },
    'Community detection by synchronous label propagation (config: maxIterations = 10, label, relationshipType, direction = BOTH). Ties go to the smallest label; a community id is a node id.',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.cdlp', raw, [...SELECT_DIRECTED, 'maxIterations']);
      const maxIterations = cfg.integer('maxIterations', 10, 0, MAX_INT32);
      const csr = project(ctx, cfg, cfg.direction('both'));
      const { labels } = labelPropagation(csr, maxIterations, deadlineOf(ctx));
      return perNode(ctx, csr, (v) => csr.ids[labels[v]]);
    },
  ),
  def(
    'algo.lcc',
    { name: 'coefficient', type: 'FLOAT?' },
    'Local clustering coefficient on the undirected simple graph (config: label, relationshipType).',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.lcc', raw, SELECT);
      const simple = simpleUndirected(project(ctx, cfg, 'both'));
      const lcc = localClustering(simple, trianglesPerNode(simple, deadlineOf(ctx)));
      return perNode(ctx, simple, (v) => makeFloat(lcc[v]));
    },
  ),
  def(
    'algo.triangleCount',
    { name: 'triangles', type: 'INTEGER?' },
    'Triangles through each node, on the undirected simple graph (config: label, relationshipType).',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.triangleCount', raw, SELECT);
      const simple = simpleUndirected(project(ctx, cfg, 'both'));
      const triangles = trianglesPerNode(simple, deadlineOf(ctx));
      return perNode(ctx, simple, (v) => triangles[v]);
    },
  ),
  def(
    'algo.degree',
    { name: 'degree', type: 'INTEGER?' },
    'Number of relationships per node within the projection (config: label, relationshipType, direction = OUT; a self-loop counts once).',
    (ctx, [raw]) => {
      const cfg = new AlgoConfig('algo.degree', raw, SELECT_DIRECTED);
      const csr = project(ctx, cfg, cfg.direction('out'));
      return perNode(ctx, csr, (v) => csr.offsets[v + 1] - csr.offsets[v]);
    },
  ),
];

/** Registers every `algo.*` procedure. */
export function registerAlgorithms(registry: ProcedureRegistry): void {
  for (const p of ALGORITHMS) registry.register(p);
}

/**
 * The path procedures: breadth- and depth-first search, Dijkstra (to every node, or along
 * the path to a `target`), A*, Yen's k shortest paths and Bellman–Ford. Declarations only:
 * the kernels live in their own modules.
 */

import { makeFloat, type Value } from '../../runtime/values.js';
import { PointValue } from '../../runtime/spatial/point.js';
import { ArgumentError } from '../../src/errors.js';
import type { Node } from '../../src/store/entities.js';
import { bellmanFord } from './bellmanford.js';
import { bfs, type BfsResult } from './bfs.js';
import { bfsDirectionOptimising } from './bfs-parallel.js';
import { threadsForWork } from './parallel.js';
import { MAX_INT32, type OptionSpec } from './config.js';
import type { Csr } from './csr.js';
import type { Algorithm, AlgoRun } from './define.js';
import { dfs } from './dfs.js';
import { simpleDirected } from './simple.js';
import { deltaStepping } from './delta-stepping.js';
import { dijkstra, pathTo } from './sssp.js';
import { yens } from './yens.js';

const node = { name: 'node', type: 'NODE?' };
const distance = { name: 'distance', type: 'FLOAT?' };
// Neo4j GDS calls them sourceNode and targetNode: accepted as aliases.
const SOURCE: OptionSpec = { name: 'source', alias: 'sourceNode', type: 'node', required: true, doc: 'start node (a node or a node id)' };
const TARGET: OptionSpec = { name: 'target', alias: 'targetNode', type: 'node', doc: 'end node (a node or a node id)' };
const MAX_DEPTH: OptionSpec = { name: 'maxDepth', type: 'integer', default: MAX_INT32, min: 0, max: MAX_INT32, doc: 'deepest level visited' };

/** Rows along a path of dense indices with cumulative distances. */
function pathRows(csr: Csr, path: number[], dist: Float64Array): { csr: Csr; order: Int32Array; values: ((v: number) => Value)[] } {
  return { csr, order: Int32Array.from(path), values: [(v) => makeFloat(dist[v])] };
}

/** Planar coordinates of every node of the projection for A*'s heuristic. */
function coordinates(a: AlgoRun, csr: Csr): { xs: Float64Array; ys: Float64Array; geographic: boolean } {
  const point = a.cfg.string('pointProperty');
  const xKey = a.cfg.string('xProperty');
  const yKey = a.cfg.string('yProperty');
  if (point === undefined && (xKey === undefined || yKey === undefined)) {
    throw new ArgumentError(`${a.cfg.procedure}: give either pointProperty or both xProperty and yProperty`, 'InvalidAlgorithmOption');
  }
  const xs = new Float64Array(csr.n);
  const ys = new Float64Array(csr.n);
  let geographic = false;
  for (let v = 0; v < csr.n; v++) {
    const n = a.node(csr, v);
    if (point !== undefined) {
      const p = n.prop(point);
      if (!(p instanceof PointValue)) throw new ArgumentError(`${a.cfg.procedure}: node ${n.id} has no point in \`${point}\``, 'InvalidAlgorithmOption');
      geographic = p.crs.geographic;
      xs[v] = p.x;
      ys[v] = p.y;
    } else {
      xs[v] = numberProp(a, n, xKey as string);
      ys[v] = numberProp(a, n, yKey as string);
    }
  }
  return { xs, ys, geographic };
}

function numberProp(a: AlgoRun, n: Node, key: string): number {
  const v = n.prop(key);
  const x = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v !== null && typeof v === 'object' && 'value' in v && typeof v.value === 'number' ? v.value : NaN;
  if (!Number.isFinite(x)) throw new ArgumentError(`${a.cfg.procedure}: node ${n.id} has no number in \`${key}\``, 'InvalidAlgorithmOption');
  return x;
}

/** Great-circle distance in metres between two WGS-84 points given in degrees (haversine). */
function haversine(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLon = (lon2 - lon1) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export const PATHS: readonly Algorithm[] = [
  {
    name: 'algo.bfs',
    summary: 'Breadth-first search; yields the reached nodes in visit order with their depth (with `concurrency`: direction-optimising on the worker pool, nodes by depth then by id).',
    options: [SOURCE, MAX_DEPTH],
    direction: 'out',
    outputs: [node, { name: 'depth', type: 'INTEGER?' }],
    run(a) {
      const csr = a.project({ weighted: false });
      const source = a.indexOf(csr, 'source');
      const maxDepth = a.cfg.number('maxDepth');
      let r: BfsResult;
      if (a.cfg.has('concurrency')) {
        // Bottom-up levels read incoming rows: the projection itself when it holds both directions.
        const dir = a.cfg.direction();
        const incoming = dir === 'both' ? csr : a.project({ weighted: false, direction: dir === 'out' ? 'in' : 'out' });
        r = bfsDirectionOptimising(csr, incoming, source, maxDepth, a.deadline, threadsForWork(a.threads(), csr.offsets[csr.n]));
      } else r = bfs(csr, source, maxDepth, a.deadline);
      return { kind: 'nodes', csr, order: r.order, count: r.count, values: [(v) => r.depth[v]] };
    },
  },
  {
    name: 'algo.dfs',
    summary: 'Depth-first search exploring neighbours in ascending node-id order; yields nodes in discovery order with their depth in the search tree.',
    options: [SOURCE, MAX_DEPTH],
    direction: 'out',
    outputs: [node, { name: 'depth', type: 'INTEGER?' }],
    run(a) {
      const csr = simpleDirected(a.project({ weighted: false }));
      const r = dfs(csr, a.indexOf(csr, 'source'), a.cfg.number('maxDepth'), a.deadline);
      return { kind: 'nodes', csr, order: r.order, count: r.count, values: [(v) => r.depth[v]] };
    },
  },
  {
    name: 'algo.sssp',
    summary: 'Single-source shortest paths by Dijkstra: the reached nodes by increasing distance, or with target the nodes of one shortest path to it in path order (with `concurrency` and no target: delta-stepping on the worker pool, the same distances, nodes by distance then by id).',
    options: [
      SOURCE,
      TARGET,
      { name: 'delta', type: 'float', min: Number.MIN_VALUE, max: Number.MAX_VALUE, doc: 'bucket width of delta-stepping (with concurrency); default: the heaviest weight over the mean out-degree' },
    ],
    direction: 'out',
    weighted: true,
    outputs: [node, distance],
    run(a) {
      const csr = a.project();
      const source = a.indexOf(csr, 'source');
      const target = a.indexOf(csr, 'target', false);
      if (a.cfg.has('concurrency') && target < 0) {
        // A path needs predecessors, which delta-stepping does not fix (ties go to whichever thread wins); with a target, Dijkstra also stops early.
        const d = deltaStepping(csr, source, a.deadline, threadsForWork(a.threads(), csr.offsets[csr.n]), a.cfg.has('delta') ? a.cfg.number('delta') : undefined);
        return { kind: 'nodes', csr, order: d.order, count: d.count, values: [(v) => makeFloat(d.dist[v])] };
      }
      const r = dijkstra(csr, source, a.deadline, target);
      if (target < 0) return { kind: 'nodes', csr, order: r.order, count: r.count, values: [(v) => makeFloat(r.dist[v])] };
      const path = pathTo(r, source, target);
      return { kind: 'nodes', ...pathRows(csr, path, r.dist), summary: { totalCost: path.length > 0 ? makeFloat(r.dist[target]) : null } };
    },
  },
  {
    name: 'algo.astar',
    summary: 'A* shortest path from source to target, guided by straight-line distance between node coordinates (a point property, or x/y properties; WGS-84 points in metres). The heuristic must not overestimate the weights.',
    options: [
      SOURCE,
      { ...TARGET, required: true },
      { name: 'pointProperty', type: 'string', doc: 'node property holding a POINT' },
      { name: 'xProperty', type: 'string', doc: 'node property holding the x coordinate' },
      { name: 'yProperty', type: 'string', doc: 'node property holding the y coordinate' },
    ],
    direction: 'out',
    weighted: true,
    outputs: [node, distance],
    run(a) {
      const csr = a.project();
      const source = a.indexOf(csr, 'source');
      const target = a.indexOf(csr, 'target');
      const { xs, ys, geographic } = coordinates(a, csr);
      const h = geographic
        ? (v: number) => haversine(xs[v], ys[v], xs[target], ys[target])
        : (v: number) => Math.hypot(xs[v] - xs[target], ys[v] - ys[target]);
      const r = dijkstra(csr, source, a.deadline, target, h);
      const path = pathTo(r, source, target);
      return { kind: 'nodes', ...pathRows(csr, path, r.dist), summary: { totalCost: path.length > 0 ? makeFloat(r.dist[target]) : null, visited: r.count } };
    },
  },
  {
    name: 'algo.yens',
    summary: "Yen's k shortest loopless paths from source to target, cheapest first.",
    options: [SOURCE, { ...TARGET, required: true }, { name: 'k', type: 'integer', default: 3, min: 1, max: 10000, doc: 'number of paths' }],
    direction: 'out',
    weighted: true,
    outputs: [
      { name: 'index', type: 'INTEGER?' },
      { name: 'nodes', type: 'LIST? OF NODE?' },
      { name: 'costs', type: 'LIST? OF FLOAT?' },
      { name: 'totalCost', type: 'FLOAT?' },
    ],
    run(a) {
      const csr = a.project();
      const paths = yens(csr, a.indexOf(csr, 'source'), a.indexOf(csr, 'target'), a.cfg.number('k'), a.deadline);
      const rows = paths.map((p, i) => {
        const costs: Value[] = [makeFloat(0)];
        let acc = 0;
        for (const e of p.edges) costs.push(makeFloat((acc += csr.weights === undefined ? 1 : csr.weights[e])));
        return [i, p.nodes.map((v) => a.node(csr, v)), costs, makeFloat(p.cost)];
      });
      return { kind: 'rows', rows };
    },
  },
  {
    name: 'algo.bellmanFord',
    summary: 'Single-source shortest paths by Bellman–Ford, allowing negative weights. When a negative cycle is reachable, yields that cycle\'s nodes (distance null, negativeCycle true) instead.',
    options: [SOURCE],
    direction: 'out',
    weighted: true,
    outputs: [node, distance, { name: 'negativeCycle', type: 'BOOLEAN?' }],
    run(a) {
      const csr = a.project({ negativeWeights: true });
      const r = bellmanFord(csr, a.indexOf(csr, 'source'), a.deadline);
      const cycle = r.negativeCycle.length > 0;
      let order: Int32Array;
      if (cycle) order = Int32Array.from(r.negativeCycle);
      else {
        const reached: number[] = [];
        for (let v = 0; v < csr.n; v++) if (r.dist[v] < Infinity) reached.push(v);
        order = Int32Array.from(reached);
      }
      return {
        kind: 'nodes',
        csr,
        order,
        values: [(v) => (cycle ? null : makeFloat(r.dist[v])), () => cycle],
        summary: { negativeCycle: cycle },
      };
    },
  },
];

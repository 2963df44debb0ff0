/**
 * The structure procedures: articulation points, bridges and spanning trees, all on the
 * undirected graph. Declarations only: the kernels live in their own modules.
 */

import { makeFloat } from '../../runtime/values.js';
import { biconnected } from './biconnected.js';
import type { Algorithm } from './define.js';
import { prim } from './spanningtree.js';

const node = { name: 'node', type: 'NODE?' };

export const STRUCTURE: readonly Algorithm[] = [
  {
    name: 'algo.articulationPoints',
    summary: 'Articulation points (cut vertices) of the undirected graph by Tarjan\'s low-link search; yields only the articulation points.',
    options: [],
    outputs: [node, { name: 'articulationPoint', type: 'BOOLEAN?' }],
    run(a) {
      const csr = a.project({ direction: 'both', weighted: false });
      const { articulation } = biconnected(csr, a.deadline);
      const points: number[] = [];
      for (let v = 0; v < csr.n; v++) if (articulation[v] === 1) points.push(v);
      return { kind: 'nodes', csr, order: Int32Array.from(points), values: [() => true] };
    },
  },
  {
    name: 'algo.bridges',
    summary: 'Bridges of the undirected graph (relationships whose removal disconnects it); parallel relationships are never bridges.',
    options: [],
    outputs: [
      { name: 'source', type: 'NODE?' },
      { name: 'target', type: 'NODE?' },
    ],
    run(a) {
      const csr = a.project({ direction: 'both', weighted: false });
      const { bridges } = biconnected(csr, a.deadline);
      return { kind: 'rows', rows: bridges.map(([p, c]) => [a.node(csr, Math.min(p, c)), a.node(csr, Math.max(p, c))]), summary: { bridgeCount: bridges.length } };
    },
  },
  {
    name: 'algo.spanningTree',
    summary: 'Minimum (or maximum) spanning tree by Prim from source, or a spanning forest of every component; yields each tree node with its parent\'s node id and the connecting weight.',
    options: [
      { name: 'source', type: 'node', doc: 'root node; a forest over all components when absent' },
      { name: 'objective', type: 'choice', default: 'minimum', values: ['minimum', 'maximum'], doc: "'minimum' or 'maximum' total weight" },
    ],
    weighted: true,
    outputs: [node, { name: 'parentId', type: 'INTEGER?' }, { name: 'weight', type: 'FLOAT?' }],
    run(a) {
      const csr = a.project({ direction: 'both' });
      const t = prim(csr, a.indexOf(csr, 'source', false), a.cfg.choice('objective') === 'maximum', a.deadline);
      return {
        kind: 'nodes',
        csr,
        order: t.order,
        count: t.count,
        values: [(v) => (t.parent[v] < 0 ? null : csr.ids[t.parent[v]]), (v) => makeFloat(t.weight[v])],
        summary: { totalWeight: makeFloat(t.total), treeNodes: t.count },
      };
    },
  },
];

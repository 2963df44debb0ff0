/**
 * `apoc.merge.node` / `apoc.merge.relationship`: MERGE with labels, type and identifying
 * properties given as values, plus separate property maps applied on create and on match.
 */

import { Node, Rel } from '../../src/store/entities.js';
import { createNode, createRel, setProperties } from '../../runtime/graph/writes.js';
import { equals } from '../../runtime/compare.js';
import type { Value } from '../../runtime/values.js';
import type { Graph } from '../../src/store/graph.js';
import type { ProcedureRegistry } from '../registry.js';
import { badArgument, field, invalidArgument, mapOrEmpty, procedure, requiredString, stringList } from '../define.js';

function hasProps(e: Node | Rel, props: Map<string, Value>): boolean {
  for (const [k, v] of props) if (equals(e.prop(k) ?? null, v) !== true) return false;
  return true;
}

function identifying(v: Value, proc: string): Map<string, Value> {
  const m = mapOrEmpty(v, proc, 'identProps');
  for (const [k, x] of m) if (x === null) throw invalidArgument(proc, 'identProps', `has a null value for '${k}': null can never be matched`);
  return m;
}

function candidates(g: Graph, labels: string[]): Iterable<Node> {
  if (labels.length === 0) return g.allNodes();
  const set = g.labelSet(labels[0]);
  if (!set) return [];
  const out: Node[] = [];
  for (let i = 0; i < set.length; i++) {
    const n = g.node(set.ids[i]);
    if (n && !n.deleted && labels.every((l) => n.hasLabel(l))) out.push(n);
  }
  return out;
}

export function registerApocMerge(registry: ProcedureRegistry): void {
  registry.register(
    procedure(
      'apoc.merge.node',
      'write',
      'Finds the nodes with the labels and identifying properties, or creates one; then applies the on-create or on-match properties.',
      [field('labels', 'LIST<STRING>'), field('identProps', 'MAP'), field('onCreateProps', 'MAP', new Map()), field('onMatchProps', 'MAP', new Map())],
      [field('node', 'NODE')],
      (ctx, [labels, ident, onCreate, onMatch]) => {
        const ls = stringList(labels, 'apoc.merge.node', 'labels');
        const id = identifying(ident, 'apoc.merge.node');
        const found: Node[] = [];
        for (const n of candidates(ctx.graph, ls)) if (hasProps(n, id)) found.push(n);
        if (found.length === 0) {
          const n = createNode(ctx.graph, ls, new Map([...id, ...mapOrEmpty(onCreate, 'apoc.merge.node', 'onCreateProps')]), false);
          return [[n]];
        }
        const match = mapOrEmpty(onMatch, 'apoc.merge.node', 'onMatchProps');
        return found.map((n) => {
          if (match.size > 0) setProperties(ctx.graph, n, match, true);
          return [n];
        });
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.merge.relationship',
      'write',
      'Finds the relationships of the type and identifying properties between two nodes, or creates one; then applies the on-create or on-match properties.',
      [field('startNode', 'NODE'), field('relType', 'STRING'), field('identProps', 'MAP'), field('onCreateProps', 'MAP'), field('endNode', 'NODE'), field('onMatchProps', 'MAP', new Map())],
      [field('rel', 'RELATIONSHIP')],
      (ctx, [start, type, ident, onCreate, end, onMatch]) => {
        const t = requiredString(type, 'apoc.merge.relationship', 'relType');
        if (!(start instanceof Node)) throw badArgument('apoc.merge.relationship', 'startNode', start, 'a node');
        if (!(end instanceof Node)) throw badArgument('apoc.merge.relationship', 'endNode', end, 'a node');
        const id = identifying(ident, 'apoc.merge.relationship');
        const typeId = ctx.graph.typeId(t);
        const found: Rel[] = [];
        if (typeId !== undefined) {
          ctx.graph.forEachAdjacent(start, [typeId], 'out', (relId) => {
            const r = ctx.graph.rel(relId);
            if (r && r.end === end && hasProps(r, id)) found.push(r);
          });
        }
        if (found.length === 0) {
          return [[createRel(ctx.graph, t, start, end, new Map([...id, ...mapOrEmpty(onCreate, 'apoc.merge.relationship', 'onCreateProps')]), false)]];
        }
        const match = mapOrEmpty(onMatch, 'apoc.merge.relationship', 'onMatchProps');
        return found.map((r) => {
          if (match.size > 0) setProperties(ctx.graph, r, match, true);
          return [r];
        });
      },
    ),
  );
}

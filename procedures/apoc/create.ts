/**
 * `apoc.create.*`: creating nodes and relationships with labels and types from values,
 * changing labels and properties of given entities, and `apoc.create.uuids`. Every change
 * goes through the store's transaction with openCypher's property rules (runtime/graph/writes.ts).
 */

import { randomUUID } from 'node:crypto';
import { Node } from '../../src/store/entities.js';
import { addLabels, createNode, createRel, removeLabels, setProperty } from '../../runtime/graph/writes.js';
import type { Value } from '../../runtime/values.js';
import type { ProcedureRegistry } from '../registry.js';
import { badArgument, field, integerOr, invalidArgument, mapOrEmpty, nodesOf, procedure, relsOf, requiredString, stringList } from '../define.js';

const NODE_OUT = [field('node', 'NODE')];
const REL_OUT = [field('rel', 'RELATIONSHIP')];

export function registerApocCreate(registry: ProcedureRegistry): void {
  registry.register(
    procedure('apoc.create.node', 'write', 'Creates a node with labels and properties given as values.', [field('labels', 'LIST<STRING>'), field('props', 'MAP')], NODE_OUT, (ctx, [labels, props]) => [
      [createNode(ctx.graph, stringList(labels, 'apoc.create.node', 'labels'), mapOrEmpty(props, 'apoc.create.node', 'props'), false)],
    ]),
  );
  registry.register(
    procedure('apoc.create.nodes', 'write', 'Creates one node per property map, all with the given labels.', [field('labels', 'LIST<STRING>'), field('props', 'LIST<MAP>')], NODE_OUT, (ctx, [labels, props]) => {
      const ls = stringList(labels, 'apoc.create.nodes', 'labels');
      const maps = (props ?? []) as Value[];
      return maps.map((m) => [createNode(ctx.graph, ls, mapOrEmpty(m, 'apoc.create.nodes', 'props'), false)]);
    }),
  );
  registry.register(
    procedure(
      'apoc.create.relationship',
      'write',
      'Creates a relationship of a type given as a value.',
      [field('from', 'NODE'), field('relType', 'STRING'), field('props', 'MAP'), field('to', 'NODE')],
      REL_OUT,
      (ctx, [from, type, props, to]) => {
        const t = requiredString(type, 'apoc.create.relationship', 'relType');
        if (t === '') throw invalidArgument('apoc.create.relationship', 'relType', 'must not be empty');
        if (!(from instanceof Node)) throw badArgument('apoc.create.relationship', 'from', from, 'a node');
        if (!(to instanceof Node)) throw badArgument('apoc.create.relationship', 'to', to, 'a node');
        return [[createRel(ctx.graph, t, from, to, mapOrEmpty(props, 'apoc.create.relationship', 'props'), false)]];
      },
    ),
  );
  const labelProc = (name: string, description: string, apply: (n: Node, labels: string[], write: (n: Node, add: string[], remove: string[]) => void) => void) =>
    procedure(name, 'write', description, [field('nodes', 'ANY'), field('labels', 'LIST<STRING>')], NODE_OUT, (ctx, [nodes, labels]) => {
      const ls = stringList(labels, name, 'labels');
      return nodesOf(nodes, ctx, name, 'nodes').map((n) => {
        apply(n, ls, (node, add, remove) => {
          addLabels(ctx.graph, node, add);
          removeLabels(ctx.graph, node, remove);
        });
        return [n];
      });
    });
  registry.register(labelProc('apoc.create.addLabels', 'Adds labels (given as values) to nodes.', (n, ls, w) => w(n, ls, [])));
  registry.register(
    labelProc('apoc.create.setLabels', 'Sets the labels of nodes to exactly the given ones.', (n, ls, w) =>
      w(
        n,
        ls,
        n.labels.filter((l) => !ls.includes(l)),
      ),
    ),
  );
  registry.register(labelProc('apoc.create.removeLabels', 'Removes labels (given as values) from nodes.', (n, ls, w) => w(n, [], ls)));
  registry.register(
    procedure('apoc.create.setProperty', 'write', 'Sets a property (key given as a value) on nodes.', [field('nodes', 'ANY'), field('key', 'STRING'), field('value', 'ANY')], NODE_OUT, (ctx, [nodes, key, value]) => {
      const k = requiredString(key, 'apoc.create.setProperty', 'key');
      return nodesOf(nodes, ctx, 'apoc.create.setProperty', 'nodes').map((n) => {
        setProperty(ctx.graph, n, k, value);
        return [n];
      });
    }),
  );
  registry.register(
    procedure(
      'apoc.create.setProperties',
      'write',
      'Sets several properties (keys and values as parallel lists) on nodes.',
      [field('nodes', 'ANY'), field('keys', 'LIST<STRING>'), field('values', 'LIST<ANY>')],
      NODE_OUT,
      (ctx, [nodes, keys, values]) => {
        const ks = stringList(keys, 'apoc.create.setProperties', 'keys');
        const vs = (values ?? []) as Value[];
        if (vs.length !== ks.length) throw invalidArgument('apoc.create.setProperties', 'values', `must have as many entries as keys (${ks.length}), has ${vs.length}`);
        return nodesOf(nodes, ctx, 'apoc.create.setProperties', 'nodes').map((n) => {
          ks.forEach((k, i) => setProperty(ctx.graph, n, k, vs[i]));
          return [n];
        });
      },
    ),
  );
  registry.register(
    procedure('apoc.create.setRelProperty', 'write', 'Sets a property (key given as a value) on relationships.', [field('rels', 'ANY'), field('key', 'STRING'), field('value', 'ANY')], REL_OUT, (ctx, [rels, key, value]) => {
      const k = requiredString(key, 'apoc.create.setRelProperty', 'key');
      return relsOf(rels, ctx, 'apoc.create.setRelProperty', 'rels').map((r) => {
        setProperty(ctx.graph, r, k, value);
        return [r];
      });
    }),
  );
  registry.register(
    procedure('apoc.create.uuids', 'read', 'Returns the given number of random UUIDs, numbered from 0.', [field('count', 'INTEGER')], [field('row', 'INTEGER'), field('uuid', 'STRING')], (ctx, [count]) => {
      const n = integerOr(count, 0, 'apoc.create.uuids', 'count');
      if (n < 0 || n > 1_000_000) throw invalidArgument('apoc.create.uuids', 'count', `must be between 0 and 1000000, got ${n}`);
      const rows: Value[][] = [];
      for (let i = 0; i < n; i++) rows.push([i, randomUUID()]);
      return rows;
    }),
  );
}

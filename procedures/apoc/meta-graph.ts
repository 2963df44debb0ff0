/**
 * The schema as APOC's graph and index listings: `apoc.meta.graph` / `apoc.meta.graphSample`
 * (one virtual node per label, one virtual relationship per label–type–label triple, each
 * with its count), `apoc.schema.nodes` (the indexes and constraints of node labels) and
 * `apoc.schema.properties.distinct` (the distinct values of one label's property). LangChain's
 * enhanced schema reads the counts of the first and the values of the last.
 */

import { DetachedProperties, Node, Rel } from '../../src/store/entities.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { groupKey, type GroupKey } from '../../runtime/groupkey.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { field, mapOrEmpty, procedure, requiredString, stringList } from '../define.js';
import { everyFewThousand } from '../db/property-types.js';

/** Virtual nodes and relationships: negative ids, so they never collide with stored ones. */
function metaGraph(ctx: ProcedureContext): Value[][] {
  const g = ctx.graph;
  let nextId = -1;
  const byLabel = new Map<string, Node>();
  for (const label of g.labels()) {
    const count = g.labelCount(label);
    if (count === 0) continue;
    byLabel.set(label, new Node(nextId--, [label], new DetachedProperties(new Map<string, Value>([['name', label], ['count', count]]))));
  }
  const triples = new Map<string, { from: Node; to: Node; type: string; typeId: number; count: number }>();
  const tick = everyFewThousand(() => ctx.checkDeadline());
  for (const r of g.allRels()) {
    tick();
    for (const a of r.start.labels) {
      for (const b of r.end.labels) {
        const key = `${a}\u0000${r.type}\u0000${b}`;
        const t = triples.get(key);
        if (t) t.count++;
        else {
          const from = byLabel.get(a);
          const to = byLabel.get(b);
          if (from && to) triples.set(key, { from, to, type: r.type, typeId: r.typeId, count: 1 });
        }
      }
    }
  }
  const rels = [...triples.values()].map(
    (t) => new Rel(nextId--, t.type, t.typeId, t.from, t.to, new DetachedProperties(new Map<string, Value>([['type', t.type], ['count', t.count]]))),
  );
  return [[[...byLabel.values()], rels]];
}

const META_GRAPH_OUTPUTS = [field('nodes', 'LIST<NODE>'), field('relationships', 'LIST<RELATIONSHIP>')];

/** The rows of apoc.schema.nodes for the labels `keep` accepts. */
function schemaNodeRows(ctx: ProcedureContext, keep: (label: string) => boolean): Value[][] {
  const schema = ctx.schema;
  if (schema === undefined) return [];
  const rows: Value[][] = [];
  const row = (name: string, labels: string[], properties: string[], type: string, size: number, progress = 100): Value[] =>
    [name, labels.length === 1 ? labels[0] : labels, properties, progress < 100 ? 'POPULATING' : 'ONLINE', type, 'NO FAILURE', new FloatBox(progress), size, new FloatBox(1), `${name} ${type} :${labels.join(':')}(${properties.join(', ')})`];
  for (const i of schema.listIndexes()) {
    if (i.owner !== undefined || !keep(i.label)) continue;
    rows.push(row(i.name, [i.label], [i.key], 'RANGE', ctx.graph.labelCount(i.label), schema.indexPopulation(i.name) ?? 100));
  }
  for (const c of schema.listConstraints()) {
    if (!keep(c.label)) continue;
    rows.push(row(c.name, [c.label], [c.key], c.kind === 'unique' ? 'UNIQUENESS' : 'NODE_PROPERTY_EXISTENCE', ctx.graph.labelCount(c.label)));
  }
  for (const e of schema.listExtensionIndexes()) {
    if (e.def.entity !== 'node' || !e.def.labelsOrTypes.some(keep)) continue;
    rows.push(row(e.def.name, [...e.def.labelsOrTypes], [...e.def.properties], e.def.type, e.size, e.populating === true ? (e.populationPercent ?? 0) : 100));
  }
  return rows;
}

export function registerApocMetaGraph(registry: ProcedureRegistry): void {
  registry.register(
    procedure('apoc.meta.graph', 'read', 'The schema as a graph: a virtual node per label (name, count) and a virtual relationship per label–type–label triple in use (type, count).', [field('config', 'MAP', new Map())], META_GRAPH_OUTPUTS, (ctx) =>
      metaGraph(ctx),
    ),
  );
  registry.register(
    procedure('apoc.meta.graphSample', 'read', 'As apoc.meta.graph (graphdb counts every relationship instead of sampling).', [field('config', 'MAP', new Map())], META_GRAPH_OUTPUTS, (ctx) =>
      metaGraph(ctx),
    ),
  );
  registry.register(
    procedure(
      'apoc.schema.nodes',
      'read',
      'The indexes and constraints on node labels: name, label, properties, status, type (RANGE, UNIQUENESS, NODE_PROPERTY_EXISTENCE, VECTOR, FULLTEXT), size; config {labels} or {excludeLabels} narrows the labels.',
      [field('config', 'MAP', new Map())],
      [
        field('name', 'STRING'),
        field('label', 'ANY'),
        field('properties', 'LIST<STRING>'),
        field('status', 'STRING'),
        field('type', 'STRING'),
        field('failure', 'STRING'),
        field('populationProgress', 'FLOAT'),
        field('size', 'INTEGER'),
        field('valuesSelectivity', 'FLOAT'),
        field('userDescription', 'STRING'),
      ],
      (ctx, [config]) => {
        const cfg = mapOrEmpty(config, 'apoc.schema.nodes', 'config');
        const only = stringList(cfg.get('labels') ?? null, 'apoc.schema.nodes', 'config.labels');
        const except = stringList(cfg.get('excludeLabels') ?? null, 'apoc.schema.nodes', 'config.excludeLabels');
        return schemaNodeRows(ctx, (l) => (only.length === 0 || only.includes(l)) && !except.includes(l));
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.schema.properties.distinct',
      'read',
      'The distinct values of a property over the nodes of a label, as one list.',
      [field('label', 'STRING'), field('key', 'STRING')],
      [field('value', 'LIST<ANY>')],
      (ctx, [label, key]) => {
        const l = requiredString(label, 'apoc.schema.properties.distinct', 'label');
        const k = requiredString(key, 'apoc.schema.properties.distinct', 'key');
        const seen = new Set<GroupKey>();
        const values: Value[] = [];
        const ids = ctx.graph.labelSet(l);
        const tick = everyFewThousand(() => ctx.checkDeadline());
        for (let i = 0; ids !== undefined && i < ids.length; i++) {
          tick();
          const v = ctx.graph.nodeAt(ids.ids[i])?.prop(k);
          if (v === undefined || v === null) continue;
          const gk = groupKey(v);
          if (seen.has(gk)) continue;
          seen.add(gk);
          values.push(v);
        }
        return [[values]];
      },
    ),
  );
}

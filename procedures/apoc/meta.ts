/**
 * `apoc.meta.*`: the schema as APOC describes it — counts (stats), per-label and
 * per-type property rows (data, nodeTypeProperties) and the nested schema map (schema).
 */

import { formatName } from '../../runtime/format.js';
import type { Value } from '../../runtime/values.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { field, procedure } from '../define.js';
import { backticked, everyFewThousand, surveyNodes, surveyRels, type PropertySurvey } from '../db/property-types.js';

function countsByLabel(ctx: ProcedureContext): Map<string, Value> {
  return new Map(ctx.graph.labels().map((l) => [l, ctx.graph.labelCount(l)]));
}

function countsByType(ctx: ProcedureContext): Map<string, Value> {
  return new Map(ctx.graph.relationshipTypes().map((t) => [t, ctx.graph.typeCount(t)]));
}

/** Per label: (property, type, existence) over every node carrying that label. */
function perLabel(ctx: ProcedureContext): Map<string, { total: number; props: Map<string, { types: Set<string>; count: number }> }> {
  const out = new Map<string, { total: number; props: Map<string, { types: Set<string>; count: number }> }>();
  for (const s of surveyNodes(ctx.graph, everyFewThousand(() => ctx.checkDeadline()))) {
    for (const label of s.owner) {
      let e = out.get(label);
      if (!e) out.set(label, (e = { total: 0, props: new Map() }));
      e.total += s.total;
      for (const [k, p] of s.properties) {
        let q = e.props.get(k);
        if (!q) e.props.set(k, (q = { types: new Set(), count: 0 }));
        for (const t of p.types) q.types.add(t);
        q.count += p.count;
      }
    }
  }
  return out;
}

/** APOC's type names (its Meta.Types): Neo4j's `Long` is INTEGER, `DateTime` DATE_TIME, any array LIST. */
const APOC_TYPES: Record<string, string> = {
  String: 'STRING',
  Long: 'INTEGER',
  Double: 'FLOAT',
  Boolean: 'BOOLEAN',
  Date: 'DATE',
  DateTime: 'DATE_TIME',
  LocalDateTime: 'LOCAL_DATE_TIME',
  Time: 'TIME',
  LocalTime: 'LOCAL_TIME',
  Duration: 'DURATION',
  Point: 'POINT',
};

function typeText(types: Set<string>): string {
  const t = [...types];
  if (t.length !== 1) return 'ANY';
  return t[0].endsWith('Array') ? 'LIST' : (APOC_TYPES[t[0]] ?? 'ANY');
}

/** Per (start label, relationship type): how many such relationships, and the labels at their ends (apoc.meta.data's RELATIONSHIP rows). */
function outgoing(ctx: ProcedureContext): Map<string, { label: string; type: string; count: number; others: Set<string> }> {
  const out = new Map<string, { label: string; type: string; count: number; others: Set<string> }>();
  const tick = everyFewThousand(() => ctx.checkDeadline());
  for (const r of ctx.graph.allRels()) {
    tick();
    for (const label of r.start.labels) {
      const key = `${label}\u0000${r.type}`;
      let e = out.get(key);
      if (!e) out.set(key, (e = { label, type: r.type, count: 0, others: new Set() }));
      e.count++;
      for (const o of r.end.labels) e.others.add(o);
    }
  }
  return out;
}

export function registerApocMeta(registry: ProcedureRegistry): void {
  registry.register(
    procedure(
      'apoc.meta.stats',
      'read',
      'Counts of labels, types, property keys, nodes and relationships, with per-label and per-type counts.',
      [],
      [field('labelCount', 'INTEGER'), field('relTypeCount', 'INTEGER'), field('propertyKeyCount', 'INTEGER'), field('nodeCount', 'INTEGER'), field('relCount', 'INTEGER'), field('labels', 'MAP'), field('relTypes', 'MAP'), field('relTypesCount', 'MAP'), field('stats', 'MAP')],
      (ctx) => {
        const g = ctx.graph;
        const labels = countsByLabel(ctx);
        const relTypesCount = countsByType(ctx);
        const relTypes = new Map<string, Value>([...relTypesCount].map(([t, n]) => [`()-[:${formatName(t)}]->()`, n]));
        const stats = new Map<string, Value>([
          ['labelCount', labels.size],
          ['relTypeCount', relTypesCount.size],
          ['propertyKeyCount', g.propertyKeys().length],
          ['nodeCount', g.nodeCount],
          ['relCount', g.relCount],
          ['labels', labels],
          ['relTypes', relTypes],
        ]);
        return [[labels.size, relTypesCount.size, g.propertyKeys().length, g.nodeCount, g.relCount, labels, relTypes, relTypesCount, stats]];
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.meta.data',
      'read',
      'One row per (label or relationship type, property) with its type, whether indexed, unique or always present; and per (label, outgoing relationship type) a RELATIONSHIP row with the end labels in other.',
      [field('config', 'MAP', new Map())],
      [
        field('label', 'STRING'),
        field('property', 'STRING'),
        field('count', 'INTEGER'),
        field('unique', 'BOOLEAN'),
        field('index', 'BOOLEAN'),
        field('existence', 'BOOLEAN'),
        field('type', 'STRING'),
        field('array', 'BOOLEAN'),
        field('sample', 'LIST<ANY>'),
        field('left', 'INTEGER'),
        field('right', 'INTEGER'),
        field('other', 'LIST<STRING>'),
        field('otherLabels', 'LIST<STRING>'),
        field('elementType', 'STRING'),
      ],
      (ctx) => {
        const rows: Value[][] = [];
        const constraints = ctx.schema?.listConstraints() ?? [];
        for (const [label, e] of perLabel(ctx)) {
          for (const [k, p] of e.props) {
            const unique = constraints.some((c) => c.label === label && c.key === k && c.kind === 'unique');
            const exists = constraints.some((c) => c.label === label && c.key === k && c.kind === 'notNull');
            rows.push([label, k, p.count, unique, ctx.schema?.hasIndex(label, k) ?? false, exists, typeText(p.types), [...p.types].some((t) => t.endsWith('Array')), null, 0, 0, [], [], 'node']);
          }
        }
        // As APOC: each relationship type leaving a label is a row of type RELATIONSHIP, with the end labels in `other`.
        for (const e of outgoing(ctx).values()) rows.push([e.label, e.type, e.count, false, false, false, 'RELATIONSHIP', false, null, 0, 0, [...e.others], [], 'node']);
        for (const s of surveyRels(ctx.graph, everyFewThousand(() => ctx.checkDeadline()))) {
          for (const [k, p] of s.properties) rows.push([s.owner[0], k, p.count, false, false, false, typeText(p.types), [...p.types].some((t) => t.endsWith('Array')), null, 0, 0, [], [], 'relationship']);
        }
        return rows;
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.meta.nodeTypeProperties',
      'read',
      'Property names and types per label combination, with how many nodes carry each (as db.schema.nodeTypeProperties, with counts).',
      [field('config', 'MAP', new Map())],
      [field('nodeType', 'STRING'), field('nodeLabels', 'LIST<STRING>'), field('propertyName', 'STRING'), field('propertyTypes', 'LIST<STRING>'), field('mandatory', 'BOOLEAN'), field('propertyObservations', 'INTEGER'), field('totalObservations', 'INTEGER')],
      function* (ctx) {
        for (const s of surveyNodes(ctx.graph, everyFewThousand(() => ctx.checkDeadline()))) {
          const nodeType = `:${s.owner.map(backticked).join(':')}`;
          for (const [k, p] of s.properties) yield [nodeType, s.owner, k, [...p.types].sort(), p.count === s.total, p.count, s.total];
        }
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.meta.schema',
      'read',
      'The schema as one map: per label and relationship type, its count, properties (type, indexed, unique, existence) and relationships.',
      [field('config', 'MAP', new Map())],
      [field('value', 'MAP')],
      (ctx) => {
        const value = new Map<string, Value>();
        const constraints = ctx.schema?.listConstraints() ?? [];
        const relsOf = relationshipsByLabel(ctx);
        for (const [label, e] of perLabel(ctx)) {
          const props = new Map<string, Value>();
          for (const [k, p] of e.props) {
            props.set(
              k,
              new Map<string, Value>([
                ['type', typeText(p.types)],
                ['indexed', ctx.schema?.hasIndex(label, k) ?? false],
                ['unique', constraints.some((c) => c.label === label && c.key === k && c.kind === 'unique')],
                ['existence', constraints.some((c) => c.label === label && c.key === k && c.kind === 'notNull')],
              ]),
            );
          }
          value.set(
            label,
            new Map<string, Value>([
              ['type', 'node'],
              ['count', ctx.graph.labelCount(label)],
              ['labels', []],
              ['properties', props],
              ['relationships', relsOf.get(label) ?? new Map()],
            ]),
          );
        }
        for (const s of surveyRels(ctx.graph, everyFewThousand(() => ctx.checkDeadline()))) {
          value.set(s.owner[0], relEntry(s, ctx));
        }
        return [[value]];
      },
    ),
  );
}

function relEntry(s: PropertySurvey, ctx: ProcedureContext): Map<string, Value> {
  const props = new Map<string, Value>();
  for (const [k, p] of s.properties) props.set(k, new Map<string, Value>([['type', typeText(p.types)], ['array', [...p.types].some((t) => t.endsWith('Array'))], ['existence', p.count === s.total]]));
  return new Map<string, Value>([
    ['type', 'relationship'],
    ['count', ctx.graph.typeCount(s.owner[0])],
    ['properties', props],
  ]);
}

/** Per label: relationship type → {direction, labels at the other end, count}. */
function relationshipsByLabel(ctx: ProcedureContext): Map<string, Map<string, Value>> {
  const acc = new Map<string, Map<string, { direction: string; labels: Set<string>; count: number }>>();
  const tick = everyFewThousand(() => ctx.checkDeadline());
  const note = (label: string, type: string, direction: string, others: string[]) => {
    let m = acc.get(label);
    if (!m) acc.set(label, (m = new Map()));
    const key = `${type}\u0000${direction}`;
    let e = m.get(key);
    if (!e) m.set(key, (e = { direction, labels: new Set(), count: 0 }));
    for (const o of others) e.labels.add(o);
    e.count++;
  };
  for (const r of ctx.graph.allRels()) {
    tick();
    for (const l of r.start.labels) note(l, r.type, 'out', r.end.labels);
    for (const l of r.end.labels) note(l, r.type, 'in', r.start.labels);
  }
  const out = new Map<string, Map<string, Value>>();
  for (const [label, m] of acc) {
    const rels = new Map<string, Value>();
    for (const [key, e] of m) {
      const type = key.split('\u0000')[0];
      if (rels.has(type) && e.direction === 'in') continue;
      rels.set(type, new Map<string, Value>([['direction', e.direction], ['labels', [...e.labels]], ['count', e.count]]));
    }
    out.set(label, rels);
  }
  return out;
}

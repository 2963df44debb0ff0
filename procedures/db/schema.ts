/**
 * `db.*` schema introspection with Neo4j 5's column names: labels, relationship types,
 * property keys, the schema graph (db.schema.visualization), property types per label and
 * per relationship type, indexes and constraints (Neo4j 4's db.indexes/db.constraints
 * columns, which drivers and LangChain still call), waiting for indexes, and declaring
 * tokens ahead of use.
 */

import { DetachedProperties, Node, Rel } from '../../src/store/entities.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { formatName } from '../../runtime/format.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { field, integerOr, invalidArgument, procedure, requiredString } from '../define.js';
import { backticked, everyFewThousand, surveyNodes, surveyRels } from './property-types.js';

function indexesOf(ctx: ProcedureContext) {
  return ctx.schema?.listIndexes() ?? [];
}

function constraintsOf(ctx: ProcedureContext) {
  return ctx.schema?.listConstraints() ?? [];
}

/** Virtual entities for db.schema.visualization: negative ids so they never collide with stored ones. */
function schemaGraph(ctx: ProcedureContext): { nodes: Node[]; rels: Rel[] } {
  const g = ctx.graph;
  const byLabel = new Map<string, Node>();
  let nextId = -1;
  for (const label of g.labels()) {
    const props = new Map<string, Value>([
      ['name', label],
      ['indexes', indexesOf(ctx).filter((i) => i.label === label).map((i) => i.key)],
      ['constraints', constraintsOf(ctx).filter((c) => c.label === label).map((c) => `${c.kind === 'unique' ? 'UNIQUE' : 'NOT NULL'} ${c.key}`)],
    ]);
    byLabel.set(label, new Node(nextId--, [label], new DetachedProperties(props)));
  }
  const seen = new Set<string>();
  const rels: Rel[] = [];
  const tick = everyFewThousand(() => ctx.checkDeadline());
  for (const r of g.allRels()) {
    tick();
    for (const a of r.start.labels) {
      for (const b of r.end.labels) {
        const key = `${a}\u0000${r.type}\u0000${b}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const from = byLabel.get(a);
        const to = byLabel.get(b);
        if (from && to) rels.push(new Rel(nextId--, r.type, r.typeId, from, to, new DetachedProperties(new Map([['name', r.type]]))));
      }
    }
  }
  return { nodes: [...byLabel.values()], rels };
}

export function registerDbSchemaProcedures(registry: ProcedureRegistry): void {
  registry.register(
    procedure('db.labels', 'read', 'Lists every node label in use.', [], [field('label', 'STRING')], function* (ctx) {
      for (const l of ctx.graph.labels()) yield [l];
    }),
  );
  registry.register(
    procedure('db.relationshipTypes', 'read', 'Lists every relationship type in use.', [], [field('relationshipType', 'STRING')], function* (ctx) {
      for (const t of ctx.graph.relationshipTypes()) yield [t];
    }),
  );
  registry.register(
    procedure('db.propertyKeys', 'read', 'Lists every property key in use.', [], [field('propertyKey', 'STRING')], function* (ctx) {
      for (const k of ctx.graph.propertyKeys()) yield [k];
    }),
  );
  registry.register(
    procedure(
      'db.schema.visualization',
      'read',
      'The schema as a graph: one virtual node per label, one virtual relationship per (label, type, label) in use.',
      [],
      [field('nodes', 'LIST<NODE>'), field('relationships', 'LIST<RELATIONSHIP>')],
      (ctx) => {
        const { nodes, rels } = schemaGraph(ctx);
        return [[nodes, rels]];
      },
    ),
  );
  registry.register(
    procedure(
      'db.schema.nodeTypeProperties',
      'read',
      'Property names and types per combination of node labels, and whether every such node has the property.',
      [],
      [field('nodeType', 'STRING'), field('nodeLabels', 'LIST<STRING>'), field('propertyName', 'STRING'), field('propertyTypes', 'LIST<STRING>'), field('mandatory', 'BOOLEAN')],
      function* (ctx) {
        for (const s of surveyNodes(ctx.graph, everyFewThousand(() => ctx.checkDeadline()))) {
          const nodeType = `:${s.owner.map(backticked).join(':')}`;
          if (s.properties.size === 0) yield [nodeType, s.owner, null, null, false];
          for (const [key, p] of s.properties) yield [nodeType, s.owner, key, [...p.types].sort(), p.count === s.total];
        }
      },
    ),
  );
  registry.register(
    procedure(
      'db.schema.relTypeProperties',
      'read',
      'Property names and types per relationship type, and whether every such relationship has the property.',
      [],
      [field('relType', 'STRING'), field('propertyName', 'STRING'), field('propertyTypes', 'LIST<STRING>'), field('mandatory', 'BOOLEAN')],
      function* (ctx) {
        for (const s of surveyRels(ctx.graph, everyFewThousand(() => ctx.checkDeadline()))) {
          const relType = `:${backticked(s.owner[0])}`;
          if (s.properties.size === 0) yield [relType, null, null, false];
          for (const [key, p] of s.properties) yield [relType, key, [...p.types].sort(), p.count === s.total];
        }
      },
    ),
  );
  registry.register(
    procedure(
      'db.indexes',
      'read',
      'Lists the indexes (the columns of Neo4j 4; SHOW INDEXES is the Neo4j 5 form).',
      [],
      [
        field('id', 'INTEGER'),
        field('name', 'STRING'),
        field('state', 'STRING'),
        field('populationPercent', 'FLOAT'),
        field('uniqueness', 'STRING'),
        field('type', 'STRING'),
        field('entityType', 'STRING'),
        field('labelsOrTypes', 'LIST<STRING>'),
        field('properties', 'LIST<STRING>'),
        field('indexProvider', 'STRING'),
      ],
      (ctx) =>
        indexesOf(ctx).map((i, k) => {
          const percent = ctx.schema?.indexPopulation(i.name) ?? 100;
          const state = percent < 100 ? 'POPULATING' : 'ONLINE';
          return [k + 1, i.name, state, new FloatBox(Math.floor(percent)), i.owner ? 'UNIQUE' : 'NONUNIQUE', 'RANGE', 'NODE', [i.label], [i.key], 'range-1.0'];
        }),
    ),
  );
  registry.register(
    procedure(
      'db.constraints',
      'read',
      'Lists the constraints with a description in Cypher (the columns of Neo4j 4; SHOW CONSTRAINTS is the Neo4j 5 form).',
      [],
      [field('name', 'STRING'), field('description', 'STRING'), field('details', 'STRING')],
      (ctx) =>
        constraintsOf(ctx).map((c) => {
          const body = c.kind === 'unique' ? `n.${formatName(c.key)} IS UNIQUE` : `n.${formatName(c.key)} IS NOT NULL`;
          const description = `CONSTRAINT ON ( n:${formatName(c.label)} ) ASSERT ${body}`;
          return [c.name, description, `Constraint( name='${c.name}', type='${c.kind === 'unique' ? 'UNIQUENESS' : 'NODE_PROPERTY_EXISTENCE'}', schema=(:${c.label} {${c.key}}) )`];
        }),
    ),
  );
  registry.register(
    procedure(
      'db.awaitIndex',
      'read',
      'Waits for an index to come online: a large index still being filled in the background is completed first.',
      [field('indexName', 'STRING'), field('timeOutSeconds', 'INTEGER', 300)],
      [],
      (ctx, [name, timeout]) => {
        const n = requiredString(name, 'db.awaitIndex', 'indexName');
        if (integerOr(timeout, 300, 'db.awaitIndex', 'timeOutSeconds') < 0) throw invalidArgument('db.awaitIndex', 'timeOutSeconds', 'must not be negative');
        const extension = ctx.schema?.listExtensionIndexes().find((e) => e.def.name === n);
        if (extension === undefined && !indexesOf(ctx).some((i) => i.name === n)) {
          throw invalidArgument('db.awaitIndex', 'indexName', `names no index: there is no index called '${n}'`);
        }
        extension?.finishPopulation?.();
        ctx.schema?.finishPopulation(n);
        return [];
      },
    ),
  );
  registry.register(
    procedure(
      'db.awaitIndexes',
      'read',
      'Waits for every index to come online: large indexes still being filled in the background are completed first.',
      [field('timeOutSeconds', 'INTEGER', 300)],
      [],
      (ctx, [timeout]) => {
        if (integerOr(timeout, 300, 'db.awaitIndexes', 'timeOutSeconds') < 0) throw invalidArgument('db.awaitIndexes', 'timeOutSeconds', 'must not be negative');
        for (const e of ctx.schema?.listExtensionIndexes() ?? []) e.finishPopulation?.();
        ctx.schema?.finishPopulation();
        return [];
      },
    ),
  );
  const token = (name: string, arg: string, what: string, intern: (ctx: ProcedureContext, s: string) => void) =>
    procedure(name, 'write', `Declares a ${what} name before any entity uses it.`, [field(arg, 'STRING')], [], (ctx, [v]) => {
      const s = requiredString(v, name, arg);
      if (s.length === 0) throw invalidArgument(name, arg, 'must not be empty');
      intern(ctx, s);
      return [];
    });
  registry.register(token('db.createLabel', 'newLabel', 'label', (ctx, s) => void ctx.graph.internLabel(s)));
  registry.register(token('db.createProperty', 'newProperty', 'property key', (ctx, s) => void ctx.graph.internKey(s)));
  registry.register(token('db.createRelationshipType', 'newRelationshipType', 'relationship type', (ctx, s) => void ctx.graph.internType(s)));
}

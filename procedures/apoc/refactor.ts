/**
 * `apoc.refactor.*`: merging nodes and relationships, cloning nodes, renaming labels,
 * types and property keys, changing a relationship's type and inverting its direction.
 * A relationship's type and ends are fixed in the store, so setType and invert create a
 * replacement with the same properties and delete the original, in the same transaction.
 */

import { Node, Rel } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import { createNode, createRel, setProperties } from '../../runtime/graph/writes.js';
import type { Value } from '../../runtime/values.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { badArgument, field, invalidArgument, mapOrEmpty, nodesOf, option, procedure, relsOf, requiredString, stringList } from '../define.js';

/** Properties of `from` combined into `into` by the `properties` policy: 'discard' keeps into's, 'overwrite' takes from's, 'combine' makes lists. */
function combineProps(into: Map<string, Value>, from: Map<string, Value>, policy: string): Map<string, Value> {
  const out = new Map(into);
  for (const [k, v] of from) {
    const old = out.get(k);
    if (old === undefined || policy === 'overwrite') out.set(k, v);
    else if (policy === 'combine' && old !== v) out.set(k, [...(Array.isArray(old) ? old : [old]), ...(Array.isArray(v) ? v : [v])]);
  }
  return out;
}

function policyOf(cfg: Map<string, Value>, proc: string): string {
  const p = option(cfg, 'properties', 'overwrite');
  if (p !== 'overwrite' && p !== 'discard' && p !== 'combine') throw invalidArgument(proc, 'config', `has properties '${String(p)}'; use 'overwrite', 'discard' or 'combine'`);
  return p;
}

function copyRel(g: Graph, r: Rel, type: string, start: Node, end: Node): Rel {
  const created = createRel(g, type, start, end, new Map(r.propertyMap()), false);
  g.deleteRel(r);
  return created;
}

function relsOfNode(n: Node, g: Graph): Rel[] {
  const out: Rel[] = [];
  g.forEachAdjacent(n, null, 'both', (relId) => {
    const r = g.rel(relId);
    if (r && !out.includes(r)) out.push(r);
  });
  return out;
}

/** The batch-style result of the rename procedures (APOC's columns). */
const RENAME_OUT = [field('batches', 'INTEGER'), field('total', 'INTEGER'), field('timeTaken', 'INTEGER'), field('committedOperations', 'INTEGER'), field('failedOperations', 'INTEGER'), field('errorMessages', 'MAP')];

function renameResult(started: number, count: number): Value[][] {
  return [[count > 0 ? 1 : 0, count, Math.round(performance.now() - started), count, 0, new Map()]];
}

const CHANGE_OUT = [field('input', 'INTEGER'), field('output', 'RELATIONSHIP'), field('error', 'STRING')];

export function registerApocRefactor(registry: ProcedureRegistry): void {
  registry.register(
    procedure(
      'apoc.refactor.mergeNodes',
      'write',
      'Merges nodes into the first: labels, properties (config properties: overwrite|discard|combine) and relationships move to it; the others are deleted.',
      [field('nodes', 'LIST<NODE>'), field('config', 'MAP', new Map())],
      [field('node', 'NODE')],
      (ctx, [nodes, config]) => {
        const ns = nodesOf(nodes, ctx, 'apoc.refactor.mergeNodes', 'nodes');
        const cfg = mapOrEmpty(config, 'apoc.refactor.mergeNodes', 'config');
        const policy = policyOf(cfg, 'apoc.refactor.mergeNodes');
        if (ns.length === 0) return [];
        const [target, ...rest] = ns;
        const g = ctx.graph;
        for (const n of rest) {
          if (n === target) continue;
          for (const l of n.labels) g.addLabel(target, l);
          setProperties(g, target, combineProps(target.propertyMap(), n.propertyMap(), policy), false);
          for (const r of relsOfNode(n, g)) {
            const start = r.start === n ? target : r.start;
            const end = r.end === n ? target : r.end;
            copyRel(g, r, r.type, start, end);
          }
          g.deleteNode(n);
        }
        return [[target]];
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.refactor.mergeRelationships',
      'write',
      'Merges relationships into the first (properties by config properties: overwrite|discard|combine); the others are deleted.',
      [field('rels', 'LIST<RELATIONSHIP>'), field('config', 'MAP', new Map())],
      [field('rel', 'RELATIONSHIP')],
      (ctx, [rels, config]) => {
        const rs = relsOf(rels, ctx, 'apoc.refactor.mergeRelationships', 'rels');
        const policy = policyOf(mapOrEmpty(config, 'apoc.refactor.mergeRelationships', 'config'), 'apoc.refactor.mergeRelationships');
        if (rs.length === 0) return [];
        const [target, ...rest] = rs;
        for (const r of rest) {
          if (r === target) continue;
          setProperties(ctx.graph, target, combineProps(target.propertyMap(), r.propertyMap(), policy), false);
          ctx.graph.deleteRel(r);
        }
        return [[target]];
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.refactor.cloneNodes',
      'write',
      'Copies nodes with their labels and properties (less skipProperties), and optionally their relationships.',
      [field('nodes', 'LIST<NODE>'), field('withRelationships', 'BOOLEAN', false), field('skipProperties', 'LIST<STRING>', [])],
      [field('input', 'INTEGER'), field('output', 'NODE'), field('error', 'STRING')],
      (ctx, [nodes, withRels, skip]) => {
        const skipped = stringList(skip, 'apoc.refactor.cloneNodes', 'skipProperties');
        const g = ctx.graph;
        return nodesOf(nodes, ctx, 'apoc.refactor.cloneNodes', 'nodes').map((n) => {
          const props = new Map([...n.propertyMap()].filter(([k]) => !skipped.includes(k)));
          const copy = createNode(g, [...n.labels], props, false);
          if (withRels === true) {
            for (const r of relsOfNode(n, g)) {
              createRel(g, r.type, r.start === n ? copy : r.start, r.end === n ? copy : r.end, new Map(r.propertyMap()), false);
            }
          }
          return [n.id, copy, null];
        });
      },
    ),
  );
  const renamer = (name: string, what: string, listArg: string, run: (ctx: ProcedureContext, from: string, to: string, only: Value) => number) =>
    procedure(name, 'write', `Renames a ${what} everywhere (or only on the given entities).`, [field('oldName', 'STRING'), field('newName', 'STRING'), field(listArg, 'LIST<ANY>', [])], RENAME_OUT, (ctx, [from, to, only]) => {
      const started = performance.now();
      const a = requiredString(from, name, 'oldName');
      const b = requiredString(to, name, 'newName');
      if (b === '') throw invalidArgument(name, 'newName', 'must not be empty');
      return renameResult(started, a === b ? 0 : run(ctx, a, b, only));
    });
  const chosenNodes = (ctx: ProcedureContext, only: Value, proc: string, all: () => Iterable<Node>) =>
    Array.isArray(only) && only.length > 0 ? nodesOf(only, ctx, proc, 'nodes') : [...all()];
  registry.register(
    renamer('apoc.refactor.rename.label', 'label', 'nodes', (ctx, from, to, only) => {
      const g = ctx.graph;
      const ns = chosenNodes(ctx, only, 'apoc.refactor.rename.label', () => [...g.allNodes()].filter((n) => n.hasLabel(from)));
      let count = 0;
      for (const n of ns) {
        if (!n.hasLabel(from)) continue;
        g.removeLabel(n, from);
        g.addLabel(n, to);
        count++;
      }
      return count;
    }),
  );
  registry.register(
    renamer('apoc.refactor.rename.type', 'relationship type', 'rels', (ctx, from, to, only) => {
      const g = ctx.graph;
      const rs = Array.isArray(only) && only.length > 0 ? relsOf(only, ctx, 'apoc.refactor.rename.type', 'rels') : [...g.allRels()].filter((r) => r.type === from);
      let count = 0;
      for (const r of rs) {
        if (r.type !== from || r.deleted) continue;
        copyRel(g, r, to, r.start, r.end);
        count++;
      }
      return count;
    }),
  );
  registry.register(
    renamer('apoc.refactor.rename.nodeProperty', 'node property key', 'nodes', (ctx, from, to, only) => {
      const g = ctx.graph;
      const ns = chosenNodes(ctx, only, 'apoc.refactor.rename.nodeProperty', () => [...g.allNodes()].filter((n) => n.hasProp(from)));
      let count = 0;
      for (const n of ns) {
        const v = n.prop(from);
        if (v === undefined) continue;
        g.setProperty(n, to, v);
        g.setProperty(n, from, null);
        count++;
      }
      return count;
    }),
  );
  registry.register(
    procedure('apoc.refactor.setType', 'write', 'Changes the type of a relationship (a replacement with the same ends and properties).', [field('rel', 'RELATIONSHIP'), field('newType', 'STRING')], CHANGE_OUT, (ctx, [rel, newType]) => {
      if (!(rel instanceof Rel)) throw badArgument('apoc.refactor.setType', 'rel', rel, 'a relationship');
      const t = requiredString(newType, 'apoc.refactor.setType', 'newType');
      if (t === '') throw invalidArgument('apoc.refactor.setType', 'newType', 'must not be empty');
      return [[rel.id, t === rel.type ? rel : copyRel(ctx.graph, rel, t, rel.start, rel.end), null]];
    }),
  );
  registry.register(
    procedure('apoc.refactor.invert', 'write', 'Reverses the direction of a relationship (a replacement with the same type and properties).', [field('rel', 'RELATIONSHIP')], CHANGE_OUT, (ctx, [rel]) => {
      if (!(rel instanceof Rel)) throw badArgument('apoc.refactor.invert', 'rel', rel, 'a relationship');
      return [[rel.id, copyRel(ctx.graph, rel, rel.type, rel.end, rel.start), null]];
    }),
  );
}

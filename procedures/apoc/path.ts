/**
 * `apoc.path.*`: walks from start nodes under APOC's relationship and label filters.
 * `expand`/`expandConfig` return every path that uses no relationship twice (APOC's
 * default RELATIONSHIP_PATH uniqueness) within the level bounds; `subgraphNodes`,
 * `subgraphAll` and `spanningTree` visit each node once (NODE_GLOBAL), breadth first.
 */

import type { Node, Rel } from '../../src/store/entities.js';
import { Path, type Value } from '../../runtime/values.js';
import { ResourceLimitError } from '../../src/errors.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { field, integerOr, mapOrEmpty, nodesOf, option, procedure, badArgument } from '../define.js';
import { everyFewThousand } from '../db/property-types.js';
import { admits, isResultEnd, parseLabelFilter, parseRelFilter, steps, stopsAt, type LabelFilter, type RelFilter } from './traverse.js';

/** Paths one expand call may return before it is stopped (a guard against exponential walks). */
const MAX_PATHS = 1_000_000;

interface WalkConfig {
  rels: RelFilter;
  labels: LabelFilter;
  minLevel: number;
  maxLevel: number;
  limit: number;
  filterStartNode: boolean;
}

function configOf(cfg: Map<string, Value>, proc: string): WalkConfig {
  const text = (key: string): string | null => {
    const v = option(cfg, key, '');
    if (typeof v !== 'string') throw badArgument(proc, 'config', v, `a string for '${key}'`);
    return v;
  };
  return {
    rels: parseRelFilter(text('relationshipFilter'), proc, 'config'),
    labels: parseLabelFilter(text('labelFilter')),
    minLevel: integerOr(option(cfg, 'minLevel', 0), 0, proc, 'config'),
    maxLevel: integerOr(option(cfg, 'maxLevel', -1), -1, proc, 'config'),
    limit: integerOr(option(cfg, 'limit', -1), -1, proc, 'config'),
    filterStartNode: option(cfg, 'filterStartNode', false) === true,
  };
}

/** Depth-first trails from each start node. */
function* expand(ctx: ProcedureContext, starts: Node[], c: WalkConfig): Generator<Path> {
  const tick = everyFewThousand(() => ctx.checkDeadline());
  let produced = 0;
  for (const start of starts) {
    if (c.filterStartNode && !admits(c.labels, start)) continue;
    const nodes: Node[] = [start];
    const rels: Rel[] = [];
    const used = new Set<Rel>();
    const emit = (depth: number): boolean => depth >= c.minLevel && isResultEnd(c.labels, nodes[nodes.length - 1]);
    if (emit(0) && c.minLevel === 0) {
      produced++;
      yield new Path([start], []);
    }
    const stack: { options: { rel: Rel; next: Node }[]; i: number }[] = [{ options: steps(ctx.graph, start, c.rels), i: 0 }];
    while (stack.length > 0) {
      tick();
      const top = stack[stack.length - 1];
      if (top.i >= top.options.length) {
        stack.pop();
        if (rels.length > 0) {
          used.delete(rels.pop() as Rel);
          nodes.pop();
        }
        continue;
      }
      const { rel, next } = top.options[top.i++];
      if (used.has(rel) || !admits(c.labels, next)) continue;
      used.add(rel);
      rels.push(rel);
      nodes.push(next);
      const depth = rels.length;
      if (emit(depth)) {
        if (++produced > MAX_PATHS) throw new ResourceLimitError(`apoc.path.expand returned more than ${MAX_PATHS} paths; narrow the filters or set maxLevel`);
        yield new Path(nodes.slice(), rels.slice());
        if (c.limit >= 0 && produced >= c.limit) return;
      }
      const deeper = (c.maxLevel < 0 || depth < c.maxLevel) && !stopsAt(c.labels, next);
      stack.push({ options: deeper ? steps(ctx.graph, next, c.rels) : [], i: 0 });
    }
  }
}

/** Breadth-first, each node once: the reached nodes with the path that first reached each. */
function bfs(ctx: ProcedureContext, start: Node, c: WalkConfig): { node: Node; path: Path }[] {
  const tick = everyFewThousand(() => ctx.checkDeadline());
  const out: { node: Node; path: Path }[] = [];
  const seen = new Set<Node>([start]);
  let frontier: Path[] = [new Path([start], [])];
  if (c.minLevel === 0 && isResultEnd(c.labels, start)) out.push({ node: start, path: frontier[0] });
  for (let depth = 1; frontier.length > 0 && (c.maxLevel < 0 || depth <= c.maxLevel); depth++) {
    const next: Path[] = [];
    for (const p of frontier) {
      const last = p.nodes[p.nodes.length - 1];
      if (depth > 1 && stopsAt(c.labels, last)) continue;
      for (const s of steps(ctx.graph, last, c.rels)) {
        tick();
        if (seen.has(s.next) || !admits(c.labels, s.next)) continue;
        seen.add(s.next);
        const path = new Path([...p.nodes, s.next], [...p.rels, s.rel]);
        next.push(path);
        if (depth >= c.minLevel && isResultEnd(c.labels, s.next)) {
          out.push({ node: s.next, path });
          if (c.limit >= 0 && out.length >= c.limit) return out;
        }
      }
    }
    frontier = next;
  }
  return out;
}

const START = field('startNode', 'ANY');
const CONFIG = field('config', 'MAP');

export function registerApocPath(registry: ProcedureRegistry): void {
  registry.register(
    procedure(
      'apoc.path.expand',
      'read',
      'Paths from the start node(s) along relationships the filter allows, through nodes the label filter allows, between minLevel and maxLevel hops (-1: no limit).',
      [START, field('relationshipFilter', 'STRING'), field('labelFilter', 'STRING'), field('minLevel', 'INTEGER'), field('maxLevel', 'INTEGER')],
      [field('path', 'PATH')],
      function* (ctx, [start, rf, lf, min, max]) {
        const cfg = new Map<string, Value>([
          ['relationshipFilter', rf],
          ['labelFilter', lf],
          ['minLevel', min],
          ['maxLevel', max],
        ]);
        for (const p of expand(ctx, nodesOf(start, ctx, 'apoc.path.expand', 'startNode'), configOf(cfg, 'apoc.path.expand'))) yield [p];
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.path.expandConfig',
      'read',
      'apoc.path.expand with a config map: relationshipFilter, labelFilter, minLevel, maxLevel, limit, filterStartNode.',
      [START, CONFIG],
      [field('path', 'PATH')],
      function* (ctx, [start, config]) {
        const c = configOf(mapOrEmpty(config, 'apoc.path.expandConfig', 'config'), 'apoc.path.expandConfig');
        for (const p of expand(ctx, nodesOf(start, ctx, 'apoc.path.expandConfig', 'startNode'), c)) yield [p];
      },
    ),
  );
  const reached = (ctx: ProcedureContext, start: Value, config: Value, proc: string) => {
    const c = configOf(mapOrEmpty(config, proc, 'config'), proc);
    return nodesOf(start, ctx, proc, 'startNode').flatMap((s) => bfs(ctx, s, c));
  };
  registry.register(
    procedure('apoc.path.subgraphNodes', 'read', 'The nodes reachable from the start node(s) under the filters, each once.', [START, CONFIG], [field('node', 'NODE')], (ctx, [start, config]) =>
      reached(ctx, start, config, 'apoc.path.subgraphNodes').map((r) => [r.node]),
    ),
  );
  registry.register(
    procedure(
      'apoc.path.subgraphAll',
      'read',
      'The nodes reachable from the start node(s) under the filters and every relationship between them.',
      [START, CONFIG],
      [field('nodes', 'LIST<NODE>'), field('relationships', 'LIST<RELATIONSHIP>')],
      (ctx, [start, config]) => {
        const nodes = reached(ctx, start, config, 'apoc.path.subgraphAll').map((r) => r.node);
        const inSet = new Set(nodes);
        const rels = new Set<Rel>();
        for (const n of nodes) {
          ctx.graph.forEachAdjacent(n, null, 'out', (relId) => {
            const r = ctx.graph.rel(relId);
            if (r && inSet.has(r.end)) rels.add(r);
          });
        }
        return [[nodes, [...rels]]];
      },
    ),
  );
  registry.register(
    procedure('apoc.path.spanningTree', 'read', 'One shortest path from the start node(s) to each reachable node under the filters (a breadth-first spanning tree).', [START, CONFIG], [field('path', 'PATH')], (ctx, [start, config]) =>
      reached(ctx, start, config, 'apoc.path.spanningTree')
        .filter((r) => r.path.rels.length > 0)
        .map((r) => [r.path]),
    ),
  );
}

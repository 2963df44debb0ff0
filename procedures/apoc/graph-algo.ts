/**
 * `apoc.algo.dijkstra`, `apoc.algo.allSimplePaths` and `apoc.neighbors.tohop`: weighted
 * shortest paths, simple paths up to a length, and the nodes within a distance, along
 * relationships chosen with APOC's relationship filter text.
 */

import { Node, type Rel } from '../../src/store/entities.js';
import { FloatBox, Path, type Value } from '../../runtime/values.js';
import { ResourceLimitError } from '../../src/errors.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { badArgument, field, integerOr, invalidArgument, procedure, requiredString } from '../define.js';
import { everyFewThousand } from '../db/property-types.js';
import { parseRelFilter, steps } from './traverse.js';

const MAX_PATHS = 1_000_000;

function nodeArg(v: Value, proc: string, arg: string): Node {
  if (!(v instanceof Node)) throw badArgument(proc, arg, v, 'a node');
  return v;
}

function weightOf(r: Rel, key: string, fallback: number): number {
  const v = r.prop(key);
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof FloatBox) return v.value;
  return fallback;
}

/** Dijkstra from `start`; returns the path to `end` and its weight, or undefined when unreachable. */
function dijkstra(ctx: ProcedureContext, start: Node, end: Node, filterText: string, key: string, fallback: number): { path: Path; weight: number } | undefined {
  const filter = parseRelFilter(filterText, 'apoc.algo.dijkstra', 'relTypesAndDirections');
  const tick = everyFewThousand(() => ctx.checkDeadline());
  const dist = new Map<Node, number>([[start, 0]]);
  const via = new Map<Node, Rel>();
  const done = new Set<Node>();
  // A binary heap of (distance, node); stale entries are skipped when popped.
  const heap: [number, Node][] = [[0, start]];
  const push = (e: [number, Node]) => {
    heap.push(e);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (heap[p][0] <= heap[i][0]) break;
      [heap[p], heap[i]] = [heap[i], heap[p]];
      i = p;
    }
  };
  const pop = (): [number, Node] => {
    const top = heap[0];
    const last = heap.pop() as [number, Node];
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && heap[l][0] < heap[m][0]) m = l;
        if (r < heap.length && heap[r][0] < heap[m][0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    return top;
  };
  while (heap.length > 0) {
    tick();
    const [d, n] = pop();
    if (done.has(n)) continue;
    done.add(n);
    if (n === end) break;
    for (const s of steps(ctx.graph, n, filter)) {
      const w = weightOf(s.rel, key, fallback);
      if (Number.isNaN(w)) continue;
      if (w < 0) throw invalidArgument('apoc.algo.dijkstra', 'weightPropertyName', `names a negative weight (${w}) on relationship ${s.rel.id}`);
      const nd = d + w;
      if (nd < (dist.get(s.next) ?? Infinity)) {
        dist.set(s.next, nd);
        via.set(s.next, s.rel);
        push([nd, s.next]);
      }
    }
  }
  if (!done.has(end)) return undefined;
  const nodes: Node[] = [end];
  const rels: Rel[] = [];
  for (let n = end; n !== start; ) {
    const r = via.get(n) as Rel;
    rels.unshift(r);
    n = r.other(n);
    nodes.unshift(n);
  }
  return { path: new Path(nodes, rels), weight: dist.get(end) as number };
}

export function registerApocGraphAlgo(registry: ProcedureRegistry): void {
  registry.register(
    procedure(
      'apoc.algo.dijkstra',
      'read',
      'The lightest path between two nodes, weights read from a relationship property (defaultWeight where it is missing; NaN skips such relationships).',
      [field('startNode', 'NODE'), field('endNode', 'NODE'), field('relTypesAndDirections', 'STRING'), field('weightPropertyName', 'STRING'), field('defaultWeight', 'FLOAT', Number.NaN), field('numberOfWantedPaths', 'INTEGER', 1)],
      [field('path', 'PATH'), field('weight', 'FLOAT')],
      (ctx, [start, end, rels, key, fallback, wanted]) => {
        const s = nodeArg(start, 'apoc.algo.dijkstra', 'startNode');
        const e = nodeArg(end, 'apoc.algo.dijkstra', 'endNode');
        const k = requiredString(key, 'apoc.algo.dijkstra', 'weightPropertyName');
        const n = integerOr(wanted, 1, 'apoc.algo.dijkstra', 'numberOfWantedPaths');
        if (n < 1) throw invalidArgument('apoc.algo.dijkstra', 'numberOfWantedPaths', `must be at least 1, got ${n}`);
        const fb = fallback === null ? Number.NaN : fallback instanceof FloatBox ? fallback.value : Number(fallback);
        const r = dijkstra(ctx, s, e, typeof rels === 'string' ? rels : '', k, fb);
        return r === undefined ? [] : [[r.path, Number.isInteger(r.weight) ? new FloatBox(r.weight) : r.weight]];
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.algo.allSimplePaths',
      'read',
      'Every path between two nodes that visits no node twice, of at most maxNodes hops.',
      [field('startNode', 'NODE'), field('endNode', 'NODE'), field('relTypesAndDirections', 'STRING'), field('maxNodes', 'INTEGER')],
      [field('path', 'PATH')],
      function* (ctx, [start, end, rels, max]) {
        const s = nodeArg(start, 'apoc.algo.allSimplePaths', 'startNode');
        const e = nodeArg(end, 'apoc.algo.allSimplePaths', 'endNode');
        const limit = integerOr(max, 0, 'apoc.algo.allSimplePaths', 'maxNodes');
        if (limit < 1) throw invalidArgument('apoc.algo.allSimplePaths', 'maxNodes', `must be at least 1, got ${limit}`);
        const filter = parseRelFilter(typeof rels === 'string' ? rels : '', 'apoc.algo.allSimplePaths', 'relTypesAndDirections');
        const tick = everyFewThousand(() => ctx.checkDeadline());
        const nodes: Node[] = [s];
        const path: Rel[] = [];
        const onPath = new Set<Node>([s]);
        let produced = 0;
        const stack = [{ options: steps(ctx.graph, s, filter), i: 0 }];
        while (stack.length > 0) {
          tick();
          const top = stack[stack.length - 1];
          if (top.i >= top.options.length) {
            stack.pop();
            if (path.length > 0) {
              path.pop();
              onPath.delete(nodes.pop() as Node);
            }
            continue;
          }
          const { rel, next } = top.options[top.i++];
          if (onPath.has(next)) continue;
          if (next === e) {
            if (++produced > MAX_PATHS) throw new ResourceLimitError(`apoc.algo.allSimplePaths found more than ${MAX_PATHS} paths; lower maxNodes`);
            yield [new Path([...nodes, next], [...path, rel])];
            continue;
          }
          if (path.length + 1 >= limit) continue;
          path.push(rel);
          nodes.push(next);
          onPath.add(next);
          stack.push({ options: steps(ctx.graph, next, filter), i: 0 });
        }
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.neighbors.tohop',
      'read',
      'The nodes within a distance of a node along the given relationships (the node itself excluded), each once.',
      [field('node', 'NODE'), field('relTypes', 'STRING'), field('distance', 'INTEGER')],
      [field('node', 'NODE')],
      (ctx, [node, rels, distance]) => {
        const start = nodeArg(node, 'apoc.neighbors.tohop', 'node');
        const d = integerOr(distance, 1, 'apoc.neighbors.tohop', 'distance');
        if (d < 1) throw invalidArgument('apoc.neighbors.tohop', 'distance', `must be at least 1, got ${d}`);
        const filter = parseRelFilter(typeof rels === 'string' ? rels : '', 'apoc.neighbors.tohop', 'relTypes');
        const seen = new Set<Node>([start]);
        const out: Value[][] = [];
        let frontier = [start];
        for (let hop = 0; hop < d && frontier.length > 0; hop++) {
          const next: Node[] = [];
          for (const n of frontier) {
            for (const s of steps(ctx.graph, n, filter)) {
              if (seen.has(s.next)) continue;
              seen.add(s.next);
              next.push(s.next);
              out.push([s.next]);
            }
          }
          ctx.checkDeadline();
          frontier = next;
        }
        return out;
      },
    ),
  );
}

/**
 * From plan to callable: emits the JavaScript source of a plan, compiles it once with
 * `new Function`, and keeps compiled queries in an LRU cache keyed by query text. Entries
 * remember the graph size they were planned for; when the graph has grown or shrunk a lot
 * the query is re-planned so the optimizer's choices follow the data.
 */

import type { Value } from '../runtime/values.js';
import type { Graph } from '../src/store/graph.js';
import type { PlanOp } from '../src/planner/plan.js';
import { Emitter } from './emit.js';
import type { Planner } from '../src/planner/planner.js';
import { RT, type Runtime } from './rt.js';
import type { ExecContext } from '../runtime/graph/context.js';
import { InternalError, ResourceLimitError } from '../src/errors.js';

export type QueryFunction = (rt: Runtime, g: Graph, C: unknown[], P: Map<string, Value>, ctx: ExecContext) => Value[][];

export interface CompiledQuery {
  columns: string[];
  mutates: boolean;
  plan: PlanOp;
  source: string;
  constants: unknown[];
  fn: QueryFunction;
  /** Parameters the query reads: all must be supplied before it runs. */
  params: string[];
  /** With profiling: the operators whose row counts `ctx.rows` collects, by index. */
  profiledOps: PlanOp[];
  /** Whether its rows may go to a sink as they are made (not when a UNION dedupes the whole result at the end). */
  streamable: boolean;
  /** Graph size at planning time, to decide when to re-plan. */
  plannedAt: { nodes: number; rels: number };
  /** Slot → the user's name, for plan dumps. */
  run(g: Graph, params: Map<string, Value>, ctx: ExecContext): Value[][];
}

export function compilePlan(root: PlanOp, columns: string[], planner: Planner, g: Graph, profile = false): CompiledQuery {
  const emitter = new Emitter(planner);
  emitter.profiling = profile;
  const source = emitter.emitFunction(root);
  let fn: QueryFunction;
  try {
    fn = new Function('rt', 'g', 'C', 'P', 'ctx', source) as QueryFunction;
  } catch (err) {
    if (err instanceof RangeError) {
      throw new ResourceLimitError('Query is too large to compile (its patterns nest too deeply for the JavaScript engine); split it into smaller MATCH clauses');
    }
    throw new InternalError(`Generated code failed to compile: ${(err as Error).message}`, err);
  }
  const constants = emitter.constants;
  return {
    columns,
    mutates: planner.mutates,
    plan: root,
    source,
    constants,
    fn,
    profiledOps: emitter.profiledOps,
    streamable: !source.includes('rt.distinctRows(out)'),
    params: [...emitter.params],
    plannedAt: { nodes: g.nodeCount, rels: g.relCount },
    run(graph, params, ctx) {
      return fn(RT, graph, constants, params, ctx);
    },
  };
}

/** A small LRU map. */
export class LruCache<K, V> {
  private readonly map = new Map<K, V>();
  /**
   * The key last set or hit: a hit on it (the same query again and again) moves nothing. Only
   * `set` puts a key back after a delete, and it makes that key the newest.
   */
  private newest: K | undefined;
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, v);
      this.newest = key;
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}

/** True when the graph changed enough since planning that cardinality estimates are stale. */
export function isStale(q: CompiledQuery, g: Graph): boolean {
  const drift = (then: number, now: number) => Math.abs(now - then) > 100 && (now > then * 2 || now * 2 < then);
  return drift(q.plannedAt.nodes, g.nodeCount) || drift(q.plannedAt.rels, g.relCount);
}

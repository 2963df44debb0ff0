/**
 * How an algorithm becomes procedures. An `Algorithm` is declared once (name, summary,
 * options, stream columns, a `run` that projects the graph and calls a kernel); from it come
 * up to three procedures with one configuration shape:
 *
 * - `algo.x(config)` streams the result: `node` plus its values (or, for algorithms whose
 *   answer is not per node — pairs, paths, edges — their own columns);
 * - `algo.x.stats(config)` yields one row of summary figures;
 * - `algo.x.write(config)` (per-node algorithms only) sets the first value column as the
 *   node property `writeProperty`. It is a write-mode procedure, so the query runs inside a
 *   store transaction: the properties go through `Graph.setProperty` — undo log, change
 *   records, WAL on commit, counted in the query's `propertiesSet` — like a Cypher `SET`.
 *
 * Descriptions (hence `SHOW PROCEDURES`, `dbms.procedures()` and MCP `get_capabilities`)
 * are generated from the declaration, so the catalogue cannot drift from the code.
 */

import { makeFloat, type Value } from '../../runtime/values.js';
import { ArgumentError } from '../../src/errors.js';
import type { Node } from '../../src/store/entities.js';
import type { ProcedureContext, ProcedureDef, ProcedureField } from '../registry.js';
import { AlgoConfig, describeOption, directionOption, SELECTION, WEIGHT, WRITE_PROPERTY, type OptionSpec } from './config.js';
import { cachedCsr, type Csr, type Direction } from './csr.js';
import { deadlineOf, type Deadline } from './deadline.js';
import { threadsFor } from './parallel.js';

/** A result with one row per node (in `order`, or all nodes in dense order). */
export interface NodeResult {
  kind: 'nodes';
  csr: Csr;
  /** Dense indices in output order (the first `count`); all of 0..n-1 when absent. */
  order?: Int32Array;
  count?: number;
  /** One function per value column after `node`, in output order. */
  values: ((v: number) => Value)[];
  /** Extra figures for `.stats` / `.write` (iterations, community count, …). */
  summary?: Record<string, Value>;
}

/** A result whose rows are not per node (pairs, paths, edges). */
export interface RowResult {
  kind: 'rows';
  rows: Iterable<Value[]>;
  summary?: Record<string, Value>;
}

export type AlgoResult = NodeResult | RowResult;

/** What `run` gets: the validated config and helpers to project and to resolve nodes. */
export interface AlgoRun {
  ctx: ProcedureContext;
  cfg: AlgoConfig;
  deadline: Deadline;
  /** Threads for the parallel kernels: the `concurrency` option, or the available cores. */
  threads(): number;
  /** The projection the config selects; `direction` defaults to the config's direction. */
  project(options?: { direction?: Direction; weighted?: boolean; negativeWeights?: boolean }): Csr;
  /** The dense index of a node option, which must be in the projection (-1 when absent and optional). */
  indexOf(csr: Csr, key: string, required?: boolean): number;
  /** Dense indices of a node-list option. */
  indicesOf(csr: Csr, key: string): number[];
  /** The store node of a dense index. */
  node(csr: Csr, v: number): Node;
}

export interface Algorithm {
  /** Full name, `algo.pageRank`. */
  name: string;
  aliases?: readonly string[];
  summary: string;
  options: readonly OptionSpec[];
  /** Default direction; absent for algorithms defined on the undirected graph (no `direction` option). */
  direction?: Direction;
  weighted?: boolean;
  /** Stream columns. Per-node algorithms start with `node`. */
  outputs: ProcedureField[];
  run(a: AlgoRun): AlgoResult;
}

const CONFIG: ProcedureField[] = [{ name: 'config', type: 'MAP?', default: new Map() }];

/** Every option the algorithm's config accepts, in documentation order. */
export function optionsOf(alg: Algorithm): OptionSpec[] {
  return [...alg.options, ...SELECTION, ...(alg.direction ? [directionOption(alg.direction)] : []), ...(alg.weighted ? WEIGHT : [])];
}

function perNode(alg: Algorithm): boolean {
  return alg.outputs[0]?.name === 'node';
}

function runner(alg: Algorithm, name: string, ctx: ProcedureContext, cfg: AlgoConfig): AlgoRun {
  const inProjection = (csr: Csr, key: string, node: Node): number => {
    const v = node.id < csr.index.length ? csr.index[node.id] : -1;
    if (v < 0) throw new ArgumentError(`${name}: the \`${key}\` node is not part of the projected graph`, 'InvalidAlgorithmOption');
    return v;
  };
  return {
    ctx,
    cfg,
    deadline: deadlineOf(ctx),
    threads: () => threadsFor(cfg.has('concurrency') ? cfg.number('concurrency') : undefined),
    project(o = {}) {
      const weightProperty = o.weighted === false ? undefined : cfg.has('weightProperty') ? cfg.string('weightProperty') : undefined;
      return cachedCsr(ctx.graph, {
        labels: cfg.strings('nodeLabels'),
        types: cfg.strings('relationshipTypes'),
        direction: o.direction ?? (alg.direction ? cfg.direction() : 'both'),
        weightProperty,
        defaultWeight: weightProperty === undefined ? undefined : cfg.number('defaultWeight'),
        negativeWeights: o.negativeWeights,
      });
    },
    indexOf(csr, key, required = true) {
      const node = cfg.node(key, ctx.graph);
      if (node === undefined) {
        if (required) throw new ArgumentError(`${name}: configuration key \`${key}\` must be given (a node or a node id)`, 'InvalidAlgorithmOption');
        return -1;
      }
      return inProjection(csr, key, node);
    },
    indicesOf(csr, key) {
      return cfg.nodes(key, ctx.graph).map((n) => inProjection(csr, key, n));
    },
    node(csr, v) {
      return ctx.graph.nodeAt(csr.ids[v]) as Node;
    },
  };
}

function compute(alg: Algorithm, name: string, ctx: ProcedureContext, raw: Value, extra: OptionSpec[]): { result: AlgoResult; ms: number; cfg: AlgoConfig } {
  const cfg = new AlgoConfig(name, raw, [...optionsOf(alg), ...extra]);
  const started = performance.now();
  const result = alg.run(runner(alg, name, ctx, cfg));
  return { result, ms: performance.now() - started, cfg };
}

function* streamRows(ctx: ProcedureContext, r: AlgoResult): Iterable<Value[]> {
  if (r.kind === 'rows') {
    yield* r.rows;
    return;
  }
  const { csr, order, values } = r;
  const graph = ctx.graph;
  const count = order === undefined ? csr.n : (r.count ?? order.length);
  for (let i = 0; i < count; i++) {
    const v = order === undefined ? i : order[i];
    const row: Value[] = [graph.nodeAt(csr.ids[v]) as Node];
    for (const f of values) row.push(f(v));
    yield row;
  }
}

/** Summary figures: the result's own, plus min/max/mean of a numeric first column that is not an id. */
function summaryOf(alg: Algorithm, r: AlgoResult): { count: number; map: Map<string, Value> } {
  const distribution = !/Id$/.test(alg.outputs[1]?.name ?? '');
  const map = new Map<string, Value>();
  let count = 0;
  if (r.kind === 'nodes') {
    const n = r.order === undefined ? r.csr.n : (r.count ?? r.order.length);
    count = n;
    let min = Infinity;
    let max = -Infinity;
    let sum = 0;
    let numeric = 0;
    for (let i = 0; i < n; i++) {
      const v = r.order === undefined ? i : r.order[i];
      const x = r.values[0]?.(v);
      const num = typeof x === 'number' ? x : x !== null && typeof x === 'object' && 'value' in x && typeof x.value === 'number' ? x.value : undefined;
      if (num === undefined || !Number.isFinite(num)) continue;
      numeric++;
      if (num < min) min = num;
      if (num > max) max = num;
      sum += num;
    }
    if (numeric > 0 && distribution) {
      map.set('min', makeFloat(min));
      map.set('max', makeFloat(max));
      map.set('mean', makeFloat(sum / numeric));
    }
  } else {
    for (const _ of r.rows) count++;
  }
  for (const [k, v] of Object.entries(r.summary ?? {})) map.set(k, v);
  return { count, map };
}

/** The stream, stats and (for per-node algorithms) write procedures of `alg`. */
export function proceduresOf(alg: Algorithm): ProcedureDef[] {
  const options = optionsOf(alg);
  const optionText = options.map(describeOption).join(', ');
  const defs: ProcedureDef[] = [];
  for (const name of [alg.name, ...(alg.aliases ?? [])]) {
    const alias = name === alg.name ? '' : ` Alias of ${alg.name}.`;
    defs.push({
      name,
      inputs: CONFIG,
      outputs: alg.outputs,
      mode: 'read',
      description: `${alg.summary}${alias} Options: ${optionText}.`,
      invoke: (ctx, [raw]) => streamRows(ctx, compute(alg, name, ctx, raw, []).result),
    });
    defs.push({
      name: `${name}.stats`,
      inputs: CONFIG,
      outputs: [
        { name: perNode(alg) ? 'nodeCount' : 'rowCount', type: 'INTEGER?' },
        { name: 'computeMillis', type: 'FLOAT?' },
        { name: 'summary', type: 'MAP?' },
      ],
      mode: 'read',
      description: `Summary figures of ${alg.name} (row count, min/max/mean of the first value, algorithm figures). Options as ${alg.name}.`,
      *invoke(ctx, [raw]) {
        const { result, ms } = compute(alg, `${name}.stats`, ctx, raw, []);
        const { count, map } = summaryOf(alg, result);
        yield [count, makeFloat(ms), map];
      },
    });
    if (!perNode(alg)) continue;
    defs.push({
      name: `${name}.write`,
      inputs: CONFIG,
      outputs: [
        { name: 'nodeCount', type: 'INTEGER?' },
        { name: 'nodePropertiesWritten', type: 'INTEGER?' },
        { name: 'writeProperty', type: 'STRING?' },
        { name: 'computeMillis', type: 'FLOAT?' },
        { name: 'summary', type: 'MAP?' },
      ],
      mode: 'write',
      description: `Runs ${alg.name} and stores each node's \`${alg.outputs[1]?.name}\` as the node property \`writeProperty\` (transactional, logged). Options as ${alg.name}, plus writeProperty (required).`,
      *invoke(ctx, [raw]) {
        const { result, ms, cfg } = compute(alg, `${name}.write`, ctx, raw, [WRITE_PROPERTY]);
        const key = cfg.string('writeProperty') as string;
        // Materialise before writing: the writes change the graph the result was read from.
        const rows = [...streamRows(ctx, result)];
        let written = 0;
        for (const row of rows) {
          const node = row[0] as Node;
          const value = row[1] ?? null;
          if (value === null) continue;
          ctx.graph.setProperty(node, key, value);
          ctx.checkDeadline();
          written++;
        }
        const { count, map } = summaryOf(alg, result);
        yield [count, written, key, makeFloat(ms), map];
      },
    });
  }
  return defs;
}

/**
 * The configuration map every `algo.*` procedure takes (`CALL algo.x({maxIterations: 20})`).
 * Options are declared once per algorithm as `OptionSpec`s (name, type, default, range, one
 * line of documentation): the declarations validate the map, give the defaults, and feed the
 * procedure descriptions (`SHOW PROCEDURES`) and docs/ALGORITHMS.md's option lists.
 *
 * The map is checked eagerly when the procedure starts: an unknown key, or a value of the
 * wrong type or out of range, is an `ArgumentError` naming the procedure and the option, so
 * typos fail loudly instead of silently running with defaults. A `null` config (or a `null`
 * value) means "all defaults". Aliases (`label` for `nodeLabels`, `relationshipType` for
 * `relationshipTypes`, `orientation` for `direction`) are resolved here.
 */

import { ArgumentError } from '../../src/errors.js';
import { Node } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import { FloatBox, toJsNumber, type Value } from '../../runtime/values.js';
import type { Direction } from './csr.js';

export type OptionType = 'float' | 'floats' | 'integer' | 'boolean' | 'string' | 'strings' | 'node' | 'nodes' | 'direction' | 'choice';

export interface OptionSpec {
  name: string;
  type: OptionType;
  /** Value used when the option is absent; none means "absent" (undefined) or required (`required`). */
  default?: number | string | boolean;
  min?: number;
  max?: number;
  /** For `choice`: the accepted values (matched case-insensitively). */
  values?: readonly string[];
  required?: boolean;
  /** Another name accepted for the same option. */
  alias?: string;
  doc: string;
}

export const MAX_INT32 = 2 ** 31 - 1;

/** The projection options every procedure accepts. */
export const SELECTION: readonly OptionSpec[] = [
  { name: 'nodeLabels', alias: 'label', type: 'strings', doc: 'only nodes with one of these labels (all nodes when absent)' },
  { name: 'relationshipTypes', alias: 'relationshipType', type: 'strings', doc: 'only relationships of these types (all when absent)' },
  { name: 'concurrency', type: 'integer', min: 1, max: 1024, doc: 'threads for the parallel kernels (pageRank, closeness, betweenness, triangle count, lcc, wcc, bfs, sssp, nodeSimilarity, knn, fastRP; default: the available cores, but wcc, bfs and sssp run their sequential kernels unless concurrency is given: wcc then links one shared forest (Afforest), bfs runs direction-optimising with its nodes by depth then by id, sssp without a target runs delta-stepping with its nodes by distance then by id); other algorithms run on the calling thread' },
];

/** The direction option, with the algorithm's default. */
export function directionOption(fallback: Direction): OptionSpec {
  return {
    name: 'direction',
    alias: 'orientation',
    type: 'direction',
    default: fallback.toUpperCase(),
    doc: "relationships followed: 'OUT' (alias 'NATURAL'), 'IN' ('REVERSE') or 'BOTH' ('UNDIRECTED')",
  };
}

/** The weight options of weighted algorithms. */
export const WEIGHT: readonly OptionSpec[] = [
  { name: 'weightProperty', type: 'string', doc: 'relationship property read as the weight (unweighted when absent)' },
  { name: 'defaultWeight', type: 'float', default: 1, min: 0, max: Number.MAX_VALUE, doc: 'weight of a relationship without the property' },
];

/** The option of `.write` variants. */
export const WRITE_PROPERTY: OptionSpec = { name: 'writeProperty', type: 'string', required: true, doc: 'node property the result is written to' };

const DIRECTIONS: Record<string, Direction> = { out: 'out', natural: 'out', in: 'in', reverse: 'in', both: 'both', undirected: 'both' };

function isInt(v: Value): v is number | bigint {
  return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
}

/** A validated configuration: the map's entries under their canonical names. */
export class AlgoConfig {
  private readonly entries = new Map<string, Value>();
  private readonly specs = new Map<string, OptionSpec>();

  constructor(
    readonly procedure: string,
    raw: Value,
    specs: readonly OptionSpec[],
  ) {
    for (const s of specs) this.specs.set(s.name, s);
    if (raw !== null && raw !== undefined) {
      if (!(raw instanceof Map)) throw new ArgumentError(`${procedure}: the configuration must be a map`);
      for (const [key, value] of raw as Map<string, Value>) {
        const spec = specs.find((s) => s.name === key || s.alias === key);
        if (spec === undefined) {
          const accepted = specs.map((s) => s.name).join(', ');
          throw new ArgumentError(`${procedure}: unknown configuration key \`${key}\` (accepted: ${accepted})`, 'UnknownAlgorithmOption');
        }
        if (value === null || value === undefined) continue;
        if (this.entries.has(spec.name)) throw new ArgumentError(`${procedure}: configuration key \`${spec.name}\` is given twice (once by its alias)`);
        this.check(spec, value);
        this.entries.set(spec.name, value);
      }
    }
    for (const s of specs) {
      if (s.required && !this.entries.has(s.name)) throw this.fail(s.name, 'given');
    }
  }

  private fail(key: string, what: string): ArgumentError {
    return new ArgumentError(`${this.procedure}: configuration key \`${key}\` must be ${what}`, 'InvalidAlgorithmOption');
  }

  private check(spec: OptionSpec, v: Value): void {
    const key = spec.name;
    const inRange = (n: number): void => {
      if (!(n >= (spec.min ?? -Infinity) && n <= (spec.max ?? Infinity))) throw this.fail(key, `between ${spec.min ?? '-∞'} and ${spec.max ?? '∞'}, got ${n}`);
    };
    switch (spec.type) {
      case 'float':
        if (!(typeof v === 'number' || typeof v === 'bigint' || v instanceof FloatBox)) throw this.fail(key, 'a number');
        inRange(toJsNumber(v));
        return;
      case 'floats':
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'number' || typeof x === 'bigint' || x instanceof FloatBox)) throw this.fail(key, 'a list of numbers');
        return;
      case 'integer':
        if (!isInt(v)) throw this.fail(key, 'an integer');
        inRange(Number(v));
        return;
      case 'boolean':
        if (typeof v !== 'boolean') throw this.fail(key, 'a boolean');
        return;
      case 'string':
        if (typeof v !== 'string') throw this.fail(key, 'a string');
        return;
      case 'strings':
        if (typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'))) return;
        throw this.fail(key, 'a string or a list of strings');
      case 'node':
        if (v instanceof Node || isInt(v)) return;
        throw this.fail(key, 'a node or a node id');
      case 'nodes':
        if (v instanceof Node || isInt(v) || (Array.isArray(v) && v.every((x) => x instanceof Node || isInt(x)))) return;
        throw this.fail(key, 'a node, a node id or a list of them');
      case 'direction':
        if (typeof v === 'string' && DIRECTIONS[v.toLowerCase()] !== undefined) return;
        throw this.fail(key, "'OUT', 'IN' or 'BOTH' (or 'NATURAL', 'REVERSE', 'UNDIRECTED')");
      case 'choice':
        if (typeof v === 'string' && (spec.values ?? []).some((c) => c.toLowerCase() === v.toLowerCase())) return;
        throw this.fail(key, `one of ${(spec.values ?? []).map((c) => `'${c}'`).join(', ')}`);
    }
  }

  private spec(key: string): OptionSpec {
    const s = this.specs.get(key);
    if (s === undefined) throw new Error(`${this.procedure} reads undeclared option ${key}`);
    return s;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** A number option (float or integer), or its declared default. */
  number(key: string): number {
    const v = this.entries.get(key);
    if (v === undefined) return Number(this.spec(key).default);
    return toJsNumber(v as number | bigint | FloatBox);
  }

  boolean(key: string): boolean {
    const v = this.entries.get(key);
    return v === undefined ? Boolean(this.spec(key).default) : (v as boolean);
  }

  /** A string option, or its default (undefined when it has none). */
  string(key: string): string | undefined {
    const v = this.entries.get(key);
    if (v === undefined) {
      const d = this.spec(key).default;
      return d === undefined ? undefined : String(d);
    }
    return v as string;
  }

  /** A `choice` option in its declared spelling. */
  choice(key: string): string {
    const spec = this.spec(key);
    const v = (this.entries.get(key) as string | undefined) ?? String(spec.default);
    return (spec.values ?? []).find((c) => c.toLowerCase() === v.toLowerCase()) ?? v;
  }

  /** A list-of-numbers option; undefined when absent. */
  floats(key: string): number[] | undefined {
    const v = this.entries.get(key);
    return v === undefined ? undefined : (v as (number | bigint | FloatBox)[]).map(toJsNumber);
  }

  strings(key: string): string[] | undefined {
    const v = this.entries.get(key);
    if (v === undefined) return undefined;
    return typeof v === 'string' ? [v] : (v as string[]);
  }

  direction(): Direction {
    return DIRECTIONS[(this.string('direction') ?? 'out').toLowerCase()];
  }

  private resolve(key: string, v: Value, graph: Graph): Node {
    let node: Node | undefined;
    if (v instanceof Node) node = v.deleted ? undefined : v;
    else node = graph.node(Number(v));
    if (node === undefined) throw new ArgumentError(`${this.procedure}: the \`${key}\` node does not exist`, 'InvalidAlgorithmOption');
    return node;
  }

  /** A node option (a node or a node id of a live node); undefined when absent and not required. */
  node(key: string, graph: Graph): Node | undefined {
    const v = this.entries.get(key);
    return v === undefined ? undefined : this.resolve(key, v, graph);
  }

  /** A node-list option; empty when absent. */
  nodes(key: string, graph: Graph): Node[] {
    const v = this.entries.get(key);
    if (v === undefined) return [];
    return (Array.isArray(v) ? v : [v]).map((x) => this.resolve(key, x, graph));
  }
}

/** "name = default" or "name" for a description line. */
export function describeOption(s: OptionSpec): string {
  if (s.default === undefined) return s.required ? `${s.name} (required)` : s.name;
  return `${s.name} = ${typeof s.default === 'string' ? s.default : String(s.default)}`;
}

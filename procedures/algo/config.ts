/**
 * Reading an algorithm procedure's configuration map (`CALL algo.x({maxIterations: 20})`).
 * Each procedure names the keys it accepts; an unknown key, or a value of the wrong type or
 * range, is an `ArgumentError` that names the procedure and the key, so typos fail loudly
 * instead of silently running with defaults. A `null` config (or a `null` value) means
 * "all defaults".
 */

import { ArgumentError } from '../../src/errors.js';
import { Node } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import { FloatBox, toJsNumber, type Value } from '../../runtime/values.js';
import type { Direction } from './csr.js';

/** A validated configuration: the map's entries, checked against the accepted keys. */
export class AlgoConfig {
  private readonly entries: Map<string, Value>;

  constructor(
    private readonly procedure: string,
    raw: Value,
    accepted: readonly string[],
  ) {
    if (raw === null || raw === undefined) {
      this.entries = new Map();
      return;
    }
    if (!(raw instanceof Map)) throw new ArgumentError(`${procedure}: the configuration must be a map`);
    for (const key of raw.keys()) {
      if (!accepted.includes(key)) {
        throw new ArgumentError(`${procedure}: unknown configuration key \`${key}\` (accepted: ${accepted.join(', ')})`);
      }
    }
    this.entries = raw as Map<string, Value>;
  }

  private fail(key: string, what: string): ArgumentError {
    return new ArgumentError(`${this.procedure}: configuration key \`${key}\` must be ${what}`);
  }

  private value(key: string): Value {
    const v = this.entries.get(key);
    return v === undefined ? null : v;
  }

  /** A string, or undefined when absent. */
  string(key: string): string | undefined {
    const v = this.value(key);
    if (v === null) return undefined;
    if (typeof v !== 'string') throw this.fail(key, 'a string');
    return v;
  }

  /** A string or a list of strings (relationship types), or undefined when absent. */
  strings(key: string): string[] | undefined {
    const v = this.value(key);
    if (v === null) return undefined;
    if (typeof v === 'string') return [v];
    if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v as string[];
    throw this.fail(key, 'a string or a list of strings');
  }

  /** A number within [min, max], or `fallback` when absent. */
  number(key: string, fallback: number, min: number, max: number): number {
    const v = this.value(key);
    if (v === null) return fallback;
    if (!(typeof v === 'number' || typeof v === 'bigint' || v instanceof FloatBox)) throw this.fail(key, 'a number');
    const n = toJsNumber(v);
    if (!(n >= min && n <= max)) throw this.fail(key, `between ${min} and ${max}`);
    return n;
  }

  /** An integer within [min, max], or `fallback` when absent. */
  integer(key: string, fallback: number, min: number, max: number): number {
    const v = this.value(key);
    if (v === null) return fallback;
    if (!((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint')) throw this.fail(key, 'an integer');
    const n = Number(v);
    if (!(n >= min && n <= max)) throw this.fail(key, `between ${min} and ${max}`);
    return n;
  }

  /** `OUT`, `IN` or `BOTH` (any case), or `fallback` when absent. */
  direction(fallback: Direction): Direction {
    const v = this.string('direction');
    if (v === undefined) return fallback;
    const d = v.toLowerCase();
    if (d === 'out' || d === 'in' || d === 'both') return d;
    throw this.fail('direction', "'OUT', 'IN' or 'BOTH'");
  }

  /** A required node: a node value or an integer node id of a live node. */
  node(key: string, graph: Graph): Node {
    const v = this.value(key);
    if (v === null) throw this.fail(key, 'given (a node or a node id)');
    let node: Node | undefined;
    if (v instanceof Node) node = v.deleted ? undefined : v;
    else if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') node = graph.node(Number(v));
    else throw this.fail(key, 'a node or a node id');
    if (node === undefined) throw new ArgumentError(`${this.procedure}: the \`${key}\` node does not exist`);
    return node;
  }
}

/**
 * APOC's aggregations (`apoc.agg.*`): first/last/nth non-null value, median, percentiles,
 * a statistics map, product, slice, and the items with the largest/smallest value. They
 * skip nulls like every aggregate; numeric ones reject non-numbers naming the function.
 * What they hold across rows is charged to the query's memory budget and checked against
 * the list limit as it grows (runtime/governor.ts), as collect() is; sorting checks the
 * deadline.
 */

import { ValueTypeError } from '../../src/errors.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { equals, orderCompare } from '../../runtime/compare.js';
import { mul } from '../../runtime/arith.js';
import { describe } from '../../runtime/types.js';
import { charge, chargeValue, checkListSize, step } from '../../runtime/governor.js';
import { defineAggregate, type AggregateDef, type Aggregator } from '../aggregate-def.js';
import { fl, intArg, numArg } from '../types.js';

/** Adds `v` to the held `items` of aggregate `fn`, charging it to the query's budget. */
function hold(fn: string, items: Value[], v: Value): void {
  checkListSize(items.length + 1, `${fn}()`);
  chargeValue(v);
  items.push(v);
}

function number(fn: string, v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof FloatBox) return v.value;
  throw new ValueTypeError(`${fn}() expects numbers, got ${describe(v)}`, 'InvalidArgumentType');
}

class Nth implements Aggregator {
  private items: Value[] = [];
  private offset: number | undefined;
  constructor(
    private readonly fn: string,
    private readonly fixed?: 'first' | 'last',
  ) {}
  step(v: Value, offset?: Value): void {
    if (this.fixed === undefined && this.offset === undefined) {
      this.offset = intArg(this.fn, offset === undefined ? null : offset);
    }
    if (v === null) return;
    if (this.fixed === 'first' && this.items.length > 0) return;
    if (this.fixed === 'last') this.items[0] = v;
    else if (this.fixed === 'first') this.items.push(v);
    else if (this.offset === undefined || this.offset < 0 || this.items.length <= this.offset) hold(this.fn, this.items, v);
  }
  result(): Value {
    if (this.fixed !== undefined) return this.items[0] ?? null;
    const n = this.offset ?? 0;
    return (n < 0 ? this.items[this.items.length + n] : this.items[n]) ?? null;
  }
}

/** Sorted numbers, shared by median, percentiles and statistics. */
class Numbers {
  values: number[] = [];
  constructor(private readonly fn: string) {}
  add(v: Value): void {
    if (v === null) return;
    const n = number(this.fn, v);
    checkListSize(this.values.length + 1, `${this.fn}()`);
    charge(1);
    this.values.push(n);
  }
  sorted(): number[] {
    return this.values.slice().sort((a, b) => (step(), a - b));
  }
}

/** Nearest-rank percentile of sorted values (p in 0..1). */
function nearestRank(sorted: number[], p: number): number {
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[idx];
}

const DEFAULT_PERCENTILES = [0.5, 0.75, 0.9, 0.95, 0.99];

function percentileList(fn: string, v: Value | undefined): number[] {
  if (v === undefined || v === null) return DEFAULT_PERCENTILES;
  if (!Array.isArray(v)) throw new ValueTypeError(`${fn}() expects a list of percentiles between 0.0 and 1.0, got ${describe(v)}`, 'InvalidArgumentType');
  return v.map((x) => {
    const p = numArg(fn, x);
    if (!(p >= 0 && p <= 1)) throw new ValueTypeError(`${fn}() percentiles must be between 0.0 and 1.0, got ${p}`, 'InvalidArgumentValue');
    return p;
  });
}

function keepType(sample: boolean, x: number): Value {
  return sample ? x : fl(x);
}

class Median implements Aggregator {
  private readonly nums = new Numbers('apoc.agg.median');
  step(v: Value): void {
    this.nums.add(v);
  }
  result(): Value {
    const s = this.nums.sorted();
    if (s.length === 0) return null;
    const mid = s.length >> 1;
    return fl(s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2);
  }
}

class Percentiles implements Aggregator {
  private readonly nums = new Numbers('apoc.agg.percentiles');
  private ps: number[] | undefined;
  private allIntegers = true;
  step(v: Value, ps?: Value): void {
    this.ps ??= percentileList('apoc.agg.percentiles', ps);
    if (v !== null && !(typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)))) this.allIntegers = false;
    this.nums.add(v);
  }
  result(): Value {
    const s = this.nums.sorted();
    const ps = this.ps ?? DEFAULT_PERCENTILES;
    return ps.map((p) => (s.length === 0 ? null : keepType(this.allIntegers, nearestRank(s, p))));
  }
}

class Statistics implements Aggregator {
  private readonly nums = new Numbers('apoc.agg.statistics');
  private ps: number[] | undefined;
  step(v: Value, ps?: Value): void {
    this.ps ??= percentileList('apoc.agg.statistics', ps);
    this.nums.add(v);
  }
  result(): Value {
    const s = this.nums.sorted();
    const out = new Map<string, Value>();
    out.set('total', s.length);
    if (s.length === 0) {
      for (const k of ['min', 'minNonZero', 'max', 'mean', 'stdev']) out.set(k, null);
      return out;
    }
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    const variance = s.reduce((a, b) => a + (b - mean) * (b - mean), 0) / s.length;
    out.set('min', fl(s[0]));
    out.set('minNonZero', fl(s.find((x) => x !== 0) ?? 0));
    out.set('max', fl(s[s.length - 1]));
    out.set('mean', fl(mean));
    out.set('stdev', fl(Math.sqrt(variance)));
    for (const p of this.ps ?? DEFAULT_PERCENTILES) out.set(String(p), fl(nearestRank(s, p)));
    return out;
  }
}

class Product implements Aggregator {
  private acc: Value = null;
  step(v: Value): void {
    if (v === null) return;
    number('apoc.agg.product', v);
    this.acc = this.acc === null ? v : mul(this.acc, v);
  }
  result(): Value {
    return this.acc ?? 0;
  }
}

class Slice implements Aggregator {
  private items: Value[] = [];
  private range: [number, number] | undefined;
  step(v: Value, from?: Value, to?: Value): void {
    this.range ??= [intArg('apoc.agg.slice', from ?? 0), intArg('apoc.agg.slice', to ?? -1)];
    if (v !== null) hold('apoc.agg.slice', this.items, v);
  }
  result(): Value {
    const [from, to] = this.range ?? [0, -1];
    return to < 0 ? this.items.slice(from) : this.items.slice(from, from + to);
  }
}

/** The items whose value is the largest (sign 1) or smallest (-1); up to `limit` of them when given. */
class ExtremeItems implements Aggregator {
  private best: Value = null;
  private items: Value[] = [];
  private limit = -1;
  private limitRead = false;
  constructor(
    private readonly fn: string,
    private readonly sign: 1 | -1,
  ) {}
  step(item: Value, value?: Value, limit?: Value): void {
    if (!this.limitRead) {
      this.limit = limit === undefined || limit === null ? -1 : intArg(this.fn, limit);
      this.limitRead = true;
    }
    if (value === undefined || value === null || item === null) return;
    const c = this.best === null ? 1 : orderCompare(value, this.best) * this.sign;
    if (c > 0) {
      this.best = value;
      this.items = [item];
    } else if (c === 0 || equals(value, this.best) === true) {
      if (this.limit < 0 || this.items.length < this.limit) hold(this.fn, this.items, item);
    }
  }
  result(): Value {
    return new Map<string, Value>([
      ['items', this.items],
      ['value', this.best],
    ]);
  }
}

export const apocAggregates: AggregateDef[] = [
  defineAggregate('apoc.agg.first', 1, 'The first non-null value', () => new Nth('apoc.agg.first', 'first')),
  defineAggregate('apoc.agg.last', 1, 'The last non-null value', () => new Nth('apoc.agg.last', 'last')),
  defineAggregate('apoc.agg.nth', 2, 'The non-null value at a 0-based offset (negative: from the end)', () => new Nth('apoc.agg.nth')),
  defineAggregate('apoc.agg.median', 1, 'The median of numbers, as a float', () => new Median()),
  defineAggregate('apoc.agg.percentiles', [1, 2], 'Nearest-rank percentiles of numbers (default 0.5, 0.75, 0.9, 0.95, 0.99)', () => new Percentiles()),
  defineAggregate('apoc.agg.statistics', [1, 2], 'A map of count, min, max, mean, stdev and percentiles of numbers', () => new Statistics()),
  defineAggregate('apoc.agg.product', 1, 'The product of numbers', () => new Product()),
  defineAggregate('apoc.agg.slice', [1, 3], 'The non-null values from a 0-based offset, at most a given count', () => new Slice()),
  defineAggregate('apoc.agg.maxItems', [2, 3], 'The items with the largest value: {items, value}', () => new ExtremeItems('apoc.agg.maxItems', 1)),
  defineAggregate('apoc.agg.minItems', [2, 3], 'The items with the smallest value: {items, value}', () => new ExtremeItems('apoc.agg.minItems', -1)),
];

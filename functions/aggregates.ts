/**
 * Aggregate functions: count, sum, avg, min, max, collect, stDev, stDevP,
 * percentileCont, percentileDisc. Each call of `create` gives a fresh accumulator for one
 * group; generated code feeds it with `step(value[, arg2])` and reads `result()`.
 *
 * Nulls are skipped. DISTINCT drops repeated values (by grouping equivalence) before they
 * reach the accumulator. Over no input: count 0, sum 0, collect [], stDev/stDevP 0.0,
 * the others null. For `count(*)` generated code steps with any non-null value per row.
 */

import { ArgumentError, ValueTypeError } from '../src/errors.js';
import { FloatBox, type Value } from '../runtime/values.js';
import { add, div } from '../runtime/arith.js';
import { orderCompare } from '../runtime/compare.js';
import { describe, isExtendedValue } from '../runtime/types.js';
import { fl } from './types.js';
import { defineAggregate as def, type AggregateDef, type Aggregator } from './aggregate-def.js';
import { apocAggregates } from './apoc/agg.js';
import { charge, chargeValue, checkListSize } from '../runtime/governor.js';

export type { Aggregator, AggregateDef } from './aggregate-def.js';

function isNumeric(v: Value): v is number | bigint | FloatBox {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof FloatBox;
}

function asNumber(v: number | bigint | FloatBox): number {
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v.value;
}

function numericArg(fn: string, v: Value): number | bigint | FloatBox {
  if (isNumeric(v)) return v;
  throw new ValueTypeError(`${fn}() expects numbers, got ${describe(v)}`, 'InvalidArgumentType');
}

class Count implements Aggregator {
  n = 0;
  step(v: Value): void {
    if (v !== null) this.n++;
  }
  result(): Value {
    return this.n;
  }
}

/** Sum with the arithmetic of `+`: exact integers (overflow is an error), floats once any float appears; durations via the extension hook. */
class Sum implements Aggregator {
  acc: Value = null;
  step(v: Value): void {
    if (v === null) return;
    if (!isNumeric(v) && !isExtendedValue(v)) throw new ValueTypeError(`sum() expects numbers or durations, got ${describe(v)}`, 'InvalidArgumentType');
    this.acc = this.acc === null ? v : add(this.acc, v);
  }
  result(): Value {
    return this.acc === null ? 0 : this.acc;
  }
}

/** Average: a float for numbers (computed from an exact integer sum where possible); durations via the extension hook. */
class Avg implements Aggregator {
  n = 0;
  intSum: number | bigint = 0;
  floatSum = 0;
  sawFloat = false;
  ext: Value = null;
  step(v: Value): void {
    if (v === null) return;
    this.n++;
    if (typeof v === 'number' && Number.isInteger(v)) {
      const s = typeof this.intSum === 'number' ? this.intSum + v : this.intSum + BigInt(v);
      this.intSum = typeof s === 'number' && !Number.isSafeInteger(s) ? BigInt(this.intSum) + BigInt(v) : s;
    } else if (typeof v === 'bigint') {
      this.intSum = BigInt(this.intSum) + v;
    } else if (isNumeric(v)) {
      this.floatSum += asNumber(v);
      this.sawFloat = true;
    } else if (isExtendedValue(v)) {
      this.ext = this.ext === null ? v : add(this.ext, v);
    } else {
      throw new ValueTypeError(`avg() expects numbers or durations, got ${describe(v)}`, 'InvalidArgumentType');
    }
  }
  result(): Value {
    if (this.n === 0) return null;
    if (this.ext !== null) return div(this.ext, this.n);
    return fl((Number(this.intSum) + this.floatSum) / this.n);
  }
}

class Extreme implements Aggregator {
  best: Value = null;
  constructor(private readonly sign: 1 | -1) {}
  step(v: Value): void {
    if (v === null) return;
    if (this.best === null || orderCompare(v, this.best) * this.sign > 0) this.best = v;
  }
  result(): Value {
    return this.best;
  }
}

class Collect implements Aggregator {
  items: Value[] = [];
  step(v: Value): void {
    if (v === null) return;
    chargeValue(v);
    checkListSize(this.items.length + 1, 'collect()');
    this.items.push(v);
  }
  result(): Value {
    return this.items;
  }
}

/** Standard deviation by Welford's method; `sample` divides by n - 1. */
class StDev implements Aggregator {
  n = 0;
  mean = 0;
  m2 = 0;
  constructor(private readonly sample: boolean) {}
  step(v: Value): void {
    if (v === null) return;
    const x = asNumber(numericArg(this.sample ? 'stDev' : 'stDevP', v));
    this.n++;
    const d = x - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (x - this.mean);
  }
  result(): Value {
    const denom = this.sample ? this.n - 1 : this.n;
    return denom <= 0 ? new FloatBox(0) : fl(Math.sqrt(this.m2 / denom));
  }
}

function percentileArg(fn: string, p: Value | undefined): number {
  if (p === undefined || p === null) throw new ArgumentError(`${fn}() needs a percentile between 0.0 and 1.0`, 'NumberOutOfRange');
  const x = asNumber(numericArg(fn, p));
  if (!(x >= 0 && x <= 1)) throw new ArgumentError(`${fn}() percentile must be between 0.0 and 1.0, got ${x}`, 'NumberOutOfRange');
  return x;
}

class Percentile implements Aggregator {
  values: (number | bigint | FloatBox)[] = [];
  p = 0;
  constructor(private readonly continuous: boolean) {}
  private get fn(): string {
    return this.continuous ? 'percentileCont' : 'percentileDisc';
  }
  step(v: Value, p?: Value): void {
    this.p = percentileArg(this.fn, p);
    if (v === null) return;
    charge(1);
    this.values.push(numericArg(this.fn, v));
  }
  result(): Value {
    const n = this.values.length;
    if (n === 0) return null;
    const sorted = this.values.slice().sort((a, b) => orderCompare(a, b));
    if (this.continuous) {
      const pos = this.p * (n - 1);
      const lo = Math.floor(pos);
      const hi = Math.ceil(pos);
      const a = asNumber(sorted[lo]);
      const b = asNumber(sorted[hi]);
      return fl(lo === hi ? a : a + (b - a) * (pos - lo));
    }
    const idx = Math.min(n - 1, Math.max(0, Math.ceil(this.p * n) - 1));
    return sorted[idx];
  }
}

const aggregates: AggregateDef[] = [
  def('count', 1, 'Number of non-null values (count(*): number of rows)', () => new Count()),
  def('sum', 1, 'Sum of numbers (or durations)', () => new Sum()),
  def('avg', 1, 'Average of numbers (or durations)', () => new Avg()),
  def('min', 1, 'Smallest value in ORDER BY order', () => new Extreme(-1)),
  def('max', 1, 'Largest value in ORDER BY order', () => new Extreme(1)),
  def('collect', 1, 'List of the non-null values', () => new Collect()),
  def('stDev', 1, 'Sample standard deviation', () => new StDev(true)),
  def('stDevP', 1, 'Population standard deviation', () => new StDev(false)),
  def('percentileCont', 2, 'Interpolated percentile (0.0 to 1.0) of numbers', () => new Percentile(true)),
  def('percentileDisc', 2, 'Nearest-rank percentile (0.0 to 1.0) of numbers', () => new Percentile(false)),
];

const byName = new Map([...aggregates, ...apocAggregates].map((a) => [a.name.toLowerCase(), a]));

/** Lower-cased names of every aggregate: the semantic checker's and planner's test for "is this an aggregate". */
export const AGGREGATE_NAME_SET: ReadonlySet<string> = new Set(byName.keys());

/** The aggregate called `name` (any letter case), or undefined. */
export function lookupAggregate(name: string): AggregateDef | undefined {
  return byName.get(name.toLowerCase());
}

export function isAggregateName(name: string): boolean {
  return byName.has(name.toLowerCase());
}

/** All aggregates with descriptions, for listings. */
export function aggregateCatalogue(): { name: string; description: string; args: number; minArgs: number }[] {
  return [...byName.values()].map((a) => ({ name: a.name, description: a.description, args: a.args, minArgs: a.minArgs }));
}

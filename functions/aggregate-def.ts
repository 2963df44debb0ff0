/**
 * The shape of an aggregate function (a factory of per-group accumulators) and the
 * DISTINCT wrapper every aggregate shares. Built-in and APOC aggregates are declared with
 * `defineAggregate`.
 */

import type { Value } from '../runtime/values.js';
import { chargeValue } from '../runtime/governor.js';
import { groupKey, type GroupKey } from '../runtime/groupkey.js';

export interface Aggregator {
  /** Feeds one row: the aggregated value, then any further arguments (percentile, offset, …). */
  step(value: Value, arg2?: Value, arg3?: Value): void;
  result(): Value;
}

export interface AggregateDef {
  name: string;
  description: string;
  /** Largest number of arguments: 1, or 2 for the percentiles and apoc.agg.nth. */
  args: number;
  /** Smallest number of arguments (below `args` when trailing ones have defaults). */
  minArgs: number;
  create(distinct: boolean): Aggregator;
}

/** Passes each distinct first argument on once (nulls are dropped, as every aggregate skips them). */
class Distinct implements Aggregator {
  private readonly seen = new Set<GroupKey>();
  constructor(private readonly inner: Aggregator) {}
  step(v: Value, arg2?: Value, arg3?: Value): void {
    if (v === null) {
      this.inner.step(v, arg2, arg3);
      return;
    }
    const k = groupKey(v);
    if (this.seen.has(k)) return;
    chargeValue(v);
    this.seen.add(k);
    this.inner.step(v, arg2, arg3);
  }
  result(): Value {
    return this.inner.result();
  }
}

/** An aggregate taking `args` arguments (or between `args[0]` and `args[1]`). */
export function defineAggregate(name: string, args: number | [number, number], description: string, make: () => Aggregator): AggregateDef {
  const [minArgs, maxArgs] = typeof args === 'number' ? [args, args] : args;
  return { name, args: maxArgs, minArgs, description, create: (distinct) => (distinct ? new Distinct(make()) : make()) };
}

/**
 * `duration(x)`: a DURATION from ISO text, from a component map (`{years: 1, days: 1.5,
 * seconds: -60, nanoseconds: 1}`, fractions allowed and cascaded to smaller units), or
 * an existing duration.
 */

import { ArgumentError, ValueTypeError } from '../../src/errors.js';
import { describe } from '../types.js';
import { FloatBox, type Value } from '../values.js';
import { DurationValue } from './duration.js';
import { parseDuration } from './parse.js';

const UNITS = ['years', 'quarters', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds'] as const;
type Unit = (typeof UNITS)[number];
const BY_LOWER = new Map<string, Unit>(UNITS.map((u) => [u.toLowerCase(), u]));

function amount(key: string, v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof FloatBox) return v.value;
  throw new ArgumentError(`The duration component '${key}' must be a number, got ${describe(v)}`, 'InvalidArgumentValue');
}

export function durationFromMap(map: Map<string, Value>): DurationValue {
  const a: Record<Unit, number> = Object.fromEntries(UNITS.map((u) => [u, 0])) as Record<Unit, number>;
  for (const [key, v] of map) {
    const unit = BY_LOWER.get(key.toLowerCase());
    if (unit === undefined) throw new ArgumentError(`duration() does not take the component '${key}'`, 'InvalidArgumentValue');
    if (v !== null) a[unit] = amount(key, v);
  }
  return DurationValue.approximate(
    a.years * 12 + a.quarters * 3 + a.months,
    a.weeks * 7 + a.days,
    a.hours * 3600 + a.minutes * 60 + a.seconds,
    a.milliseconds * 1e6 + a.microseconds * 1e3 + a.nanoseconds,
  );
}

export function toDuration(arg: Value): DurationValue {
  if (arg instanceof DurationValue) return arg;
  if (typeof arg === 'string') return parseDuration(arg);
  if (arg instanceof Map) return durationFromMap(arg);
  throw new ValueTypeError(`duration() expects a string or a map, got ${describe(arg)}`, 'InvalidArgumentValue');
}

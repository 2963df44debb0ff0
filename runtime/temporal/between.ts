/**
 * `duration.between(a, b)`, `duration.inMonths`, `duration.inDays` and
 * `duration.inSeconds`: the duration from one temporal value to another.
 *
 * Both values are first completed from each other: a value without a zone is read in the
 * other's zone, one without a date takes the other's date, one without a time is at
 * midnight. When both had dates the result counts whole months, then whole days (each
 * complete only once the time of day is reached, truncated toward zero), then the exact
 * time left; the second value is seen in the first one's zone for that calendar count.
 * Otherwise only the exact time between them counts.
 */

import { ArgumentError } from '../../src/errors.js';
import { describe } from '../types.js';
import type { Value } from '../values.js';
import { BIG_NANOS_PER_DAY, monthsBetween, plusMonths } from './calendar.js';
import { partsOf, type Parts } from './construct.js';
import { DurationValue } from './duration.js';
import { DateTimeValue } from './zoned.js';

export type BetweenUnit = 'all' | 'months' | 'days' | 'seconds';

interface Point {
  day: number;
  nano: number;
  dt?: DateTimeValue;
}

function completed(p: Parts, other: Parts): Point {
  const day = p.day ?? other.day ?? 0;
  const nano = p.nano ?? 0;
  const zone = p.zone ?? other.zone;
  if (!zone) return { day, nano };
  const dt = DateTimeValue.ofLocal(day, nano, zone, p.zone ? p.offset : undefined);
  return { day: dt.epochDay, nano: dt.nanoOfDay, dt };
}

function instant(p: Point): bigint {
  if (p.dt) return p.dt.epochNanos();
  return BigInt(p.day) * BIG_NANOS_PER_DAY + BigInt(p.nano);
}

/** The end day for counting whole days or months from `from`: one back (or on) when the end's time of day is not yet reached. */
function adjustedEnd(fromDay: number, fromNano: number, toDay: number, toNano: number): number {
  if (toDay > fromDay && toNano < fromNano) return toDay - 1;
  if (toDay < fromDay && toNano > fromNano) return toDay + 1;
  return toDay;
}

function operand(v: Value): Parts {
  const p = partsOf(v);
  if (!p) throw new ArgumentError(`duration.between() expects temporal values, got ${describe(v)}`, 'InvalidArgumentValue');
  return p;
}

export function durationBetween(unit: BetweenUnit, a: Value, b: Value): DurationValue {
  const pa = operand(a);
  const pb = operand(b);
  const from = completed(pa, pb);
  const to = completed(pb, pa);
  const exact = instant(to) - instant(from);
  const calendar = pa.day !== undefined && pb.day !== undefined;
  if (unit === 'seconds' || (unit === 'all' && !calendar)) return new DurationValue(0, 0, exact);
  if (!calendar) return DurationValue.ZERO;

  // The calendar count runs on local date-times, the end seen in the start's zone.
  const end = from.dt && to.dt ? to.dt.withZone(from.dt.zone) : to;
  const endDay = end instanceof DateTimeValue ? end.epochDay : end.day;
  const endNano = end instanceof DateTimeValue ? end.nanoOfDay : end.nano;
  if (unit === 'days') return new DurationValue(0, adjustedEnd(from.day, from.nano, endDay, endNano) - from.day, 0n);

  const months = monthsBetween(from.day, adjustedEnd(from.day, from.nano, endDay, endNano));
  if (unit === 'months') return new DurationValue(months, 0, 0n);
  const afterMonths = plusMonths(from.day, months);
  const days = adjustedEnd(afterMonths, from.nano, endDay, endNano) - afterMonths;
  const mid: Point = { day: afterMonths + days, nano: from.nano };
  if (from.dt) mid.dt = DateTimeValue.ofLocal(mid.day, mid.nano, from.dt.zone, from.dt.offsetSeconds);
  const rest = instant(to) - instant(mid);
  return new DurationValue(months, days, rest);
}


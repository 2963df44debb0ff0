/**
 * `date.truncate(unit, value, map)` and its siblings for every temporal kind: the value
 * cut down to the start of a millennium, century, decade, year, week year, quarter,
 * month, week, day, hour, minute, second, millisecond or microsecond, then adjusted by
 * the map's components (`{day: 2}` on a truncated month is its second day). A `timezone`
 * in the map replaces the zone keeping the local time; fractions of a second in the map
 * add to those the unit kept (`millisecond` truncation with `{nanosecond: 2}` keeps the
 * milliseconds).
 */

import { ArgumentError } from '../../src/errors.js';
import type { Value } from '../values.js';
import { civilOf, epochDayOf, floorDiv, NANOS_PER_HOUR, NANOS_PER_MINUTE, NANOS_PER_SECOND, quarterOf, quarterStart, weekDateOf, weekYearStart } from './calendar.js';
import { partsOf, type Parts, type TemporalKind } from './construct.js';
import { DATETIME_FIELDS, readFields, resolveDate, resolveTime, type Fields } from './fields.js';
import { DateValue, LocalDateTimeValue, LocalTimeValue } from './local.js';
import { DateTimeValue, TimeValue } from './zoned.js';
import { Zone } from './zone.js';

const DATE_UNITS = ['millennium', 'century', 'decade', 'year', 'weekyear', 'quarter', 'month', 'week', 'day'];
const TIME_UNITS = ['day', 'hour', 'minute', 'second', 'millisecond', 'microsecond'];

const TIME_UNIT_NANOS: Record<string, number> = {
  hour: NANOS_PER_HOUR,
  minute: NANOS_PER_MINUTE,
  second: NANOS_PER_SECOND,
  millisecond: 1_000_000,
  microsecond: 1000,
};

function badUnit(kind: TemporalKind, unit: string): ArgumentError {
  return new ArgumentError(`Cannot truncate a ${kind} to the unit '${unit}'`, 'InvalidArgumentValue');
}

function truncateDay(unit: string, day: number): number {
  const c = civilOf(day);
  switch (unit) {
    case 'millennium':
      return epochDayOf(floorDiv(c.year, 1000) * 1000, 1, 1);
    case 'century':
      return epochDayOf(floorDiv(c.year, 100) * 100, 1, 1);
    case 'decade':
      return epochDayOf(floorDiv(c.year, 10) * 10, 1, 1);
    case 'year':
      return epochDayOf(c.year, 1, 1);
    case 'weekyear':
      return weekYearStart(weekDateOf(day).weekYear);
    case 'quarter':
      return quarterStart(c.year, quarterOf(c.month));
    case 'month':
      return epochDayOf(c.year, c.month, 1);
    case 'week':
      return day - weekDateOf(day).dayOfWeek + 1;
    default:
      return day;
  }
}

function truncateNano(unit: string, nano: number): number {
  const size = TIME_UNIT_NANOS[unit];
  return size === undefined ? 0 : nano - (nano % size);
}

/** Carries the kept fractions of a second into a map that sets a finer one. */
function keepFractions(unit: string, f: Fields, nano: number): void {
  const n = f.num;
  const ms = Math.floor((nano % NANOS_PER_SECOND) / 1e6);
  const us = Math.floor((nano % 1e6) / 1e3);
  if (unit === 'millisecond' && n.millisecond === undefined && (n.microsecond !== undefined || n.nanosecond !== undefined)) {
    n.millisecond = ms;
  } else if (unit === 'microsecond' && n.millisecond === undefined && n.microsecond === undefined && n.nanosecond !== undefined) {
    n.millisecond = ms;
    n.microsecond = us;
  }
}

export function truncate(kind: TemporalKind, unitArg: string, value: Value, map: Map<string, Value> | null): Value {
  const unit = unitArg.toLowerCase();
  const hasDate = kind === 'date' || kind === 'localdatetime' || kind === 'datetime';
  const hasTime = kind !== 'date';
  if (!(hasDate ? DATE_UNITS : []).includes(unit) && !(hasTime ? TIME_UNITS : []).includes(unit)) throw badUnit(kind, unitArg);
  const p: Parts | undefined = partsOf(value);
  if (!p) throw new ArgumentError(`${kind}.truncate() expects a temporal value`, 'InvalidArgumentValue');
  if (hasDate && p.day === undefined) throw badUnit(kind, unitArg);
  if (!hasDate && p.nano === undefined) throw badUnit(kind, unitArg);

  const f = map === null ? { num: {} } : readFields(map, DATETIME_FIELDS, `${kind}.truncate()`);
  const isDateUnit = DATE_UNITS.includes(unit);
  const day = p.day === undefined ? undefined : truncateDay(unit, p.day);
  const nano = isDateUnit ? 0 : truncateNano(unit, p.nano ?? 0);
  keepFractions(unit, f, nano);
  const localDay = hasDate ? resolveDate(f, day) : 0;
  const localNano = hasTime ? resolveTime(f, nano) : 0;
  const zone = f.timezone !== undefined ? Zone.parse(f.timezone) : (p.zone ?? Zone.UTC);

  switch (kind) {
    case 'date':
      return new DateValue(localDay);
    case 'localtime':
      return new LocalTimeValue(localNano);
    case 'localdatetime':
      return new LocalDateTimeValue(localDay, localNano);
    case 'time': {
      if (!zone.named) return new TimeValue(localNano, zone.fixedOffset);
      // A named zone's offset on the value's own date (or on the epoch day for a time alone).
      return new TimeValue(localNano, DateTimeValue.ofLocal(p.day ?? 0, localNano, zone).offsetSeconds);
    }
    case 'datetime':
      return DateTimeValue.ofLocal(localDay, localNano, zone, p.offset);
  }
}

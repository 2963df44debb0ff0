/**
 * Component accessors shared by the temporal types (`d.year`, `t.minute`, `dt.offset`, …)
 * and the duration arithmetic on their date and time parts (`date + duration` adds the
 * months, then the days, then the time part — whole days of it for a DATE).
 */

import { ArgumentError } from '../../src/errors.js';
import type { Value } from '../values.js';
import {
  BIG_NANOS_PER_DAY,
  bigFloorDiv,
  bigFloorMod,
  civilOf,
  dayOfQuarter,
  epochDayOf,
  NANOS_PER_DAY,
  NANOS_PER_HOUR,
  NANOS_PER_MINUTE,
  NANOS_PER_SECOND,
  ordinalDay,
  plusMonths,
  quarterOf,
  weekDateOf,
} from './calendar.js';
import type { DurationValue } from './duration.js';
import { formatOffset, type Zone } from './zone.js';

/** Date components of an epoch day; undefined for other keys. */
export function dateComponent(epochDay: number, key: string): Value | undefined {
  switch (key) {
    case 'year':
      return civilOf(epochDay).year;
    case 'quarter':
      return quarterOf(civilOf(epochDay).month);
    case 'month':
      return civilOf(epochDay).month;
    case 'week':
      return weekDateOf(epochDay).week;
    case 'weekYear':
      return weekDateOf(epochDay).weekYear;
    case 'day':
      return civilOf(epochDay).day;
    case 'ordinalDay':
      return ordinalDay(epochDay);
    case 'weekDay':
    case 'dayOfWeek':
      return weekDateOf(epochDay).dayOfWeek;
    case 'dayOfQuarter':
      return dayOfQuarter(epochDay);
    default:
      return undefined;
  }
}

/** Time-of-day components of a nanosecond of day; undefined for other keys. */
export function timeComponent(nanoOfDay: number, key: string): Value | undefined {
  switch (key) {
    case 'hour':
      return Math.floor(nanoOfDay / NANOS_PER_HOUR);
    case 'minute':
      return Math.floor((nanoOfDay % NANOS_PER_HOUR) / NANOS_PER_MINUTE);
    case 'second':
      return Math.floor((nanoOfDay % NANOS_PER_MINUTE) / NANOS_PER_SECOND);
    case 'millisecond':
      return Math.floor((nanoOfDay % NANOS_PER_SECOND) / 1e6);
    case 'microsecond':
      return Math.floor((nanoOfDay % NANOS_PER_SECOND) / 1e3);
    case 'nanosecond':
      return nanoOfDay % NANOS_PER_SECOND;
    default:
      return undefined;
  }
}

/** Zone components: `timezone`, `offset`, `offsetMinutes`, `offsetSeconds`. */
export function zoneComponent(offsetSeconds: number, zone: Zone | null, key: string): Value | undefined {
  switch (key) {
    case 'timezone':
      return zone ? zone.toString() : formatOffset(offsetSeconds);
    case 'offset':
      return formatOffset(offsetSeconds);
    case 'offsetMinutes':
      return Math.trunc(offsetSeconds / 60) + 0;
    case 'offsetSeconds':
      return offsetSeconds;
    default:
      return undefined;
  }
}

const MIN_EPOCH_DAY = epochDayOf(-999_999_999, 1, 1);
const MAX_EPOCH_DAY = epochDayOf(999_999_999, 12, 31);

/** An epoch day checked against the supported years (±999,999,999), for arithmetic results. */
export function inRange(epochDay: number): number {
  if (!(epochDay >= MIN_EPOCH_DAY && epochDay <= MAX_EPOCH_DAY)) {
    throw new ArgumentError('The result of temporal arithmetic is outside the supported range of years (±999999999)', 'InvalidArgumentValue');
  }
  return epochDay;
}

/** A date moved by a duration (sign -1 subtracts): months, days, then whole days of the time part. */
export function shiftDate(epochDay: number, d: DurationValue, sign: 1 | -1): number {
  const wholeDays = Number(d.nanos / BIG_NANOS_PER_DAY);
  return inRange(plusMonths(epochDay, sign * d.months) + sign * (d.days + wholeDays));
}

/** A time of day moved by the time part of a duration, wrapping around midnight. */
export function shiftTime(nanoOfDay: number, d: DurationValue, sign: 1 | -1): number {
  const delta = Number(d.nanos % BIG_NANOS_PER_DAY) * sign;
  const r = (nanoOfDay + delta) % NANOS_PER_DAY;
  return r < 0 ? r + NANOS_PER_DAY : r;
}

/** A local date-time moved by a duration: months, days, then the exact time part. */
export function shiftLocal(epochDay: number, nanoOfDay: number, d: DurationValue, sign: 1 | -1): [number, number] {
  const day = plusMonths(epochDay, sign * d.months) + sign * d.days;
  const [resultDay, resultNano] = addNanos(day, nanoOfDay, sign === 1 ? d.nanos : -d.nanos);
  return [inRange(resultDay), resultNano];
}

/** A (day, nanosecond of day) pair moved by signed nanoseconds, normalised. */
export function addNanos(epochDay: number, nanoOfDay: number, nanos: bigint): [number, number] {
  const total = BigInt(nanoOfDay) + nanos;
  return [epochDay + Number(bigFloorDiv(total, BIG_NANOS_PER_DAY)), Number(bigFloorMod(total, BIG_NANOS_PER_DAY))];
}

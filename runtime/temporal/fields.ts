/**
 * The component maps temporal constructors and `truncate` accept
 * (`{year: 1984, week: 10, dayOfWeek: 3, hour: 12, timezone: 'Europe/Stockholm'}`):
 * reading and checking a map, and resolving its date fields (calendar, week, ordinal or
 * quarter form) and time fields against an optional base value whose remaining fields
 * they keep — the "selecting" form `date({date: other, day: 28})`.
 */

import { ArgumentError } from '../../src/errors.js';
import { FloatBox, type Value } from '../values.js';
import { isExtendedValue } from '../types.js';
import { civilOf, dayOfQuarter, NANOS_PER_HOUR, NANOS_PER_MINUTE, NANOS_PER_SECOND, quarterOf, weekDateOf } from './calendar.js';
import { calendarDate, checkField, clockTime, ordinalDate, quarterDate, weekDate } from './parse.js';

const DATE_KEYS = ['year', 'quarter', 'month', 'week', 'day', 'ordinalDay', 'dayOfWeek', 'dayOfQuarter'] as const;
const TIME_KEYS = ['hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'] as const;
const OTHER_KEYS = ['timezone', 'date', 'time', 'datetime', 'epochSeconds', 'epochMillis'] as const;

export type DateKey = (typeof DATE_KEYS)[number];
export type TimeKey = (typeof TIME_KEYS)[number];
type OtherKey = (typeof OTHER_KEYS)[number];
export type FieldKey = DateKey | TimeKey | OtherKey;

const CANONICAL = new Map<string, FieldKey>();
for (const k of [...DATE_KEYS, ...TIME_KEYS, ...OTHER_KEYS]) CANONICAL.set(k.toLowerCase(), k);

/** A component map as read: numbers for the fields, the zone text, temporal values to select from. */
export interface Fields {
  num: Partial<Record<DateKey | TimeKey | 'epochSeconds' | 'epochMillis', number>>;
  timezone?: string;
  date?: Value;
  time?: Value;
  datetime?: Value;
}

export function invalidField(message: string): ArgumentError {
  return new ArgumentError(message, 'InvalidArgumentValue');
}

function integerOf(key: string, v: Value): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof FloatBox && Number.isInteger(v.value)) return v.value;
  throw invalidField(`The temporal component '${key}' must be an integer`);
}

/**
 * Reads a component map; `allowed` lists the keys this constructor takes. Null entries
 * count as absent.
 */
export function readFields(map: Map<string, Value>, allowed: ReadonlySet<FieldKey>, what: string): Fields {
  const f: Fields = { num: {} };
  for (const [rawKey, v] of map) {
    const key = CANONICAL.get(rawKey.toLowerCase());
    if (key === undefined || !allowed.has(key)) throw invalidField(`${what} does not take the component '${rawKey}'`);
    if (v === null) continue;
    switch (key) {
      case 'timezone':
        if (typeof v !== 'string') throw invalidField(`The time zone must be a string`);
        f.timezone = v;
        break;
      case 'date':
      case 'time':
      case 'datetime':
        if (!isExtendedValue(v)) throw invalidField(`The component '${key}' must be a temporal value`);
        f[key] = v;
        break;
      default:
        f.num[key] = integerOf(key, v);
    }
  }
  return f;
}

export const DATE_FIELDS: ReadonlySet<FieldKey> = new Set<FieldKey>([...DATE_KEYS, 'date', 'timezone']);
export const TIME_FIELDS: ReadonlySet<FieldKey> = new Set<FieldKey>([...TIME_KEYS, 'time', 'timezone']);
export const DATETIME_FIELDS: ReadonlySet<FieldKey> = new Set<FieldKey>([...DATE_KEYS, ...TIME_KEYS, ...OTHER_KEYS]);
export const LOCAL_DATETIME_FIELDS: ReadonlySet<FieldKey> = new Set<FieldKey>([...DATE_KEYS, ...TIME_KEYS, 'date', 'time', 'datetime', 'timezone']);

export function hasAny(f: Fields, keys: readonly string[]): boolean {
  return keys.some((k) => f.num[k as DateKey] !== undefined);
}

export function hasDateFields(f: Fields): boolean {
  return hasAny(f, DATE_KEYS);
}

export function hasTimeFields(f: Fields): boolean {
  return hasAny(f, TIME_KEYS);
}

/** The epoch day the date fields describe, taking unspecified fields from `base` (or their minimum). */
export function resolveDate(f: Fields, base: number | undefined): number {
  const n = f.num;
  const week = n.week !== undefined || n.dayOfWeek !== undefined;
  const ordinal = n.ordinalDay !== undefined;
  const quarter = n.quarter !== undefined || n.dayOfQuarter !== undefined;
  const calendar = n.month !== undefined || n.day !== undefined;
  if (Number(week) + Number(ordinal) + Number(quarter) + Number(calendar) > 1) {
    throw invalidField('A date is given by one of month/day, week/dayOfWeek, ordinalDay or quarter/dayOfQuarter, not several');
  }
  if (base === undefined) {
    if (n.year === undefined) throw invalidField('A date needs a year');
    if (n.day !== undefined && n.month === undefined) throw invalidField('A day needs a month');
    if (n.dayOfWeek !== undefined && n.week === undefined) throw invalidField('A dayOfWeek needs a week');
    if (n.dayOfQuarter !== undefined && n.quarter === undefined) throw invalidField('A dayOfQuarter needs a quarter');
  }
  if (week) {
    const wd = base === undefined ? undefined : weekDateOf(base);
    return weekDate(n.year ?? (wd as { weekYear: number }).weekYear, n.week ?? wd?.week ?? 1, n.dayOfWeek ?? wd?.dayOfWeek ?? 1);
  }
  const c = base === undefined ? undefined : civilOf(base);
  const year = n.year ?? (c as { year: number }).year;
  if (ordinal) return ordinalDate(year, n.ordinalDay as number);
  if (quarter) {
    return quarterDate(year, n.quarter ?? (c ? quarterOf(c.month) : 1), n.dayOfQuarter ?? (base === undefined ? 1 : dayOfQuarter(base)));
  }
  return calendarDate(year, n.month ?? c?.month ?? 1, n.day ?? c?.day ?? 1);
}

/** The nanosecond of day the time fields describe, taking unspecified fields from `base` (or 0). */
export function resolveTime(f: Fields, base: number | undefined): number {
  const n = f.num;
  if (base === undefined) {
    if (n.hour === undefined && hasTimeFields(f)) throw invalidField('A time needs an hour');
    if (n.second !== undefined && n.minute === undefined) throw invalidField('A second needs a minute');
    if ((n.millisecond ?? n.microsecond ?? n.nanosecond) !== undefined && n.second === undefined) {
      throw invalidField('Fractions of a second need a second');
    }
  }
  const b = base ?? 0;
  const hour = n.hour ?? Math.floor(b / NANOS_PER_HOUR);
  const minute = n.minute ?? Math.floor((b % NANOS_PER_HOUR) / NANOS_PER_MINUTE);
  const second = n.second ?? Math.floor((b % NANOS_PER_MINUTE) / NANOS_PER_SECOND);
  let nano = b % NANOS_PER_SECOND;
  if (n.millisecond !== undefined || n.microsecond !== undefined || n.nanosecond !== undefined) {
    const ms = checkField('millisecond', n.millisecond ?? 0, 0, 999);
    const us = checkField('microsecond', n.microsecond ?? 0, 0, n.millisecond === undefined ? 999_999 : 999);
    const ns = checkField('nanosecond', n.nanosecond ?? 0, 0, n.millisecond === undefined && n.microsecond === undefined ? 999_999_999 : 999);
    nano = ms * 1_000_000 + us * 1000 + ns;
  }
  return clockTime(hour, minute, second, nano);
}

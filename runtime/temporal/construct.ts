/**
 * Building temporal values the ways `date()`, `localtime()`, `time()`, `localdatetime()`
 * and `datetime()` accept: from ISO text, from a component map (including selecting from
 * other temporal values, `{date: d, time: t, timezone: 'Europe/Stockholm'}`, and epoch
 * seconds or milliseconds), from another temporal value, and as the current instant of
 * a clock in a zone (UTC unless one is given).
 *
 * Zone rules when selecting: a `timezone` given alongside a zoned time or datetime source
 * converts that instant into the new zone; alongside a local source it is simply attached.
 * A date source never contributes a zone.
 */

import { ValueTypeError } from '../../src/errors.js';
import { describe } from '../types.js';
import type { Value } from '../values.js';
import { addNanos } from './components.js';
import { BIG_NANOS_PER_SECOND } from './calendar.js';
import {
  DATE_FIELDS,
  DATETIME_FIELDS,
  hasDateFields,
  hasTimeFields,
  invalidField,
  LOCAL_DATETIME_FIELDS,
  readFields,
  resolveDate,
  resolveTime,
  TIME_FIELDS,
  type Fields,
} from './fields.js';
import { DateValue, LocalDateTimeValue, LocalTimeValue } from './local.js';
import { cannotParse, parseDate, parseDateTime, parseTime } from './parse.js';
import { DateTimeValue, TimeValue } from './zoned.js';
import { Zone } from './zone.js';

export type TemporalKind = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime';

/** The date, time and zone a temporal value carries. */
export interface Parts {
  day?: number;
  nano?: number;
  offset?: number;
  zone?: Zone;
}

export function partsOf(v: Value): Parts | undefined {
  if (v instanceof DateValue) return { day: v.epochDay };
  if (v instanceof LocalTimeValue) return { nano: v.nanoOfDay };
  if (v instanceof TimeValue) return { nano: v.nanoOfDay, offset: v.offsetSeconds, zone: Zone.fixed(v.offsetSeconds) };
  if (v instanceof LocalDateTimeValue) return { day: v.epochDay, nano: v.nanoOfDay };
  if (v instanceof DateTimeValue) return { day: v.epochDay, nano: v.nanoOfDay, offset: v.offsetSeconds, zone: v.zone };
  return undefined;
}

function cannotSelect(kind: TemporalKind, what: string, v: Value): ValueTypeError {
  return new ValueTypeError(`Cannot select ${what} for ${kind}() from ${describe(v)}`, 'InvalidArgumentValue');
}

function dayOf(kind: TemporalKind, v: Value): number {
  const p = partsOf(v);
  if (p?.day === undefined) throw cannotSelect(kind, 'a date', v);
  return p.day;
}

function timeOf(kind: TemporalKind, v: Value): Parts & { nano: number } {
  const p = partsOf(v);
  if (p?.nano === undefined) throw cannotSelect(kind, 'a time', v);
  return p as Parts & { nano: number };
}

/** The offset of a zone now (named zones vary; a TIME keeps the offset current at the clock's instant). */
function offsetNow(zone: Zone, now: bigint): number {
  if (!zone.named) return zone.fixedOffset;
  const [day, nano] = addNanos(0, 0, now);
  return zone.offsetAtInstant(day, nano);
}

/** The current value of a kind at a clock instant (nanoseconds since the epoch) in a zone. */
export function current(kind: TemporalKind, now: bigint, zone: Zone = Zone.UTC): Value {
  const dt = DateTimeValue.ofEpochNanos(now, zone);
  switch (kind) {
    case 'date':
      return new DateValue(dt.epochDay);
    case 'localtime':
      return new LocalTimeValue(dt.nanoOfDay);
    case 'time':
      return new TimeValue(dt.nanoOfDay, dt.offsetSeconds);
    case 'localdatetime':
      return new LocalDateTimeValue(dt.epochDay, dt.nanoOfDay);
    case 'datetime':
      return dt;
  }
}

export function fromString(kind: TemporalKind, text: string, now: bigint): Value {
  switch (kind) {
    case 'date':
      return new DateValue(parseDate(text));
    case 'localtime': {
      const t = parseTime(text, 'local time');
      if (t.offset !== undefined || t.zoneName !== undefined) throw cannotParse('local time', text);
      return new LocalTimeValue(t.nanoOfDay);
    }
    case 'time': {
      const t = parseTime(text);
      const offset = t.offset ?? (t.zoneName === undefined ? 0 : offsetNow(Zone.parse(t.zoneName), now));
      return new TimeValue(t.nanoOfDay, offset);
    }
    case 'localdatetime': {
      const t = parseDateTime(text, 'local datetime');
      if (t.offset !== undefined || t.zoneName !== undefined) throw cannotParse('local datetime', text);
      return new LocalDateTimeValue(t.epochDay, t.nanoOfDay);
    }
    case 'datetime': {
      const t = parseDateTime(text);
      const zone = t.zoneName !== undefined ? Zone.parse(t.zoneName) : t.offset !== undefined ? Zone.fixed(t.offset) : Zone.UTC;
      return DateTimeValue.ofLocal(t.epochDay, t.nanoOfDay, zone, t.offset);
    }
  }
}

/** `kind(other)`: the value converted, as if selected with `{date: other}`, `{time: other}` or `{datetime: other}`. */
export function fromTemporal(kind: TemporalKind, v: Value, now: bigint): Value {
  const p = partsOf(v);
  if (!p) throw cannotSelect(kind, 'a value', v);
  const f: Fields = { num: {} };
  if (kind === 'date') f.date = v;
  else if (kind === 'localtime' || kind === 'time') f.time = v;
  else if (p.day !== undefined && p.nano !== undefined) f.datetime = v;
  else if (p.day !== undefined) f.date = v;
  else throw cannotSelect(kind, 'a date', v);
  return build(kind, f, now);
}

export function fromMap(kind: TemporalKind, map: Map<string, Value>, now: bigint): Value {
  const allowed = kind === 'date' ? DATE_FIELDS : kind === 'localtime' || kind === 'time' ? TIME_FIELDS : kind === 'datetime' ? DATETIME_FIELDS : LOCAL_DATETIME_FIELDS;
  const f = readFields(map, allowed, `${kind}()`);
  const onlyZone = !hasDateFields(f) && !hasTimeFields(f) && !f.date && !f.time && !f.datetime && f.num.epochSeconds === undefined && f.num.epochMillis === undefined;
  if (onlyZone) return current(kind, now, f.timezone === undefined ? Zone.UTC : Zone.parse(f.timezone));
  return build(kind, f, now);
}

function build(kind: TemporalKind, f: Fields, now: bigint): Value {
  switch (kind) {
    case 'date':
      return new DateValue(resolveDate(f, f.date === undefined ? undefined : dayOf(kind, f.date)));
    case 'localtime':
      return new LocalTimeValue(resolveTime(f, f.time === undefined ? undefined : timeOf(kind, f.time).nano));
    case 'time':
      return buildTime(f, now);
    case 'localdatetime': {
      const [day, nano] = localDateTime(kind, f);
      return new LocalDateTimeValue(day, nano);
    }
    case 'datetime':
      return buildDateTime(f);
  }
}

function buildTime(f: Fields, now: bigint): TimeValue {
  const source = f.time === undefined ? undefined : timeOf('time', f.time);
  const nano = resolveTime(f, source?.nano);
  if (f.timezone === undefined) return new TimeValue(nano, source?.offset ?? 0);
  const offset = offsetNow(Zone.parse(f.timezone), now);
  if (source?.offset === undefined) return new TimeValue(nano, offset);
  return new TimeValue(nano, source.offset).withOffset(offset);
}

/** The local date and time a map selects, with the zone its time or datetime source carries. */
function localDateTime(kind: TemporalKind, f: Fields): [number, number, Parts | undefined] {
  let baseDay: number | undefined;
  let baseNano: number | undefined;
  let zoned: Parts | undefined;
  if (f.datetime !== undefined) {
    const p = partsOf(f.datetime);
    if (p?.day === undefined) throw cannotSelect(kind, 'a datetime', f.datetime);
    baseDay = p.day;
    baseNano = p.nano;
    if (p.zone) zoned = p;
  }
  if (f.date !== undefined) baseDay = dayOf(kind, f.date);
  if (f.time !== undefined) {
    const p = timeOf(kind, f.time);
    baseNano = p.nano;
    zoned = p.zone ? p : undefined;
  }
  const day = resolveDate(f, baseDay);
  const nano = resolveTime(f, baseNano);
  return [day, nano, zoned];
}

function buildDateTime(f: Fields): DateTimeValue {
  const zone = f.timezone === undefined ? undefined : Zone.parse(f.timezone);
  const { epochSeconds, epochMillis } = f.num;
  if (epochSeconds !== undefined || epochMillis !== undefined) {
    if (epochSeconds !== undefined && epochMillis !== undefined) throw invalidField('Give epochSeconds or epochMillis, not both');
    if (hasDateFields(f) || f.date || f.time || f.datetime || f.num.hour !== undefined || f.num.minute !== undefined || f.num.second !== undefined) {
      throw invalidField('epochSeconds and epochMillis cannot be combined with other date or time components');
    }
    const sub = resolveTime({ num: { hour: 0, minute: 0, second: 0, ...pick(f) } }, 0);
    const nanos = epochSeconds !== undefined ? BigInt(epochSeconds) * BIG_NANOS_PER_SECOND : BigInt(epochMillis as number) * 1_000_000n;
    return DateTimeValue.ofEpochNanos(nanos + BigInt(sub), zone ?? Zone.UTC);
  }
  const [day, nano, source] = localDateTime('datetime', f);
  if (source?.zone === undefined) return DateTimeValue.ofLocal(day, nano, zone ?? Zone.UTC);
  const inSource = DateTimeValue.ofLocal(day, nano, source.zone, source.offset);
  return zone === undefined ? inSource : inSource.withZone(zone);
}

function pick(f: Fields): Fields['num'] {
  const { millisecond, microsecond, nanosecond } = f.num;
  return { millisecond, microsecond, nanosecond };
}

/** `kind(arg)` for any argument: text, component map or temporal value; null is handled by the caller. */
export function construct(kind: TemporalKind, arg: Value, now: bigint): Value {
  if (typeof arg === 'string') return fromString(kind, arg, now);
  if (arg instanceof Map) return fromMap(kind, arg, now);
  if (partsOf(arg)) return fromTemporal(kind, arg, now);
  throw new ValueTypeError(`${kind}() expects a string, a map or a temporal value, got ${describe(arg)}`, 'InvalidArgumentValue');
}

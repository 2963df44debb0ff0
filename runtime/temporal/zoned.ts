/**
 * The temporal values with a time zone: ZONED TIME (a time of day with a fixed offset)
 * and ZONED DATETIME (a local date-time with the offset in force and its zone, fixed or
 * named). Both order by the instant they denote and are equal only when instant, offset
 * and zone all agree. A datetime moves by a duration's months and days on its local
 * date (re-resolving the offset in a named zone) and by the time part on the instant.
 */

import type { ArithOp, ArithmeticOperand } from '../arith.js';
import type { PropertyAccessible } from '../ops.js';
import type { ExtendedValue, Value } from '../values.js';
import { intFromBigInt } from '../values.js';
import { BIG_NANOS_PER_DAY, BIG_NANOS_PER_SECOND, bigFloorDiv, NANOS_PER_SECOND, plusMonths } from './calendar.js';
import { addNanos, dateComponent, inRange, shiftTime, timeComponent, zoneComponent } from './components.js';
import { durationOperand } from './local.js';
import { formatDate, formatTime } from './text.js';
import { formatOffset, Zone } from './zone.js';

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

export class TimeValue implements ExtendedValue, PropertyAccessible, ArithmeticOperand {
  readonly cypherType = 'ZONED TIME';

  constructor(
    readonly nanoOfDay: number,
    readonly offsetSeconds: number,
  ) {}

  /** Nanoseconds of the day in UTC (may fall outside 0…24h). */
  get utcNanoOfDay(): number {
    return this.nanoOfDay - this.offsetSeconds * NANOS_PER_SECOND;
  }

  /** The same instant seen from another offset. */
  withOffset(offsetSeconds: number): TimeValue {
    const [, nano] = addNanos(0, this.nanoOfDay, BigInt(offsetSeconds - this.offsetSeconds) * BIG_NANOS_PER_SECOND);
    return new TimeValue(nano, offsetSeconds);
  }

  toCypherString(): string {
    return formatTime(this.nanoOfDay) + formatOffset(this.offsetSeconds);
  }

  toString(): string {
    return this.toCypherString();
  }

  equalsValue(other: ExtendedValue): boolean {
    return other instanceof TimeValue && other.nanoOfDay === this.nanoOfDay && other.offsetSeconds === this.offsetSeconds;
  }

  compareValue(other: ExtendedValue): number | undefined {
    if (!(other instanceof TimeValue)) return undefined;
    return sign(this.utcNanoOfDay - other.utcNanoOfDay) || sign(this.offsetSeconds - other.offsetSeconds);
  }

  hashKey(): string {
    return `${this.nanoOfDay}:${this.offsetSeconds}`;
  }

  getProperty(key: string): Value | undefined {
    return timeComponent(this.nanoOfDay, key) ?? zoneComponent(this.offsetSeconds, null, key);
  }

  arith(op: ArithOp, other: Value, selfOnLeft: boolean): Value | undefined {
    const o = durationOperand(op, other, selfOnLeft);
    return o && new TimeValue(shiftTime(this.nanoOfDay, o.d, o.s), this.offsetSeconds);
  }
}

export class DateTimeValue implements ExtendedValue, PropertyAccessible, ArithmeticOperand {
  readonly cypherType = 'ZONED DATETIME';

  private constructor(
    readonly epochDay: number,
    readonly nanoOfDay: number,
    readonly offsetSeconds: number,
    readonly zone: Zone,
  ) {}

  /** A local date-time in a zone; in an overlap `prefer` picks the offset if it is valid. */
  static ofLocal(epochDay: number, nanoOfDay: number, zone: Zone, prefer?: number): DateTimeValue {
    if (!zone.named) return new DateTimeValue(epochDay, nanoOfDay, zone.fixedOffset, zone);
    const offset = zone.offsetForLocal(epochDay, nanoOfDay, prefer);
    const [day, nano] = addNanos(epochDay, nanoOfDay, -BigInt(offset) * BIG_NANOS_PER_SECOND);
    return DateTimeValue.ofInstant(day, nano, zone);
  }

  /** An instant (UTC epoch day and nanosecond of day) seen in a zone. */
  static ofInstant(utcDay: number, utcNanoOfDay: number, zone: Zone): DateTimeValue {
    const offset = zone.offsetAtInstant(utcDay, utcNanoOfDay);
    const [day, nano] = addNanos(utcDay, utcNanoOfDay, BigInt(offset) * BIG_NANOS_PER_SECOND);
    return new DateTimeValue(day, nano, offset, zone);
  }

  /** An instant given as nanoseconds since the epoch. */
  static ofEpochNanos(nanos: bigint, zone: Zone): DateTimeValue {
    const [day, nano] = addNanos(0, 0, nanos);
    return DateTimeValue.ofInstant(day, nano, zone);
  }

  /** The instant: UTC epoch day and nanosecond of day. */
  utc(): [number, number] {
    return addNanos(this.epochDay, this.nanoOfDay, -BigInt(this.offsetSeconds) * BIG_NANOS_PER_SECOND);
  }

  epochNanos(): bigint {
    const [day, nano] = this.utc();
    return BigInt(day) * BIG_NANOS_PER_DAY + BigInt(nano);
  }

  /** The same instant in another zone. */
  withZone(zone: Zone): DateTimeValue {
    const [day, nano] = this.utc();
    return DateTimeValue.ofInstant(day, nano, zone);
  }

  toCypherString(): string {
    const base = formatDate(this.epochDay) + 'T' + formatTime(this.nanoOfDay) + formatOffset(this.offsetSeconds);
    return this.zone.named ? `${base}[${this.zone.id}]` : base;
  }

  toString(): string {
    return this.toCypherString();
  }

  equalsValue(other: ExtendedValue): boolean {
    return (
      other instanceof DateTimeValue &&
      other.epochDay === this.epochDay &&
      other.nanoOfDay === this.nanoOfDay &&
      other.offsetSeconds === this.offsetSeconds &&
      other.zone.equals(this.zone)
    );
  }

  compareValue(other: ExtendedValue): number | undefined {
    if (!(other instanceof DateTimeValue)) return undefined;
    const [d1, n1] = this.utc();
    const [d2, n2] = other.utc();
    return sign(d1 - d2) || sign(n1 - n2);
  }

  hashKey(): string {
    return `${this.epochDay}:${this.nanoOfDay}:${this.offsetSeconds}:${this.zone.id ?? ''}`;
  }

  getProperty(key: string): Value | undefined {
    switch (key) {
      case 'epochSeconds':
        return intFromBigInt(bigFloorDiv(this.epochNanos(), BIG_NANOS_PER_SECOND));
      case 'epochMillis':
        return intFromBigInt(bigFloorDiv(this.epochNanos(), 1_000_000n));
      default:
        return dateComponent(this.epochDay, key) ?? timeComponent(this.nanoOfDay, key) ?? zoneComponent(this.offsetSeconds, this.zone, key);
    }
  }

  arith(op: ArithOp, other: Value, selfOnLeft: boolean): Value | undefined {
    const o = durationOperand(op, other, selfOnLeft);
    if (!o) return undefined;
    const day = inRange(plusMonths(this.epochDay, o.s * o.d.months) + o.s * o.d.days);
    const moved = DateTimeValue.ofLocal(day, this.nanoOfDay, this.zone, this.offsetSeconds);
    const [utcDay, utcNano] = moved.utc();
    const [d, n] = addNanos(utcDay, utcNano, o.s === 1 ? o.d.nanos : -o.d.nanos);
    return DateTimeValue.ofInstant(inRange(d), n, this.zone);
  }
}

/**
 * The DURATION value: months, days and a time part in nanoseconds, kept apart because
 * their lengths vary (a month is not a fixed number of days, nor a day of seconds across
 * DST). Owns the text form (`P1Y2M10DT12H45M30.25S`, `PT0S`), equality, the component
 * accessors (`d.years`, `d.minutesOfHour`, …), duration ± duration, duration × number,
 * duration ÷ number and the cascade of fractional components (`{months: 0.75}` is 22 days
 * 19:51:49.5, using the average Gregorian month of 30.436875 days).
 *
 * Durations are equal when all three parts are; they are not ordered (`<` gives null).
 */

import { ArgumentError, ArithmeticError } from '../../src/errors.js';
import type { ArithOp, ArithmeticOperand } from '../arith.js';
import type { PropertyAccessible } from '../ops.js';
import { FloatBox, intFromBigInt, type ExtendedValue, type Value } from '../values.js';
import { bigFloorDiv, bigFloorMod, BIG_NANOS_PER_SECOND, NANOS_PER_DAY, NANOS_PER_SECOND } from './calendar.js';
import { fractionDigits } from './text.js';

/** Average Gregorian month (365.2425 / 12 days) in seconds. */
export const AVG_MONTH_SECONDS = 2_629_746;

const ZERO_NANOS = 0n;

function trunc0(x: number): number {
  return Math.trunc(x) + 0;
}

export class DurationValue implements ExtendedValue, PropertyAccessible, ArithmeticOperand {
  readonly cypherType = 'DURATION';

  constructor(
    readonly months: number,
    readonly days: number,
    /** The time part: hours, minutes, seconds and fractions, as signed nanoseconds. */
    readonly nanos: bigint,
  ) {}

  static readonly ZERO = new DurationValue(0, 0, ZERO_NANOS);

  /**
   * A duration from possibly fractional amounts of each unit: a fraction of a month
   * becomes days and time (average month), a fraction of a day becomes time, and a
   * fraction of a nanosecond is dropped.
   */
  static approximate(months: number, days: number, seconds: number, nanos: number): DurationValue {
    for (const x of [months, days, seconds, nanos]) {
      if (!Number.isFinite(x)) throw new ArgumentError('Duration components must be finite numbers', 'InvalidArgumentValue');
    }
    const m = trunc0(months);
    const monthFraction = Math.round((months - m) * AVG_MONTH_SECONDS * NANOS_PER_SECOND);
    const spillDays = trunc0(monthFraction / NANOS_PER_DAY);
    const d = trunc0(days);
    const dayFraction = Math.round((days - d) * NANOS_PER_DAY);
    const s = trunc0(seconds);
    const secondFraction = Math.round((seconds - s) * NANOS_PER_SECOND);
    if (!Number.isSafeInteger(m) || !Number.isSafeInteger(d + spillDays) || !Number.isSafeInteger(s)) {
      throw new ArgumentError('Duration is too large', 'InvalidArgumentValue');
    }
    const small = monthFraction - spillDays * NANOS_PER_DAY + dayFraction + secondFraction + trunc0(nanos);
    return new DurationValue(m, d + spillDays, BigInt(s) * BIG_NANOS_PER_SECOND + BigInt(small));
  }

  /** Whole seconds of the time part, rounded down (so `nanosOfSecond` is never negative). */
  get seconds(): bigint {
    return bigFloorDiv(this.nanos, BIG_NANOS_PER_SECOND);
  }

  get nanosOfSecond(): number {
    return Number(bigFloorMod(this.nanos, BIG_NANOS_PER_SECOND));
  }

  toCypherString(): string {
    let s = 'P';
    const years = trunc0(this.months / 12);
    const months = this.months - years * 12 + 0;
    if (years !== 0) s += `${years}Y`;
    if (months !== 0) s += `${months}M`;
    if (this.days !== 0) s += `${this.days}D`;
    if (this.nanos !== ZERO_NANOS) {
      const neg = this.nanos < ZERO_NANOS;
      const sign = neg ? '-' : '';
      const abs = neg ? -this.nanos : this.nanos;
      const totalSeconds = abs / BIG_NANOS_PER_SECOND;
      const fraction = Number(abs % BIG_NANOS_PER_SECOND);
      const h = totalSeconds / 3600n;
      const min = (totalSeconds % 3600n) / 60n;
      const sec = totalSeconds % 60n;
      s += 'T';
      if (h !== ZERO_NANOS) s += `${sign}${h}H`;
      if (min !== ZERO_NANOS) s += `${sign}${min}M`;
      if (sec !== ZERO_NANOS || fraction !== 0) {
        const digits = fractionDigits(fraction);
        s += `${sign}${sec}${digits ? '.' + digits : ''}S`;
      }
    }
    return s === 'P' ? 'PT0S' : s;
  }

  toString(): string {
    return this.toCypherString();
  }

  equalsValue(other: ExtendedValue): boolean | null {
    return other instanceof DurationValue && other.months === this.months && other.days === this.days && other.nanos === this.nanos;
  }

  compareValue(): number | undefined {
    return undefined;
  }

  hashKey(): string {
    return `${this.months}:${this.days}:${this.nanos}`;
  }

  getProperty(key: string): Value | undefined {
    const seconds = this.seconds;
    const nos = this.nanosOfSecond;
    switch (key) {
      case 'years':
        return trunc0(this.months / 12);
      case 'quarters':
        return trunc0(this.months / 3);
      case 'months':
        return this.months;
      case 'weeks':
        return trunc0(this.days / 7);
      case 'days':
        return this.days;
      case 'hours':
        return intFromBigInt(seconds / 3600n);
      case 'minutes':
        return intFromBigInt(seconds / 60n);
      case 'seconds':
        return intFromBigInt(seconds);
      case 'milliseconds':
        return intFromBigInt(seconds * 1000n + BigInt(Math.floor(nos / 1e6)));
      case 'microseconds':
        return intFromBigInt(seconds * 1_000_000n + BigInt(Math.floor(nos / 1e3)));
      case 'nanoseconds':
        return intFromBigInt(this.nanos);
      case 'quartersOfYear':
        return trunc0((this.months % 12) / 3);
      case 'monthsOfQuarter':
        return (this.months % 3) + 0;
      case 'monthsOfYear':
        return (this.months % 12) + 0;
      case 'daysOfWeek':
        return (this.days % 7) + 0;
      case 'minutesOfHour':
        return intFromBigInt((seconds / 60n) % 60n);
      case 'secondsOfMinute':
        return intFromBigInt(seconds % 60n);
      case 'millisecondsOfSecond':
        return Math.floor(nos / 1e6);
      case 'microsecondsOfSecond':
        return Math.floor(nos / 1e3);
      case 'nanosecondsOfSecond':
        return nos;
      default:
        return undefined;
    }
  }

  plus(other: DurationValue, sign: 1 | -1 = 1): DurationValue {
    return new DurationValue(
      this.months + sign * other.months,
      this.days + sign * other.days,
      sign === 1 ? this.nanos + other.nanos : this.nanos - other.nanos,
    );
  }

  negated(): DurationValue {
    return new DurationValue(-this.months + 0, -this.days + 0, -this.nanos);
  }

  /** Multiplies every component; integral factors stay exact, others cascade fractions downwards. */
  times(factor: number | bigint): DurationValue {
    if (typeof factor === 'bigint' || Number.isInteger(factor)) {
      const k = Number(factor);
      return new DurationValue(this.months * k + 0, this.days * k + 0, this.nanos * BigInt(factor));
    }
    return this.scaled((x) => x * factor);
  }

  dividedBy(divisor: number): DurationValue {
    if (divisor === 0) throw new ArithmeticError('Division of a duration by zero', 'DivisionByZero');
    return this.scaled((x) => x / divisor);
  }

  private scaled(f: (x: number) => number): DurationValue {
    const seconds = this.seconds;
    return DurationValue.approximate(f(this.months), f(this.days), f(Number(seconds)), f(this.nanosOfSecond));
  }

  arith(op: ArithOp, other: Value, selfOnLeft: boolean): Value | undefined {
    if (other instanceof DurationValue) {
      if (op === '+') return this.plus(other);
      if (op === '-') return selfOnLeft ? this.plus(other, -1) : other.plus(this, -1);
      return undefined;
    }
    const n = numberOf(other);
    if (n === undefined) return undefined;
    if (op === '*') return this.times(n);
    if (op === '/' && selfOnLeft) return this.dividedBy(Number(n));
    return undefined;
  }

  negate(): Value {
    return this.negated();
  }
}

function numberOf(v: Value): number | bigint | undefined {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (v instanceof FloatBox) return v.value;
  return undefined;
}

/**
 * The temporal values without a time zone: DATE (an epoch day), LOCAL TIME (a nanosecond
 * of the day) and LOCAL DATETIME (both). Each is an `ExtendedValue` with its text form,
 * equality, ordering and grouping key, exposes its components as properties and supports
 * `± duration`.
 */

import type { ArithOp, ArithmeticOperand } from '../arith.js';
import type { PropertyAccessible } from '../ops.js';
import type { ExtendedValue, Value } from '../values.js';
import { dateComponent, shiftDate, shiftLocal, shiftTime, timeComponent } from './components.js';
import { DurationValue } from './duration.js';
import { formatDate, formatTime } from './text.js';

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/**
 * `temporal + duration`, `duration + temporal` and `temporal - duration`: the sign to
 * apply, or undefined for anything else.
 */
export function durationOperand(op: ArithOp, other: Value, selfOnLeft: boolean): { d: DurationValue; s: 1 | -1 } | undefined {
  if (!(other instanceof DurationValue)) return undefined;
  if (op === '+') return { d: other, s: 1 };
  if (op === '-' && selfOnLeft) return { d: other, s: -1 };
  return undefined;
}

export class DateValue implements ExtendedValue, PropertyAccessible, ArithmeticOperand {
  readonly cypherType = 'DATE';

  constructor(readonly epochDay: number) {}

  toCypherString(): string {
    return formatDate(this.epochDay);
  }

  toString(): string {
    return this.toCypherString();
  }

  equalsValue(other: ExtendedValue): boolean {
    return other instanceof DateValue && other.epochDay === this.epochDay;
  }

  compareValue(other: ExtendedValue): number | undefined {
    return other instanceof DateValue ? sign(this.epochDay - other.epochDay) : undefined;
  }

  hashKey(): string {
    return String(this.epochDay);
  }

  getProperty(key: string): Value | undefined {
    return dateComponent(this.epochDay, key);
  }

  arith(op: ArithOp, other: Value, selfOnLeft: boolean): Value | undefined {
    const o = durationOperand(op, other, selfOnLeft);
    return o && new DateValue(shiftDate(this.epochDay, o.d, o.s));
  }
}

export class LocalTimeValue implements ExtendedValue, PropertyAccessible, ArithmeticOperand {
  readonly cypherType = 'LOCAL TIME';

  constructor(readonly nanoOfDay: number) {}

  toCypherString(): string {
    return formatTime(this.nanoOfDay);
  }

  toString(): string {
    return this.toCypherString();
  }

  equalsValue(other: ExtendedValue): boolean {
    return other instanceof LocalTimeValue && other.nanoOfDay === this.nanoOfDay;
  }

  compareValue(other: ExtendedValue): number | undefined {
    return other instanceof LocalTimeValue ? sign(this.nanoOfDay - other.nanoOfDay) : undefined;
  }

  hashKey(): string {
    return String(this.nanoOfDay);
  }

  getProperty(key: string): Value | undefined {
    return timeComponent(this.nanoOfDay, key);
  }

  arith(op: ArithOp, other: Value, selfOnLeft: boolean): Value | undefined {
    const o = durationOperand(op, other, selfOnLeft);
    return o && new LocalTimeValue(shiftTime(this.nanoOfDay, o.d, o.s));
  }
}

export class LocalDateTimeValue implements ExtendedValue, PropertyAccessible, ArithmeticOperand {
  readonly cypherType = 'LOCAL DATETIME';

  constructor(
    readonly epochDay: number,
    readonly nanoOfDay: number,
  ) {}

  toCypherString(): string {
    return formatDate(this.epochDay) + 'T' + formatTime(this.nanoOfDay);
  }

  toString(): string {
    return this.toCypherString();
  }

  equalsValue(other: ExtendedValue): boolean {
    return other instanceof LocalDateTimeValue && other.epochDay === this.epochDay && other.nanoOfDay === this.nanoOfDay;
  }

  compareValue(other: ExtendedValue): number | undefined {
    if (!(other instanceof LocalDateTimeValue)) return undefined;
    return sign(this.epochDay - other.epochDay) || sign(this.nanoOfDay - other.nanoOfDay);
  }

  hashKey(): string {
    return `${this.epochDay}:${this.nanoOfDay}`;
  }

  getProperty(key: string): Value | undefined {
    return dateComponent(this.epochDay, key) ?? timeComponent(this.nanoOfDay, key);
  }

  arith(op: ArithOp, other: Value, selfOnLeft: boolean): Value | undefined {
    const o = durationOperand(op, other, selfOnLeft);
    if (!o) return undefined;
    const [day, nano] = shiftLocal(this.epochDay, this.nanoOfDay, o.d, o.s);
    return new LocalDateTimeValue(day, nano);
  }
}

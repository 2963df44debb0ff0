/**
 * Time zones of TIME and DATETIME values: fixed offsets (`+01:00`, `Z`, `-02:05:59`) and
 * named IANA zones (`Europe/Stockholm`), whose rules come from the Temporal polyfill.
 * Parsing and printing of offsets, and the two offset lookups datetime arithmetic needs:
 * for a local date-time (resolving DST gaps and overlaps) and for an instant.
 *
 * The polyfill only covers years ±271,821; lookups beyond that borrow the rules of a year
 * shifted by whole 400-year Gregorian cycles, which keeps weekdays and leap years intact.
 */

import { Temporal } from 'temporal-polyfill';
import { ArgumentError } from '../../src/errors.js';
import { civilOf, DAYS_PER_CYCLE, floorDiv, NANOS_PER_DAY, SECONDS_PER_DAY } from './calendar.js';

const MAX_OFFSET = 18 * 3600;
const SAFE_YEARS = 200_000;

/** An offset in seconds as the TCK prints it: `Z`, `+01:00`, `-02:05:59`. */
export function formatOffset(seconds: number): string {
  if (seconds === 0) return 'Z';
  const sign = seconds < 0 ? '-' : '+';
  const abs = Math.abs(seconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${sign}${two(h)}:${two(m)}${s ? ':' + two(s) : ''}`;
}

const OFFSET_RE = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?$/;

/** Seconds of an offset text (`Z`, `+01`, `+0100`, `+01:00`, `+01:00:30`), or undefined when it is not one. */
export function parseOffset(text: string): number | undefined {
  if (text === 'Z' || text === 'z') return 0;
  const m = OFFSET_RE.exec(text);
  if (!m) return undefined;
  const h = Number(m[2]);
  const min = m[3] === undefined ? 0 : Number(m[3]);
  const s = m[4] === undefined ? 0 : Number(m[4]);
  if (min > 59 || s > 59) return undefined;
  const total = h * 3600 + min * 60 + s;
  if (total > MAX_OFFSET) return undefined;
  return m[1] === '-' ? -total : total;
}

const canonicalNames = new Map<string, string | null>();

/** The polyfill's spelling of a zone name, or null when it does not know the zone. */
function canonicalZoneName(name: string): string | null {
  let c = canonicalNames.get(name);
  if (c !== undefined) return c;
  try {
    c = Temporal.ZonedDateTime.from({ year: 2000, month: 1, day: 1, timeZone: name }).timeZoneId;
  } catch {
    c = null;
  }
  canonicalNames.set(name, c);
  return c;
}

export function invalidZone(text: string): ArgumentError {
  return new ArgumentError(`Invalid time zone '${text}'`, 'InvalidArgumentValue');
}

/**
 * Days to shift an epoch day by, in whole 400-year cycles, so that its year falls in the
 * polyfill's range: far-future years land in 2000–2399 (today's rules carried forward),
 * far-past ones in 0–399 (local mean time, like every zone before standard time).
 */
function safeDayShift(epochDay: number): number {
  const year = civilOf(epochDay).year;
  if (year >= -SAFE_YEARS && year <= SAFE_YEARS) return 0;
  const target = year > 0 ? 2000 : 0;
  return -floorDiv(year - target, 400) * DAYS_PER_CYCLE;
}

/** A time zone: either a fixed offset (`id` null) or a named zone. */
export class Zone {
  private constructor(
    /** The IANA name for named zones, null for fixed offsets. */
    readonly id: string | null,
    /** The offset of a fixed-offset zone (0 for named zones; use the lookups). */
    readonly fixedOffset: number,
  ) {}

  static readonly UTC = new Zone(null, 0);

  static fixed(seconds: number): Zone {
    return seconds === 0 ? Zone.UTC : new Zone(null, seconds);
  }

  /** A zone from a `timezone` value: an offset text or an IANA name. */
  static parse(text: string): Zone {
    const off = parseOffset(text);
    if (off !== undefined) return Zone.fixed(off);
    if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(text)) throw invalidZone(text);
    const name = canonicalZoneName(text);
    if (name === null) throw invalidZone(text);
    // The polyfill spells offset-like names ("Etc/GMT+1" stays named; "+01:00" handled above).
    return new Zone(name, 0);
  }

  get named(): boolean {
    return this.id !== null;
  }

  /** The zone as the `timezone` accessor reports it: the name, or the offset text. */
  toString(): string {
    return this.id ?? formatOffset(this.fixedOffset);
  }

  equals(other: Zone): boolean {
    return this.id === other.id && this.fixedOffset === other.fixedOffset;
  }

  /** The offset in force at an instant given as UTC epoch day and nanosecond of day. */
  offsetAtInstant(utcDay: number, utcNanoOfDay: number): number {
    if (this.id === null) return this.fixedOffset;
    const shift = safeDayShift(utcDay);
    const seconds = (utcDay + shift) * SECONDS_PER_DAY + Math.floor(utcNanoOfDay / 1e9);
    const instant = Temporal.Instant.fromEpochMilliseconds(seconds * 1000);
    return Math.round(instant.toZonedDateTimeISO(this.id).offsetNanoseconds / 1e9);
  }

  /**
   * The offset to read a local date-time with: in an overlap the earlier offset unless
   * `prefer` is the other valid one; in a gap the offset before the transition, so the
   * time moves forward by the gap's length once normalised through the instant.
   */
  offsetForLocal(epochDay: number, nanoOfDay: number, prefer?: number): number {
    if (this.id === null) return this.fixedOffset;
    const shift = safeDayShift(epochDay);
    const c = civilOf(epochDay + shift);
    let n = nanoOfDay;
    const hour = Math.floor(n / 3.6e12);
    n -= hour * 3.6e12;
    const minute = Math.floor(n / 6e10);
    n -= minute * 6e10;
    const second = Math.floor(n / 1e9);
    n -= second * 1e9;
    const ms = Math.floor(n / 1e6);
    const us = Math.floor((n % 1e6) / 1e3);
    const ns = n % 1e3;
    const local = new Temporal.PlainDateTime(c.year, c.month, c.day, hour, minute, second, ms, us, ns);
    const localNanos = BigInt(epochDay + shift) * BigInt(NANOS_PER_DAY) + BigInt(nanoOfDay);
    const offsetOf = (d: 'earlier' | 'later' | 'compatible'): number =>
      Number((localNanos - local.toZonedDateTime(this.id as string, { disambiguation: d }).epochNanoseconds) / 1_000_000_000n);
    if (prefer !== undefined) {
      if (offsetOf('earlier') === prefer || offsetOf('later') === prefer) return prefer;
    }
    return offsetOf('compatible');
  }
}

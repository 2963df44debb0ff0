/**
 * Time zones of TIME and DATETIME values: fixed offsets (`+01:00`, `Z`, `-02:05:59`) and
 * named IANA zones (`Europe/Stockholm`), whose rules come from the Temporal polyfill.
 * Parsing and printing of offsets, and the two offset lookups datetime arithmetic needs:
 * for a local date-time (resolving DST gaps and overlaps) and for an instant.
 *
 * The polyfill only covers years ±271,821; lookups beyond that borrow the rules of a year
 * shifted by whole 400-year Gregorian cycles, which keeps weekdays and leap years intact.
 */

import { temporalApi } from './polyfill.js';
import { ArgumentError } from '../../src/errors.js';
import { civilOf, DAYS_PER_CYCLE, floorDiv, SECONDS_PER_DAY } from './calendar.js';

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
    c = temporalApi().ZonedDateTime.from({ year: 2000, month: 1, day: 1, timeZone: name }).timeZoneId;
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

/** A stretch of time (epoch seconds, end exclusive) over which a named zone keeps one offset. */
interface Span {
  start: number;
  end: number;
  offset: number;
}

const SPANS_PER_ZONE = 64;
const spanCache = new Map<string, Span[]>();

/**
 * The span of a named zone holding an instant (epoch seconds within the polyfill's range).
 * The polyfill is asked once per span: its offset and the transitions around it.
 */
function spanAt(id: string, seconds: number): Span {
  let spans = spanCache.get(id);
  if (spans === undefined) {
    spans = [];
    spanCache.set(id, spans);
  }
  for (let i = spans.length - 1; i >= 0; i--) {
    const s = spans[i];
    if (seconds >= s.start && seconds < s.end) return s;
  }
  const Temporal = temporalApi();
  const at = Temporal.Instant.fromEpochMilliseconds(seconds * 1000).toZonedDateTimeISO(id);
  // Transitions fall on whole seconds: the last one at or before `seconds`, the first one after.
  const previous = Temporal.Instant.fromEpochMilliseconds((seconds + 1) * 1000).toZonedDateTimeISO(id).getTimeZoneTransition('previous');
  const next = at.getTimeZoneTransition('next');
  const span: Span = {
    start: previous ? Math.floor(previous.epochMilliseconds / 1000) : -Infinity,
    end: next ? Math.floor(next.epochMilliseconds / 1000) : Infinity,
    offset: Math.round(at.offsetNanoseconds / 1e9),
  };
  if (spans.length >= SPANS_PER_ZONE) spans.shift();
  spans.push(span);
  return span;
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
    return spanAt(this.id, (utcDay + shift) * SECONDS_PER_DAY + Math.floor(utcNanoOfDay / 1e9)).offset;
  }

  /**
   * The offset to read a local date-time with, such that the instant is local − offset:
   * the only valid offset; in an overlap the earlier instant's unless `prefer` is the
   * other valid one; in a gap the offset before the transition, so the time moves forward
   * by the gap's length once normalised through the instant.
   */
  offsetForLocal(epochDay: number, nanoOfDay: number, prefer?: number): number {
    if (this.id === null) return this.fixedOffset;
    const id = this.id;
    const local = (epochDay + safeDayShift(epochDay)) * SECONDS_PER_DAY + Math.floor(nanoOfDay / 1e9);
    // Every instant this local time could denote lies within ±18 hours of it.
    const before = spanAt(id, local - MAX_OFFSET).offset;
    const after = spanAt(id, local + MAX_OFFSET).offset;
    const valid = [before, after].filter((o) => spanAt(id, local - o).offset === o);
    if (prefer !== undefined && valid.includes(prefer)) return prefer;
    if (valid.length === 0) return before;
    return Math.max(...valid);
  }
}

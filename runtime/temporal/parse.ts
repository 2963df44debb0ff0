/**
 * ISO 8601 text to temporal parts: calendar (`2015-07-21`, `20150721`, `2015-07`), week
 * (`2015-W30-2`, `2015W302`, `2015-W30`), ordinal (`2015-202`) and year-only dates, with
 * years beyond four digits when signed (`+999999999-12-31`); times `21`, `21:40`, `2140`,
 * `21:40:32.142`, `214032,142`; offsets `Z`, `+01`, `+0100`, `+01:00`, `-02:05:59`; zone
 * names in brackets (`[Europe/Stockholm]`); and durations (`P1Y2M3W4DT5H6M7.5S`, signed
 * and fractional components, the alternative form `P2012-02-02T14:37:21.545`).
 */

import { ArgumentError } from '../../src/errors.js';
import {
  daysInMonth,
  daysInYear,
  epochDayOf,
  NANOS_PER_HOUR,
  NANOS_PER_MINUTE,
  NANOS_PER_SECOND,
  quarterStart,
  weeksInWeekYear,
  weekYearStart,
} from './calendar.js';
import { DurationValue } from './duration.js';
import { parseOffset } from './zone.js';

export function cannotParse(what: string, text: string): ArgumentError {
  return new ArgumentError(`Text cannot be parsed to a ${what}: '${text}'`, 'InvalidArgumentValue');
}

/** Range check for one field; raises the error every temporal constructor shares. */
export function checkField(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ArgumentError(`Invalid value for ${name}: ${value} (expected ${min} to ${max})`, 'InvalidArgumentValue');
  }
  return value;
}

export const MIN_YEAR = -999_999_999;
export const MAX_YEAR = 999_999_999;

/** Epoch day of a calendar date, range-checked. */
export function calendarDate(year: number, month: number, day: number): number {
  checkField('year', year, MIN_YEAR, MAX_YEAR);
  checkField('month', month, 1, 12);
  checkField('day', day, 1, daysInMonth(year, month));
  return epochDayOf(year, month, day);
}

/** Epoch day of an ISO week date, range-checked. */
export function weekDate(weekYear: number, week: number, dayOfWeek: number): number {
  checkField('year', weekYear, MIN_YEAR, MAX_YEAR);
  checkField('week', week, 1, weeksInWeekYear(weekYear));
  checkField('dayOfWeek', dayOfWeek, 1, 7);
  return weekYearStart(weekYear) + (week - 1) * 7 + dayOfWeek - 1;
}

/** Epoch day of an ordinal date, range-checked. */
export function ordinalDate(year: number, ordinalDay: number): number {
  checkField('year', year, MIN_YEAR, MAX_YEAR);
  checkField('ordinalDay', ordinalDay, 1, daysInYear(year));
  return epochDayOf(year, 1, 1) + ordinalDay - 1;
}

/** Epoch day of a quarter date, range-checked. */
export function quarterDate(year: number, quarter: number, dayOfQuarter: number): number {
  checkField('year', year, MIN_YEAR, MAX_YEAR);
  checkField('quarter', quarter, 1, 4);
  const start = quarterStart(year, quarter);
  const length = (quarter === 4 ? epochDayOf(year + 1, 1, 1) : quarterStart(year, quarter + 1)) - start;
  checkField('dayOfQuarter', dayOfQuarter, 1, length);
  return start + dayOfQuarter - 1;
}

/** Nanosecond of the day from clock fields, range-checked. */
export function clockTime(hour: number, minute: number, second: number, nanoOfSecond: number): number {
  checkField('hour', hour, 0, 23);
  checkField('minute', minute, 0, 59);
  checkField('second', second, 0, 59);
  checkField('nanosecond', nanoOfSecond, 0, NANOS_PER_SECOND - 1);
  return hour * NANOS_PER_HOUR + minute * NANOS_PER_MINUTE + second * NANOS_PER_SECOND + nanoOfSecond;
}

const EXTENDED_DATE = /^([+-]\d{4,9}|\d{4})(?:-(\d{2})(?:-(\d{2}))?|-W(\d{2})(?:-(\d))?|-(\d{3}))?$/;
const BASIC_DATE = /^(\d{4})(?:(\d{2})(\d{2})?|W(\d{2})(\d)?|(\d{3}))?$/;

/** Epoch day of a date text. */
export function parseDate(text: string): number {
  const m = EXTENDED_DATE.exec(text) ?? BASIC_DATE.exec(text);
  if (!m) throw cannotParse('date', text);
  const year = Number(m[1]);
  if (m[4] !== undefined) return weekDate(year, Number(m[4]), m[5] === undefined ? 1 : Number(m[5]));
  if (m[6] !== undefined) return ordinalDate(year, Number(m[6]));
  return calendarDate(year, m[2] === undefined ? 1 : Number(m[2]), m[3] === undefined ? 1 : Number(m[3]));
}

const CLOCK = /^(\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?$/;

/** A time of day with its optional offset and zone name, as written. */
export interface ParsedTime {
  nanoOfDay: number;
  offset?: number;
  zoneName?: string;
}

/** Parses `hh[:mm[:ss[.fff]]][offset][[Zone]]`. */
export function parseTime(text: string, what = 'time'): ParsedTime {
  let rest = text;
  let zoneName: string | undefined;
  const bracket = /\[([^\]]+)\]$/.exec(rest);
  if (bracket) {
    zoneName = bracket[1];
    rest = rest.slice(0, bracket.index);
  }
  let offset: number | undefined;
  const at = rest.search(/[Zz+-]/);
  if (at >= 0) {
    offset = parseOffset(rest.slice(at));
    if (offset === undefined) throw cannotParse(what, text);
    rest = rest.slice(0, at);
  }
  const m = CLOCK.exec(rest);
  if (!m) throw cannotParse(what, text);
  const fraction = m[4] === undefined ? 0 : Number(m[4].padEnd(9, '0'));
  const nanoOfDay = clockTime(Number(m[1]), m[2] === undefined ? 0 : Number(m[2]), m[3] === undefined ? 0 : Number(m[3]), fraction);
  return { nanoOfDay, offset, zoneName };
}

export interface ParsedDateTime extends ParsedTime {
  epochDay: number;
}

/** Parses `<date>[T<time>]`. */
export function parseDateTime(text: string, what = 'datetime'): ParsedDateTime {
  const t = text.search(/[Tt]/);
  if (t < 0) {
    // A date alone, possibly followed by a zone (`2015-07-21[Europe/London]`).
    const bracket = /\[([^\]]+)\]$/.exec(text);
    const dateText = bracket ? text.slice(0, bracket.index) : text;
    return { epochDay: parseDate(dateText), nanoOfDay: 0, zoneName: bracket?.[1] };
  }
  const epochDay = parseDate(text.slice(0, t));
  return { epochDay, ...parseTime(text.slice(t + 1), what) };
}

const NUM = '([-+]?\\d+(?:[.,]\\d+)?)';
const DURATION = new RegExp(`^([-+]?)P(?:${NUM}Y)?(?:${NUM}M)?(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`, 'i');
const ALT_DURATION = /^([-+]?)P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}(?:[.,]\d{1,9})?)$/i;

function num(s: string | undefined): number {
  return s === undefined ? 0 : Number(s.replace(',', '.'));
}

/** Whole seconds and exact nanoseconds of a seconds text such as `-1.999`. */
function secondsParts(s: string | undefined): [number, number] {
  if (s === undefined) return [0, 0];
  const m = /^([-+]?)(\d+)(?:[.,](\d+))?$/.exec(s) as RegExpExecArray;
  const sign = m[1] === '-' ? -1 : 1;
  const fraction = m[3] === undefined ? 0 : Number(m[3].slice(0, 9).padEnd(9, '0'));
  return [sign * Number(m[2]), sign * fraction];
}

/** A duration text. */
export function parseDuration(text: string): DurationValue {
  const alt = ALT_DURATION.exec(text);
  let d: DurationValue;
  let negative: boolean;
  if (alt) {
    negative = alt[1] === '-';
    const [s, ns] = secondsParts(alt[7]);
    d = DurationValue.approximate(num(alt[2]) * 12 + num(alt[3]), num(alt[4]), num(alt[5]) * 3600 + num(alt[6]) * 60 + s, ns);
  } else {
    const m = DURATION.exec(text);
    if (!m || m.slice(2).every((x) => x === undefined) || /T$/i.test(text)) throw cannotParse('duration', text);
    negative = m[1] === '-';
    const [s, ns] = secondsParts(m[8]);
    d = DurationValue.approximate(num(m[2]) * 12 + num(m[3]), num(m[4]) * 7 + num(m[5]), num(m[6]) * 3600 + num(m[7]) * 60 + s, ns);
  }
  return negative ? d.negated() : d;
}

/**
 * Proleptic Gregorian calendar arithmetic on epoch days (days since 1970-01-01), the
 * representation every temporal value uses for its date part. Plain integer math, so it
 * covers Cypher's full range of years (±999,999,999), well beyond what the Temporal
 * polyfill accepts; time zone rules come from the polyfill (zone.ts).
 *
 * Also the ISO week calendar (week years starting on the Monday of the week holding
 * January 4th), ordinal days and quarters, and the unit constants shared by temporal code.
 */

export const NANOS_PER_SECOND = 1_000_000_000;
export const NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
export const NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;
export const NANOS_PER_DAY = 24 * NANOS_PER_HOUR;
export const SECONDS_PER_DAY = 86_400;
export const BIG_NANOS_PER_SECOND = 1_000_000_000n;
export const BIG_NANOS_PER_DAY = 86_400_000_000_000n;

/** Days in 400 Gregorian years: the calendar repeats with this period. */
export const DAYS_PER_CYCLE = 146_097;

/** Floor division for integers held in numbers. */
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Modulo with the sign of the divisor. */
export function floorMod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r + 0;
}

export function bigFloorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n) && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

export function bigFloorMod(a: bigint, b: bigint): bigint {
  return a - bigFloorDiv(a, b) * b;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : MONTH_DAYS[m - 1];
}

export function daysInYear(y: number): number {
  return isLeapYear(y) ? 366 : 365;
}

/** Epoch day of a calendar date (month 1–12; day is not range-checked). */
export function epochDayOf(y: number, m: number, d: number): number {
  // Count from March so that the leap day falls at the end of the counting year.
  const yy = m <= 2 ? y - 1 : y;
  const era = floorDiv(yy, 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * DAYS_PER_CYCLE + doe - 719_468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

/** Calendar date of an epoch day. */
export function civilOf(epochDay: number): CivilDate {
  const z = epochDay + 719_468;
  const era = floorDiv(z, DAYS_PER_CYCLE);
  const doe = z - era * DAYS_PER_CYCLE;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** ISO day of week: Monday 1 … Sunday 7. */
export function dayOfWeek(epochDay: number): number {
  // 1970-01-01 was a Thursday.
  return floorMod(epochDay + 3, 7) + 1;
}

/** 1-based day within the year. */
export function ordinalDay(epochDay: number): number {
  return epochDay - epochDayOf(civilOf(epochDay).year, 1, 1) + 1;
}

export function quarterOf(month: number): number {
  return Math.floor((month - 1) / 3) + 1;
}

/** Epoch day of the first day of a quarter. */
export function quarterStart(year: number, quarter: number): number {
  return epochDayOf(year, (quarter - 1) * 3 + 1, 1);
}

/** 1-based day within the quarter. */
export function dayOfQuarter(epochDay: number): number {
  const c = civilOf(epochDay);
  return epochDay - quarterStart(c.year, quarterOf(c.month)) + 1;
}

/** Epoch day of the Monday that starts week 1 of an ISO week year. */
export function weekYearStart(weekYear: number): number {
  const jan4 = epochDayOf(weekYear, 1, 4);
  return jan4 - dayOfWeek(jan4) + 1;
}

/** Number of ISO weeks (52 or 53) in a week year. */
export function weeksInWeekYear(weekYear: number): number {
  return (weekYearStart(weekYear + 1) - weekYearStart(weekYear)) / 7;
}

export interface WeekDate {
  weekYear: number;
  week: number;
  dayOfWeek: number;
}

/** ISO week date of an epoch day. */
export function weekDateOf(epochDay: number): WeekDate {
  const year = civilOf(epochDay).year;
  let weekYear = year + 1;
  let start = weekYearStart(weekYear);
  if (epochDay < start) {
    weekYear = year;
    start = weekYearStart(weekYear);
    if (epochDay < start) {
      weekYear = year - 1;
      start = weekYearStart(weekYear);
    }
  }
  return { weekYear, week: Math.floor((epochDay - start) / 7) + 1, dayOfWeek: dayOfWeek(epochDay) };
}

/** Proleptic month count (year * 12 + month - 1), the unit of month arithmetic. */
export function prolepticMonth(epochDay: number): number {
  const c = civilOf(epochDay);
  return c.year * 12 + c.month - 1;
}

/** Adds months to a date, clamping the day to the end of a shorter month. */
export function plusMonths(epochDay: number, months: number): number {
  if (months === 0) return epochDay;
  const c = civilOf(epochDay);
  const total = c.year * 12 + (c.month - 1) + months;
  const year = floorDiv(total, 12);
  const month = total - year * 12 + 1;
  return epochDayOf(year, month, Math.min(c.day, daysInMonth(year, month)));
}

/**
 * Whole months from one date to another, truncated toward zero: a month only counts once
 * its day of month is reached (callers adjust the end date for the time of day).
 */
export function monthsBetween(from: number, to: number): number {
  const a = civilOf(from);
  const b = civilOf(to);
  const packed1 = (a.year * 12 + a.month - 1) * 32 + a.day;
  const packed2 = (b.year * 12 + b.month - 1) * 32 + b.day;
  return Math.trunc((packed2 - packed1) / 32);
}

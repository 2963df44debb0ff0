/**
 * The text form of dates and times as openCypher prints them (ISO 8601, extended format):
 * `1984-10-11`, `+10000-01-01`, `-0001-01-01`; `12:00`, `12:31:14`, `12:31:14.645`,
 * `12:31:14.645876`, `12:31:14.645876123` (seconds only when non-zero, fractions in groups
 * of three digits).
 */

import { civilOf, NANOS_PER_HOUR, NANOS_PER_MINUTE, NANOS_PER_SECOND } from './calendar.js';

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export function formatYear(year: number): string {
  if (year > 9999) return '+' + String(year);
  if (year < 0) return '-' + pad(-year, 4);
  return pad(year, 4);
}

export function formatDate(epochDay: number): string {
  const c = civilOf(epochDay);
  return `${formatYear(c.year)}-${pad(c.month, 2)}-${pad(c.day, 2)}`;
}

export function formatTime(nanoOfDay: number): string {
  const hour = Math.floor(nanoOfDay / NANOS_PER_HOUR);
  const minute = Math.floor((nanoOfDay % NANOS_PER_HOUR) / NANOS_PER_MINUTE);
  const second = Math.floor((nanoOfDay % NANOS_PER_MINUTE) / NANOS_PER_SECOND);
  const nano = nanoOfDay % NANOS_PER_SECOND;
  let s = `${pad(hour, 2)}:${pad(minute, 2)}`;
  if (second === 0 && nano === 0) return s;
  s += ':' + pad(second, 2);
  if (nano === 0) return s;
  if (nano % 1_000_000 === 0) return s + '.' + pad(nano / 1_000_000, 3);
  if (nano % 1000 === 0) return s + '.' + pad(nano / 1000, 6);
  return s + '.' + pad(nano, 9);
}

/** Digits of a nanosecond fraction without trailing zeros (`500000000` → `5`); empty for 0. */
export function fractionDigits(nanos: number): string {
  return nanos === 0 ? '' : pad(nanos, 9).replace(/0+$/, '');
}

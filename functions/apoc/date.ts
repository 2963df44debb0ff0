/**
 * `apoc.date.*`: epoch numbers in a unit (ms, s, m, h, d) formatted and parsed with Java
 * SimpleDateFormat patterns (yyyy MM dd HH mm ss SSS, 'quoted', X/Z offsets) in UTC, a
 * fixed offset or an IANA zone; unit conversion and arithmetic; the current time.
 */

import { ArgumentError } from '../../src/errors.js';
import type { Value } from '../../runtime/values.js';
import { compileSearchRegex } from '../../runtime/regex.js';
import { pure } from '../define.js';
import { intArg, numArg, strArg, type FunctionDef } from '../types.js';

const UNIT_MS: Record<string, number> = {
  ms: 1, milli: 1, millis: 1, milliseconds: 1,
  s: 1000, second: 1000, seconds: 1000,
  m: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
};

function unitMs(fn: string, u: Value): number {
  const k = u === null || u === undefined ? 'ms' : strArg(fn, u).toLowerCase();
  const ms = UNIT_MS[k];
  if (ms === undefined) throw new ArgumentError(`${fn}() does not know the time unit '${k}' (use ms, s, m, h or d)`, 'InvalidArgumentValue');
  return ms;
}

/** Offset of a zone from UTC in minutes at an instant. */
function offsetMinutes(fn: string, zone: string, at: number): number {
  if (zone === '' || zone === 'UTC' || zone === 'Z' || zone === 'GMT') return 0;
  const m = /^(?:UTC|GMT)?([+-])(\d{1,2}):?(\d{2})?$/.exec(zone);
  if (m) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(at));
  } catch {
    throw new ArgumentError(`${fn}() does not know the time zone '${zone}'`, 'InvalidArgumentValue');
  }
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((local - Math.floor(at / 1000) * 1000) / 60_000);
}

const TOKEN = /'[^']*'|yyyy|yy|MM|M|dd|d|HH|H|hh|h|mm|m|ss|s|SSS|a|XXX|XX|X|Z|EEE/g;

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function offsetText(min: number, colon: boolean): string {
  if (min === 0 && colon) return 'Z';
  const a = Math.abs(min);
  return `${min < 0 ? '-' : '+'}${two(Math.floor(a / 60))}${colon ? ':' : ''}${two(a % 60)}`;
}

function format(fn: string, ms: number, pattern: string, zone: string): string {
  const off = offsetMinutes(fn, zone, ms);
  const d = new Date(ms + off * 60_000);
  return pattern.replace(TOKEN, (t) => {
    switch (t) {
      case 'yyyy': return String(d.getUTCFullYear()).padStart(4, '0');
      case 'yy': return two(d.getUTCFullYear() % 100);
      case 'MM': return two(d.getUTCMonth() + 1);
      case 'M': return String(d.getUTCMonth() + 1);
      case 'dd': return two(d.getUTCDate());
      case 'd': return String(d.getUTCDate());
      case 'HH': return two(d.getUTCHours());
      case 'H': return String(d.getUTCHours());
      case 'hh': return two(d.getUTCHours() % 12 || 12);
      case 'h': return String(d.getUTCHours() % 12 || 12);
      case 'mm': return two(d.getUTCMinutes());
      case 'm': return String(d.getUTCMinutes());
      case 'ss': return two(d.getUTCSeconds());
      case 's': return String(d.getUTCSeconds());
      case 'SSS': return String(d.getUTCMilliseconds()).padStart(3, '0');
      case 'a': return d.getUTCHours() < 12 ? 'AM' : 'PM';
      case 'EEE': return ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()];
      case 'XXX': return offsetText(off, true);
      case 'XX': case 'X': case 'Z': return offsetText(off, false);
      default: return t.slice(1, -1) || "'";
    }
  });
}

function parse(fn: string, text: string, pattern: string, zone: string): number {
  const fields: string[] = [];
  let re = '';
  let last = 0;
  for (const m of pattern.matchAll(TOKEN)) {
    re += pattern.slice(last, m.index).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const t = m[0];
    if (t.startsWith("'")) re += (t.slice(1, -1) || "'").replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else {
      fields.push(t);
      re += t === 'a' ? '(AM|PM|am|pm)' : t === 'EEE' ? '([A-Za-z]{3})' : t.startsWith('X') || t === 'Z' ? '(Z|[+-]\\d{2}:?\\d{2})' : t === 'yyyy' ? '(-?\\d{1,9})' : '(\\d{1,3})';
    }
    last = m.index + t.length;
  }
  re += pattern.slice(last).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // On the linear engine: many adjacent digit fields would otherwise backtrack exponentially on a mismatch.
  const [m] = text.trim().matchAll(compileSearchRegex(`^${re}$`));
  if (!m) throw new ArgumentError(`${fn}() cannot read '${text}' with the pattern '${pattern}'`, 'InvalidArgumentValue');
  let [y, mo, d, h, mi, s, ms] = [1970, 1, 1, 0, 0, 0, 0];
  let pm: boolean | undefined;
  let explicitOffset: number | undefined;
  fields.forEach((f, i) => {
    const v = m[i + 1];
    const n = Number(v);
    if (f.startsWith('y')) y = f === 'yy' ? 2000 + n : n;
    else if (f.startsWith('M')) mo = n;
    else if (f.startsWith('d')) d = n;
    else if (f.startsWith('H') || f.startsWith('h')) h = n;
    else if (f.startsWith('m')) mi = n;
    else if (f.startsWith('s')) s = n;
    else if (f === 'SSS') ms = n;
    else if (f === 'a') pm = v.toUpperCase() === 'PM';
    else if (f.startsWith('X') || f === 'Z') explicitOffset = v === 'Z' ? 0 : (v[0] === '-' ? -1 : 1) * (Number(v.slice(1, 3)) * 60 + Number(v.slice(-2)));
  });
  if (pm !== undefined) h = (h % 12) + (pm ? 12 : 0);
  const local = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  return local - (explicitOffset ?? offsetMinutes(fn, zone, local)) * 60_000;
}

const DEFAULT_PATTERN = 'yyyy-MM-dd HH:mm:ss';

export const apocDateFunctions: FunctionDef[] = [
  pure('apoc.date.format', 'temporal', [1, 4], "An epoch time in a unit (default ms) as text in a Java date pattern (default 'yyyy-MM-dd HH:mm:ss'), in a zone (default UTC)", (time = null, unit = 'ms', pattern = DEFAULT_PATTERN, zone = '') => {
    if (time === null) return null;
    const ms = numArg('apoc.date.format', time) * unitMs('apoc.date.format', unit);
    return format('apoc.date.format', ms, pattern === null ? DEFAULT_PATTERN : strArg('apoc.date.format', pattern), zone === null ? '' : strArg('apoc.date.format', zone));
  }),
  pure('apoc.date.parse', 'temporal', [1, 4], "Text in a Java date pattern (default 'yyyy-MM-dd HH:mm:ss') as an epoch time in a unit (default ms)", (text = null, unit = 'ms', pattern = DEFAULT_PATTERN, zone = '') => {
    if (text === null) return null;
    const ms = parse('apoc.date.parse', strArg('apoc.date.parse', text), pattern === null ? DEFAULT_PATTERN : strArg('apoc.date.parse', pattern), zone === null ? '' : strArg('apoc.date.parse', zone));
    return Math.floor(ms / unitMs('apoc.date.parse', unit));
  }),
  pure('apoc.date.currentTimestamp', 'temporal', [0, 0], 'The current time in epoch milliseconds (changes during a query, unlike timestamp())', () => Date.now()),
  pure('apoc.date.convert', 'temporal', [3, 3], 'An epoch time converted from one unit to another', (time = null, from = null, to = null) => {
    if (time === null) return null;
    return Math.trunc((intArg('apoc.date.convert', time) * unitMs('apoc.date.convert', from)) / unitMs('apoc.date.convert', to));
  }),
  pure('apoc.date.add', 'temporal', [4, 4], 'An epoch time in a unit plus an amount in another unit', (time = null, unit = null, amount = null, amountUnit = null) => {
    if (time === null || amount === null) return null;
    const u = unitMs('apoc.date.add', unit);
    return Math.trunc((intArg('apoc.date.add', time) * u + intArg('apoc.date.add', amount) * unitMs('apoc.date.add', amountUnit)) / u);
  }),
  pure('apoc.date.systemTimezone', 'temporal', [0, 0], 'The time zone of the machine running the database', () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'),
];

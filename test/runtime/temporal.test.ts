/** Unit tests of the temporal values (runtime/temporal) and functions (functions/temporal.ts). */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { add, div, mul, neg, sub } from '../../runtime/arith.js';
import { compare, equals, orderCompare } from '../../runtime/compare.js';
import { formatValue } from '../../runtime/format.js';
import { groupKey } from '../../runtime/groupkey.js';
import { property } from '../../runtime/ops.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { civilOf, dayOfWeek, epochDayOf, weekDateOf } from '../../runtime/temporal/calendar.js';
import { DurationValue } from '../../runtime/temporal/duration.js';
import { DateTimeValue } from '../../runtime/temporal/zoned.js';
import { Zone } from '../../runtime/temporal/zone.js';
import { ArgumentError, ArithmeticError, ValueTypeError } from '../../src/errors.js';
import { Database } from '../../src/engine/database.js';
import { call, ctx } from '../functions/call.js';
import { map } from './helpers.js';

const text = (v: Value): string => (v === null ? 'null' : formatValue(v));
const date = (s: Value): Value => call('date', s);
const localtime = (s: Value): Value => call('localtime', s);
const time = (s: Value): Value => call('time', s);
const localdatetime = (s: Value): Value => call('localdatetime', s);
const datetime = (s: Value): Value => call('datetime', s);
const duration = (s: Value): Value => call('duration', s);

describe('calendar arithmetic', () => {
  it('agrees with the Temporal polyfill on calendar, weekday and ISO week across its range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000_000, max: 100_000_000 }), (day) => {
        const c = civilOf(day);
        expect(epochDayOf(c.year, c.month, c.day)).toBe(day);
        const p = new Temporal.PlainDate(1970, 1, 1).add({ days: day });
        expect([c.year, c.month, c.day]).toEqual([p.year, p.month, p.day]);
        expect(dayOfWeek(day)).toBe(p.dayOfWeek);
        const w = weekDateOf(day);
        expect([w.weekYear, w.week]).toEqual([p.yearOfWeek, p.weekOfYear]);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips epoch days far beyond the polyfill range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -365_000_000_000, max: 365_000_000_000 }), (day) => {
        const c = civilOf(day);
        expect(epochDayOf(c.year, c.month, c.day)).toBe(day);
      }),
    );
  });
});

describe('parsing ISO 8601 text', () => {
  it('reads dates in calendar, week, ordinal and year forms, basic and extended', () => {
    for (const s of ['2015-07-21', '20150721', '2015-W30-2', '2015W302', '2015-202', '2015202']) expect(text(date(s))).toBe('2015-07-21');
    expect(text(date('2015-07'))).toBe('2015-07-01');
    expect(text(date('2015-W30'))).toBe('2015-07-20');
    expect(text(date('2015'))).toBe('2015-01-01');
    expect(text(date('+999999999-12-31'))).toBe('+999999999-12-31');
    expect(text(date('-0001-01-01'))).toBe('-0001-01-01');
  });

  it('reads times with fractions, offsets and zone names', () => {
    expect(text(localtime('214032,5'))).toBe('21:40:32.500');
    expect(text(time('21:40:32.142+0100'))).toBe('21:40:32.142+01:00');
    expect(text(time('2140-00:00'))).toBe('21:40Z');
    expect(text(time('12:34:56-02:05:07'))).toBe('12:34:56-02:05:07');
    expect(text(datetime('2015-07-21T21:40:32.142[Europe/London]'))).toBe('2015-07-21T21:40:32.142+01:00[Europe/London]');
    expect(text(datetime('1818-07-21T21:40:32.142[Europe/Stockholm]'))).toBe('1818-07-21T21:40:32.142+00:53:28[Europe/Stockholm]');
    expect(text(datetime('2015-07-21'))).toBe('2015-07-21T00:00Z');
  });

  it('reads durations, signed and fractional, and the alternative form', () => {
    expect(text(duration('P1Y2M10DT12H45M30.25S'))).toBe('P1Y2M10DT12H45M30.25S');
    expect(text(duration('PT-0.001S'))).toBe('PT-0.001S');
    expect(text(duration('-P1D'))).toBe('P-1D');
    expect(text(duration('P0.75M'))).toBe('P22DT19H51M49.5S');
    expect(text(duration('P2012-02-02T14:37:21.545'))).toBe('P2012Y2M2DT14H37M21.545S');
  });

  it('rejects malformed text with an ArgumentError', () => {
    for (const [f, s] of [
      [date, '2015-13-01'],
      [date, '2015-02-29'],
      [date, '2015-W54'],
      [date, '15-07-21'],
      [localtime, '25:00'],
      [localtime, '12:00+01:00'],
      [time, '12:00+19:00'],
      [datetime, '2015-07-21T12:00[Mars/Olympus]'],
      [duration, 'P'],
      [duration, 'PT'],
      [duration, '1D'],
    ] as const) {
      expect(() => f(s), s).toThrow(ArgumentError);
    }
  });
});

describe('text forms', () => {
  it('prints seconds only when present and fractions in groups of three', () => {
    expect(text(localtime(map({ hour: 12 })))).toBe('12:00');
    expect(text(localtime(map({ hour: 12, minute: 0, second: 0, millisecond: 100 })))).toBe('12:00:00.100');
    expect(text(localtime(map({ hour: 12, minute: 0, second: 0, microsecond: 1 })))).toBe('12:00:00.000001');
    expect(text(localtime(map({ hour: 12, minute: 0, second: 0, nanosecond: 1 })))).toBe('12:00:00.000000001');
  });

  it('prints durations per component with their own signs, PT0S when empty', () => {
    expect(text(duration(map({})))).toBe('PT0S');
    expect(text(duration(map({ seconds: -60, milliseconds: -1 })))).toBe('PT-1M-0.001S');
    expect(text(duration(map({ years: 12, months: 5, days: -14, hours: 16 })))).toBe('P12Y5M-14DT16H');
    expect(text(duration(map({ months: -14 })))).toBe('P-1Y-2M');
  });

  it('gives toString() the same text', () => {
    expect(call('toString', datetime('2017-08-08T12:31:14.645876123[Europe/Stockholm]'))).toBe('2017-08-08T12:31:14.645876123+02:00[Europe/Stockholm]');
    expect(call('toString', duration('PT1H'))).toBe('PT1H');
  });
});

describe('construction from maps', () => {
  it('builds dates from week, ordinal and quarter fields', () => {
    expect(text(date(map({ year: 1817, week: 1 })))).toBe('1816-12-30');
    expect(text(date(map({ year: 1984, ordinalDay: 202 })))).toBe('1984-07-20');
    expect(text(date(map({ year: 1984, quarter: 3, dayOfQuarter: 45 })))).toBe('1984-08-14');
  });

  it('selects from other temporal values, keeping the fields not given', () => {
    const other = date('1984-11-11');
    expect(text(date(map({ date: other, week: 1 })))).toBe('1984-01-08');
    expect(text(date(map({ date: other, quarter: 3 })))).toBe('1984-08-11');
    const t = time('12:31:14.645876+01:00');
    expect(text(datetime(map({ date: other, time: t, timezone: 'Pacific/Honolulu' })))).toBe('1984-11-11T01:31:14.645876-10:00[Pacific/Honolulu]');
    expect(text(localtime(t))).toBe('12:31:14.645876');
    expect(text(time(localtime('12:00')))).toBe('12:00Z');
  });

  it('builds datetimes from epoch seconds and milliseconds', () => {
    expect(text(datetime(map({ epochSeconds: 416779, nanosecond: 999999999 })))).toBe('1970-01-05T19:46:19.999999999Z');
    expect(text(datetime(map({ epochMillis: 237821673987, timezone: '+01:00' })))).toBe('1977-07-15T14:34:33.987+01:00');
    expect(text(call('datetime.fromepoch', 416779, 999999999))).toBe('1970-01-05T19:46:19.999999999Z');
    expect(text(call('datetime.fromepochmillis', 237821673987))).toBe('1977-07-15T13:34:33.987Z');
  });

  it('cascades fractional duration components downwards', () => {
    expect(text(duration(map({ months: 5, days: 1.5 })))).toBe('P5M1DT12H');
    expect(text(duration(map({ weeks: 2.5 })))).toBe('P17DT12H');
    expect(text(duration(map({ minutes: 1.5, seconds: 1 })))).toBe('PT1M31S');
  });

  it('rejects inconsistent or out-of-range maps', () => {
    const bad: [(m: Map<string, Value>) => Value, Record<string, Value>][] = [
      [date, { month: 1 }],
      [date, { year: 1984, month: 13 }],
      [date, { year: 1984, day: 3 }],
      [date, { year: 1984, month: 2, week: 3 }],
      [date, { year: 1984, hour: 3 }],
      [date, { year: 1984, colour: 'red' }],
      [date, { year: 1984.5 }],
      [localtime, { minute: 3 }],
      [localtime, { hour: 24 }],
      [localtime, { hour: 1, minute: 1, second: 1, millisecond: 1, nanosecond: 1000 }],
      [datetime, { year: 1984, timezone: 'Nowhere/Special' }],
      [datetime, { epochSeconds: 1, year: 1984 }],
      [duration, { fortnights: 1 }],
      [duration, { days: 'one' }],
    ];
    for (const [f, m] of bad) expect(() => f(map(m)), JSON.stringify(m)).toThrow(ArgumentError);
    expect(() => date(map({ time: localtime('12:00') }))).toThrow();
  });

  it('propagates null and reports wrong argument types', () => {
    expect(call('date', null)).toBeNull();
    expect(call('duration.between', null, date('2015-01-01'))).toBeNull();
    expect(call('datetime.truncate', 'day', null)).toBeNull();
    expect(() => call('date', 42)).toThrow(ValueTypeError);
  });
});

describe('time zones', () => {
  it('resolves DST gaps forward and overlaps to the earlier offset unless another is given', () => {
    expect(text(datetime('2017-03-26T02:30[Europe/Stockholm]'))).toBe('2017-03-26T03:30+02:00[Europe/Stockholm]');
    expect(text(datetime('2017-10-29T02:30[Europe/Stockholm]'))).toBe('2017-10-29T02:30+02:00[Europe/Stockholm]');
    expect(text(datetime('2017-10-29T02:30+01:00[Europe/Stockholm]'))).toBe('2017-10-29T02:30+01:00[Europe/Stockholm]');
  });

  it('exposes zone components', () => {
    const dt = datetime('1984-11-11T12:31:14.645876123[Europe/Stockholm]');
    expect(property(dt, 'timezone')).toBe('Europe/Stockholm');
    expect(property(dt, 'offset')).toBe('+01:00');
    expect(property(dt, 'offsetMinutes')).toBe(60);
    expect(property(dt, 'epochSeconds')).toBe(469020674);
    expect(property(dt, 'epochMillis')).toBe(469020674645);
    expect(property(time('12:00-02:30'), 'offsetSeconds')).toBe(-9000);
  });

  it('agrees with the polyfill on offsets for instants and for local times (gaps, overlaps)', () => {
    const zones = ['Europe/Stockholm', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/St_Johns'].map((z) => Zone.parse(z));
    const seconds = fc.integer({ min: -5_000_000_000, max: 5_000_000_000 });
    fc.assert(
      fc.property(fc.constantFrom(...zones), seconds, (zone, s) => {
        const id = zone.id as string;
        const day = Math.floor(s / 86400);
        const nano = (s - day * 86400) * 1e9;
        const expected = Temporal.Instant.fromEpochMilliseconds(s * 1000).toZonedDateTimeISO(id);
        expect(zone.offsetAtInstant(day, nano)).toBe(expected.offsetNanoseconds / 1e9);
        // The same wall-clock reading as a local time resolves as Temporal's 'compatible'.
        const local = expected.toPlainDateTime();
        const viaPolyfill = local.toZonedDateTime(id, { disambiguation: 'compatible' });
        const wall = s + expected.offsetNanoseconds / 1e9;
        const wallDay = Math.floor(wall / 86400);
        const ours = DateTimeValue.ofLocal(wallDay, (wall - wallDay * 86400) * 1e9, zone);
        expect(ours.epochNanos()).toBe(viaPolyfill.epochNanoseconds);
      }),
      { numRuns: 400 },
    );
  });

  it('uses rules of a shifted 400-year cycle for years the polyfill cannot represent', () => {
    expect(text(datetime('+999999999-07-01T12:00[Europe/Stockholm]'))).toBe('+999999999-07-01T12:00+02:00[Europe/Stockholm]');
  });
});

describe('components', () => {
  it('reads date and time fields', () => {
    const d = localdatetime('1984-11-11T12:31:14.645876123');
    const get = (k: string): Value => property(d, k);
    expect([get('year'), get('quarter'), get('month'), get('week'), get('weekYear'), get('day')]).toEqual([1984, 4, 11, 45, 1984, 11]);
    expect([get('ordinalDay'), get('weekDay'), get('dayOfWeek'), get('dayOfQuarter')]).toEqual([316, 7, 7, 42]);
    expect([get('hour'), get('minute'), get('second'), get('millisecond'), get('microsecond'), get('nanosecond')]).toEqual([12, 31, 14, 645, 645876, 645876123]);
  });

  it('reads duration fields, normalising seconds downwards', () => {
    const d = duration('PT-23H-59M-59.9S');
    expect(property(d, 'seconds')).toBe(-86400);
    expect(property(d, 'nanosecondsOfSecond')).toBe(100000000);
    const big = duration(map({ years: 1, months: 4, days: 10, hours: 1, minutes: 1, seconds: 1, nanoseconds: 111111111 }));
    expect(property(big, 'nanoseconds')).toBe(3661111111111);
    expect(property(big, 'quartersOfYear')).toBe(1);
  });

  it('raises an ArgumentError for unknown components', () => {
    expect(() => property(date('2015-01-01'), 'hour')).toThrow(ArgumentError);
    expect(() => property(localtime('12:00'), 'timezone')).toThrow(ArgumentError);
  });
});

describe('arithmetic', () => {
  it('adds months, then days, then time', () => {
    expect(text(add(date('2015-01-31'), duration('P1M')))).toBe('2015-02-28');
    expect(text(add(duration('P1D'), date('2015-01-31')))).toBe('2015-02-01');
    expect(text(sub(localdatetime('1984-10-11T12:31:14.000000001'), duration('P12Y5M14DT16H12M70.000000002S')))).toBe('1972-04-26T20:18:03.999999999');
    expect(text(add(localtime('23:00'), duration('PT2H')))).toBe('01:00');
    expect(text(add(date('1984-10-11'), duration('PT36H')))).toBe('1984-10-12');
  });

  it('moves named-zone datetimes by calendar days locally and by hours exactly', () => {
    const before = datetime('2017-10-28T12:00[Europe/Stockholm]');
    expect(text(add(before, duration('P1D')))).toBe('2017-10-29T12:00+01:00[Europe/Stockholm]');
    expect(text(add(before, duration('PT24H')))).toBe('2017-10-29T11:00+01:00[Europe/Stockholm]');
  });

  it('combines durations and scales them', () => {
    const d = duration('P12Y5M14DT16H13M10.000000001S');
    expect(text(add(d, d))).toBe('P24Y10M28DT32H26M20.000000002S');
    expect(text(sub(d, d))).toBe('PT0S');
    expect(text(mul(d, new FloatBox(0.5)))).toBe('P6Y2M22DT13H21M8S');
    expect(text(mul(2, d))).toBe('P24Y10M28DT32H26M20.000000002S');
    expect(text(div(d, 2))).toBe('P6Y2M22DT13H21M8S');
    expect(text(neg(duration('P1DT1H')))).toBe('P-1DT-1H');
    expect(() => div(d, 0)).toThrow(ArithmeticError);
  });

  it('keeps results within the supported years and durations within safe sizes', () => {
    expect(() => add(date('+999999999-12-31'), duration('P1D'))).toThrow(ArgumentError);
    expect(() => sub(localdatetime('-999999999-01-01T00:00'), duration('PT1S'))).toThrow(ArgumentError);
    expect(() => add(datetime('+999999999-12-31T23:00Z'), duration('PT2H'))).toThrow(ArgumentError);
    expect(() => duration(map({ years: 1e300 }))).toThrow(ArgumentError);
    expect(() => mul(duration('P1D'), new FloatBox(Infinity))).toThrow(ArgumentError);
  });

  it('rejects unsupported combinations with a TypeError', () => {
    expect(() => sub(duration('P1D'), date('2015-01-01'))).toThrow(ValueTypeError);
    expect(() => add(date('2015-01-01'), date('2015-01-01'))).toThrow(ValueTypeError);
    expect(() => div(2, duration('P1D'))).toThrow(ValueTypeError);
  });

  it('returns to the start when adding the exact time between two local datetimes', () => {
    const day = fc.integer({ min: -50_000, max: 50_000 });
    const nano = fc.integer({ min: 0, max: 86_400_000_000_000 - 1 });
    const ldt = fc.tuple(day, nano);
    fc.assert(
      fc.property(ldt, ldt, ([d1, n1], [d2, n2]) => {
        const mk = (d: number, n: number): Value => add(add(localdatetime('1970-01-01T00:00'), duration(map({ days: d }))), duration(map({ nanoseconds: n })));
        const a = mk(d1, n1);
        const b = mk(d2, n2);
        expect(equals(add(a, call('duration.inSeconds', a, b)), b)).toBe(true);
        expect(equals(add(a, call('duration.between', a, b)), b)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('comparison, equality and grouping', () => {
  it('orders values of one type and compares zoned values by instant', () => {
    expect(compare(date('1980-12-24'), date('1984-10-11'))).toBeLessThan(0);
    expect(compare(time('10:00+01:00'), time('09:35Z'))).toBeLessThan(0);
    expect(compare(datetime('2015-07-21T21:40+01:00'), datetime('2015-07-21T20:40Z'))).toBe(0);
    expect(compare(date('2015-01-01'), localdatetime('2015-01-01T00:00'))).toBeNull();
    expect(compare(duration('P1D'), duration('P2D'))).toBeNull();
  });

  it('treats equal durations component-wise', () => {
    expect(equals(duration('PT16H12M70S'), duration('PT16H13M10S'))).toBe(true);
    expect(equals(duration('P1DT1H'), duration('PT25H'))).toBe(false);
    expect(equals(duration('P1D'), date('2015-01-01'))).toBe(false);
  });

  it('groups equal values together', () => {
    expect(groupKey(date('2015-07-21'))).toBe(groupKey(date('20150721')));
    expect(groupKey(duration('PT70S'))).toBe(groupKey(duration('PT1M10S')));
    expect(groupKey(datetime('2015-07-21T12:00+01:00'))).not.toBe(groupKey(datetime('2015-07-21T11:00Z')));
  });

  it('sorts temporal types apart from each other under ORDER BY', () => {
    const values = [duration('P1D'), date('2015-01-01'), datetime('2015-01-01T00:00Z'), localtime('12:00')];
    const sorted = [...values].sort(orderCompare).map((v) => (v as { cypherType: string }).cypherType);
    expect(sorted).toEqual(['ZONED DATETIME', 'DATE', 'LOCAL TIME', 'DURATION']);
  });
});

describe('truncate', () => {
  it('cuts to each unit and applies the map', () => {
    const dt = datetime('2017-10-11T12:31:14.645876123+01:00');
    expect(text(call('date.truncate', 'millennium', dt, map({ day: 2 })))).toBe('2000-01-02');
    expect(text(call('datetime.truncate', 'weekYear', datetime('1984-01-01T12:00+01:00')))).toBe('1983-01-03T00:00+01:00');
    expect(text(call('datetime.truncate', 'hour', dt, map({ timezone: 'Europe/Stockholm' })))).toBe('2017-10-11T12:00+02:00[Europe/Stockholm]');
    expect(text(call('localtime.truncate', 'millisecond', dt, map({ nanosecond: 2 })))).toBe('12:31:14.645000002');
    expect(text(call('time.truncate', 'day', localdatetime('1984-10-11T12:31')))).toBe('00:00Z');
  });

  it('rejects units the kind does not have', () => {
    expect(() => call('date.truncate', 'hour', date('2015-01-01'))).toThrow(ArgumentError);
    expect(() => call('localtime.truncate', 'month', localtime('12:00'))).toThrow(ArgumentError);
    expect(() => call('date.truncate', 'fortnight', date('2015-01-01'))).toThrow(ArgumentError);
  });
});

describe('duration.between', () => {
  it('counts months, days and time, or one unit', () => {
    const a = datetime('2014-07-21T21:40:36.143+0200');
    const b = datetime('2015-07-21T21:40:32.142+0100');
    expect(text(call('duration.between', a, b))).toBe('P1YT59M55.999S');
    expect(text(call('duration.inMonths', a, b))).toBe('P1Y');
    expect(text(call('duration.inDays', a, b))).toBe('P365D');
    expect(text(call('duration.inSeconds', a, b))).toBe('PT8760H59M55.999S');
    expect(text(call('duration.between', date('-999999999-01-01'), date('+999999999-12-31')))).toBe('P1999999998Y11M30D');
  });

  it('borrows date and zone from the other value', () => {
    const dst = datetime(map({ year: 2017, month: 10, day: 29, hour: 0, timezone: 'Europe/Stockholm' }));
    expect(text(call('duration.inSeconds', dst, localtime('04:00')))).toBe('PT5H');
    expect(text(call('duration.between', date('1984-10-11'), localtime('16:30')))).toBe('PT16H30M');
  });
});

describe('clocks', () => {
  it('gives one statement one time', () => {
    const t = Date.UTC(2020, 0, 2, 3, 4, 5, 6);
    const saved = ctx.statementTime;
    ctx.statementTime = t;
    try {
      expect(text(call('datetime'))).toBe('2020-01-02T03:04:05.006Z');
      expect(text(call('date.statement', 'Pacific/Honolulu'))).toBe('2020-01-01');
      expect(text(call('localtime.transaction'))).toBe('03:04:05.006');
      expect(text(call('time', map({ timezone: '+01:00' })))).toBe('04:04:05.006+01:00');
      expect(equals(call('localdatetime'), call('localdatetime'))).toBe(true);
    } finally {
      ctx.statementTime = saved;
    }
    expect(call('datetime.realtime')).toBeTruthy();
  });
});

describe('in the engine', () => {
  it('stores temporal values as properties and sorts them', () => {
    const db = new Database();
    db.executeSync("UNWIND ['2015-07-21', '1984-10-11', '2001-01-01'] AS s CREATE (:E {d: date(s), took: duration('PT' + substring(s, 0, 2) + 'M')})");
    const r = db.executeSync('MATCH (e:E) RETURN e.d AS d, e.took.minutes AS m ORDER BY e.d');
    expect(r.records.map((row) => text(row[0] ?? null))).toEqual(['1984-10-11', '2001-01-01', '2015-07-21']);
    expect(r.records.map((row) => row[1])).toEqual([19, 20, 20]);
    const g = db.executeSync("MATCH (e:E) RETURN e.took AS took, count(*) AS n ORDER BY n");
    expect(g.records.map((row) => [text(row[0] ?? null), row[1]])).toEqual([
      ['PT19M', 1],
      ['PT20M', 2],
    ]);
  });
});

it('keeps DurationValue.ZERO printable', () => {
  expect(DurationValue.ZERO.toCypherString()).toBe('PT0S');
});

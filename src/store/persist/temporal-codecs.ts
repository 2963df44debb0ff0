/**
 * The persisted forms of the temporal values (runtime/temporal), registered with the value
 * codec on import. Each is the value's exact fields, never its text, so nothing is lost
 * to formatting: a zoned datetime keeps its local date and time, its offset and its zone.
 *
 * | type            | tag      | `v`                                              |
 * |-----------------|----------|--------------------------------------------------|
 * | DATE            | date     | epoch day                                        |
 * | LOCAL TIME      | ltime    | nanosecond of day                                |
 * | LOCAL DATETIME  | ldt      | [epoch day, nanosecond of day]                   |
 * | ZONED TIME      | time     | [nanosecond of day, offset seconds]              |
 * | ZONED DATETIME  | dt       | [epoch day, nanosecond of day, offset seconds, zone] |
 * | DURATION        | dur      | [months, days, "nanoseconds"]                    |
 */

import { DurationValue } from '../../../runtime/temporal/duration.js';
import { DateValue, LocalDateTimeValue, LocalTimeValue } from '../../../runtime/temporal/local.js';
import { Zone } from '../../../runtime/temporal/zone.js';
import { DateTimeValue, TimeValue } from '../../../runtime/temporal/zoned.js';
import type { ExtendedValue } from '../../../runtime/values.js';
import type { Json } from './json.js';
import { registerValueCodec, ValueDecodeError } from './value-codec.js';

function nums(data: Json, n: number, what: string): number[] {
  if (!Array.isArray(data) || data.length < n || !data.slice(0, n).every((x) => typeof x === 'number')) {
    throw new ValueDecodeError(`bad ${what} value`);
  }
  return data as number[];
}

function num(data: Json, what: string): number {
  if (typeof data !== 'number') throw new ValueDecodeError(`bad ${what} value`);
  return data;
}

function as<T extends ExtendedValue>(v: ExtendedValue): T {
  return v as T;
}

let registered = false;

/** Registers the temporal codecs (idempotent). */
export function registerTemporalCodecs(): void {
  if (registered) return;
  registered = true;
  registerValueCodec({ cypherType: 'DATE', tag: 'date', encode: (v) => as<DateValue>(v).epochDay, decode: (d) => new DateValue(num(d, 'date')) });
  registerValueCodec({
    cypherType: 'LOCAL TIME',
    tag: 'ltime',
    encode: (v) => as<LocalTimeValue>(v).nanoOfDay,
    decode: (d) => new LocalTimeValue(num(d, 'local time')),
  });
  registerValueCodec({
    cypherType: 'LOCAL DATETIME',
    tag: 'ldt',
    encode: (v) => [as<LocalDateTimeValue>(v).epochDay, as<LocalDateTimeValue>(v).nanoOfDay],
    decode: (d) => {
      const [day, nano] = nums(d, 2, 'local datetime');
      return new LocalDateTimeValue(day, nano);
    },
  });
  registerValueCodec({
    cypherType: 'ZONED TIME',
    tag: 'time',
    encode: (v) => [as<TimeValue>(v).nanoOfDay, as<TimeValue>(v).offsetSeconds],
    decode: (d) => {
      const [nano, offset] = nums(d, 2, 'time');
      return new TimeValue(nano, offset);
    },
  });
  registerValueCodec({
    cypherType: 'ZONED DATETIME',
    tag: 'dt',
    encode: (v) => {
      const t = as<DateTimeValue>(v);
      return [t.epochDay, t.nanoOfDay, t.offsetSeconds, t.zone.toString()];
    },
    decode: (d) => {
      const [day, nano, offset] = nums(d, 3, 'datetime');
      const zone = (d as Json[])[3];
      if (typeof zone !== 'string') throw new ValueDecodeError('bad datetime zone');
      return DateTimeValue.ofLocal(day, nano, Zone.parse(zone), offset);
    },
  });
  registerValueCodec({
    cypherType: 'DURATION',
    tag: 'dur',
    encode: (v) => {
      const t = as<DurationValue>(v);
      return [t.months, t.days, t.nanos.toString()];
    },
    decode: (d) => {
      const [months, days] = nums(d, 2, 'duration');
      const nanos = (d as Json[])[2];
      if (typeof nanos !== 'string' || !/^-?\d+$/.test(nanos)) throw new ValueDecodeError('bad duration nanoseconds');
      return new DurationValue(months, days, BigInt(nanos));
    },
  });
}

registerTemporalCodecs();

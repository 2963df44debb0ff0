/**
 * The temporal functions: the constructors `date`, `localtime`, `time`, `localdatetime`,
 * `datetime` (text, map, other temporal value, or no argument for the statement's time)
 * with their `.transaction()`, `.statement()`, `.realtime()` and `.truncate()` forms,
 * `datetime.fromepoch` / `datetime.fromepochmillis`, and `duration` with
 * `duration.between`, `.inMonths`, `.inDays`, `.inSeconds`. The values themselves live
 * in runtime/temporal.
 */

import type { Value } from '../runtime/values.js';
import { durationBetween, type BetweenUnit } from '../runtime/temporal/between.js';
import { construct, current, type TemporalKind } from '../runtime/temporal/construct.js';
import { toDuration } from '../runtime/temporal/durationOf.js';
import { truncate } from '../runtime/temporal/truncate.js';
import { DateTimeValue } from '../runtime/temporal/zoned.js';
import { Zone } from '../runtime/temporal/zone.js';
import { BIG_NANOS_PER_SECOND } from '../runtime/temporal/calendar.js';
import { temporalApi } from '../runtime/temporal/polyfill.js';
import { nullSafe1, nullSafe2, pure, withContext } from './define.js';
import { badArg, intArg, strArg, type FunctionContext, type FunctionDef } from './types.js';

const KINDS: TemporalKind[] = ['date', 'localtime', 'time', 'localdatetime', 'datetime'];

/** The statement's instant in nanoseconds since the epoch: one query sees one time. */
function statementNanos(ctx: FunctionContext): bigint {
  return BigInt(Math.trunc(ctx.statementTime)) * 1_000_000n;
}

function realtimeNanos(): bigint {
  return temporalApi().Now.instant().epochNanoseconds;
}

/** The zone argument of `date.statement(tz)` and friends: a zone text or a `{timezone: …}` map. */
function zoneArg(fn: string, v: Value): Zone {
  if (typeof v === 'string') return Zone.parse(v);
  if (v instanceof Map) {
    const tz = v.get('timezone');
    if (v.size === 1 && typeof tz === 'string') return Zone.parse(tz);
  }
  throw badArg(fn, v, 'a time zone');
}

function clockFunction(kind: TemporalKind, variant: 'transaction' | 'statement' | 'realtime'): FunctionDef {
  const name = `${kind}.${variant}`;
  return withContext(name, 'temporal', [0, 1], `The current ${kind} (${variant} clock), optionally in a time zone`, (ctx, ...args) => {
    const now = variant === 'realtime' ? realtimeNanos() : statementNanos(ctx);
    if (args.length === 0) return current(kind, now);
    const a = args[0];
    return a === null ? null : current(kind, now, zoneArg(name, a));
  });
}

function constructor(kind: TemporalKind): FunctionDef {
  return withContext(kind, 'temporal', [0, 1], `A ${kind} from text, a component map or another temporal value; now without arguments`, (ctx, ...args) => {
    const now = statementNanos(ctx);
    if (args.length === 0) return current(kind, now);
    const a = args[0];
    return a === null ? null : construct(kind, a, now);
  });
}

function truncateFunction(kind: TemporalKind): FunctionDef {
  const name = `${kind}.truncate`;
  return pure(name, 'temporal', [2, 3], `A ${kind} truncated to a unit, adjusted by an optional component map`, (unit = null, value = null, map = null) => {
    if (unit === null || value === null) return null;
    if (map !== null && !(map instanceof Map)) throw badArg(name, map, 'a map');
    return truncate(kind, strArg(name, unit), value, map);
  });
}

function betweenFunction(name: string, unit: BetweenUnit, what: string): FunctionDef {
  return pure(name, 'temporal', [2, 2], what, nullSafe2((a, b) => durationBetween(unit, a, b)));
}

function fromEpoch(seconds: Value = null, nanos: Value = null): Value {
  if (seconds === null || nanos === null) return null;
  const s = BigInt(intArg('datetime.fromepoch', seconds));
  const n = BigInt(intArg('datetime.fromepoch', nanos));
  return DateTimeValue.ofEpochNanos(s * BIG_NANOS_PER_SECOND + n, Zone.UTC);
}

function fromEpochMillis(millis: Value = null): Value {
  if (millis === null) return null;
  return DateTimeValue.ofEpochNanos(BigInt(intArg('datetime.fromepochmillis', millis)) * 1_000_000n, Zone.UTC);
}

export const temporalFunctions: FunctionDef[] = [
  ...KINDS.flatMap((k) => [
    constructor(k),
    clockFunction(k, 'transaction'),
    clockFunction(k, 'statement'),
    clockFunction(k, 'realtime'),
    truncateFunction(k),
  ]),
  pure('datetime.fromepoch', 'temporal', [2, 2], 'A UTC datetime from seconds and nanoseconds since the epoch', fromEpoch),
  pure('datetime.fromepochmillis', 'temporal', [1, 1], 'A UTC datetime from milliseconds since the epoch', fromEpochMillis),
  pure('duration', 'temporal', [1, 1], 'A duration from ISO 8601 text or a component map', nullSafe1(toDuration)),
  betweenFunction('duration.between', 'all', 'The duration between two temporal values in months, days and time'),
  betweenFunction('duration.inMonths', 'months', 'The whole months between two temporal values'),
  betweenFunction('duration.inDays', 'days', 'The whole days between two temporal values'),
  betweenFunction('duration.inSeconds', 'seconds', 'The exact time between two temporal values'),
];

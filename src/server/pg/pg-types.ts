/**
 * PostgreSQL types on the wire: which type a result column is reported as, how cells are
 * encoded (text or binary format), and how bound parameters become engine values.
 *
 * Columns are reported as bool, int8, float8 or text, inferred from a sample of the rows
 * (SPEC): all non-null sampled cells booleans → bool; all integers → int8; all numbers with
 * at least one float → float8; anything else, or no non-null cell, → text. Text cells use
 * the engine's own rendering (`cellText`), so lists, maps, nodes and paths read as they do
 * in the CLI.
 *
 * Parameters: a value whose type the client declared (in Parse) is read as that type. A
 * value of unspecified type (OID 0, what most drivers send) is read by how its text looks:
 * an integer literal becomes an INTEGER, a decimal or exponent literal a FLOAT, `true` /
 * `false` a BOOLEAN, anything else a STRING. Declare the parameter as text (OID 25) to keep
 * a numeric-looking string a string.
 */

import { cellText } from '../../../runtime/format.js';
import { FloatBox, MAX_INT64, MIN_INT64, intFromBigInt, makeFloat, type Value } from '../../../runtime/values.js';
import { fromJs } from '../../../runtime/format.js';
import { PgError, SqlState } from './errors.js';
import { decodeUtf8 } from './frontend-messages.js';

export const Oid = {
  unspecified: 0,
  bool: 16,
  bytea: 17,
  name: 19,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  json: 114,
  float4: 700,
  float8: 701,
  unknown: 705,
  bpchar: 1042,
  varchar: 1043,
  numeric: 1700,
  jsonb: 3802,
} as const;

/** The four types result columns are reported as. */
export type ColumnType = typeof Oid.bool | typeof Oid.int8 | typeof Oid.float8 | typeof Oid.text;

/** Type size for RowDescription. */
export function typeSize(t: ColumnType): number {
  switch (t) {
    case Oid.bool:
      return 1;
    case Oid.int8:
    case Oid.float8:
      return 8;
    default:
      return -1;
  }
}

/** How many rows are looked at to choose column types. */
export const SAMPLE_ROWS = 1000;

type Kind = 'bool' | 'int' | 'float' | 'other';

function kindOf(v: Value): Kind | null {
  if (v === null) return null;
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (v instanceof FloatBox) return 'float';
  return 'other';
}

/** Column types inferred from (a sample of) the rows. */
export function inferColumnTypes(columnCount: number, rows: readonly Value[][]): ColumnType[] {
  const out: ColumnType[] = [];
  const n = Math.min(rows.length, SAMPLE_ROWS);
  for (let c = 0; c < columnCount; c++) {
    let seen: Kind | null = null;
    for (let r = 0; r < n && seen !== 'other'; r++) {
      const k = kindOf(rows[r][c] ?? null);
      if (k === null || k === seen) continue;
      if (seen === null) seen = k;
      else if ((seen === 'int' && k === 'float') || (seen === 'float' && k === 'int')) seen = 'float';
      else seen = 'other';
    }
    out.push(seen === 'bool' ? Oid.bool : seen === 'int' ? Oid.int8 : seen === 'float' ? Oid.float8 : Oid.text);
  }
  return out;
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return String(x);
}

/** A cell in text format for a column of type `t`. */
export function encodeText(v: Value, t: ColumnType): Buffer | null {
  if (v === null) return null;
  if (t === Oid.bool && typeof v === 'boolean') return Buffer.from(v ? 't' : 'f');
  if (t === Oid.float8) {
    if (typeof v === 'number') return Buffer.from(floatText(v));
    if (v instanceof FloatBox) return Buffer.from(floatText(v.value));
  }
  return Buffer.from(cellText(v), 'utf8');
}

/** A cell in binary format for a column of type `t`; 22P03 when the value does not fit the type. */
export function encodeBinary(v: Value, t: ColumnType): Buffer | null {
  if (v === null) return null;
  switch (t) {
    case Oid.bool:
      if (typeof v === 'boolean') return Buffer.from([v ? 1 : 0]);
      break;
    case Oid.int8:
      if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) {
        const b = Buffer.allocUnsafe(8);
        b.writeBigInt64BE(BigInt(v));
        return b;
      }
      break;
    case Oid.float8: {
      const x = typeof v === 'number' ? v : v instanceof FloatBox ? v.value : typeof v === 'bigint' ? Number(v) : undefined;
      if (x !== undefined) {
        const b = Buffer.allocUnsafe(8);
        b.writeDoubleBE(x);
        return b;
      }
      break;
    }
    default:
      return Buffer.from(cellText(v), 'utf8');
  }
  throw new PgError(
    SqlState.invalidBinaryRepresentation,
    `value ${cellText(v)} does not fit the column's reported type in binary format; request text format`,
  );
}

// ------------------------------------------------------------------ parameters

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][+-]?\d+)$/;

function parseInteger(text: string, index: number): Value {
  if (!INTEGER.test(text.trim())) {
    throw new PgError(SqlState.invalidTextRepresentation, `invalid input syntax for type bigint: "${text}" (parameter $${index})`);
  }
  const b = BigInt(text.trim());
  if (b > MAX_INT64 || b < MIN_INT64) {
    throw new PgError(SqlState.numericOutOfRange, `value "${text}" is out of range for type bigint (parameter $${index})`);
  }
  return intFromBigInt(b);
}

function parseFloat8(text: string, index: number): Value {
  const t = text.trim().toLowerCase();
  const special: Record<string, number> = { nan: NaN, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity, inf: Infinity, '-inf': -Infinity };
  if (t in special) return makeFloat(special[t]);
  if (!INTEGER.test(t) && !DECIMAL.test(t)) {
    throw new PgError(SqlState.invalidTextRepresentation, `invalid input syntax for type double precision: "${text}" (parameter $${index})`);
  }
  return makeFloat(Number(t));
}

function parseBool(text: string, index: number): Value {
  const t = text.trim().toLowerCase();
  if (['t', 'true', 'y', 'yes', 'on', '1'].includes(t)) return true;
  if (['f', 'false', 'n', 'no', 'off', '0'].includes(t)) return false;
  throw new PgError(SqlState.invalidTextRepresentation, `invalid input syntax for type boolean: "${text}" (parameter $${index})`);
}

/** A text of unspecified type, read by how it looks (see the module comment). */
function guess(text: string): Value {
  if (INTEGER.test(text)) {
    const b = BigInt(text);
    if (b <= MAX_INT64 && b >= MIN_INT64) return intFromBigInt(b);
    return text;
  }
  if (DECIMAL.test(text)) return makeFloat(Number(text));
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}

function fromText(text: string, oid: number, index: number): Value {
  switch (oid) {
    case Oid.unspecified:
    case Oid.unknown:
      return guess(text);
    case Oid.bool:
      return parseBool(text, index);
    case Oid.int2:
    case Oid.int4:
    case Oid.int8:
      return parseInteger(text, index);
    case Oid.float4:
    case Oid.float8:
    case Oid.numeric:
      return parseFloat8(text, index);
    case Oid.json:
    case Oid.jsonb:
      try {
        return fromJs(JSON.parse(text) as unknown);
      } catch {
        throw new PgError(SqlState.invalidTextRepresentation, `invalid input syntax for type json (parameter $${index})`);
      }
    default:
      return text;
  }
}

function fromBinary(bytes: Buffer, oid: number, index: number): Value {
  const bad = (type: string): PgError =>
    new PgError(SqlState.invalidBinaryRepresentation, `incorrect binary data format for type ${type} (parameter $${index})`);
  switch (oid) {
    case Oid.bool:
      if (bytes.length !== 1) throw bad('boolean');
      return bytes[0] !== 0;
    case Oid.int2:
      if (bytes.length !== 2) throw bad('smallint');
      return bytes.readInt16BE(0);
    case Oid.int4:
      if (bytes.length !== 4) throw bad('integer');
      return bytes.readInt32BE(0);
    case Oid.int8:
      if (bytes.length !== 8) throw bad('bigint');
      return intFromBigInt(bytes.readBigInt64BE(0));
    case Oid.float4:
      if (bytes.length !== 4) throw bad('real');
      return makeFloat(bytes.readFloatBE(0));
    case Oid.float8:
      if (bytes.length !== 8) throw bad('double precision');
      return makeFloat(bytes.readDoubleBE(0));
    case Oid.text:
    case Oid.varchar:
    case Oid.bpchar:
    case Oid.name:
    case Oid.unspecified:
    case Oid.unknown:
      return decodeUtf8(bytes);
    default:
      throw new PgError(
        SqlState.invalidBinaryRepresentation,
        `binary format is not supported for parameters of type ${oid} (parameter $${index}); send it in text format`,
      );
  }
}

/**
 * The engine parameters of a Bind: `$1`, `$2`, … are named `'1'`, `'2'`, … as the parser
 * names positional parameters.
 */
export function bindParameters(
  values: readonly (Buffer | null)[],
  formats: readonly number[],
  types: readonly number[],
): Map<string, Value> {
  if (formats.length > 1 && formats.length !== values.length) {
    throw new PgError(
      SqlState.protocolViolation,
      `bind message has ${formats.length} parameter formats but ${values.length} parameters`,
    );
  }
  const out = new Map<string, Value>();
  values.forEach((bytes, i) => {
    const index = i + 1;
    const format = formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : formats[i];
    const oid = types[i] ?? Oid.unspecified;
    let v: Value = null;
    if (bytes !== null) v = format === 1 ? fromBinary(bytes, oid, index) : fromText(decodeUtf8(bytes), oid, index);
    out.set(String(index), v);
  });
  return out;
}

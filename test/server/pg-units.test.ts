/**
 * Unit tests of the PG layer's pure parts: column type inference, cell encodings, bound
 * parameter decoding, the SQL shims, query-text scanning and the SQLSTATE mapping.
 */

import { describe, expect, it } from 'vitest';
import { FloatBox } from '../../runtime/values.js';
import { bindParameters, encodeBinary, encodeText, inferColumnTypes, Oid } from '../../src/server/pg/pg-types.js';
import { matchShim } from '../../src/server/pg/shims.js';
import { maxPositionalParameter, splitStatements, isEmptyQuery } from '../../src/server/pg/query-text.js';
import { PgError, sqlStateOf, toPgError } from '../../src/server/pg/errors.js';
import { GraphDbError, QuerySyntaxError, QueryTimeoutError, ArithmeticError, type ErrorKind } from '../../src/errors.js';
import { FrameReader } from '../../src/server/pg/framing.js';

const shimCtx = { engineVersion: '9.9.9', settings: new Map([['client_encoding', 'UTF8']]) };

describe('column type inference', () => {
  it('chooses bool, int8, float8 or text from the rows', () => {
    const rows = [
      [true, 1, 1.5, 'a', null, 1],
      [false, 2n, new FloatBox(2), 'b', null, 2.5],
      [null, null, 3, 4, null, 'x'],
    ];
    expect(inferColumnTypes(6, rows)).toEqual([Oid.bool, Oid.int8, Oid.float8, Oid.text, Oid.text, Oid.text]);
  });

  it('reports text for columns of lists, maps and empty results', () => {
    expect(inferColumnTypes(2, [[[1, 2], new Map([['a', 1]])]])).toEqual([Oid.text, Oid.text]);
    expect(inferColumnTypes(1, [])).toEqual([Oid.text]);
  });
});

describe('cell encodings', () => {
  it('renders text format the PostgreSQL way for bool and float8', () => {
    expect(encodeText(true, Oid.bool)?.toString()).toBe('t');
    expect(encodeText(NaN, Oid.float8)?.toString()).toBe('NaN');
    expect(encodeText(-Infinity, Oid.float8)?.toString()).toBe('-Infinity');
    expect(encodeText(new FloatBox(2), Oid.float8)?.toString()).toBe('2');
    expect(encodeText([1, 'a'], Oid.text)?.toString()).toBe("[1, 'a']");
    expect(encodeText(null, Oid.text)).toBeNull();
  });

  it('encodes binary format and refuses values that do not fit', () => {
    expect(encodeBinary(5, Oid.int8)?.readBigInt64BE(0)).toBe(5n);
    expect(encodeBinary(2.5, Oid.float8)?.readDoubleBE(0)).toBe(2.5);
    expect(encodeBinary(true, Oid.bool)?.[0]).toBe(1);
    expect(() => encodeBinary('x', Oid.int8)).toThrow(PgError);
  });
});

describe('bound parameters', () => {
  const text = (s: string): Buffer => Buffer.from(s);

  it('names them 1, 2, … and reads untyped text by its look', () => {
    const p = bindParameters([text('42'), text('2.5'), text('true'), text('hello'), null, text('007x')], [], []);
    expect([...p.entries()]).toEqual([
      ['1', 42],
      ['2', 2.5],
      ['3', true],
      ['4', 'hello'],
      ['5', null],
      ['6', '007x'],
    ]);
  });

  it('follows declared types, text and binary', () => {
    const i8 = Buffer.alloc(8);
    i8.writeBigInt64BE(-7n);
    const p = bindParameters([text('42'), i8, text('t'), text('{"a":[1]}')], [0, 1, 0, 0], [Oid.text, Oid.int8, Oid.bool, Oid.json]);
    expect(p.get('1')).toBe('42');
    expect(p.get('2')).toBe(-7);
    expect(p.get('3')).toBe(true);
    expect(p.get('4')).toEqual(new Map([['a', [1]]]));
  });

  it('rejects malformed values with 22P02 / 22P03', () => {
    expect(() => bindParameters([text('abc')], [], [Oid.int8])).toThrow(expect.objectContaining({ sqlState: '22P02' }));
    expect(() => bindParameters([Buffer.alloc(3)], [1], [Oid.int4])).toThrow(expect.objectContaining({ sqlState: '22P03' }));
    expect(() => bindParameters([Buffer.from([0xff, 0xfe])], [], [])).toThrow(expect.objectContaining({ sqlState: '22021' }));
  });
});

describe('SQL shims', () => {
  it('acknowledges session and transaction statements', () => {
    expect(matchShim('SET search_path TO public', shimCtx)?.tag).toBe('SET');
    expect(matchShim('begin', shimCtx)).toMatchObject({ tag: 'BEGIN', effect: 'begin' });
    expect(matchShim('COMMIT;', shimCtx)).toMatchObject({ tag: 'COMMIT', effect: 'commit' });
    expect(matchShim('ROLLBACK', shimCtx)).toMatchObject({ tag: 'ROLLBACK', effect: 'rollback' });
    expect(matchShim('DISCARD ALL', shimCtx)).toMatchObject({ tag: 'DISCARD ALL', effect: 'discard' });
  });

  it('answers version, schema and catalog probes', () => {
    expect(matchShim('SHOW SERVER_VERSION', shimCtx)?.rows).toEqual([['9.9.9']]);
    expect(matchShim('show client_encoding', shimCtx)?.rows).toEqual([['UTF8']]);
    expect(String(matchShim('SELECT VERSION()', shimCtx)?.rows?.[0][0])).toContain('graphdb 9.9.9');
    expect(matchShim('select current_schema()', shimCtx)?.rows).toEqual([['public']]);
    expect(matchShim('SELECT 1', shimCtx)?.rows).toEqual([[1]]);
    expect(matchShim('SELECT typname FROM pg_catalog.pg_type', shimCtx)).toMatchObject({ columns: [], rows: [] });
    expect(matchShim('select * from information_schema.tables', shimCtx)).toMatchObject({ rows: [] });
  });

  it('leaves graph queries alone', () => {
    expect(matchShim('MATCH (n) RETURN n', shimCtx)).toBeUndefined();
    expect(matchShim("RETURN 'SET x' AS s", shimCtx)).toBeUndefined();
    expect(matchShim('SHOW something_unknown', shimCtx)).toBeUndefined();
  });
});

describe('query text', () => {
  it('finds the highest positional parameter outside strings and comments', () => {
    expect(maxPositionalParameter('MATCH (n) WHERE n.a = $1 AND n.b = $3 RETURN n')).toBe(3);
    expect(maxPositionalParameter("RETURN '$9' AS s, $2 /* $7 */ // $8\n")).toBe(2);
    expect(maxPositionalParameter('RETURN $name')).toBe(0);
  });

  it('splits statements at semicolons outside strings', () => {
    expect(splitStatements("RETURN 1; RETURN ';' AS s;")).toEqual(['RETURN 1', "RETURN ';' AS s"]);
    expect(isEmptyQuery(' ; /* c */ ;')).toBe(true);
  });
});

describe('SQLSTATE mapping', () => {
  class Conflict extends GraphDbError {
    readonly code = 'SERIALIZATION_ERR';
    readonly kind: ErrorKind = 'InternalError';
  }

  it('maps engine errors as SPEC says', () => {
    expect(sqlStateOf(new QuerySyntaxError('bad'))).toBe('42000');
    expect(sqlStateOf(new QueryTimeoutError(10))).toBe('57014');
    expect(sqlStateOf(new Conflict('write conflict', 'Conflict', 'runtime'))).toBe('40001');
    expect(sqlStateOf(new ArithmeticError('Division by zero', 'DivisionByZero'))).toBe('22012');
    expect(toPgError(new Error('boom')).sqlState).toBe('XX000');
  });
});

describe('framing', () => {
  it('joins messages split across chunks and refuses bad lengths', () => {
    const r = new FrameReader({ maxMessageBytes: 100, maxStartupBytes: 10000 });
    r.typed = true;
    const m = Buffer.from([0x51, 0, 0, 0, 6, 0x41, 0]);
    r.push(m.subarray(0, 2));
    expect(r.next()).toBeUndefined();
    r.push(m.subarray(2));
    expect(r.next()).toEqual({ type: 'Q', body: Buffer.from([0x41, 0]) });
    r.push(Buffer.from([0x51, 0x7f, 0xff, 0xff, 0xff]));
    expect(() => r.next()).toThrow(expect.objectContaining({ sqlState: '54000' }));
  });
});

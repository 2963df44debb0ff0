/**
 * Encoders of the backend (server → client) messages of PostgreSQL wire protocol v3. Each
 * function returns one complete message: a type byte, a 32-bit length that counts itself,
 * and the body. `MessageBuilder` assembles bodies without intermediate copies.
 */

import type { PgSeverity } from './errors.js';

/** Grows a byte buffer while a message body is written, then frames it. */
export class MessageBuilder {
  private buf: Buffer;
  private len = 0;

  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  int8(n: number): this {
    this.room(1);
    this.buf.writeUInt8(n & 0xff, this.len);
    this.len += 1;
    return this;
  }

  int16(n: number): this {
    this.room(2);
    this.buf.writeInt16BE(n, this.len);
    this.len += 2;
    return this;
  }

  int32(n: number): this {
    this.room(4);
    this.buf.writeInt32BE(n, this.len);
    this.len += 4;
    return this;
  }

  uint32(n: number): this {
    this.room(4);
    this.buf.writeUInt32BE(n >>> 0, this.len);
    this.len += 4;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
    return this;
  }

  /** A NUL-terminated UTF-8 string (NULs inside are dropped: they cannot be sent). */
  cstring(s: string): this {
    const clean = s.includes('\0') ? s.replaceAll('\0', '') : s;
    const n = Buffer.byteLength(clean);
    this.room(n + 1);
    this.buf.write(clean, this.len, 'utf8');
    this.len += n;
    this.buf[this.len++] = 0;
    return this;
  }

  /** The framed message: `type`, length, body. */
  frame(type: string): Buffer {
    const out = Buffer.allocUnsafe(5 + this.len);
    out[0] = type.charCodeAt(0);
    out.writeInt32BE(4 + this.len, 1);
    this.buf.copy(out, 5, 0, this.len);
    return out;
  }
}

const empty = (type: string): Buffer => new MessageBuilder(0).frame(type);

export const authenticationOk = (): Buffer => new MessageBuilder(4).int32(0).frame('R');
export const authenticationCleartextPassword = (): Buffer => new MessageBuilder(4).int32(3).frame('R');
/** AuthenticationSASL: the mechanisms offered, the list ended by an empty name. */
export const authenticationSasl = (mechanisms: readonly string[]): Buffer => {
  const b = new MessageBuilder().int32(10);
  for (const m of mechanisms) b.cstring(m);
  return b.cstring('').frame('R');
};
export const authenticationSaslContinue = (data: string): Buffer => new MessageBuilder().int32(11).bytes(Buffer.from(data, 'utf8')).frame('R');
export const authenticationSaslFinal = (data: string): Buffer => new MessageBuilder().int32(12).bytes(Buffer.from(data, 'utf8')).frame('R');

export const parameterStatus = (name: string, value: string): Buffer =>
  new MessageBuilder().cstring(name).cstring(value).frame('S');

export const backendKeyData = (processId: number, secretKey: number): Buffer =>
  new MessageBuilder(8).int32(processId).int32(secretKey).frame('K');

/** Transaction status: I idle, T in a transaction block, E in a failed one. */
export type TransactionStatus = 'I' | 'T' | 'E';

export const readyForQuery = (status: TransactionStatus): Buffer =>
  new MessageBuilder(1).int8(status.charCodeAt(0)).frame('Z');

export const parseComplete = (): Buffer => empty('1');
export const bindComplete = (): Buffer => empty('2');
export const closeComplete = (): Buffer => empty('3');
export const noData = (): Buffer => empty('n');
export const portalSuspended = (): Buffer => empty('s');
export const emptyQueryResponse = (): Buffer => empty('I');

export const commandComplete = (tag: string): Buffer => new MessageBuilder().cstring(tag).frame('C');

export const parameterDescription = (typeOids: readonly number[]): Buffer => {
  const b = new MessageBuilder(2 + 4 * typeOids.length).int16(typeOids.length);
  for (const oid of typeOids) b.uint32(oid);
  return b.frame('t');
};

/** One column of a RowDescription. */
export interface FieldDescription {
  name: string;
  typeOid: number;
  typeSize: number;
  /** 0 text, 1 binary. */
  format: 0 | 1;
}

export const rowDescription = (fields: readonly FieldDescription[]): Buffer => {
  const b = new MessageBuilder().int16(fields.length);
  for (const f of fields) {
    b.cstring(f.name).int32(0).int16(0).uint32(f.typeOid).int16(f.typeSize).int32(-1).int16(f.format);
  }
  return b.frame('T');
};

/** A DataRow of already encoded cells; `null` is SQL NULL. */
export const dataRow = (cells: readonly (Buffer | null)[]): Buffer => {
  let size = 2;
  for (const c of cells) size += 4 + (c ? c.length : 0);
  const b = new MessageBuilder(size).int16(cells.length);
  for (const c of cells) {
    if (c === null) b.int32(-1);
    else b.int32(c.length).bytes(c);
  }
  return b.frame('D');
};

/** The fields of an ErrorResponse or NoticeResponse. */
export interface Report {
  severity: PgSeverity | 'WARNING' | 'NOTICE';
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

function report(type: 'E' | 'N', r: Report): Buffer {
  const b = new MessageBuilder();
  b.int8(0x53).cstring(r.severity); // S: localised severity
  b.int8(0x56).cstring(r.severity); // V: severity, never localised
  b.int8(0x43).cstring(r.code); // C: SQLSTATE
  b.int8(0x4d).cstring(r.message); // M: message
  if (r.detail !== undefined) b.int8(0x44).cstring(r.detail); // D
  if (r.hint !== undefined) b.int8(0x48).cstring(r.hint); // H
  return b.int8(0).frame(type);
}

export const errorResponse = (r: Report): Buffer => report('E', r);
export const noticeResponse = (r: Report): Buffer => report('N', r);

/** NegotiateProtocolVersion: the newest minor version served and the options not recognised. */
export const negotiateProtocolVersion = (newestMinor: number, unrecognised: readonly string[]): Buffer => {
  const b = new MessageBuilder().int32(newestMinor).int32(unrecognised.length);
  for (const name of unrecognised) b.cstring(name);
  return b.frame('v');
};

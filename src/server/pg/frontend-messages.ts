/**
 * Decoders of the frontend (client → server) messages of PostgreSQL wire protocol v3.
 * Every read is bounds-checked: a body shorter than its fields claim is a protocol
 * violation (fatal), and text that is not valid UTF-8 is refused with 22021 rather than
 * silently replaced.
 */

import { PgError, PgProtocolError, SqlState } from './errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Sequential reader over one message body. */
export class BodyReader {
  private pos = 0;

  constructor(
    private readonly body: Buffer,
    private readonly what: string,
  ) {}

  private need(n: number): void {
    if (this.pos + n > this.body.length) throw new PgProtocolError(`${this.what} message is shorter than its contents`);
  }

  byte(): number {
    this.need(1);
    return this.body[this.pos++];
  }

  int16(): number {
    this.need(2);
    const v = this.body.readInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  int32(): number {
    this.need(4);
    const v = this.body.readInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  uint32(): number {
    this.need(4);
    const v = this.body.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  bytes(n: number): Buffer {
    this.need(n);
    const v = this.body.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  cstring(): string {
    const end = this.body.indexOf(0, this.pos);
    if (end < 0) throw new PgProtocolError(`${this.what} message has an unterminated string`);
    const v = decodeUtf8(this.body.subarray(this.pos, end));
    this.pos = end + 1;
    return v;
  }

  get atEnd(): boolean {
    return this.pos >= this.body.length;
  }
}

/** UTF-8 text, or 22021 when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new PgError(SqlState.characterNotInRepertoire, 'invalid byte sequence for encoding "UTF8"');
  }
}

// ------------------------------------------------------------------ start-up forms

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

export type StartupPacket =
  | { kind: 'ssl' }
  | { kind: 'gssenc' }
  | { kind: 'cancel'; processId: number; secretKey: number }
  | { kind: 'startup'; major: number; minor: number; params: Map<string, string> };

export function readStartupPacket(body: Buffer): StartupPacket {
  const r = new BodyReader(body, 'startup');
  const code = r.int32();
  if (code === SSL_REQUEST) return { kind: 'ssl' };
  if (code === GSSENC_REQUEST) return { kind: 'gssenc' };
  if (code === CANCEL_REQUEST) return { kind: 'cancel', processId: r.int32(), secretKey: r.int32() };
  const major = code >>> 16;
  const minor = code & 0xffff;
  const params = new Map<string, string>();
  if (major === 3) {
    for (;;) {
      const name = r.cstring();
      if (name === '') break;
      params.set(name, r.cstring());
    }
  }
  return { kind: 'startup', major, minor, params };
}

// ------------------------------------------------------------------ typed messages

export interface ParseMessage {
  statement: string;
  query: string;
  paramTypes: number[];
}

export interface BindMessage {
  portal: string;
  statement: string;
  paramFormats: number[];
  params: (Buffer | null)[];
  resultFormats: number[];
}

export interface DescribeMessage {
  target: 'S' | 'P';
  name: string;
}

export interface ExecuteMessage {
  portal: string;
  maxRows: number;
}

function formatCode(r: BodyReader): number {
  const f = r.int16();
  if (f !== 0 && f !== 1) throw new PgProtocolError(`unsupported format code ${f}`);
  return f;
}

export function readParse(body: Buffer): ParseMessage {
  const r = new BodyReader(body, 'Parse');
  const statement = r.cstring();
  const query = r.cstring();
  const n = r.int16();
  if (n < 0) throw new PgProtocolError('Parse message has a negative parameter count');
  const paramTypes: number[] = [];
  for (let i = 0; i < n; i++) paramTypes.push(r.uint32());
  return { statement, query, paramTypes };
}

export function readBind(body: Buffer): BindMessage {
  const r = new BodyReader(body, 'Bind');
  const portal = r.cstring();
  const statement = r.cstring();
  const nFormats = r.int16();
  if (nFormats < 0) throw new PgProtocolError('Bind message has a negative format count');
  const paramFormats: number[] = [];
  for (let i = 0; i < nFormats; i++) paramFormats.push(formatCode(r));
  const nParams = r.int16();
  if (nParams < 0) throw new PgProtocolError('Bind message has a negative parameter count');
  const params: (Buffer | null)[] = [];
  for (let i = 0; i < nParams; i++) {
    const len = r.int32();
    if (len < -1) throw new PgProtocolError(`Bind message has an invalid parameter length ${len}`);
    params.push(len === -1 ? null : r.bytes(len));
  }
  const nResults = r.int16();
  if (nResults < 0) throw new PgProtocolError('Bind message has a negative result format count');
  const resultFormats: number[] = [];
  for (let i = 0; i < nResults; i++) resultFormats.push(formatCode(r));
  return { portal, statement, paramFormats, params, resultFormats };
}

function target(r: BodyReader, what: string): 'S' | 'P' {
  const t = String.fromCharCode(r.byte());
  if (t !== 'S' && t !== 'P') throw new PgProtocolError(`invalid ${what} message subtype '${t}'`);
  return t;
}

export function readDescribe(body: Buffer): DescribeMessage {
  const r = new BodyReader(body, 'Describe');
  const t = target(r, 'Describe');
  return { target: t, name: r.cstring() };
}

export function readClose(body: Buffer): DescribeMessage {
  const r = new BodyReader(body, 'Close');
  const t = target(r, 'Close');
  return { target: t, name: r.cstring() };
}

export function readExecute(body: Buffer): ExecuteMessage {
  const r = new BodyReader(body, 'Execute');
  return { portal: r.cstring(), maxRows: r.int32() };
}

/** The text of a Query or PasswordMessage. */
export function readSingleString(body: Buffer, what: string): string {
  return new BodyReader(body, what).cstring();
}

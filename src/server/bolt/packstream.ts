/**
 * PackStream v2, Bolt's binary value format: encodes and decodes nulls, booleans, 64-bit
 * integers, floats, bytes, strings, lists, maps and tagged structures. It knows nothing of
 * what a structure means (value-mapping.ts and messages.ts do). The decoder is strict and
 * bounded: a truncated value, an unknown marker, a length past the message, or nesting
 * deeper than MAX_DEPTH is a PackStreamError, never a crash or a huge allocation.
 */

/** A tagged structure: a message, or a graph/temporal/spatial value. */
export class Structure {
  constructor(
    readonly tag: number,
    readonly fields: PackValue[],
  ) {}
}

/** A value PackStream carries. Integers are bigint when they do not fit a safe JS number. */
export type PackValue = null | boolean | number | bigint | PackFloat | string | Uint8Array | PackValue[] | Map<string, PackValue> | Structure;

/** A float whose value is integral (1.0): kept apart from the integer 1. */
export class PackFloat {
  constructor(readonly value: number) {}
}

export class PackStreamError extends Error {}

/** Deepest nesting of lists, maps and structures a message may have. */
export const MAX_DEPTH = 64;

// ------------------------------------------------------------------ encoding

export class Packer {
  private buf = Buffer.allocUnsafe(1024);
  private len = 0;

  /** The bytes written so far, and starts again. */
  take(): Buffer {
    const out = Buffer.from(this.buf.subarray(0, this.len));
    this.len = 0;
    // One huge message should not pin its buffer for the rest of the connection.
    if (this.buf.length > 1 << 20) this.buf = Buffer.allocUnsafe(1024);
    return out;
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  private byte(b: number): void {
    this.room(1);
    this.buf[this.len++] = b;
  }

  pack(v: PackValue): void {
    if (v === null) this.byte(0xc0);
    else if (v === true) this.byte(0xc3);
    else if (v === false) this.byte(0xc2);
    else if (typeof v === 'number') {
      if (Number.isInteger(v)) this.int(BigInt(v));
      else this.float(v);
    } else if (typeof v === 'bigint') this.int(v);
    else if (v instanceof PackFloat) this.float(v.value);
    else if (typeof v === 'string') this.string(v);
    else if (v instanceof Uint8Array) this.bytes(v);
    else if (Array.isArray(v)) {
      this.header(v.length, 0x90, 0xd4);
      for (const item of v) this.pack(item);
    } else if (v instanceof Map) {
      this.header(v.size, 0xa0, 0xd8);
      for (const [k, item] of v) {
        this.string(k);
        this.pack(item);
      }
    } else {
      if (v.fields.length > 15) throw new PackStreamError('a structure has at most 15 fields');
      this.byte(0xb0 | v.fields.length);
      this.byte(v.tag);
      for (const f of v.fields) this.pack(f);
    }
  }

  private int(v: bigint): void {
    if (v >= -16n && v <= 127n) {
      this.byte(Number(v) & 0xff);
    } else if (v >= -128n && v <= 127n) {
      this.room(2);
      this.buf[this.len++] = 0xc8;
      this.buf.writeInt8(Number(v), this.len);
      this.len += 1;
    } else if (v >= -32768n && v <= 32767n) {
      this.room(3);
      this.buf[this.len++] = 0xc9;
      this.buf.writeInt16BE(Number(v), this.len);
      this.len += 2;
    } else if (v >= -2147483648n && v <= 2147483647n) {
      this.room(5);
      this.buf[this.len++] = 0xca;
      this.buf.writeInt32BE(Number(v), this.len);
      this.len += 4;
    } else {
      this.room(9);
      this.buf[this.len++] = 0xcb;
      this.buf.writeBigInt64BE(BigInt.asIntN(64, v), this.len);
      this.len += 8;
    }
  }

  private float(v: number): void {
    this.room(9);
    this.buf[this.len++] = 0xc1;
    this.buf.writeDoubleBE(v, this.len);
    this.len += 8;
  }

  private string(s: string): void {
    const bytes = Buffer.from(s, 'utf8');
    this.header(bytes.length, 0x80, 0xd0);
    this.raw(bytes);
  }

  private bytes(b: Uint8Array): void {
    if (b.length < 0x100) {
      this.byte(0xcc);
      this.byte(b.length);
    } else if (b.length < 0x10000) {
      this.room(3);
      this.buf[this.len++] = 0xcd;
      this.buf.writeUInt16BE(b.length, this.len);
      this.len += 2;
    } else {
      this.room(5);
      this.buf[this.len++] = 0xce;
      this.buf.writeUInt32BE(b.length, this.len);
      this.len += 4;
    }
    this.raw(b);
  }

  /** A size header: tiny (`tiny | n`) below 16, else 8/16/32-bit sizes after markers `wide`, `wide+1`, `wide+2`. */
  private header(n: number, tiny: number, wide: number): void {
    if (n < 16) {
      this.byte(tiny | n);
    } else if (n < 0x100) {
      this.byte(wide);
      this.byte(n);
    } else if (n < 0x10000) {
      this.room(3);
      this.buf[this.len++] = wide + 1;
      this.buf.writeUInt16BE(n, this.len);
      this.len += 2;
    } else {
      this.room(5);
      this.buf[this.len++] = wide + 2;
      this.buf.writeUInt32BE(n, this.len);
      this.len += 4;
    }
  }

  private raw(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }
}

// ------------------------------------------------------------------ decoding

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes the one value `bytes` holds (a whole message); anything left over is an error. */
export function unpack(bytes: Buffer): PackValue {
  const r = new Unpacker(bytes);
  const v = r.value(0);
  if (r.pos !== bytes.length) throw new PackStreamError(`${bytes.length - r.pos} bytes follow the message's value`);
  return v;
}

class Unpacker {
  pos = 0;
  constructor(private readonly b: Buffer) {}

  private need(n: number): void {
    if (this.pos + n > this.b.length) throw new PackStreamError('the message ends inside a value');
  }

  private u8(): number {
    this.need(1);
    return this.b[this.pos++];
  }

  private u16(): number {
    this.need(2);
    const v = this.b.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }

  private u32(): number {
    this.need(4);
    const v = this.b.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  /** A count of items, each at least one byte: one larger than what remains cannot be true. */
  private count(n: number): number {
    if (n > this.b.length - this.pos) throw new PackStreamError(`a size of ${n} is larger than the rest of the message`);
    return n;
  }

  value(depth: number): PackValue {
    if (depth > MAX_DEPTH) throw new PackStreamError(`values nest deeper than ${MAX_DEPTH} levels`);
    const m = this.u8();
    if (m < 0x80) return m;
    if (m >= 0xf0) return m - 0x100;
    const hi = m & 0xf0;
    if (hi === 0x80) return this.string(m & 0x0f);
    if (hi === 0x90) return this.list(m & 0x0f, depth);
    if (hi === 0xa0) return this.map(m & 0x0f, depth);
    if (hi === 0xb0) return this.structure(m & 0x0f, depth);
    switch (m) {
      case 0xc0: return null;
      case 0xc1: {
        this.need(8);
        const v = this.b.readDoubleBE(this.pos);
        this.pos += 8;
        return Number.isInteger(v) ? new PackFloat(v) : v;
      }
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xc8: {
        this.need(1);
        return this.b.readInt8(this.pos++);
      }
      case 0xc9: {
        this.need(2);
        const v = this.b.readInt16BE(this.pos);
        this.pos += 2;
        return v;
      }
      case 0xca: {
        this.need(4);
        const v = this.b.readInt32BE(this.pos);
        this.pos += 4;
        return v;
      }
      case 0xcb: {
        this.need(8);
        const v = this.b.readBigInt64BE(this.pos);
        this.pos += 8;
        return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
      }
      case 0xcc: return this.bytes(this.u8());
      case 0xcd: return this.bytes(this.u16());
      case 0xce: return this.bytes(this.u32());
      case 0xd0: return this.string(this.u8());
      case 0xd1: return this.string(this.u16());
      case 0xd2: return this.string(this.u32());
      case 0xd4: return this.list(this.u8(), depth);
      case 0xd5: return this.list(this.u16(), depth);
      case 0xd6: return this.list(this.u32(), depth);
      case 0xd8: return this.map(this.u8(), depth);
      case 0xd9: return this.map(this.u16(), depth);
      case 0xda: return this.map(this.u32(), depth);
      default: throw new PackStreamError(`unknown PackStream marker 0x${m.toString(16)}`);
    }
  }

  private bytes(n: number): Uint8Array {
    this.need(n);
    const out = new Uint8Array(this.b.subarray(this.pos, this.pos + n));
    this.pos += n;
    return out;
  }

  private string(n: number): string {
    this.need(n);
    let s: string;
    try {
      s = strictUtf8.decode(this.b.subarray(this.pos, this.pos + n));
    } catch {
      throw new PackStreamError('a string is not valid UTF-8');
    }
    this.pos += n;
    return s;
  }

  private list(n: number, depth: number): PackValue[] {
    const out: PackValue[] = new Array<PackValue>(this.count(n));
    for (let i = 0; i < n; i++) out[i] = this.value(depth + 1);
    return out;
  }

  private map(n: number, depth: number): Map<string, PackValue> {
    const out = new Map<string, PackValue>();
    this.count(n);
    for (let i = 0; i < n; i++) {
      const k = this.value(depth + 1);
      if (typeof k !== 'string') throw new PackStreamError('a map key is not a string');
      out.set(k, this.value(depth + 1));
    }
    return out;
  }

  private structure(n: number, depth: number): Structure {
    const tag = this.u8();
    const fields: PackValue[] = [];
    for (let i = 0; i < n; i++) fields.push(this.value(depth + 1));
    return new Structure(tag, fields);
  }
}

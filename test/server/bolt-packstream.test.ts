/**
 * PackStream and chunking properties (fast-check): every value encodes and decodes to
 * itself; random, truncated, deeply nested or absurdly sized input is a PackStreamError,
 * never another exception or a huge allocation; chunk framing reassembles messages however
 * the bytes are split.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkReader, chunked } from '../../src/server/bolt/chunking.js';
import { MAX_DEPTH, PackFloat, Packer, PackStreamError, type PackValue, Structure, unpack } from '../../src/server/bolt/packstream.js';

const packed = (v: PackValue): Buffer => {
  const p = new Packer();
  p.pack(v);
  return p.take();
};

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((b) => (b >= -(2n ** 53n) + 1n && b <= 2n ** 53n - 1n ? Number(b) : b));
const leaf: fc.Arbitrary<PackValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  int64,
  fc.double({ noNaN: true }).filter((d) => !Number.isInteger(d)),
  fc.integer({ min: -1e6, max: 1e6 }).map((i) => new PackFloat(i)),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.uint8Array({ maxLength: 300 }),
);
const value: fc.Arbitrary<PackValue> = fc.letrec<{ v: PackValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('v'), { maxLength: 20 }),
    fc.uniqueArray(fc.tuple(fc.string({ maxLength: 10 }), tie('v')), { maxLength: 20, selector: ([k]) => k }).map((es) => new Map(es)),
    fc.tuple(fc.integer({ min: 0, max: 255 }), fc.array(tie('v'), { maxLength: 15 })).map(([t, fs]) => new Structure(t, fs)),
  ),
})).v;

describe('PackStream', () => {
  it('round-trips every value', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(unpack(packed(v))).toEqual(v);
      }),
      { numRuns: 500 },
    );
  });

  it('sizes at the edges of each width round-trip (strings, lists, maps, bytes)', () => {
    for (const n of [15, 16, 255, 256, 65535, 65536]) {
      expect(unpack(packed('a'.repeat(n)))).toBe('a'.repeat(n));
      expect((unpack(packed(new Array<PackValue>(n).fill(1))) as PackValue[]).length).toBe(n);
      expect((unpack(packed(new Uint8Array(n))) as Uint8Array).length).toBe(n);
    }
    const m = new Map<string, PackValue>(Array.from({ length: 300 }, (_, i) => [`k${i}`, i]));
    expect(unpack(packed(m))).toEqual(m);
  });

  it('random and truncated input is a PackStreamError or a value, never anything else', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }), value.chain((v) => {
        const b = packed(v);
        return fc.integer({ min: 0, max: Math.max(0, b.length - 1) }).map((cut) => new Uint8Array(b.subarray(0, cut)));
      })), (bytes) => {
        try {
          unpack(Buffer.from(bytes));
        } catch (err) {
          expect(err).toBeInstanceOf(PackStreamError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses huge declared sizes and deep nesting without allocating them', () => {
    expect(() => unpack(Buffer.from([0xd6, 0xff, 0xff, 0xff, 0xff]))).toThrow(PackStreamError);
    expect(() => unpack(Buffer.from([0xda, 0x7f, 0xff, 0xff, 0xff]))).toThrow(PackStreamError);
    expect(() => unpack(Buffer.from([0xd2, 0xff, 0xff, 0xff, 0xff]))).toThrow(PackStreamError);
    expect(() => unpack(Buffer.alloc(MAX_DEPTH + 10, 0x91))).toThrow(/deeper/);
    expect(() => unpack(Buffer.from([0x81, 0xff]))).toThrow(/UTF-8/);
  });
});

describe('chunking', () => {
  it('reassembles messages whatever the split, keep-alives ignored', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ minLength: 1, maxLength: 70_000 }), { minLength: 1, maxLength: 3 }), fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 20 }), (messages, cuts) => {
        const stream = Buffer.concat([Buffer.from([0, 0]), ...messages.map((m) => chunked(Buffer.from(m)))]);
        const reader = new ChunkReader(1 << 20);
        const got: Buffer[] = [];
        let at = 0;
        for (const c of [...cuts, stream.length]) {
          const piece = stream.subarray(at, Math.min(stream.length, at + c));
          at += piece.length;
          for (const e of reader.push(Buffer.from(piece))) if (e.kind === 'message') got.push(e.bytes);
          if (at >= stream.length) break;
        }
        expect(got.map((b) => [...b])).toEqual(messages.map((m) => [...m]));
      }),
      { numRuns: 50 },
    );
  });

  it('reports a message over the limit as soon as it is exceeded', () => {
    const reader = new ChunkReader(100);
    expect(reader.push(Buffer.from([0, 101]))).toEqual([{ kind: 'tooLarge' }]);
  });
});

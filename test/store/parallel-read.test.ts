// The open image's read on several threads (src/store/persist/parallel-read.ts): the same bytes
// and the same CRC-32s whichever thread read a piece, and a helper that fails or hangs costs
// only time: the caller reads its pieces itself, and nothing hangs or crashes.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crc32 } from '../../src/store/persist/crc32.js';
import { autoHelpers, crc32Combine, readRanges, type ParallelReadOptions, type ReadRange } from '../../src/store/persist/parallel-read.js';
import { removeTempDirs, tempDir } from './persist-helpers.js';

afterAll(removeTempDirs);

/** A file of random bytes and ranges over it of several sizes (an empty one too), 8-aligned as the image's sections are. */
function fixture(): { file: string; data: Buffer; ranges: () => ReadRange[] } {
  const dir = tempDir('graphdb-pread-');
  const file = path.join(dir, 'data.bin');
  const data = randomBytes(300_000);
  fs.writeFileSync(file, data);
  const spans: [number, number][] = [
    [16, 100_000],
    [100_016, 0],
    [100_016, 7],
    [100_024, 150_001],
    [250_032, 49_968],
  ];
  return { file, data, ranges: () => spans.map(([position, length]) => ({ buffer: new SharedArrayBuffer(length), offset: 0, length, position })) };
}

function read(file: string, ranges: ReadRange[], options: Partial<ParallelReadOptions>): ReturnType<typeof readRanges> {
  const fd = fs.openSync(file, 'r');
  try {
    // Small pieces and no minimum size, so that a small file goes through the helpers.
    return readRanges(file, fd, ranges, { pieceBytes: 8192, minParallelBytes: 0, ...options });
  } finally {
    fs.closeSync(fd);
  }
}

function expectRead(data: Buffer, ranges: ReadRange[], crcs: number[]): void {
  ranges.forEach((range, i) => {
    const want = data.subarray(range.position, range.position + range.length);
    expect(Buffer.from(new Uint8Array(range.buffer)).equals(want), `range ${i}`).toBe(true);
    expect(crcs[i], `range ${i}`).toBe(crc32(want));
  });
}

describe('parallel read of the open image', () => {
  it('crc32Combine gives the CRC of the concatenation', () => {
    const data = randomBytes(70_001);
    for (const cut of [0, 1, 7, 8, 4096, 65_536, 70_000, 70_001]) {
      const a = data.subarray(0, cut);
      const b = data.subarray(cut);
      expect(crc32Combine(crc32(a), crc32(b), b.length), `cut ${cut}`).toBe(crc32(data));
    }
  });

  it('reads the same bytes and CRCs on this thread alone, with helpers, and through helpers only', () => {
    const { file, data, ranges } = fixture();
    for (const options of [{ helpers: 0 }, { helpers: 2 }, { helpers: 1, callerReads: false }, { helpers: 3, callerReads: false }] as Partial<ParallelReadOptions>[]) {
      const r = ranges();
      const { crcs, cutShort, pieces, byHelpers } = read(file, r, options);
      expect(cutShort, JSON.stringify(options)).toBeUndefined();
      expectRead(data, r, crcs);
      // 300,000 bytes in pieces of 8 KiB, each range cut on its own.
      expect(pieces).toBe(40);
      if (options.helpers === 0) expect(byHelpers).toBe(0);
      if (options.callerReads === false) expect(byHelpers, JSON.stringify(options)).toBe(pieces);
    }
  });

  it('a helper that throws on every piece: the caller reads them all, same result', () => {
    const { file, data, ranges } = fixture();
    const r = ranges();
    const { crcs, byHelpers } = read(file, r, { helpers: 2, callerReads: false, helperFault: 'throw' });
    expectRead(data, r, crcs);
    expect(byHelpers).toBe(0);
  });

  it('a helper that hangs: the caller reads its piece after stragglerMs, and returns', () => {
    const { file, data, ranges } = fixture();
    const r = ranges();
    const started = performance.now();
    const { crcs, byHelpers } = read(file, r, { helpers: 1, callerReads: false, helperFault: 'hang', stragglerMs: 300 });
    expectRead(data, r, crcs);
    expect(byHelpers).toBe(0);
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a helper that hangs while the caller reads too: the caller waits about twice its own time for a piece, not stragglerMs', () => {
    const { file, data, ranges } = fixture();
    const r = ranges();
    const started = performance.now();
    // Each helper claims one piece and hangs on it; the caller reads the rest, then those two.
    const { crcs, byHelpers } = read(file, r, { helpers: 2, callerAfterHelpers: true, helperFault: 'hang', stragglerMs: 60_000 });
    expectRead(data, r, crcs);
    expect(byHelpers).toBe(0);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it("'auto' helpers: none below 4 cores, else one per idle core, at most 3, never all the cores", () => {
    expect(autoHelpers(1, 0)).toBe(0);
    expect(autoHelpers(2, 0.1)).toBe(0);
    expect(autoHelpers(3, 0)).toBe(0);
    expect(autoHelpers(4, 0)).toBe(3);
    expect(autoHelpers(4, 2.2)).toBe(2);
    expect(autoHelpers(4, 6)).toBe(0);
    expect(autoHelpers(16, 2)).toBe(3);
    expect(autoHelpers(16, 15.6)).toBe(0);
  });

  it('a helper that cannot open the file: the caller reads everything', () => {
    const { file, data, ranges } = fixture();
    const r = ranges();
    const fd = fs.openSync(file, 'r');
    try {
      // The helpers open this path, which is not there; the caller reads through its own descriptor.
      const { crcs } = readRanges(file + '.gone', fd, r, { pieceBytes: 8192, minParallelBytes: 0, helpers: 2, callerReads: false, stragglerMs: 300 });
      expectRead(data, r, crcs);
    } finally {
      fs.closeSync(fd);
    }
  });

  it('a file that ends inside a range: cutShort names that range, whoever read it', () => {
    const { file, ranges } = fixture();
    fs.truncateSync(file, 200_000);
    for (const options of [{ helpers: 0 }, { helpers: 2, callerReads: false }] as Partial<ParallelReadOptions>[]) {
      expect(read(file, ranges(), options).cutShort, JSON.stringify(options)).toBe(3);
    }
  });
});

/**
 * Reads byte ranges of one file onto shared memory and takes each range's CRC-32, on the
 * calling thread and on helper threads at once: the open image's read (open-image.ts), where a
 * fresh process spends most of its open in the kernel's first touch of new pages and in the
 * CRCs, both of which proceed on several threads at once.
 *
 * The ranges are cut into pieces of `pieceBytes`; each thread claims the next piece with one
 * atomic add on a shared counter, reads it (`fs.readSync`, the target being a SharedArrayBuffer,
 * so a helper writes the very memory the caller gets, no copy) and takes its CRC-32. The caller
 * joins the claiming as soon as the helpers are asked to start, so a helper that starts late
 * (or never) only takes fewer pieces; a range's CRC is its pieces' CRCs combined
 * (`crc32Combine`), the same value as one CRC of the whole range.
 *
 * A helper that fails on a piece (its read throws, the file cannot be opened there) marks it
 * failed, and the caller reads that piece itself; so does it for a piece a helper claimed and has
 * not finished a while after the caller ran out of pieces (`stragglerMs`): two threads then
 * write the same file bytes to the same memory, which is harmless. A helper never decides anything: every
 * error the caller reports comes from its own read, and the checksums are compared by the caller.
 * The helpers are plain JavaScript evaluated in a worker (no module of graphdb loaded there), so
 * one starts in a few milliseconds of CPU.
 */

import * as fs from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import * as zlib from 'node:zlib';
import { crc32 } from './crc32.js';

/** One range to read: `length` bytes from file position `position` into `buffer` at `offset`. */
export interface ReadRange {
  buffer: SharedArrayBuffer;
  offset: number;
  length: number;
  position: number;
}

export interface ParallelReadOptions {
  /**
   * Helper threads besides the caller; 0 reads everything on the calling thread. `'auto'`: on 4
   * cores or more, one per core the load average leaves idle, at most 3 and at most one fewer
   * than the cores; none on fewer cores (`autoHelpers`).
   */
  helpers: number | 'auto';
  /** Bytes per piece (the unit a thread claims). */
  pieceBytes: number;
  /**
   * How long the caller waits, once it has no piece left, for one a helper still reads, before
   * it reads that piece itself; when the caller read pieces itself, at most twice what one took
   * it (at least `STRAGGLER_MIN_MS`): on a busy machine a helper can sit waiting for a core
   * with a piece claimed, and reading it again costs milliseconds.
   */
  stragglerMs: number;
  /** Below this many bytes in all, no helper starts (its thread and isolate would cost more than it saves). */
  minParallelBytes: number;
  /** For tests: the caller claims no piece itself (it waits, then reads what is left). */
  callerReads?: boolean;
  /** For tests: the caller claims its first piece only once every helper has started (or stragglerMs passed). */
  callerAfterHelpers?: boolean;
  /** For tests: what each helper does instead of reading a piece it claimed. */
  helperFault?: 'throw' | 'hang';
}

/** The least a caller waits for a helper's piece before reading it itself. */
const STRAGGLER_MIN_MS = 10;

/** Below this many cores `'auto'` starts no helper. */
const MIN_CORES_FOR_HELPERS = 4;

/**
 * Helpers for `helpers: 'auto'`: none below 4 cores, else the cores the 1-minute load average
 * leaves idle (rounded), at most 3 and at most one fewer than the cores. On a machine whose
 * cores are all busy a helper only adds its start (a thread and a Node environment, tens of
 * milliseconds of CPU) and waits for a core with pieces claimed; on the 2-core VM this was
 * measured on (bench/README.md, "Reopen"), a helper made the read slower even with both cores
 * free, the kernel's first touch of new pages not proceeding faster on two threads there.
 */
export function autoHelpers(cores = availableParallelism(), load = loadavg()[0]): number {
  if (cores < MIN_CORES_FOR_HELPERS) return 0;
  return Math.max(0, Math.min(3, cores - 1, Math.round(cores - load)));
}

/** Pieces of 4 MiB: about 130 for the 522 MB image of snb-200k, each a few milliseconds. */
const PIECE_BYTES = 4 * 2 ** 20;
/** Below this much data a helper's start costs more than it saves. */
const MIN_PARALLEL_BYTES = 32 * 2 ** 20;

/** The defaults. */
export const parallelReadDefaults: ParallelReadOptions = {
  helpers: 'auto',
  pieceBytes: PIECE_BYTES,
  stragglerMs: 5_000,
  minParallelBytes: MIN_PARALLEL_BYTES,
};

// Piece states in the shared status array.
const CLAIMED = 1;
const DONE = 2;
const FAILED = 3;

/**
 * The helper, plain CommonJS evaluated in a worker. `workerData`: the file's path, the pieces
 * ([buffer index, offset, length, file position]), the buffers, and the shared control arrays:
 * control[0] the next piece to claim, control[1] the release of a helper told to hang (tests),
 * control[2] how many helpers have started.
 */
const HELPER_SOURCE = `
'use strict';
(() => {
  const { workerData } = require('node:worker_threads');
  const fs = require('node:fs');
  const { crc32 } = require('node:zlib');
  const { file, pieces, buffers, fault } = workerData;
  const control = new Int32Array(workerData.control);
  const status = new Int32Array(workerData.status);
  const crcs = new Int32Array(workerData.crcs);
  let fd;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return;
  }
  Atomics.add(control, 2, 1);
  Atomics.notify(control, 2);
  try {
    for (;;) {
      const i = Atomics.add(control, 0, 1);
      if (i >= pieces.length) break;
      Atomics.store(status, i, ${CLAIMED});
      try {
        if (fault === 'throw') throw new Error('a fault the test asked for');
        if (fault === 'hang') Atomics.wait(control, 1, 0);
        const [b, offset, length, position] = pieces[i];
        const view = new Uint8Array(buffers[b], offset, length);
        for (let done = 0; done < length; ) {
          const n = fs.readSync(fd, view, done, length - done, position + done);
          if (n === 0) throw new Error('end of file');
          done += n;
        }
        crcs[i] = crc32(view) | 0;
        Atomics.store(status, i, ${DONE});
      } catch {
        Atomics.store(status, i, ${FAILED});
      }
      Atomics.notify(status, i);
    }
  } finally {
    fs.closeSync(fd);
  }
})();
`;

/** Reads `length` bytes at `position` of `fd` into `view`; false when the file ends first. */
function readFully(fd: number, view: Uint8Array, position: number): boolean {
  for (let done = 0; done < view.length; ) {
    const n = fs.readSync(fd, view, done, view.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

export interface ReadResult {
  /** Each range's CRC-32 (empty when `cutShort`). */
  crcs: number[];
  /** The first range the file ends inside, if any. */
  cutShort?: number;
  /** How many pieces there were, and how many of them a helper read. */
  pieces: number;
  byHelpers: number;
}

/**
 * Reads every range of `file` (open as `fd` on this thread) and returns each range's CRC-32, or
 * the index of the first range the file ends inside (`cutShort`). Options as the defaults unless given.
 */
export function readRanges(file: string, fd: number, ranges: readonly ReadRange[], given: Partial<ParallelReadOptions> = {}): ReadResult {
  const options = { ...parallelReadDefaults, ...given };
  const pieces: [number, number, number, number][] = [];
  let total = 0;
  ranges.forEach((range, r) => {
    for (let at = 0; at < range.length; at += options.pieceBytes) {
      pieces.push([r, range.offset + at, Math.min(options.pieceBytes, range.length - at), range.position + at]);
    }
    total += range.length;
  });
  const crcOf = new Array<number>(pieces.length);
  const control = new Int32Array(new SharedArrayBuffer(12));
  const status = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, pieces.length)));
  const helperCrcs = new Int32Array(new SharedArrayBuffer(4 * Math.max(1, pieces.length)));
  const native = (zlib as { crc32?: unknown }).crc32 !== undefined;
  const helpers = native && total >= options.minParallelBytes ? (options.helpers === 'auto' ? autoHelpers() : options.helpers) : 0;
  const workers = startHelpers(helpers, file, pieces, ranges, control, status, helperCrcs, options.helperFault);
  // This thread's own pace (for how long to wait for a helper's piece).
  let ownBytes = 0;
  let ownMs = 0;
  // Alone, this thread reads the pieces in order and carries each range's CRC on from piece to piece.
  const alone = workers.length === 0;
  const carried = ranges.map(() => 0);
  /** This thread's read of piece `i`; false when the file ends inside it. */
  const readPiece = (i: number): boolean => {
    const [r, offset, length, position] = pieces[i];
    const view = new Uint8Array(ranges[r].buffer, offset, length);
    const started = performance.now();
    if (!readFully(fd, view, position)) return false;
    if (alone) carried[r] = crcOf[i] = crc32(view, carried[r]);
    else crcOf[i] = crc32(view);
    ownMs += performance.now() - started;
    ownBytes += length;
    return true;
  };
  let byHelpers = 0;
  try {
    if (options.callerAfterHelpers === true) {
      const until = performance.now() + options.stragglerMs;
      for (let started; (started = Atomics.load(control, 2)) < workers.length && performance.now() < until; ) Atomics.wait(control, 2, started, 20);
    }
    if (options.callerReads !== false || workers.length === 0) {
      for (;;) {
        const i = Atomics.add(control, 0, 1);
        if (i >= pieces.length) break;
        if (!readPiece(i)) {
          return { crcs: [], cutShort: pieces[i][0], pieces: pieces.length, byHelpers };
        }
      }
    }
    // What the helpers claimed: wait for each a while (see stragglerMs), else read it here.
    for (let i = 0; i < pieces.length; i++) {
      if (crcOf[i] !== undefined) continue;
      const patience = ownBytes > 0 ? Math.min(options.stragglerMs, Math.max(STRAGGLER_MIN_MS, (2 * ownMs * pieces[i][2]) / ownBytes)) : options.stragglerMs;
      const deadline = performance.now() + patience;
      for (;;) {
        const state = Atomics.load(status, i);
        if (state === DONE) {
          crcOf[i] = helperCrcs[i] >>> 0;
          byHelpers++;
          break;
        }
        const left = deadline - performance.now();
        if (state === FAILED || left <= 0 || workers.length === 0) {
          if (!readPiece(i)) {
            return { crcs: [], cutShort: pieces[i][0], pieces: pieces.length, byHelpers };
          }
          break;
        }
        Atomics.wait(status, i, state, Math.min(left, 20));
      }
    }
  } finally {
    // No helper claims anything from now on; one told to hang is let go; none outlives its use.
    Atomics.store(control, 0, pieces.length);
    Atomics.store(control, 1, 1);
    Atomics.notify(control, 1);
    for (const worker of workers) void worker.terminate().catch(() => undefined);
  }
  if (alone) return { crcs: carried, pieces: pieces.length, byHelpers };
  const crcs = ranges.map(() => 0);
  pieces.forEach(([r, , length], i) => {
    crcs[r] = crc32Combine(crcs[r], crcOf[i], length);
  });
  return { crcs, pieces: pieces.length, byHelpers };
}

function startHelpers(
  count: number,
  file: string,
  pieces: readonly [number, number, number, number][],
  ranges: readonly ReadRange[],
  control: Int32Array,
  status: Int32Array,
  crcs: Int32Array,
  fault: ParallelReadOptions['helperFault'],
): Worker[] {
  const workers: Worker[] = [];
  const workerData = { file, pieces, buffers: ranges.map((r) => r.buffer), control: control.buffer, status: status.buffer, crcs: crcs.buffer, fault };
  for (let k = 0; k < count; k++) {
    try {
      const worker = new Worker(HELPER_SOURCE, { eval: true, workerData, stdout: true, stderr: true });
      // A helper is never waited for through the event loop (the caller is blocked reading), and
      // its failure is only a piece the caller reads itself: nothing it does may stop the process.
      worker.on('error', () => undefined);
      worker.unref();
      workers.push(worker);
    } catch {
      break;
    }
  }
  return workers;
}

// CRC-32 combination (zlib's crc32_combine): the CRC of A then B from the CRCs of A and of B
// and B's length, by applying B's length of zero bits to A's CRC as a GF(2) matrix power.

function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i];
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(matrix, matrix[n]);
}

/** The operator that appends `length` zero bytes to a CRC, by length (the pieces share a few lengths). */
const zerosOperators = new Map<number, Uint32Array>();

function zerosOperator(length: number): Uint32Array {
  let operator = zerosOperators.get(length);
  if (operator !== undefined) return operator;
  let even = new Uint32Array(32);
  let odd = new Uint32Array(32);
  // The operator for one zero bit, then two, then four.
  odd[0] = 0xedb88320;
  for (let n = 1, row = 1; n < 32; n++, row <<= 1) odd[n] = row;
  gf2Square(even, odd);
  gf2Square(odd, even);
  // Then one zero byte, squared on with each further bit of the length; the result multiplies in those of its bits that are set.
  operator = new Uint32Array(32);
  for (let n = 0; n < 32; n++) operator[n] = (1 << n) >>> 0;
  for (let rest = length; rest > 0; rest = Math.floor(rest / 2)) {
    gf2Square(even, odd);
    if (rest % 2 === 1) {
      const next = new Uint32Array(32);
      for (let n = 0; n < 32; n++) next[n] = gf2Times(even, operator[n]);
      operator = next;
    }
    [even, odd] = [odd, even];
  }
  if (zerosOperators.size < 64) zerosOperators.set(length, operator);
  return operator;
}

/** The CRC-32 of the bytes A then B, from `crcA`, `crcB` and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  return (gf2Times(zerosOperator(lengthB), crcA >>> 0) ^ crcB) >>> 0;
}

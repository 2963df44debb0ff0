/**
 * The pieces a worker's commit is taken in on the main thread, so that no commit, however
 * large, holds the event loop (and with it every door and probe) for more than a slice:
 * the size of the payloads a worker sends its commit in, their packing into one transferable
 * block of bytes (it crosses to the main thread without a copy, where a message of strings
 * would be copied in, in one go), the time one slice of decoding or applying may take, and the
 * decoding itself, a slice per turn of the event loop. Applying in slices is
 * `Database.applyWorkerWrite`'s (it keeps the graph's transaction open between turns and
 * finishes it at once when anyone else needs the graph).
 */

import type { Json } from '../../store/persist/json.js';
import { decodeChange, parseRecord, type LoggedChange } from '../../store/persist/record-codec.js';
import { nextTurn } from '../../event-loop.js';

/**
 * How long one slice of decoding or applying a worker's commit may hold the main thread
 * before it yields a turn of the event loop.
 */
export const APPLY_SLICE_MS = 5;

/**
 * Most changes in one payload of a worker's commit: parsing a payload cannot be split, and
 * one of this many changes parses in a few milliseconds (a WAL record of the default size,
 * 10 000 changes, takes 10–12 ms). The payloads become the primary's WAL records as they are.
 */
export const WORKER_RECORD_CHANGES = 2000;

/** Changes decoded between two looks at the clock. */
const CHECK_EVERY = 256;

/** A commit's payloads (WAL encoding) as UTF-8 in one transferable buffer: payload `i` is `bytes` from `ends[i - 1]` (0 for the first) to `ends[i]`. */
export interface PackedPayloads {
  bytes: Uint8Array;
  ends: number[];
}

/** `payloads` packed into a buffer of their own, to be transferred (`bytes.buffer`) rather than copied. */
export function packPayloads(payloads: readonly string[]): PackedPayloads {
  const lengths = payloads.map((p) => Buffer.byteLength(p, 'utf8'));
  const bytes = new Uint8Array(lengths.reduce((a, b) => a + b, 0));
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ends: number[] = [];
  let at = 0;
  payloads.forEach((p, i) => {
    at += view.write(p, at, lengths[i], 'utf8');
    ends.push(at);
  });
  return { bytes, ends };
}

/**
 * A commit's payloads as text (what the WAL logs) and their changes, decoded about `sliceMs` at
 * a time with a turn of the event loop between slices. Throws ValueDecodeError on a malformed
 * payload, as `decodeTransaction` does.
 */
export async function decodeInSlices(packed: PackedPayloads, sliceMs = APPLY_SLICE_MS): Promise<{ payloads: string[]; changes: LoggedChange[] }> {
  const decoder = new TextDecoder();
  const payloads: string[] = [];
  const out: LoggedChange[] = [];
  let until = performance.now() + sliceMs;
  let start = 0;
  for (const end of packed.ends) {
    if (performance.now() >= until) {
      await nextTurn();
      until = performance.now() + sliceMs;
    }
    const payload = decoder.decode(packed.bytes.subarray(start, end));
    start = end;
    payloads.push(payload);
    const entries: Json[] = parseRecord(payload).entries;
    for (let i = 0; i < entries.length; i++) {
      out.push(decodeChange(entries[i]));
      if ((i + 1) % CHECK_EVERY === 0 && performance.now() >= until) {
        await nextTurn();
        until = performance.now() + sliceMs;
      }
    }
  }
  return { payloads, changes: out };
}

/**
 * The pieces a worker's commit is taken in on the main thread, so that no commit, however
 * large, holds the event loop (and with it every door and probe) for more than a slice:
 * the size of the payloads a worker sends its commit in, the time one slice of decoding or
 * applying may take, and the decoding itself, a slice per turn of the event loop. Applying
 * in slices is `Database.applyWorkerWrite`'s (it keeps the graph's transaction open between
 * turns and finishes it at once when anyone else needs the graph).
 */

import type { Json } from '../../store/persist/json.js';
import { decodeChange, parseRecord, type LoggedChange } from '../../store/persist/record-codec.js';

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

/** Resolves on a later turn of the event loop, after the I/O that is waiting. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The changes of a commit's payloads, decoded about `sliceMs` at a time with a turn of the
 * event loop between slices. Throws ValueDecodeError on a malformed payload, as
 * `decodeTransaction` does.
 */
export async function decodeInSlices(payloads: readonly string[], sliceMs = APPLY_SLICE_MS): Promise<LoggedChange[]> {
  const out: LoggedChange[] = [];
  let until = performance.now() + sliceMs;
  for (const payload of payloads) {
    if (performance.now() >= until) {
      await nextTurn();
      until = performance.now() + sliceMs;
    }
    const entries: Json[] = parseRecord(payload).entries;
    for (let i = 0; i < entries.length; i++) {
      out.push(decodeChange(entries[i]));
      if ((i + 1) % CHECK_EVERY === 0 && performance.now() >= until) {
        await nextTurn();
        until = performance.now() + sliceMs;
      }
    }
  }
  return out;
}

/**
 * Work spread over turns of the event loop, so that nothing long holds the main thread (and
 * with it every door and probe): how a turn is yielded, and the loop that runs a background
 * job one slice per turn. The vector, full-text and property indexes' background builds, a
 * worker's commit applied in slices, and background saves all go through here.
 */

/** Settles on a later turn of the event loop, after the I/O that is waiting. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `slice` once per turn of the event loop, starting with the next turn, for as long as
 * `goOn()` holds (asked before each slice); settles once it no longer does.
 */
export async function inTurns(goOn: () => boolean, slice: () => void): Promise<void> {
  for (;;) {
    await nextTurn();
    if (!goOn()) return;
    slice();
  }
}

/**
 * Runs synchronous code that has no deadline checks of its own (a match on V8's
 * backtracking regular expression engine) within a time bound, on whatever thread calls it.
 * `vm`'s timeout has a watchdog thread terminate the script's execution, which V8 honours
 * even inside a regular expression's backtracking loop; the closure runs in this context, so
 * it sees the caller's values as they are. Starting the watchdog costs tens of microseconds,
 * so callers use this only for code that may otherwise never end.
 */

import { Script } from 'node:vm';

const SLOT = '__graphdbBoundedRun';
const script = new Script(`globalThis.${SLOT}()`, { filename: 'graphdb-bounded-run' });

/** What `runWithin` returns when the bound was reached and the code stopped. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/** `work()`, or TIMED_OUT when it ran `ms` milliseconds without ending (it is stopped then). */
export function runWithin<T>(work: () => T, ms: number): T | typeof TIMED_OUT {
  const holder = globalThis as unknown as Record<string, unknown>;
  const previous = holder[SLOT];
  holder[SLOT] = work;
  try {
    return script.runInThisContext({ timeout: Math.max(1, Math.ceil(ms)) }) as T;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return TIMED_OUT;
    throw err;
  } finally {
    holder[SLOT] = previous;
  }
}

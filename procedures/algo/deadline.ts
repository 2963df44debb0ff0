/**
 * Deadline checks for long-running algorithm loops: the procedure context carries the
 * calling query's deadline (`checkDeadline`), and the algorithms call it every
 * `CHECK_MASK + 1` units of work so that a query time limit interrupts them.
 */

import type { ProcedureContext } from '../registry.js';

/** Throws when the query's time is up. */
export type Deadline = () => void;

/** Work units (nodes visited) between two deadline checks; a power of two minus one, used as a mask. */
export const CHECK_MASK = 4095;

/** The deadline check to use for `ctx`. */
export function deadlineOf(ctx: ProcedureContext): Deadline {
  return () => ctx.checkDeadline();
}

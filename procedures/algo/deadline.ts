/**
 * Deadline checks for long-running algorithm loops. The procedure context does not carry the
 * query deadline today (`ProcedureContext` holds only the graph); when a caller adds a
 * `checkDeadline()` method to the context, the algorithms pick it up here and call it every
 * `CHECK_EVERY` units of work, so that a query timeout interrupts them. Until then the check
 * is a no-op.
 */

import type { ProcedureContext } from '../registry.js';

/** Throws when the query's time is up; a no-op when there is no deadline. */
export type Deadline = () => void;

/** Work units (nodes visited) between two deadline checks; a power of two minus one, used as a mask. */
export const CHECK_MASK = 4095;

interface DeadlineAware extends ProcedureContext {
  checkDeadline?: () => void;
}

const NONE: Deadline = () => {};

/** The deadline check to use for `ctx`. */
export function deadlineOf(ctx: ProcedureContext): Deadline {
  const check = (ctx as DeadlineAware).checkDeadline;
  return typeof check === 'function' ? () => check.call(ctx) : NONE;
}

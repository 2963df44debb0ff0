/**
 * The per-query governor: the query's deadline and its memory budget. While a query
 * compiles and runs, its governor is the *active* one, so code that receives no execution
 * context (built-in functions, aggregators, comprehensions, the planner) can still stop a
 * runaway query cheaply: a decrementing step counter for time, a length comparison where a
 * list or string is created, and a cell count where rows are held in a buffer.
 *
 * Memory is counted, not measured: a held row costs one cell per column plus the length
 * of the lists, maps and strings in it (strings at 16 characters per cell), so the count
 * tracks the heap a query pins down within a small constant factor.
 */

import { MemoryLimitError, QueryCancelledError, QueryTimeoutError, ResourceLimitError } from '../src/errors.js';
import type { Value } from './values.js';

/** Per-query memory limits (DatabaseOptions.memoryLimits). */
export interface MemoryLimits {
  /** Most elements one list may hold (range(), collect(), concatenation, comprehensions). */
  maxListSize: number;
  /** Most UTF-16 code units one string may hold (concatenation, string functions). */
  maxStringLength: number;
  /** Most cells one query may hold in result rows and in its sort, aggregation, distinct, eager and collect buffers. */
  maxQueryCells: number;
}

/**
 * Defaults: a list of 10 million elements, a string of 32 Mi code units, 40 million held
 * cells per query (about 1 GiB of heap in the worst case, a quarter of Node's default heap).
 */
export const DEFAULT_MEMORY_LIMITS: Readonly<MemoryLimits> = Object.freeze({
  maxListSize: 10_000_000,
  maxStringLength: 32 * 1024 * 1024,
  maxQueryCells: 40_000_000,
});

/**
 * How another thread stops a running query: it stores `ticket` into `words[index]`. The
 * ticket names one query, so a request that arrives after that query ended never stops the next.
 */
export interface CancelToken {
  words: Int32Array;
  index: number;
  ticket: number;
}

/** Whether `token`'s query has been asked to stop. */
export function cancelRequested(token: CancelToken): boolean {
  return Atomics.load(token.words, token.index) === token.ticket;
}

/** Loop iterations between two deadline checks. */
export const STEPS_PER_CHECK = 4096;

export class Governor {
  /** Loop iterations left before the next deadline check (generated code decrements it). */
  budget = STEPS_PER_CHECK;
  /** Cells this query may still hold. */
  cells: number;
  readonly limits: Readonly<MemoryLimits>;
  private readonly deadline: number;
  /** Set when another thread may cancel this query (a query worker's queries). */
  cancel: CancelToken | undefined;
  /**
   * Most rows the query's result may have (a door's limit): the result is refused as soon as
   * it passes this, before more are built or any is moved to another thread.
   */
  maxRows = Number.POSITIVE_INFINITY;

  /** `startedAt` is a `performance.now()` reading: the deadline counts from it (compilation included). */
  constructor(
    readonly timeoutMs: number,
    /** Complete limits (a database merges its options over the defaults once, not per query). */
    limits: Readonly<MemoryLimits> = DEFAULT_MEMORY_LIMITS,
    startedAt = performance.now(),
  ) {
    this.limits = limits;
    this.cells = this.limits.maxQueryCells;
    this.deadline = timeoutMs > 0 ? startedAt + timeoutMs : Number.POSITIVE_INFINITY;
  }

  /** Milliseconds left before the deadline (Infinity without one). */
  remainingMs(): number {
    return this.deadline - performance.now();
  }

  checkDeadline(): void {
    const cancel = this.cancel;
    if (cancel !== undefined && cancelRequested(cancel)) throw new QueryCancelledError();
    if (performance.now() > this.deadline) throw new QueryTimeoutError(this.timeoutMs);
  }
}

/** The governor of no query: no deadline, default limits (used outside query execution). */
const IDLE = new Governor(0);
let active: Governor = IDLE;

/** Makes `g` the active governor; returns the one it replaces, to restore with `deactivate`. */
export function activate(g: Governor): Governor {
  const previous = active;
  active = g;
  return previous;
}

export function deactivate(previous: Governor): void {
  active = previous;
}

/** One unit of work: checks the active deadline every STEPS_PER_CHECK calls. */
export function step(): void {
  const g = active;
  if (--g.budget < 0) {
    g.budget = STEPS_PER_CHECK;
    g.checkDeadline();
  }
}

/** The active governor (the idle one outside a query). */
export function activeGovernor(): Governor {
  return active;
}

/** Checks the active query's deadline now (for work whose steps are few but heavy). */
export function checkActiveDeadline(): void {
  active.checkDeadline();
}

/** The active query's memory limits (for code that bounds what it builds before building it). */
export function activeLimits(): Readonly<MemoryLimits> {
  return active.limits;
}

/** Throws MEMORY_LIMIT when a list of `n` elements would exceed the list limit. */
export function checkListSize(n: number, what = 'A list'): void {
  if (n > active.limits.maxListSize) {
    throw new MemoryLimitError(`${what} would hold ${n} elements; the limit is ${active.limits.maxListSize}`);
  }
}

/** Throws MEMORY_LIMIT when a string of `n` code units would exceed the string limit. */
export function checkStringLength(n: number, what = 'A string'): void {
  if (n > active.limits.maxStringLength) {
    throw new MemoryLimitError(`${what} would be ${n} characters long; the limit is ${active.limits.maxStringLength}`);
  }
}

/** Spends `n` cells of the active query's budget. */
export function charge(n: number): void {
  const g = active;
  g.cells -= n;
  if (g.cells < 0) throw overBudget(g);
}

/** Spends the cells of a value the query is about to hold (collect, group keys). */
export function chargeValue(v: Value): void {
  const g = active;
  g.cells -= cellsOf(v, g.cells);
  if (g.cells < 0) throw overBudget(g);
}

/** Spends the cells of a row a buffer is about to hold; returns the row (for `buf.push(held(g, [...]))`). */
export function held(g: Governor, row: Value[]): Value[] {
  let n = 1 + row.length;
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (typeof v === 'object' ? v !== null : typeof v === 'string' && v.length > 64) n += cellsOf(v, g.cells) - 1;
  }
  g.cells -= n;
  if (g.cells < 0) throw overBudget(g);
  return row;
}

/** The error of a result past `g.maxRows` rows (generated code calls it when the result grows past the limit). */
export function tooManyRows(g: Governor): never {
  throw new ResourceLimitError(`The result has more than ${g.maxRows} rows; the limit is ${g.maxRows}. Add LIMIT or aggregate`);
}

/** Spends the cells of one value a buffer is about to hold (a DISTINCT key); returns it. */
export function heldValue<T>(g: Governor, v: T): T {
  g.cells -= cellsOf(v as Value, g.cells);
  if (g.cells < 0) throw overBudget(g);
  return v;
}

/** Gives back the cells of `rows[from..]`, rows a buffer is about to drop (a top-k cut). */
export function release(g: Governor, rows: readonly Value[][], from: number): void {
  for (let i = from; i < rows.length; i++) g.cells += cellsOf(rows[i], Number.POSITIVE_INFINITY);
}

/** `n` units of work done at once (building a list of n elements): the deadline is checked as if it were n steps. */
export function work(n: number): void {
  const g = active;
  g.budget -= n;
  if (g.budget < 0) {
    g.budget = STEPS_PER_CHECK;
    g.checkDeadline();
  }
}

function overBudget(g: Governor): MemoryLimitError {
  return new MemoryLimitError(
    `Query holds more than ${g.limits.maxQueryCells} cells of rows and intermediate values (memory limit); add a LIMIT, aggregate earlier, or raise memoryLimits.maxQueryCells`,
  );
}

/**
 * The cells a value occupies, counting stops once `cap` is passed (so shared sub-lists
 * counted many times cannot make the count itself expensive).
 */
function cellsOf(v: Value, cap: number): number {
  if (typeof v === 'string') return 1 + (v.length >>> 4);
  if (typeof v !== 'object' || v === null) return 1;
  if (Array.isArray(v)) {
    let n = 1 + v.length;
    for (let i = 0; i < v.length && n <= cap; i++) {
      const x = v[i];
      if (typeof x === 'object' ? x !== null : typeof x === 'string' && x.length > 64) n += cellsOf(x, cap - n) - 1;
    }
    return n;
  }
  if (v instanceof Map) {
    let n = 1 + 2 * v.size;
    for (const x of v.values()) {
      if (n > cap) break;
      if (typeof x === 'object' ? x !== null : typeof x === 'string' && x.length > 64) n += cellsOf(x as Value, cap - n) - 1;
    }
    return n;
  }
  return 1;
}

/**
 * The shape a result may have before a door moves it to another thread or serialises it:
 * values nested at most MAX_RESULT_DEPTH deep, and at most a given number of cells in all
 * (counted as the governor counts held rows: one per value, strings at one per 16 characters).
 * A list nested thousands deep is cheap to build (`reduce(a = [], i IN range(1, 9000) | [a])`)
 * but overflows the stack of the structured clone and of every serialiser after it, so it is
 * refused here, on the thread that made it, with LIMIT_EXCEEDED. The walk is iterative and
 * stops at the first value past a limit.
 */

import type { Value } from '../../runtime/values.js';
import { ResourceLimitError } from '../errors.js';
import { Node, Path, Rel } from '../store/entities.js';

/** Deepest nesting of lists and maps a result may hold (a row's cell is depth 1). */
export const MAX_RESULT_DEPTH = 500;

/** Throws ResourceLimitError when a value of `records` is nested deeper than MAX_RESULT_DEPTH or they hold more than `maxCells` cells. */
export function checkResultShape(records: readonly (readonly Value[])[], maxCells: number): void {
  let cells = 0;
  const values: unknown[] = [];
  const depths: number[] = [];
  for (const row of records) {
    cells += 1 + row.length;
    for (const cell of row) {
      if (typeof cell === 'string') cells += cell.length >>> 4;
      if (typeof cell !== 'object' || cell === null) continue;
      values.push(cell);
      depths.push(1);
    }
    while (values.length > 0) {
      const v = values.pop();
      const depth = depths.pop()!;
      let items: Iterable<unknown>;
      if (Array.isArray(v)) items = v;
      else if (v instanceof Map) items = v.values();
      else continue;
      if (depth > MAX_RESULT_DEPTH) {
        throw new ResourceLimitError(`A result value is nested more than ${MAX_RESULT_DEPTH} lists or maps deep; the limit is ${MAX_RESULT_DEPTH}. Return a flatter value`);
      }
      for (const x of items) {
        cells += typeof x === 'string' ? 1 + (x.length >>> 4) : 1;
        if (typeof x === 'object' && x !== null && !(x instanceof Node || x instanceof Rel || x instanceof Path)) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
      if (cells > maxCells) break;
    }
    if (cells > maxCells) {
      throw new ResourceLimitError(`The result holds more than ${maxCells} cells (one per value, strings at one per 16 characters); the limit is ${maxCells}. Add LIMIT or aggregate`);
    }
  }
}

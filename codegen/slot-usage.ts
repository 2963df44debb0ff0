/**
 * Which relationship slots generated code may hold as bare ids instead of `Rel` objects.
 * An expansion binds a relationship slot for every entry it walks; when nothing reads that
 * slot except the uniqueness checks between relationships of one pattern, making (or even
 * loading) the relationship object is wasted work — and for a bulk-loaded graph, memory, as
 * the object is made on first use and kept. Such a slot holds the relationship's id, and
 * the uniqueness check compares ids.
 *
 * The analysis is conservative: any mention of a slot anywhere in the plan other than its
 * own binding and a single-relationship uniqueness check counts as a read (a string equal
 * to the slot's name, a scope entry an expression may resolve, a list-valued check), and a
 * uniqueness check between an id slot and an object slot makes both objects.
 */

import type { PlanOp } from '../src/planner/plan.js';

export function relSlotsHeldAsIds(root: PlanOp): Set<string> {
  const bound = new Set<string>();
  const pairs: [string, string][] = [];
  const read = slotsMentioned(root, null, (record, visit) => {
    if (record.op === 'Expand' && typeof record.rel === 'string') {
      if (bound.has(record.rel)) visit(record.rel);
      bound.add(record.rel);
      for (const [k, v] of Object.entries(record)) if (k !== 'rel') visit(v);
      return true;
    }
    if (record.kind === 'relsDistinct' && record.aList === false && record.bList === false) {
      pairs.push([record.a as string, record.b as string]);
      return true;
    }
    return false;
  });

  const ids = new Set<string>();
  for (const slot of bound) if (!read.has(slot)) ids.add(slot);
  // A check between an id and an object would compare unlike things: drop both to objects.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [a, b] of pairs) {
      if (ids.has(a) !== ids.has(b)) {
        ids.delete(a);
        ids.delete(b);
        changed = true;
      }
    }
  }
  return ids;
}

/** Every string anywhere inside an expression tree (names, keys, literals): a superset of its variables. */
function stringsIn(e: unknown, out = new Set<string>(), seen = new Set<object>()): Set<string> {
  if (typeof e === 'string') {
    out.add(e);
    return out;
  }
  if (e === null || typeof e !== 'object' || seen.has(e)) return out;
  seen.add(e);
  if (e instanceof Map) for (const v of e.values()) stringsIn(v, out, seen);
  else if (Array.isArray(e)) for (const v of e) stringsIn(v, out, seen);
  else for (const v of Object.values(e)) stringsIn(v, out, seen);
  return out;
}

/**
 * Slots `value` (an operator, or any part of a plan) may read: every string in it, and the
 * slots of the names its bound expressions mention. `skip` (the child an operator was reached
 * through) is left out. `special` may take over a record (returning true), visiting what it
 * chooses of it.
 */
export function slotsMentioned(
  value: unknown,
  skip: object | null,
  special?: (record: Record<string, unknown>, visit: (v: unknown) => void) => boolean,
): Set<string> {
  const out = new Set<string>();
  const seen = new Set<object>(skip === null ? [] : [skip]);
  const visit = (v: unknown): void => {
    if (typeof v === 'string') {
      out.add(v);
      return;
    }
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    if (v instanceof Map) {
      for (const x of v.values()) visit(x);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    const record = v as Record<string, unknown>;
    if (special?.(record, visit) === true) return;
    if (record.scope instanceof Map && record.expr !== undefined) {
      // A bound expression reads the slots of the names it mentions, nothing else in its scope.
      const scope = record.scope as ReadonlyMap<string, string>;
      for (const name of stringsIn(record.expr)) {
        const slot = scope.get(name);
        if (slot !== undefined) out.add(slot);
      }
      return;
    }
    for (const x of Object.values(record)) visit(x);
  };
  visit(value);
  return out;
}

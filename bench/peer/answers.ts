/**
 * Normalising and comparing answers across engines. Rows become plain JSON-able values;
 * unordered answers are sorted into a canonical order; comparison treats numbers as equal
 * within a relative tolerance (engines sum floats in different orders) and an integral float
 * as equal to the integer (some engines return counts as doubles).
 */

import type { Row } from './engine.js';

/** A plain JS value as it crosses the process boundary. */
export type Plain = null | boolean | number | string | Plain[] | { [k: string]: Plain };

/** Converts any engine value to a `Plain` value (Maps and objects keep sorted keys). */
export function toPlain(v: unknown): Plain {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
    case 'string':
    case 'boolean':
      return v;
    case 'bigint':
      return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
    default:
      break;
  }
  if (Array.isArray(v)) return v.map(toPlain);
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v as object);
  const out: { [k: string]: Plain } = {};
  for (const [k, x] of entries.sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1))) out[String(k)] = toPlain(x);
  return out;
}

/** A sort key for a row that ignores float noise below 9 significant digits. */
function key(v: Plain): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isInteger(x) ? Number(x.toPrecision(9)) : x));
}

/** Rows as plain values, sorted canonically unless their order is part of the answer. */
export function normaliseRows(rows: readonly Row[], ordered: boolean): Plain[] {
  const out = rows.map((r) => toPlain(r));
  if (!ordered) {
    const keyed = out.map((r) => [key(r), r] as const);
    keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return keyed.map((k) => k[1]);
  }
  return out;
}

/** Deep equality with a relative tolerance for numbers. */
export function same(a: Plain, b: Plain, tol = 1e-6): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a === b) return true;
    return Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => same(x, b[i], tol));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && same(a[k], b[k], tol));
  }
  return a === b;
}

/** A short human-readable form of an answer, for mismatch reports. */
export function preview(a: Plain, max = 160): string {
  const s = JSON.stringify(a);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

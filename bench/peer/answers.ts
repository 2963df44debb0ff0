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

/**
 * Whether two PageRank answers (`[id, share]` pairs, highest first; see `summarise`) agree.
 *
 * Why not the plain set of the ten highest: on kron-17 the 10th and 11th vertices differ by
 * 0.20 % (8th–13th: 0.08 %, 0.23 %, 0.16 %, 0.20 %, 0.37 %), so the set only agrees when
 * every engine has converged to better than that. graphology (and networkx) stop when the
 * summed change falls below n × tolerance, which with its default 1e-6 is a total change of
 * 0.13 on 131 072 vertices: three rounds, scores 5 % off, 10th and 11th swapped — the
 * DISAGREE of earlier reports. The engines' other difference does not matter for ranks:
 * 40 782 vertices have no edges, and whether their mass is spread over every vertex or
 * dropped scales all scores by one factor (hence shares). And an exact set check would call
 * two engines different over a genuine tie at the 10th place broken by float noise.
 *
 * So: the i-th highest shares must agree within `tol` for i = 1..10 (this catches an
 * unconverged run: its scores are off, whatever the ids), and a vertex in one engine's ten
 * but not the other's must tie the 10th within `tol` in both engines (it must be in the
 * other's list, its share there within `tol` of that engine's 10th). 0.1 % is far above the
 * error of a run converged to a total change of 1e-7 (1.8e-7 relative on the top scores)
 * and below the 0.2 % that separates the 10th and 11th here, so a swap there still counts.
 */
export function samePageRank(a: Plain, b: Plain, tol = 1e-3): boolean {
  const list = (x: Plain): [number, number][] | undefined =>
    Array.isArray(x) && x.every((p) => Array.isArray(p) && p.length === 2 && typeof p[0] === 'number' && typeof p[1] === 'number') ? (x as [number, number][]) : undefined;
  const la = list(a);
  const lb = list(b);
  if (la === undefined || lb === undefined) return same(a, b);
  const k = Math.min(10, la.length);
  if (lb.length < k) return false;
  const close = (x: number, y: number): boolean => Math.abs(x - y) <= tol * Math.max(Math.abs(x), Math.abs(y));
  for (let i = 0; i < k; i++) if (!close(la[i][1], lb[i][1])) return false;
  if (k === 0) return true;
  const tenthA = la[k - 1][1];
  const tenthB = lb[k - 1][1];
  const onlyIn = (x: [number, number][], y: [number, number][], tenthX: number, tenthY: number): boolean => {
    const topY = new Set(y.slice(0, k).map((p) => p[0]));
    for (const [id, share] of x.slice(0, k)) {
      if (topY.has(id)) continue;
      const there = y.find((p) => p[0] === id);
      if (there === undefined || !close(share, tenthX) || !close(there[1], tenthY)) return false;
    }
    return true;
  };
  return onlyIn(la, lb, tenthA, tenthB) && onlyIn(lb, la, tenthB, tenthA);
}

/** A short human-readable form of an answer, for mismatch reports. */
export function preview(a: Plain, max = 160): string {
  const s = JSON.stringify(a);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/**
 * Property statistics for the planner's estimate of a `YIELD … WHERE` filter on a
 * retrieval search (`Statistics.propertySelectivity`): the fraction of a label's nodes (or
 * a type's relationships) whose property compares to a value in a given way. A property
 * index on (label, key) answers exactly from its per-value id sets; otherwise a sample of
 * the label's entities at fixed pseudo-random positions is read. A parameter's value is unknown when
 * planning (plans are cached by query text): equality is then one over the number of
 * distinct values, and ranges have no statistic (the caller's fixed guess applies).
 */

import type { Value } from '../../runtime/values.js';
import { FloatBox } from '../../runtime/values.js';
import { compare, equals } from '../../runtime/compare.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import type { PropertyTest, PropertyEstimate, PlanLiteral } from '../planner/context.js';

/** Entities read when there is no property index: enough for a 1 % filter to be seen about 20 times. */
const SAMPLE = 2000;

/** A literal as the runtime holds it (integers are numbers, integral floats boxed). */
function runtimeValue(v: PlanLiteral): Value {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return new FloatBox(v);
  return v as Value;
}

function passes(value: Value | undefined, test: PropertyTest, target: Value): boolean {
  if (test === 'isNull') return value === undefined || value === null;
  if (test === 'isNotNull') return value !== undefined && value !== null;
  if (value === undefined || value === null) return false;
  if (test === '=') return equals(value, target) === true;
  if (test === '<>') return equals(value, target) === false;
  const c = compare(value, target);
  if (c === null || Number.isNaN(c)) return false;
  return test === '<' ? c < 0 : test === '<=' ? c <= 0 : test === '>' ? c > 0 : c >= 0;
}

/** Pseudo-random positions in [0, total), the same on every call (mulberry32 with a fixed seed). */
function seededPositions(total: number): (i: number) => number {
  let s = 0x9e3779b9;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * total);
  };
}

export function propertySelectivity(
  graph: Graph,
  schema: Schema,
  entity: 'node' | 'relationship',
  label: string,
  key: string,
  test: PropertyTest,
  literal: PlanLiteral | undefined,
): PropertyEstimate | undefined {
  const ids = entity === 'node' ? graph.labelSet(label) : graph.typeSet(label);
  const total = ids?.length ?? 0;
  if (!ids || total === 0) return undefined;
  const known = literal !== undefined;
  const target = known ? runtimeValue(literal) : null;
  const index = entity === 'node' && schema.hasIndex(label, key) ? schema.index(label, key) : undefined;
  if (index) {
    const basis = `property index on :${label}(${key})`;
    if (test === 'isNotNull' || test === 'isNull') return { fraction: test === 'isNull' ? 1 - index.size / total : index.size / total, basis };
    if (!known) return test === '=' ? { fraction: index.size / total / Math.max(1, index.distinctValues), basis } : undefined;
    if (test === '=' || test === '<>') {
      const n = index.count(target);
      return { fraction: test === '=' ? n / total : (index.size - n) / total, basis };
    }
    let n = 0;
    const lower = test === '>' || test === '>=' ? target : null;
    const upper = test === '<' || test === '<=' ? target : null;
    const matches = index.range(lower, test === '>=', upper, test === '<=');
    for (let r = matches.next(); !r.done; r = matches.next()) n++;
    return { fraction: n / total, basis };
  }
  // Positions drawn by a fixed-seed generator (evenly spaced ones would alias with periodic data).
  const draws = Math.min(SAMPLE, total);
  const position = total <= SAMPLE ? (i: number): number => i : seededPositions(total);
  let sampled = 0;
  let hits = 0;
  const distinct = new Set<unknown>();
  for (let i = 0; i < draws; i++) {
    const id = ids.ids[position(i)];
    const e = entity === 'node' ? graph.nodeAt(id) : graph.relAt(id);
    if (!e || e.deleted) continue;
    sampled++;
    const value = e.prop(key);
    if (known || test === 'isNull' || test === 'isNotNull') {
      if (passes(value, test, target)) hits++;
    } else if (value !== undefined && value !== null) {
      hits++;
      distinct.add(typeof value === 'object' ? JSON.stringify(value) : value);
    }
  }
  if (sampled === 0) return undefined;
  const basis = total <= SAMPLE ? `all ${total} :${label} ${entity}s` : `a sample of ${sampled} of ${total} :${label} ${entity}s`;
  if (known || test === 'isNull' || test === 'isNotNull') return { fraction: hits / sampled, basis };
  return test === '=' ? { fraction: hits / sampled / Math.max(1, distinct.size), basis } : undefined;
}

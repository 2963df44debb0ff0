/**
 * Observation classes, the data model's trust vocabulary. Any node or relationship may carry:
 *
 * - `observation_class`: `observed` | `inferred` | `predicted` (absent = `observed`);
 * - `confidence`: a number in [0, 1] (absent = 1.0);
 * - provenance: `source` (where the fact came from) and `observed_at` (when);
 * - for inferred facts: `evidence` (element ids of the facts it was derived from) and `rule`.
 *
 * This module owns the names, the defaults, the class weights used by ranking, and the
 * readers every other module uses (validation, functions, procedures, graph_rag).
 */

import { isNumber, toJsNumber, type Value } from '../../runtime/values.js';
import { ConstraintError } from '../errors.js';

export type ObservationClass = 'observed' | 'inferred' | 'predicted';

export const OBSERVATION_CLASSES: readonly ObservationClass[] = ['observed', 'inferred', 'predicted'];

/** The property keys the model reserves. */
export const CLASS_KEY = 'observation_class';
export const CONFIDENCE_KEY = 'confidence';
export const SOURCE_KEY = 'source';
export const OBSERVED_AT_KEY = 'observed_at';
export const EVIDENCE_KEY = 'evidence';
export const RULE_KEY = 'rule';

/** Ranking weight per class: of two equally relevant, equally confident facts the observed one wins. */
export const DEFAULT_CLASS_WEIGHTS: Readonly<Record<ObservationClass, number>> = { observed: 1, inferred: 0.8, predicted: 0.6 };

export const CLASS_DESCRIPTIONS: Readonly<Record<ObservationClass, string>> = {
  observed: 'Recorded from a source as seen (the default when a fact carries no class)',
  inferred: 'Derived by a rule from other facts; keeps links to its evidence',
  predicted: 'Forecast by a model; not yet seen',
};

/** Order for ties: observed first. */
export const CLASS_RANK: Readonly<Record<ObservationClass, number>> = { observed: 0, inferred: 1, predicted: 2 };

/** A write that gives an observation property a value the model does not allow. */
export class ObservationValueError extends ConstraintError {
  constructor(message: string, detail: 'InvalidObservationClass' | 'InvalidConfidence') {
    super(message, detail);
  }
}

export function isObservationClass(v: unknown): v is ObservationClass {
  return v === 'observed' || v === 'inferred' || v === 'predicted';
}

/**
 * The reason `value` is not allowed under `key`, or undefined when it is (null removes the key:
 * always allowed). Only the class and the confidence are checked: `source` is too common a
 * property name (edge lists, ETL) to refuse non-string values; those just read as no provenance.
 */
export function observationProblem(key: string, value: Value): { detail: 'InvalidObservationClass' | 'InvalidConfidence'; why: string } | undefined {
  if (value === null || value === undefined) return undefined;
  switch (key) {
    case CLASS_KEY:
      return isObservationClass(value)
        ? undefined
        : { detail: 'InvalidObservationClass', why: `observation_class must be one of ${OBSERVATION_CLASSES.join(', ')}, got ${show(value)}` };
    case CONFIDENCE_KEY: {
      if (!isNumber(value)) return { detail: 'InvalidConfidence', why: `confidence must be a number in [0, 1], got ${show(value)}` };
      const n = toJsNumber(value);
      return n >= 0 && n <= 1 ? undefined : { detail: 'InvalidConfidence', why: `confidence must be in [0, 1], got ${n}` };
    }
    default:
      return undefined;
  }
}

function show(v: Value): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 60 ? v.slice(0, 60) + '…' : v);
  if (Array.isArray(v)) return 'a list';
  if (v instanceof Map) return 'a map';
  return typeof v === 'object' && v !== null ? (v.constructor?.name ?? 'a value') : String(v);
}

/** The trust a fact carries, read from its properties. */
export interface Observation {
  observationClass: ObservationClass;
  confidence: number;
  source: string | null;
  /** Milliseconds since the epoch, when `observed_at` is a readable instant. */
  observedAt: number | null;
}

type PropReader = (key: string) => Value | undefined;

/**
 * The class and confidence alone (two property reads instead of four): what a path carries
 * along (graph_rag's expansion reads it for every relationship it crosses).
 */
export function readTrust(prop: PropReader): Pick<Observation, 'observationClass' | 'confidence'> {
  const c = prop(CLASS_KEY);
  const observationClass = isObservationClass(c) ? c : 'observed';
  const rawConfidence = prop(CONFIDENCE_KEY);
  const n = rawConfidence !== undefined && rawConfidence !== null && isNumber(rawConfidence) ? toJsNumber(rawConfidence) : NaN;
  const confidence = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
  return { observationClass, confidence };
}

/** When a fact was observed (`observed_at` as milliseconds since the epoch), or null: one property read. */
export function readObservedAt(prop: PropReader): number | null {
  return instantOf(prop(OBSERVED_AT_KEY));
}

/** Reads an entity's (or map's) observation; values written before validation existed fall back to the defaults. */
export function readObservation(prop: PropReader): Observation {
  const { observationClass, confidence } = readTrust(prop);
  const s = prop(SOURCE_KEY);
  const source = typeof s === 'string' ? s : Array.isArray(s) ? s.filter((x) => typeof x === 'string').join(', ') : null;
  return { observationClass, confidence, source, observedAt: instantOf(prop(OBSERVED_AT_KEY)) };
}

/** Milliseconds since the epoch of a temporal value or an ISO-8601 string; null when unreadable. */
function instantOf(v: Value | undefined): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isFinite(t) ? t : null;
  }
  if (typeof v === 'object' && 'toString' in v) {
    const t = Date.parse(String(v));
    return Number.isFinite(t) ? t : null;
  }
  return null;
}

/** The element ids an inferred fact names as its evidence. */
export function evidenceIds(prop: PropReader): string[] {
  const v = prop(EVIDENCE_KEY);
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

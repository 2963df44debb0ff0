/**
 * How graph_rag reads the trust a node carries, from its properties:
 *
 * - `observation_class` (or `observationClass`): `observed`, `inferred` or `predicted`, any
 *   letter case; missing or anything else counts as `observed` (a stored fact nobody marked
 *   as derived).
 * - `confidence`: a number, or a string holding one, in [0, 1]; values in (1, 100] are read
 *   as percentages; the result is clamped to [0, 1]. Missing or unreadable, it defaults by
 *   class: observed 1.0, inferred 0.7, predicted 0.5.
 *
 * Ranking weighs each class (observed 1.0 > inferred 0.8 > predicted 0.6) on top of the
 * confidence, so that of two equally relevant, equally confident nodes the observed one wins.
 */

import { FloatBox, type Value } from '../../../runtime/values.js';

export type ObservationClass = 'observed' | 'inferred' | 'predicted';

export const OBSERVATION_CLASSES: readonly ObservationClass[] = ['observed', 'inferred', 'predicted'];

const DEFAULT_CONFIDENCE: Readonly<Record<ObservationClass, number>> = { observed: 1, inferred: 0.7, predicted: 0.5 };
export const CLASS_WEIGHT: Readonly<Record<ObservationClass, number>> = { observed: 1, inferred: 0.8, predicted: 0.6 };
/** Order for ties: observed first. */
export const CLASS_RANK: Readonly<Record<ObservationClass, number>> = { observed: 0, inferred: 1, predicted: 2 };

export interface Evidence {
  observationClass: ObservationClass;
  confidence: number;
}

function numberOf(v: Value | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof FloatBox) return v.value;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim().replace(/%$/, ''));
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function readObservationClass(props: ReadonlyMap<string, Value>): ObservationClass {
  const raw = props.get('observation_class') ?? props.get('observationClass');
  if (typeof raw !== 'string') return 'observed';
  const c = raw.trim().toLowerCase();
  return c === 'inferred' || c === 'predicted' || c === 'observed' ? c : 'observed';
}

/** A confidence in [0, 1], or undefined when the value is not a readable number. */
export function readConfidence(v: Value | undefined): number | undefined {
  const n = numberOf(v);
  if (n === undefined || Number.isNaN(n)) return undefined;
  const scaled = n > 1 && n <= 100 ? n / 100 : n;
  return Math.min(1, Math.max(0, scaled));
}

export function readEvidence(props: ReadonlyMap<string, Value>): Evidence {
  const observationClass = readObservationClass(props);
  const confidence = readConfidence(props.get('confidence')) ?? DEFAULT_CONFIDENCE[observationClass];
  return { observationClass, confidence };
}

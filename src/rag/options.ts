/**
 * graph_rag's options, as the procedures and MCP take them (a map): each is checked and
 * bounded so no caller can make a retrieval unbounded in time or size.
 *
 *   k            results returned, 1 … 100 (default 10)
 *   hops         expansion depth from the seeds, 0 … 4 (default 2)
 *   fanout       relationships followed from one node per step, 1 … 1000 (default 50)
 *   seeds        seeds expanded, 1 … 50 (default 10)
 *   deadline     time budget in milliseconds, 1 … 60000 (default 2000): stages still to run
 *                when it is spent are skipped and the answer says so
 *   relWeights   {TYPE: weight ≥ 0}: how strongly a relationship type carries relevance
 *                (default 1; 0 means "do not follow")
 *   classWeights {observed, inferred, predicted}: ranking weights (default 1, 0.8, 0.5)
 *   sources      seed sources, from value, name, fulltext, text, vector (default value, name,
 *                fulltext, vector; fulltext falls back to the text scan on a graph without a full-text index)
 *   targets      whether question words pick target labels, types and properties, and walk
 *                the relation phrases they name as a path (default true)
 *   targetSimilarity  how similar (cosine, 0 … 1) the embedding of the asked words ("which
 *                employer") must be to a label, type or key name's to make it a target
 *                (default 0.7; above 1 — e.g. 2 — turns matching by embeddings off)
 */

import { isNumber, toJsNumber, type Value } from '../../runtime/values.js';
import { ArgumentError, ValueTypeError } from '../errors.js';
import { isObservationClass, type ObservationClass } from '../observation/model.js';

export interface RagOptions {
  k: number;
  hops: number;
  fanout: number;
  seeds: number;
  deadlineMs: number;
  relWeights: ReadonlyMap<string, number>;
  classWeights: Readonly<Record<ObservationClass, number>>;
  sources: ReadonlySet<SeedSourceName>;
  targets: boolean;
  targetSimilarity: number;
}

export const SEED_SOURCES = ['value', 'name', 'fulltext', 'text', 'vector'] as const;
export type SeedSourceName = (typeof SEED_SOURCES)[number];

/**
 * Confidence enters the score as 0.5 + 0.5 × confidence (in [0.5, 1]) and predicted weighs
 * half of observed, so at equal relevance a predicted fact never outranks an observed one,
 * whatever their confidences; an inferred fact (0.8) can outrank a weakly confident observed
 * one. The guarantee holds for any weights with predicted ≤ observed / 2.
 */
export const RANKING_CLASS_WEIGHTS: Readonly<Record<ObservationClass, number>> = { observed: 1, inferred: 0.8, predicted: 0.5 };

export const DEFAULT_RAG_OPTIONS: RagOptions = {
  k: 10,
  hops: 2,
  fanout: 50,
  seeds: 10,
  deadlineMs: 2000,
  relWeights: new Map(),
  classWeights: RANKING_CLASS_WEIGHTS,
  sources: new Set<SeedSourceName>(['value', 'name', 'fulltext', 'vector']),
  targets: true,
  targetSimilarity: 0.7,
};

const BOUNDS: Record<'k' | 'hops' | 'fanout' | 'seeds' | 'deadline', [number, number]> = {
  k: [1, 100],
  hops: [0, 4],
  fanout: [1, 1000],
  seeds: [1, 50],
  deadline: [1, 60000],
};

function integerIn(proc: string, key: keyof typeof BOUNDS, v: Value): number {
  const [lo, hi] = BOUNDS[key];
  if (!isNumber(v) || !Number.isInteger(toJsNumber(v)) || toJsNumber(v) < lo || toJsNumber(v) > hi) {
    throw new ArgumentError(`${proc}: option \`${key}\` must be an integer from ${lo} to ${hi}`, 'InvalidArgumentValue');
  }
  return toJsNumber(v);
}

function weightMap(proc: string, key: string, v: Value): Map<string, number> {
  if (!(v instanceof Map)) throw new ValueTypeError(`${proc}: option \`${key}\` must be a map of names to weights`, 'InvalidArgumentType');
  const out = new Map<string, number>();
  for (const [name, w] of v) {
    if (!isNumber(w) || !(toJsNumber(w) >= 0) || !Number.isFinite(toJsNumber(w))) {
      throw new ArgumentError(`${proc}: option \`${key}\`: the weight of ${name} must be a finite number ≥ 0`, 'InvalidArgumentValue');
    }
    out.set(name, toJsNumber(w));
  }
  return out;
}

export function ragOptions(proc: string, config: Value): RagOptions {
  if (config === null || config === undefined) return DEFAULT_RAG_OPTIONS;
  if (!(config instanceof Map)) throw new ValueTypeError(`${proc}: the options must be a map`, 'InvalidArgumentType');
  const out: RagOptions = { ...DEFAULT_RAG_OPTIONS };
  for (const [key, v] of config) {
    if (v === null) continue;
    switch (key) {
      case 'k':
      case 'limit':
        out.k = integerIn(proc, 'k', v);
        break;
      case 'hops':
        out.hops = integerIn(proc, 'hops', v);
        break;
      case 'fanout':
        out.fanout = integerIn(proc, 'fanout', v);
        break;
      case 'seeds':
        out.seeds = integerIn(proc, 'seeds', v);
        break;
      case 'deadline':
        out.deadlineMs = integerIn(proc, 'deadline', v);
        break;
      case 'relWeights':
        out.relWeights = weightMap(proc, key, v);
        break;
      case 'classWeights': {
        const given = weightMap(proc, key, v);
        const weights = { ...RANKING_CLASS_WEIGHTS };
        for (const [name, w] of given) {
          if (!isObservationClass(name)) throw new ArgumentError(`${proc}: option \`classWeights\` names an unknown class ${name}`, 'InvalidArgumentValue');
          weights[name] = w;
        }
        out.classWeights = weights;
        break;
      }
      case 'sources': {
        const names = Array.isArray(v) ? v : [v];
        if (names.length === 0 || names.some((n) => typeof n !== 'string' || !(SEED_SOURCES as readonly string[]).includes(n))) {
          throw new ArgumentError(`${proc}: option \`sources\` must be a non-empty list of ${SEED_SOURCES.join(', ')}`, 'InvalidArgumentValue');
        }
        out.sources = new Set(names as SeedSourceName[]);
        break;
      }
      case 'targetSimilarity':
        if (!isNumber(v) || !(toJsNumber(v) >= 0 && toJsNumber(v) <= 2)) {
          throw new ArgumentError(`${proc}: option \`targetSimilarity\` must be a number from 0 to 2 (above 1: no matching by embeddings)`, 'InvalidArgumentValue');
        }
        out.targetSimilarity = toJsNumber(v);
        break;
      case 'targets':
        if (typeof v !== 'boolean') throw new ValueTypeError(`${proc}: option \`targets\` must be a boolean`, 'InvalidArgumentType');
        out.targets = v;
        break;
      default:
        throw new ArgumentError(
          `${proc}: unknown option \`${key}\`; the options are k, hops, fanout, seeds, deadline, relWeights, classWeights, sources, targets, targetSimilarity`,
          'InvalidArgumentValue',
        );
    }
  }
  return out;
}

/**
 * Vector index settings: reading `indexConfig` (Neo4j's `vector.dimensions`,
 * `vector.similarity_function`, `vector.hnsw.m`, `vector.hnsw.ef_construction`, and
 * graphdb's `vector.hnsw.ef_search`) into a checked `VectorIndexConfig`, and back from the
 * persisted definition.
 */

import { QuerySemanticError } from '../errors.js';
import type { OptionValue } from '../engine/index-options.js';
import type { ExtensionIndexDef } from '../store/schema.js';
import type { VectorIndexConfig } from './hnsw-index.js';
import { SIMILARITIES, type Similarity } from './similarity.js';

export const VECTOR_INDEX_TYPE = 'VECTOR';
const MAX_DIMENSIONS = 4096;

function intSetting(config: Record<string, OptionValue>, key: string, fallback: number | undefined, min: number, max: number): number {
  const v = config[key];
  if (v === undefined || v === null) {
    if (fallback === undefined) throw new QuerySemanticError(`A vector index needs \`${key}\` in its indexConfig`, 'InvalidIndexOptions');
    return fallback;
  }
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new QuerySemanticError(`\`${key}\` must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`, 'InvalidIndexOptions');
  }
  return v;
}

/** Checks the user's settings; unknown `vector.*` settings are errors (a typo would otherwise go unnoticed). */
export function vectorConfigFrom(config: Record<string, OptionValue>): VectorIndexConfig {
  const known = new Set(['vector.dimensions', 'vector.similarity_function', 'vector.hnsw.m', 'vector.hnsw.ef_construction', 'vector.hnsw.ef_search', 'vector.quantization.enabled']);
  for (const key of Object.keys(config)) {
    if (!known.has(key)) throw new QuerySemanticError(`Unknown vector index setting \`${key}\``, 'InvalidIndexOptions');
  }
  const fn = config['vector.similarity_function'] ?? 'cosine';
  const similarity = typeof fn === 'string' ? (fn.toLowerCase() as Similarity) : undefined;
  if (similarity === undefined || !SIMILARITIES.includes(similarity)) {
    throw new QuerySemanticError(`\`vector.similarity_function\` must be one of ${SIMILARITIES.map((s) => `'${s}'`).join(', ')}, got ${JSON.stringify(fn)}`, 'InvalidIndexOptions');
  }
  return {
    dimensions: intSetting(config, 'vector.dimensions', undefined, 1, MAX_DIMENSIONS),
    similarity,
    m: intSetting(config, 'vector.hnsw.m', 16, 2, 512),
    efConstruction: intSetting(config, 'vector.hnsw.ef_construction', 100, 1, 3200),
    // Optional, and only then in the persisted definition: definitions (and saved index files) without it stay as they were.
    ...(config['vector.hnsw.ef_search'] === undefined || config['vector.hnsw.ef_search'] === null
      ? {}
      : { efSearch: intSetting(config, 'vector.hnsw.ef_search', undefined, 1, 10_000) }),
  };
}

export function vectorDefinition(
  name: string,
  entity: 'node' | 'relationship',
  labelOrType: string,
  property: string,
  config: VectorIndexConfig,
): ExtensionIndexDef {
  return {
    type: VECTOR_INDEX_TYPE,
    name,
    entity,
    labelsOrTypes: [labelOrType],
    properties: [property],
    options: {
      'vector.dimensions': config.dimensions,
      'vector.similarity_function': config.similarity,
      'vector.hnsw.m': config.m,
      'vector.hnsw.ef_construction': config.efConstruction,
      ...(config.efSearch === undefined ? {} : { 'vector.hnsw.ef_search': config.efSearch }),
    },
  };
}

/** The settings a persisted definition holds (written by `vectorDefinition`). */
export function vectorConfigOf(def: ExtensionIndexDef): VectorIndexConfig {
  return vectorConfigFrom(def.options);
}

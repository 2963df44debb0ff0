/**
 * The similarity functions and the score conventions vector indexes report, defined as
 * Neo4j 5 documents them so that scores lie in [0, 1] with 1 the most similar:
 * cosine → (1 + cos θ) / 2; euclidean → 1 / (1 + d²). `dot` (our addition, for
 * vectors that are already normalised) reports the raw inner product.
 */

import type { Value } from '../../runtime/values.js';
import { ArgumentError } from '../errors.js';
import { pure } from '../../functions/define.js';
import { fl, type FunctionDef } from '../../functions/types.js';
import { requireVector } from './vectors.js';

export type Similarity = 'cosine' | 'euclidean' | 'dot';

export const SIMILARITIES: readonly Similarity[] = ['cosine', 'euclidean', 'dot'];

function dotOf(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

function squaredDistance(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    s += d * d;
  }
  return s;
}

/** The score of `b` against `a`; null for cosine when either has zero length (no direction). */
export function similarityScore(kind: Similarity, a: Float32Array, b: Float32Array): number | null {
  switch (kind) {
    case 'euclidean':
      return 1 / (1 + squaredDistance(a, b));
    case 'dot':
      return dotOf(a, b);
    case 'cosine': {
      const norms = dotOf(a, a) * dotOf(b, b);
      if (norms === 0) return null;
      // One square root of the product, not a product of two: vectors along one direction then score exactly 1.
      const cos = Math.max(-1, Math.min(1, dotOf(a, b) / Math.sqrt(norms)));
      return (1 + cos) / 2;
    }
  }
}

/** hnswlib's distance for `kind` turned into the score above. */
export function scoreFromDistance(kind: Similarity, distance: number): number {
  switch (kind) {
    case 'euclidean':
      return 1 / (1 + distance); // l2 space: squared distance
    case 'dot':
      return 1 - distance; // ip space: 1 − a·b
    case 'cosine':
      return Math.max(0, Math.min(1, 1 - distance / 2)); // cosine space: 1 − cos θ
  }
}

function pairFunction(kind: Similarity): FunctionDef {
  const name = `vector.similarity.${kind}`;
  const description =
    kind === 'cosine' ? 'Cosine similarity of two vectors, scaled to [0, 1]: (1 + cos θ) / 2.' : 'Euclidean similarity of two vectors: 1 / (1 + squared distance).';
  return pure(name, 'vector', [2, 2], description, (a: Value = null, b: Value = null) => {
    if (a === null || b === null) return null;
    const va = requireVector(a, `${name}() argument 1`);
    const vb = requireVector(b, `${name}() argument 2`);
    if (va.length !== vb.length) {
      throw new ArgumentError(`${name}() needs vectors of equal dimension, got ${va.length} and ${vb.length}`, 'VectorDimensionMismatch');
    }
    const score = similarityScore(kind, va, vb);
    return score === null ? null : fl(score);
  });
}

export const similarityFunctions: FunctionDef[] = [pairFunction('cosine'), pairFunction('euclidean')];

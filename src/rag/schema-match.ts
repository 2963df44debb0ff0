/**
 * graph_rag's schema targeting by meaning: the words a question asks for ("which
 * **employer**…", "what **time zone**…") are embedded with the database's embedder and
 * compared with the embeddings of the graph's label, relationship type and property key names
 * (as words: `WORKS_AT` → "works at", `time_zone` → "time zone"), so a question can name a
 * label by a word that is not its name. question.ts combines these scores with its word
 * matches (a word match scores 1).
 *
 * Name embeddings are cached per embedder; the cache is bounded. Everything here is a pure
 * function of the question, the names and the embedder, so results are deterministic.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import { similarityScore } from '../vector/similarity.js';

export type TargetKind = 'label' | 'type' | 'property';

export interface TargetMatch {
  kind: TargetKind;
  name: string;
  /** 1 for a word match; the cosine similarity for an embedding match. */
  score: number;
  /**
   * `locative`: a label "where" asks for as the far end of a type named with a preposition of place (schema-routes.ts);
   * `value`: the label of the node holding the value the question gives, asked in place of a label named by learnt words only (weak-labels.ts).
   */
  by: 'words' | 'lexicon' | 'embedding' | 'locative' | 'value';
}

/** Most schema names compared per question (a graph with very many property keys stays bounded). */
export const MAX_EMBEDDED_NAMES = 1000;
/** Name embeddings kept per embedder before the cache starts over. */
const CACHE_LIMIT = 20_000;

const caches = new WeakMap<EmbeddingProvider, Map<string, Float32Array>>();

/** Plain cosine in [-1, 1] (the vector module reports it as (1 + cos) / 2); 0 for a zero vector. */
function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  const score = similarityScore('cosine', a, b);
  return score === null ? 0 : 2 * score - 1;
}

/** Embeddings of `texts` (name word forms), from the cache where it has them. */
function embedNames(embedding: EmbeddingProvider, texts: readonly string[]): Float32Array[] {
  let cache = caches.get(embedding);
  if (!cache) caches.set(embedding, (cache = new Map()));
  const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
  if (missing.length > 0) {
    if (cache.size + missing.length > CACHE_LIMIT) cache.clear();
    const vectors = embedding.encode(missing, null, null);
    missing.forEach((t, i) => cache.set(t, vectors[i]));
  }
  return texts.map((t) => cache.get(t) as Float32Array);
}

/** The phrases to embed from the asked words: every run of adjacent words ("time", "zone", "time zone"). */
export function askedPhrases(asked: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < asked.length; i++) for (let j = i + 1; j <= asked.length; j++) out.push(asked.slice(i, j).join(' '));
  return out;
}

/**
 * Each candidate's best similarity to any asked phrase, for the candidates at or above
 * `threshold`. `candidates` carry the words their name reads as.
 */
export function embeddingMatches(
  embedding: EmbeddingProvider,
  asked: readonly string[],
  candidates: readonly { kind: TargetKind; name: string; words: string }[],
  threshold: number,
): TargetMatch[] {
  const phrases = askedPhrases(asked);
  if (phrases.length === 0 || candidates.length === 0) return [];
  const limited = candidates.slice(0, MAX_EMBEDDED_NAMES);
  const phraseVectors = embedding.encode(phrases, null, null);
  const nameVectors = embedNames(embedding, limited.map((c) => c.words));
  const out: TargetMatch[] = [];
  limited.forEach((c, i) => {
    let best = 0;
    for (const p of phraseVectors) best = Math.max(best, cosine(p, nameVectors[i]));
    if (best >= threshold) out.push({ kind: c.kind, name: c.name, score: best, by: 'embedding' });
  });
  return out;
}

/**
 * The built-in embedder: no model file, no network, the same vector for the same text on
 * every machine. Features are the text's lower-cased words, adjacent word pairs and the
 * character trigrams of each word (so related word forms share features); each feature is
 * hashed with a fixed seed to a few signed coordinates — a seeded sparse random projection
 * of the feature space — and the sum is normalised to unit length. Texts sharing words and
 * word parts get high cosine similarity; it knows nothing of meaning beyond that.
 */

import type { Embedder } from './types.js';

const SEED = 0x9e3779b9;
/** Coordinates each feature touches. */
const SPREAD = 4;

/** 32-bit FNV-1a over the UTF-16 code units of `s`, from `seed`. */
function fnv1a(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A further mix so successive coordinates of one feature are independent. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

export class HashingEmbedder implements Embedder {
  readonly provider = 'hash';
  readonly model = 'graphdb-hash-ngrams';
  readonly executionProvider = 'js';

  constructor(readonly dimensions = 384) {}

  private add(out: Float32Array, feature: string, weight: number): void {
    let h = fnv1a(feature, SEED);
    for (let i = 0; i < SPREAD; i++) {
      h = mix(h + i);
      const sign = h & 1 ? 1 : -1;
      out[(h >>> 1) % this.dimensions] += sign * weight;
    }
  }

  embedOne(text: string): Float32Array {
    const out = new Float32Array(this.dimensions);
    const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      this.add(out, 'w:' + w, 1);
      if (i + 1 < words.length) this.add(out, 'b:' + w + ' ' + words[i + 1], 0.5);
      const padded = `<${w}>`;
      for (let j = 0; j + 3 <= padded.length; j++) this.add(out, 'c:' + padded.slice(j, j + 3), 0.35);
    }
    let norm = 0;
    for (let i = 0; i < out.length; i++) norm += out[i] * out[i];
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < out.length; i++) out[i] /= norm;
    return out;
  }

  embed(texts: readonly string[]): Float32Array[] {
    return texts.map((t) => this.embedOne(t));
  }
}

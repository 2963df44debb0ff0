/**
 * Text analyzers for full-text indexes: each turns a string into the terms that are indexed
 * and searched (the same analyzer runs on documents and on query terms). Names follow the
 * analyzers Neo4j users pick most: `standard` (Unicode words, lower-cased, no stop words,
 * Neo4j 5's default), `english` (also drops English stop words and strips plural and
 * possessive endings), `simple` (letter runs, lower-cased), `whitespace` (split on white
 * space, case kept), `keyword` (the whole value as one term).
 */

import { ArgumentError } from '../errors.js';

export interface Analyzer {
  name: string;
  description: string;
  stopwords: readonly string[];
  /** The terms of `text`, in order (their positions are their indexes). */
  terms(text: string): string[];
}

const ENGLISH_STOP_WORDS = [
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or',
  'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
];

const WORD = /[\p{L}\p{N}\p{M}_]+(?:['’.][\p{L}\p{N}\p{M}_]+)*/gu;

function words(text: string): string[] {
  return (text.match(WORD) ?? []).map((w) => w.toLowerCase());
}

/** A light English stemmer: possessives and the common plural endings only, so that stems stay recognisable. */
function stemEnglish(w: string): string {
  if (w.endsWith("'s") || w.endsWith('’s')) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (w.length > 4 && (w.endsWith('ses') || w.endsWith('xes') || w.endsWith('ches') || w.endsWith('shes'))) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) return w.slice(0, -1);
  return w;
}

const stop = new Set(ENGLISH_STOP_WORDS);

/** FNV-1a's constants, as term-dictionary.ts `hashTerm` uses them (a test checks the two hashes agree). */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** Whether an ASCII code unit (already lower-cased) can be part of a standard word: [0-9a-z_]. */
function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * The standard analyzer's terms of an ASCII text as ranges of its lower-cased form, found
 * by one scan of its code units: the same words as `WORD` (runs of letters, digits and `_`,
 * joined by a single `'` or `.` between two of them), without a regular expression or a
 * string per word, and hashed as they are scanned, so that the index can look each one up
 * in place (term-dictionary.ts, whose `hashTerm` this hash equals). Reused from text to text.
 */
export class AsciiWords {
  /** The lower-cased text the ranges index. */
  lower = '';
  /** `count` triples of [start, end, hash]. */
  words = new Int32Array(96);
  count = 0;

  /** Records the words of `text`; false when it has a non-ASCII character (the words are then `terms`'). */
  scan(text: string): boolean {
    const lower = (this.lower = text.toLowerCase());
    const n = lower.length;
    let count = 0;
    let i = 0;
    while (i < n) {
      let c = lower.charCodeAt(i);
      if (c > 0x7f) return false;
      if (!isWordChar(c)) {
        i++;
        continue;
      }
      const start = i;
      let h = FNV_OFFSET;
      for (;;) {
        h = Math.imul(h ^ c, FNV_PRIME);
        if (++i >= n) break; // (never read past the end: that deoptimises the loop)
        c = lower.charCodeAt(i);
        if (isWordChar(c)) continue;
        if ((c === 39 || c === 46) && i + 1 < n && isWordChar(lower.charCodeAt(i + 1))) continue;
        break;
      }
      if (3 * count + 3 > this.words.length) {
        const grown = new Int32Array(this.words.length * 2);
        grown.set(this.words);
        this.words = grown;
      }
      this.words[3 * count] = start;
      this.words[3 * count + 1] = i;
      this.words[3 * count + 2] = h;
      count++;
    }
    this.count = count;
    return true;
  }
}

export const ANALYZERS: readonly Analyzer[] = [
  { name: 'standard', description: 'Unicode word boundaries, lower-cased; keeps stop words.', stopwords: [], terms: words },
  {
    name: 'english',
    description: 'Like standard, then drops English stop words and plural / possessive endings.',
    stopwords: ENGLISH_STOP_WORDS,
    terms: (t) => words(t).filter((w) => !stop.has(w)).map(stemEnglish),
  },
  { name: 'simple', description: 'Runs of letters, lower-cased.', stopwords: [], terms: (t) => (t.match(/\p{L}+/gu) ?? []).map((w) => w.toLowerCase()) },
  { name: 'whitespace', description: 'Splits on white space; case is kept.', stopwords: [], terms: (t) => t.split(/\s+/u).filter((w) => w.length > 0) },
  { name: 'keyword', description: 'The whole value as one term, unchanged.', stopwords: [], terms: (t) => (t.length > 0 ? [t] : []) },
];

export function analyzer(name: string): Analyzer {
  const found = ANALYZERS.find((a) => a.name === name.toLowerCase());
  if (!found) throw new ArgumentError(`Unknown full-text analyzer '${name}'; available: ${ANALYZERS.map((a) => a.name).join(', ')}`, 'InvalidIndexOptions');
  return found;
}

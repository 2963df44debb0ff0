/**
 * Text analyzers for full-text indexes: each turns a string into the terms that are indexed
 * and searched (the same analyzer runs on documents and on query terms). Names follow the
 * analyzers Neo4j users pick most: `standard` (Unicode words, lower-cased, no stop words,
 * Neo4j 5's default), `english` (also drops English stop words and strips plural and
 * possessive endings), `simple` (letter runs, lower-cased), `whitespace` (split on white
 * space, case kept), `keyword` (the whole value as one term).
 */

import { ArgumentError } from '../errors.js';
import { FNV_OFFSET, FNV_PRIME, lowerAscii, PACKED_MAX } from './term-dictionary.js';

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

/**
 * Per ASCII code unit: itself lower-cased when it can be part of a standard word
 * ([0-9A-Za-z_]), else 0. One load per character instead of a case test and a range test.
 */
const WORD_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const lower = lowerAscii(c);
  if ((lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57) || lower === 95) WORD_CHAR[c] = lower;
}
/** `'` and `.`: they join two words' characters into one word. */
const APOSTROPHE = 39;
const DOT = 46;

/** Numbers per word in `AsciiWords.words`. */
export const WORD_STRIDE = 5;

/**
 * The standard analyzer's terms of an ASCII text as ranges of the text itself, found by one
 * scan of its code units: the same words as `WORD` (runs of letters, digits and `_`, joined
 * by a single `'` or `.` between two of them), lower-cased as they are read, without a
 * regular expression, a lower-cased copy of the text or a string per word. Each word is
 * hashed as it is scanned and, when short, packed (two numbers holding its lower-cased code
 * units), so that the index can look it up without reading it again (term-dictionary.ts,
 * whose `hashTerm` and packing these equal). Reused from text to text.
 */
export class AsciiWords {
  /** The text the ranges index (as given: a word's terms are its range lower-cased). */
  text = '';
  /** `count` groups of WORD_STRIDE: [start, end, hash, lo, hi]; lo and hi pack a word of at most PACKED_MAX code units (hi is then not 0), else both are 0. */
  words = new Int32Array(32 * WORD_STRIDE);
  count = 0;

  /** Records the words of `text`; false when it has a non-ASCII character (the words are then `terms`'). */
  scan(text: string): boolean {
    this.text = text;
    const n = text.length;
    let count = 0;
    let i = 0;
    while (i < n) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) return false;
      let c = WORD_CHAR[code];
      if (c === 0) {
        i++;
        continue;
      }
      const start = i;
      let h = FNV_OFFSET;
      let lo = 0;
      let hi = 0;
      for (;;) {
        h = Math.imul(h ^ c, FNV_PRIME);
        const at = i - start;
        if (at < 4) lo |= c << (8 * at);
        else if (at < PACKED_MAX) hi |= c << (8 * (at - 4));
        if (++i >= n) break; // (never read past the end: that deoptimises the loop)
        const next = text.charCodeAt(i);
        c = next < 128 ? WORD_CHAR[next] : 0;
        if (c !== 0) continue;
        if ((next === APOSTROPHE || next === DOT) && i + 1 < n && text.charCodeAt(i + 1) < 128 && WORD_CHAR[text.charCodeAt(i + 1)] !== 0) {
          c = next;
          continue;
        }
        break;
      }
      const length = i - start;
      if (length <= PACKED_MAX) hi |= (length + 1) << 24;
      else lo = hi = 0;
      let words = this.words;
      const w = WORD_STRIDE * count;
      if (w + WORD_STRIDE > words.length) {
        words = new Int32Array(words.length * 2);
        words.set(this.words);
        this.words = words;
      }
      words[w] = start;
      words[w + 1] = i;
      words[w + 2] = h;
      words[w + 3] = lo;
      words[w + 4] = hi;
      count++;
    }
    this.count = count;
    return true;
  }

  /** Word `i` as a string (lower-cased): for a term the index has not seen, and for tests. */
  word(i: number): string {
    return this.text.slice(this.words[WORD_STRIDE * i], this.words[WORD_STRIDE * i + 1]).toLowerCase();
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

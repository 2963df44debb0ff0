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

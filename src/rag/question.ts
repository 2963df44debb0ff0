/**
 * What graph_rag reads from a question. The question is data only: it is cleaned (control
 * characters become spaces, the text is cut to MAX_QUESTION_CHARS) and split into words,
 * and those words are matched against names and the schema in memory. It is never placed
 * into query text, so no question can change what the engine runs.
 *
 * From the words come: search terms (folded, without stop words), the word n-grams exact
 * name matching compares node names with, and the schema targets: labels, relationship
 * types and property keys the question names ("which company…" → :Company, "what time
 * zone…" → the `time_zone` property, "who…" → person-like labels).
 */

import type { Graph } from '../store/graph.js';
import { questionTermWords } from './text-match.js';

/** Longest part of a question that is analysed; the rest is ignored (a question is not a document). */
export const MAX_QUESTION_CHARS = 2000;
/** Most distinct search terms used. */
const MAX_TERMS = 48;
/** Longest name (in words) exact name matching looks for. */
export const MAX_NAME_WORDS = 6;

const WORD = /[\p{L}\p{N}]+/gu;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g;

/** Labels a "who" question asks for. */
const PERSON_LABELS: ReadonlySet<string> = new Set(['person', 'people', 'user', 'author', 'employee', 'actor', 'member', 'customer', 'contact']);
/** Labels a "where" question asks for. */
const PLACE_LABELS: ReadonlySet<string> = new Set(['place', 'city', 'country', 'location', 'region', 'town', 'site', 'address']);
/** Labels a "when" question asks for. */
const TIME_LABELS: ReadonlySet<string> = new Set(['event', 'date', 'time', 'year', 'period']);

export interface AnalysedQuestion {
  /** The cleaned text that was analysed. */
  text: string;
  /** Whether the question was longer than what is analysed. */
  truncated: boolean;
  /** Folded search term → the word it came from. */
  terms: Map<string, string>;
  /** Lower-cased word sequences (1 … MAX_NAME_WORDS words) a node name may equal. */
  ngrams: Set<string>;
  /** Folded words of the question, stop words included, in order (for schema matching). */
  words: string[];
}

export interface SchemaTargets {
  labels: string[];
  types: string[];
  /** Property keys the question names, e.g. `time_zone` for "what time zones…". */
  keys: string[];
}

/** The words of a name or identifier: `TimeZone`, `time_zone`, `WORKS_AT` → time zone / works at. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** Lower-cased, punctuation-free form used to compare names: "Acme Corp." → "acme corp". */
export function nameKey(text: string): string {
  return (text.toLowerCase().match(WORD) ?? []).join(' ');
}

function fold(word: string): string {
  // Same folding as search terms so "companies" names the label Company.
  const one = questionTermWords(word);
  return one.size > 0 ? [...one.keys()][0] : word.toLowerCase();
}

export function analyseQuestion(question: string): AnalysedQuestion {
  const truncated = question.length > MAX_QUESTION_CHARS;
  const text = (truncated ? question.slice(0, MAX_QUESTION_CHARS) : question).replace(CONTROL, ' ');
  const terms = new Map([...questionTermWords(text)].slice(0, MAX_TERMS));
  const raw = (text.match(WORD) ?? []).map((w) => w.toLowerCase());
  const ngrams = new Set<string>();
  // Possessives: "Ann's" splits into "ann", "s"; both forms are tried.
  const plain = raw.filter((w, i) => !(w === 's' && i > 0));
  for (const list of [raw, plain]) {
    for (let i = 0; i < list.length && ngrams.size < 4000; i++) {
      for (let n = 1; n <= MAX_NAME_WORDS && i + n <= list.length; n++) ngrams.add(list.slice(i, i + n).join(' '));
    }
  }
  return { text, truncated, terms, ngrams, words: plain.slice(0, 400).map(fold) };
}

/** Whether `parts` (folded words) occur in order, adjacent, in `words`. */
function containsRun(words: readonly string[], parts: readonly string[]): boolean {
  if (parts.length === 0) return false;
  outer: for (let i = 0; i + parts.length <= words.length; i++) {
    for (let j = 0; j < parts.length; j++) if (words[i + j] !== parts[j]) continue outer;
    return true;
  }
  return false;
}

/** The labels, relationship types and property keys the question names. */
export function schemaTargets(graph: Graph, q: AnalysedQuestion, propertyKeys: readonly string[]): SchemaTargets {
  const words = q.words;
  const asks = (name: string): boolean => containsRun(words, identifierWords(name).map(fold));
  const first = words.slice(0, 3);
  const labels = graph.labels().filter((l) => {
    if (asks(l)) return true;
    const lower = l.toLowerCase();
    if (first.includes('who') || first.includes('whom')) return PERSON_LABELS.has(lower);
    if (first.includes('where')) return PLACE_LABELS.has(lower);
    if (first.includes('when')) return TIME_LABELS.has(lower);
    return false;
  });
  const types = graph.relationshipTypes().filter((t) => {
    // A type names itself when all its content words appear: WORKS_AT ← "works", LOCATED_IN ← "located".
    const parts = identifierWords(t).map(fold).filter((w) => w.length > 2);
    return parts.length > 0 && parts.every((p) => words.includes(p));
  });
  const keys = propertyKeys.filter((k) => !['name', 'title', 'id', 'embedding'].includes(k) && identifierWords(k).length > 0 && asks(k));
  return { labels, types, keys };
}

/**
 * The text side of graph_rag: turns a question into search terms and scores how well a
 * node's string properties match them. Terms are words of two or more letters or digits,
 * lower-cased, without common stop words, with a light plural folding (`movie` and `movies` → `movi`, `company` and `companies` → `compani`)
 * applied to both sides. A match in an identifying property (name, title) counts double;
 * rarer terms count more (inverse document frequency over the matching nodes).
 */

import type { Value } from '../../runtime/values.js';

const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be by can could did do does for from had has have how i in is it its me my of on or ' +
    'our should so than that the their them then there these they this those to was we were what when where ' +
    'which who whom whose why will with would you your about all any into know tell show find give list many ' +
    'much some related relate relation relationship between'
  ).split(' '),
);

/** Whether a (lower-case) word is too common to search for. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Property keys whose match counts double: what a node is called. */
const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'title', 'label', 'caption']);

const WORD = /[\p{L}\p{N}]+/gu;

function fold(word: string): string {
  let w = word.toLowerCase();
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.length > 4 && w.endsWith('ies')) return w.slice(0, -3) + 'i';
  if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 3 && w.endsWith('y')) return w.slice(0, -1) + 'i';
  if (w.length > 3 && w.endsWith('ie')) return w.slice(0, -1);
  return w;
}

/** The distinct search terms of a question (folded), each with the word it came from, in order. */
export function questionTermWords(question: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of question.matchAll(WORD)) {
    const w = fold(m[0]);
    if (w.length < 2 || STOP_WORDS.has(w) || STOP_WORDS.has(m[0].toLowerCase()) || out.has(w)) continue;
    out.set(w, m[0]);
  }
  return out;
}

/** The distinct search terms of a question, in order of first appearance. */
export function questionTerms(question: string): string[] {
  return [...questionTermWords(question).keys()];
}

export interface TermHit {
  term: string;
  /** The property it matched in (the first such). */
  key: string;
  inName: boolean;
}

function collectWords(v: Value, into: Set<string>): void {
  if (typeof v === 'string') {
    for (const m of v.matchAll(WORD)) into.add(fold(m[0]));
  } else if (Array.isArray(v)) {
    for (const x of v) if (typeof x === 'string') collectWords(x, into);
  }
}

/** Which of `terms` occur in the node's string properties (and labels), and where. */
export function matchTerms(terms: readonly string[], labels: readonly string[], props: ReadonlyMap<string, Value>): TermHit[] {
  const hits: TermHit[] = [];
  const found = new Set<string>();
  for (const [key, value] of props) {
    if (typeof value !== 'string' && !Array.isArray(value)) continue;
    const words = new Set<string>();
    collectWords(value, words);
    for (const term of terms) {
      if (found.has(term) || !words.has(term)) continue;
      found.add(term);
      hits.push({ term, key, inName: NAME_KEYS.has(key) });
    }
    if (found.size === terms.length) return hits;
  }
  for (const label of labels) {
    const t = fold(label);
    if (terms.includes(t) && !found.has(t)) {
      found.add(t);
      hits.push({ term: t, key: `:${label}`, inName: false });
    }
  }
  return hits;
}

/** A node's display name: name, title, … else its first string property, else undefined. */
export function displayName(props: ReadonlyMap<string, Value>): string | undefined {
  for (const key of ['name', 'title', 'label', 'caption', 'id', 'key']) {
    const v = props.get(key);
    if (typeof v === 'string' && v !== '') return v;
  }
  for (const v of props.values()) if (typeof v === 'string' && v !== '') return v;
  return undefined;
}

/** The words of a name or identifier: `TimeZone`, `time_zone`, `WORKS_AT` → time zone / works at. */
export function identifierWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

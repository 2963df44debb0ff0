/**
 * The words a label's own data uses for its kind: graph_rag learns from the graph which
 * labels a question's noun names when the schema's names do not say it. Nodes of a label
 * are sampled and the words of their short string properties (names, grades, prose) counted:
 * a word in at least MIN_SHARE of a label's sample (and in two nodes at least), and at least DISTINCT times more common
 * there than in any other label's, is one of that label's words. So "ward" names `:CareUnit`
 * when care units are called "Kingfisher Ward", "doctor" names `:Clinician` when clinicians'
 * grades say "physician" (by the noun groups of relation-match.ts), and "medicine" names
 * `:Compound` when compounds' prose says each "is a prescription medicine" (a word after "is
 * a" counts as a kind word, compared only with other labels' kind words, so a firm that
 * "sells medicines" does not take it). Words that say how many or how often ("every",
 * "each", "always") are never a label's words, however often its prose repeats them, nor is
 * a noun after "its" or "their" ("pools storage for its **members**": what the node has, not
 * what it is). Cached per graph until its node
 * count moves by more than a tenth.
 */

import type { Graph } from '../store/graph.js';
import { stem } from './relation-match.js';
import { isStopWord } from './text-match.js';

/** Nodes sampled per label. */
const SAMPLE = 200;
/** Longest string value read (longer ones are documents, not descriptions). */
const MAX_VALUE_CHARS = 300;
/** Share of a label's sampled nodes a word must appear in. */
const MIN_SHARE = 0.1;
/** Sampled nodes a word must appear in: one node's own name ("Harvest Integrity Audits") never speaks for its label, however few the label's nodes. */
const MIN_NODES = 2;
/** How many times more common in the label than in any other a word must be. */
const DISTINCT = 3;
/**
 * Determiners, quantifiers and adverbs of frequency or degree: words that say how many or how
 * often, never what kind of thing. Prose that repeats one ("audits farms **every** year") would
 * otherwise make it a label's word, and a question's "every" or "each" would ask for that label.
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'every', 'each', 'most', 'few', 'fewer', 'several', 'both', 'either', 'neither', 'other', 'others', 'another', 'such', 'same',
  'own', 'per', 'more', 'less', 'least', 'very', 'also', 'just', 'not', 'nor', 'only', 'once', 'twice', 'always', 'never',
  'often', 'usually', 'sometimes', 'still', 'already', 'yet', 'ever', 'whole', 'entire', 'various', 'certain', 'whose', 'whatever',
]);
/** Possessive determiners: the noun after one names what the node has or relates to, not its kind. */
const POSSESSIVES: ReadonlySet<string> = new Set(['its', 'their', 'his', 'her', 'our', 'my', 'your', 'whose']);
/** Keys that hold no words about the node's kind. */
const SKIPPED_KEYS: ReadonlySet<string> = new Set(['embedding', 'source', 'observation_class', 'rule']);

interface Cached {
  nodeCount: number;
  labels: string;
  vocabulary: Map<string, Set<string>>;
}
const cache = new WeakMap<Graph, Cached>();

const WORD = /[\p{L}]+/gu;

/** Most words read after "is a" for what a description calls its node. */
const KIND_WORDS = 5;
/** Words that end the noun phrase after "is a" though they are no stop words ("a prescription medicine **first** licensed"). */
const PHRASE_ENDS: ReadonlySet<string> = new Set(['first', 'last', 'now', 'also', 'only', 'mainly', 'mostly', 'often', 'still', 'currently', 'since', 'born']);

/**
 * The word a description calls its node by: the head (last word) of the noun phrase after
 * "is a/an/the", which ends at a stop word, a number, a participle in -ed or an adverb ("X is
 * a train operating **company** based in …", "X is a prescription **medicine** first licensed
 * in …"); the words before the head only modify it.
 */
function kindWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 2 < words.length; i++) {
    if ((words[i] !== 'is' && words[i] !== 'are') || !['a', 'an', 'the'].includes(words[i + 1])) continue;
    let head: string | undefined;
    for (let j = i + 2; j < words.length && j < i + 2 + KIND_WORDS; j++) {
      const w = words[j];
      if (/\d/.test(w)) continue;
      if (isStopWord(w) || PHRASE_ENDS.has(w) || (w.length > 4 && w.endsWith('ed'))) break;
      if (w.length > 2) head = w;
    }
    if (head !== undefined) out.push(head);
  }
  return out;
}

/** Label → the stems of its distinctive words. */
export function labelVocabulary(graph: Graph): ReadonlyMap<string, ReadonlySet<string>> {
  const labels = graph.labels();
  const key = labels.join('\u0000');
  const cached = cache.get(graph);
  if (cached && cached.labels === key && Math.abs(cached.nodeCount - graph.nodeCount) <= cached.nodeCount / 10) return cached.vocabulary;
  const share = new Map<string, Map<string, number>>();
  const kindShare = new Map<string, Map<string, number>>();
  const nodesWith = new Map<string, Map<string, number>>();
  for (const label of labels) {
    const ids = graph.labelSet(label)?.toArray() ?? [];
    const step = Math.max(1, Math.floor(ids.length / SAMPLE));
    const counts = new Map<string, number>();
    const kindCounts = new Map<string, number>();
    let sampled = 0;
    for (let i = 0; i < ids.length && sampled < SAMPLE; i += step) {
      const node = graph.node(ids[i]);
      if (!node || node.deleted) continue;
      sampled++;
      const seen = new Set<string>();
      const kinds = new Set<string>();
      for (const [k, v] of node.propertyMap()) {
        if (typeof v !== 'string' || v.length > MAX_VALUE_CHARS || SKIPPED_KEYS.has(k)) continue;
        const words = v.toLowerCase().match(WORD) ?? [];
        words.forEach((w, i) => {
          // What follows "its"/"their" is something the node has ("pools storage for **its members**"), not what it is.
          if (w.length > 2 && !isStopWord(w) && !FUNCTION_WORDS.has(w) && !POSSESSIVES.has(words[i - 1] ?? '')) seen.add(stem(w));
        });
        for (const w of kindWords(words)) kinds.add(stem(w));
      }
      for (const s of seen) counts.set(s, (counts.get(s) ?? 0) + 1);
      for (const s of kinds) kindCounts.set(s, (kindCounts.get(s) ?? 0) + 1);
    }
    const shares = (from: Map<string, number>): Map<string, number> => new Map(sampled > 0 ? [...from].map(([s, n]) => [s, n / sampled]) : []);
    share.set(label, shares(counts));
    kindShare.set(label, shares(kindCounts));
    nodesWith.set(label, new Map([...counts].map(([s, n]) => [s, Math.max(n, kindCounts.get(s) ?? 0)])));
  }
  const vocabulary = new Map<string, Set<string>>();
  for (const label of labels) {
    const words = new Set<string>();
    // A word common in the label's data and rare elsewhere; or one its descriptions call their node by ("X is a prescription
    // **medicine**") more than other labels' descriptions do, though the word is common elsewhere ("sells medicines").
    for (const shares of [share, kindShare]) {
      for (const [s, f] of shares.get(label) ?? new Map<string, number>()) {
        if (f < MIN_SHARE || (nodesWith.get(label)?.get(s) ?? 0) < MIN_NODES) continue;
        const elsewhere = Math.max(0, ...labels.filter((l) => l !== label).map((l) => shares.get(l)?.get(s) ?? 0));
        if (f >= DISTINCT * elsewhere) words.add(s);
      }
    }
    vocabulary.set(label, words);
  }
  cache.set(graph, { nodeCount: graph.nodeCount, labels: key, vocabulary });
  return vocabulary;
}

/**
 * The words a label's own data uses for its kind: graph_rag learns from the graph which
 * labels a question's noun names when the schema's names do not say it. Nodes of a label
 * are sampled and the words of their short string properties (names, grades, prose) counted:
 * a word in at least MIN_SHARE of a label's sample, and at least DISTINCT times more common
 * there than in any other label's, is one of that label's words. So "ward" names `:CareUnit`
 * when care units are called "Kingfisher Ward", "doctor" names `:Clinician` when clinicians'
 * grades say "physician" (by the noun groups of relation-match.ts), and "medicine" names
 * `:Compound` when compounds' prose calls them medicines. Cached per graph until its node
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
/** How many times more common in the label than in any other a word must be. */
const DISTINCT = 3;
/** Keys that hold no words about the node's kind. */
const SKIPPED_KEYS: ReadonlySet<string> = new Set(['embedding', 'source', 'observation_class', 'rule']);

interface Cached {
  nodeCount: number;
  labels: string;
  vocabulary: Map<string, Set<string>>;
}
const cache = new WeakMap<Graph, Cached>();

const WORD = /[\p{L}]+/gu;

/** Label → the stems of its distinctive words. */
export function labelVocabulary(graph: Graph): ReadonlyMap<string, ReadonlySet<string>> {
  const labels = graph.labels();
  const key = labels.join('\u0000');
  const cached = cache.get(graph);
  if (cached && cached.labels === key && Math.abs(cached.nodeCount - graph.nodeCount) <= cached.nodeCount / 10) return cached.vocabulary;
  const share = new Map<string, Map<string, number>>();
  for (const label of labels) {
    const ids = graph.labelSet(label)?.toArray() ?? [];
    const step = Math.max(1, Math.floor(ids.length / SAMPLE));
    const counts = new Map<string, number>();
    let sampled = 0;
    for (let i = 0; i < ids.length && sampled < SAMPLE; i += step) {
      const node = graph.node(ids[i]);
      if (!node || node.deleted) continue;
      sampled++;
      const seen = new Set<string>();
      for (const [k, v] of node.propertyMap()) {
        if (typeof v !== 'string' || v.length > MAX_VALUE_CHARS || SKIPPED_KEYS.has(k)) continue;
        for (const w of v.toLowerCase().match(WORD) ?? []) if (w.length > 2 && !isStopWord(w)) seen.add(stem(w));
      }
      for (const s of seen) counts.set(s, (counts.get(s) ?? 0) + 1);
    }
    const shares = new Map<string, number>();
    if (sampled > 0) for (const [s, n] of counts) shares.set(s, n / sampled);
    share.set(label, shares);
  }
  const vocabulary = new Map<string, Set<string>>();
  for (const label of labels) {
    const own = share.get(label) ?? new Map<string, number>();
    const words = new Set<string>();
    for (const [s, f] of own) {
      if (f < MIN_SHARE) continue;
      const elsewhere = Math.max(0, ...labels.filter((l) => l !== label).map((l) => share.get(l)?.get(s) ?? 0));
      if (f >= DISTINCT * elsewhere) words.add(s);
    }
    vocabulary.set(label, words);
  }
  cache.set(graph, { nodeCount: graph.nodeCount, labels: key, vocabulary });
  return vocabulary;
}

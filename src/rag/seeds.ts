/**
 * graph_rag's seed retrieval: the nodes a question points at directly, from up to four
 * sources, each a ranked list:
 *
 * - `vector`: the question's embedding (the database's default embedder, or the configured
 *   model) against every node vector index of the same dimension;
 * - `fulltext`: BM25 over every node full-text index, with the question's terms as optional
 *   term clauses (built as a query tree, never parsed from the question, so Lucene syntax in a
 *   question is just words);
 * - `name`: nodes whose name or title equals a word sequence of the question (a lookup in the
 *   name index, name-index.ts);
 * - `value`: nodes holding a code, id, number, date or quoted string the question names, in
 *   any property (value-match.ts);
 * - `text`: when the graph has no full-text index, a scan of string properties for the
 *   question's terms (rarer terms weigh more, names double), so graph_rag works on any graph.
 *
 * The lists are fused by reciprocal rank fusion: a node's fused score is the sum over lists
 * of weight / (RRF_K + rank), normalised so the best seed scores 1.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import type { Value } from '../../runtime/values.js';
import type { Node } from '../store/entities.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import { VectorIndex } from '../vector/hnsw-index.js';
import { FulltextIndex } from '../fulltext/fulltext-index.js';
import type { FtQuery } from '../fulltext/query-parser.js';
import type { AnalysedQuestion } from './question.js';
import { indexableName, NAME_KEYS, nameIndexFor } from './name-index.js';
import { matchTerms, type TermHit } from './text-match.js';

export type SeedSource = 'vector' | 'fulltext' | 'name' | 'text' | 'value';

export const RRF_K = 60;
/** How much each list counts in the fusion: an exact name is the strongest signal. */
export const SOURCE_WEIGHTS: Readonly<Record<SeedSource, number>> = { value: 3, name: 2, fulltext: 1, vector: 1, text: 1 };

export interface SeedHit {
  node: Node;
  score: number;
  /** Where it matched, for the note: the index name, or the property. */
  where: string;
}

export interface Seed {
  node: Node;
  /** Fused relevance in (0, 1]. */
  relevance: number;
  /** Per source: rank (1-based) and where it matched. */
  sources: Partial<Record<SeedSource, { rank: number; where: string }>>;
}

export interface SeedContext {
  graph: Graph;
  schema: Schema | undefined;
  embedding: EmbeddingProvider | undefined;
  checkDeadline: () => void;
  /** True once the retrieval's own time budget is spent: remaining sources are skipped. */
  expired: () => boolean;
}

function live(graph: Graph, id: number): Node | undefined {
  const n = graph.node(id);
  return n && !n.deleted ? n : undefined;
}

export function vectorSeeds(ctx: SeedContext, q: AnalysedQuestion, k: number): SeedHit[] {
  if (!ctx.schema || !ctx.embedding || q.text.trim() === '') return [];
  const indexes = ctx.schema.listExtensionIndexes().filter((i): i is VectorIndex => i instanceof VectorIndex && i.entity === 'node');
  if (indexes.length === 0) return [];
  const [vector] = ctx.embedding.encode([q.text], null, null);
  const hits: SeedHit[] = [];
  for (const idx of indexes) {
    if (ctx.expired()) break;
    const fresh = ctx.schema.extensionIndex(idx.def.name);
    if (!(fresh instanceof VectorIndex) || fresh.config.dimensions !== vector.length) continue;
    for (const h of fresh.search(vector, k, Math.max(64, k * 2))) {
      const node = live(ctx.graph, h.id);
      if (node) hits.push({ node, score: h.score, where: `vector index ${idx.def.name}` });
    }
  }
  return best(hits, k);
}

export function fulltextSeeds(ctx: SeedContext, q: AnalysedQuestion, k: number): SeedHit[] {
  if (!ctx.schema || q.terms.size === 0) return [];
  const indexes = ctx.schema.listExtensionIndexes().filter((i): i is FulltextIndex => i instanceof FulltextIndex && i.entity === 'node');
  const query: FtQuery = {
    kind: 'bool',
    clauses: [...q.terms.values()].map((word) => ({ occur: 'should' as const, query: { kind: 'term' as const, text: word, boost: 1 } })),
    boost: 1,
  };
  // A question's common words match thousands of documents: only the best k per index become hits (no object per match).
  const hits: SeedHit[] = [];
  for (const idx of indexes) {
    if (ctx.expired()) break;
    const fresh = ctx.schema.extensionIndex(idx.def.name);
    if (!(fresh instanceof FulltextIndex)) continue;
    const where = `full-text index ${idx.def.name}`;
    for (const [id, score] of topScores(fresh.search(query), k, (id) => live(ctx.graph, id) !== undefined)) {
      const node = live(ctx.graph, id);
      if (node) hits.push({ node, score, where });
    }
  }
  return best(hits, k);
}

/**
 * The `k` best (id, score) pairs of a score map, best first, ties by lower id (the order
 * `best` gives): one pass keeping a sorted array of at most k, instead of sorting them all.
 */
export function topScores(scores: ReadonlyMap<number, number>, k: number, keep: (id: number) => boolean): [number, number][] {
  const top: [number, number][] = [];
  const before = (id: number, score: number, than: [number, number]): boolean => score > than[1] || (score === than[1] && id < than[0]);
  for (const [id, score] of scores) {
    if (top.length >= k && !before(id, score, top[top.length - 1])) continue;
    if (!keep(id)) continue;
    let at = top.length;
    while (at > 0 && before(id, score, top[at - 1])) at--;
    top.splice(at, 0, [id, score]);
    if (top.length > k) top.pop();
  }
  return top;
}

export function hasFulltextIndex(schema: Schema | undefined): boolean {
  return schema?.listExtensionIndexes().some((i) => i instanceof FulltextIndex && i.entity === 'node') ?? false;
}

/**
 * Nodes whose name or title equals a word sequence of the question (normalised: case and
 * punctuation aside); longer names rank first. One name-index lookup per word sequence.
 */
export function nameSeeds(ctx: SeedContext, q: AnalysedQuestion, k: number): SeedHit[] {
  if (q.ngrams.size === 0) return [];
  const index = nameIndexFor(ctx.graph, ctx.schema);
  const hits: SeedHit[] = [];
  let seen = 0;
  const found = [...q.ngrams].filter((ngram) => index.lookup(ngram) !== undefined);
  // A name inside a longer name the question holds is part of that name, not a second entity ("Oslo" in "Oslo Harbour Works").
  // Each found name marks its shorter word runs (at most MAX_NAME_WORDS words, so a bounded number each).
  const inside = new Set<string>();
  for (const ngram of found) {
    const words = ngram.split(' ');
    for (let i = 0; i < words.length; i++) {
      for (let j = i + 1; j <= words.length; j++) if (j - i < words.length) inside.add(words.slice(i, j).join(' '));
    }
  }
  for (const ngram of found) {
    if (inside.has(ngram)) continue;
    const ids = index.lookup(ngram);
    if (ids === undefined) continue;
    const score = ngram.split(' ').length + ngram.length / 1000;
    for (const id of ids) {
      // A name shared by very many nodes is still bounded by the query's deadline.
      if ((++seen & 2047) === 0) ctx.checkDeadline();
      const node = live(ctx.graph, id);
      const where = node && NAME_KEYS.find((key) => indexableName(node.prop(key)) === ngram);
      if (node && where) hits.push({ node, score, where });
    }
  }
  return best(hits, k);
}

/** The scan fallback when no full-text index exists. */
export function textSeeds(ctx: SeedContext, q: AnalysedQuestion, k: number): SeedHit[] {
  const terms = [...q.terms.keys()];
  if (terms.length === 0) return [];
  const matched: { node: Node; hits: TermHit[] }[] = [];
  const df = new Map<string, number>();
  let seen = 0;
  for (const node of ctx.graph.allNodes()) {
    if ((++seen & 1023) === 0) {
      ctx.checkDeadline();
      if (ctx.expired()) break;
    }
    const hits = matchTerms(terms, [], node.propertyMap() as ReadonlyMap<string, Value>);
    if (hits.length === 0) continue;
    matched.push({ node, hits });
    for (const h of hits) df.set(h.term, (df.get(h.term) ?? 0) + 1);
  }
  const total = Math.max(1, ctx.graph.nodeCount);
  const hits = matched.map(({ node, hits: h }) => {
    let score = 0;
    for (const hit of h) score += Math.log(1 + total / (1 + (df.get(hit.term) ?? 0))) * (hit.inName ? 2 : 1);
    return { node, score, where: h.map((x) => `'${q.terms.get(x.term) ?? x.term}' in ${x.key}`).join(', ') };
  });
  return best(hits, k);
}

/** The `k` best hits, one per node (its best score), best first; ties by node id for determinism. */
function best(hits: SeedHit[], k: number): SeedHit[] {
  const byNode = new Map<Node, SeedHit>();
  for (const h of hits) {
    const current = byNode.get(h.node);
    if (!current || current.score < h.score) byNode.set(h.node, h);
  }
  return [...byNode.values()].sort((a, b) => b.score - a.score || a.node.id - b.node.id).slice(0, k);
}

/** Reciprocal rank fusion of the source lists; the best fused seed has relevance 1. */
export function fuseSeeds(lists: Partial<Record<SeedSource, SeedHit[]>>, k: number): Seed[] {
  const fused = new Map<Node, { score: number; seed: Seed }>();
  for (const [source, hits] of Object.entries(lists) as [SeedSource, SeedHit[]][]) {
    // Equal scores share a rank (1, 2, 2, 4): which of two equally good hits comes first says nothing.
    let rank = 0;
    hits.forEach((h, i) => {
      if (i === 0 || h.score < hits[i - 1].score) rank = i + 1;
      let entry = fused.get(h.node);
      if (!entry) fused.set(h.node, (entry = { score: 0, seed: { node: h.node, relevance: 0, sources: {} } }));
      entry.score += SOURCE_WEIGHTS[source] / (RRF_K + rank);
      entry.seed.sources[source] = { rank, where: h.where };
    });
  }
  const ranked = [...fused.values()].sort((a, b) => b.score - a.score || a.seed.node.id - b.seed.node.id).slice(0, k);
  const top = ranked[0]?.score ?? 1;
  return ranked.map(({ score, seed }) => ({ ...seed, relevance: score / top }));
}

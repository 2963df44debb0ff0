/**
 * graph_rag's retrieval over the graph (vector search joins it later):
 *
 * 1. Text match: every live node's string properties are matched against the question's
 *    terms (`text-match.ts`); a node's text score sums, per matched term, its rarity
 *    (log(1 + N / (1 + df))) times 2 in a name/title, 1 in another property, 0.5 as a label.
 *    Scores are normalised to (0, 1] by the best one.
 * 2. Neighbourhood expansion: from the best text matches (seeds), relationships are
 *    followed up to two hops in both directions; a neighbour earns the seed's relevance
 *    halved per hop, times the relationship's own confidence when it states one. A node's
 *    relevance is the best of what it earned directly and through neighbours.
 * 3. Ranking: relevance × confidence × class weight (`evidence.ts`), ties broken by
 *    observation class (observed > inferred > predicted), then confidence, then name.
 */

import type { Graph } from '../../store/graph.js';
import type { Node, Rel } from '../../store/entities.js';
import { CLASS_RANK, CLASS_WEIGHT, type Evidence, type ObservationClass, readConfidence, readEvidence } from './evidence.js';
import { displayName, matchTerms, questionTermWords, type TermHit } from './text-match.js';

export interface RagResult {
  name: string;
  /** A number as text, as SPEC's graph_rag result says. */
  confidence: string;
  observation_class: ObservationClass;
  note: string;
}

export interface RagAnswer {
  query: string;
  results: RagResult[];
  result_count: number;
}

export interface RetrieveOptions {
  /** Most results returned (default 10). */
  limit?: number;
}

const SEEDS = 10;
const MAX_HOPS = 2;
const HOP_DECAY = 0.5;
/** Relationships followed from one node in one expansion step (hubs are sampled, not walked whole). */
const MAX_FANOUT = 200;

interface Candidate {
  node: Node;
  relevance: number;
  /** How the node was found, for the note. */
  how: string;
}

function weightOf(hit: TermHit): number {
  if (hit.inName) return 2;
  return hit.key.startsWith(':') ? 0.5 : 1;
}

function textCandidates(graph: Graph, words: ReadonlyMap<string, string>): Map<Node, Candidate> {
  const terms = [...words.keys()];
  const matched: { node: Node; hits: TermHit[] }[] = [];
  const df = new Map<string, number>();
  for (const node of graph.allNodes()) {
    const hits = matchTerms(terms, node.labels, node.propertyMap());
    if (hits.length === 0) continue;
    matched.push({ node, hits });
    for (const h of hits) df.set(h.term, (df.get(h.term) ?? 0) + 1);
  }
  const total = Math.max(1, graph.nodeCount);
  const raw = matched.map(({ node, hits }) => {
    let score = 0;
    for (const h of hits) score += Math.log(1 + total / (1 + (df.get(h.term) ?? 0))) * weightOf(h);
    return { node, hits, score };
  });
  const best = raw.reduce((m, r) => Math.max(m, r.score), 0) || 1;
  const out = new Map<Node, Candidate>();
  for (const { node, hits, score } of raw) {
    const where = hits.map((h) => `'${words.get(h.term) ?? h.term}' in ${h.key}`).join(', ');
    out.set(node, { node, relevance: score / best, how: `matched ${where}` });
  }
  return out;
}

function* incident(node: Node, graph: Graph): Generator<Rel> {
  const rels: Rel[] = [];
  graph.forEachAdjacent(node, null, 'both', (relId) => {
    if (rels.length >= MAX_FANOUT) return;
    const rel = graph.rel(relId);
    if (rel !== undefined) rels.push(rel);
  });
  yield* rels;
}

function label(node: Node): string {
  const name = displayName(node.propertyMap());
  if (name !== undefined) return name;
  return node.labels.length > 0 ? `:${node.labels.join(':')} #${node.id}` : `#${node.id}`;
}

function expand(graph: Graph, seeds: Candidate[], found: Map<Node, Candidate>): void {
  for (const seed of seeds) {
    let frontier: { node: Node; relevance: number; path: string[] }[] = [{ node: seed.node, relevance: seed.relevance, path: [] }];
    const seen = new Set<Node>([seed.node]);
    for (let hop = 1; hop <= MAX_HOPS && frontier.length > 0; hop++) {
      const next: typeof frontier = [];
      for (const at of frontier) {
        for (const rel of incident(at.node, graph)) {
          const other = rel.other(at.node);
          if (seen.has(other) || other.deleted) continue;
          seen.add(other);
          const relevance = at.relevance * HOP_DECAY * (readConfidence(rel.prop('confidence')) ?? 1);
          const path = [...at.path, rel.type];
          next.push({ node: other, relevance, path });
          const current = found.get(other);
          if (current === undefined || current.relevance < relevance) {
            const hops = hop === 1 ? '1 hop' : `${hop} hops`;
            found.set(other, { node: other, relevance, how: `${hops} from '${label(seed.node)}' via ${path.join(', ')}` });
          }
        }
      }
      frontier = next;
    }
  }
}

interface Ranked extends Candidate, Evidence {
  name: string;
  score: number;
}

function rank(candidates: Iterable<Candidate>): Ranked[] {
  const ranked: Ranked[] = [];
  for (const c of candidates) {
    const ev = readEvidence(c.node.propertyMap());
    const score = c.relevance * ev.confidence * CLASS_WEIGHT[ev.observationClass];
    ranked.push({ ...c, ...ev, name: label(c.node), score });
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      CLASS_RANK[a.observationClass] - CLASS_RANK[b.observationClass] ||
      b.confidence - a.confidence ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return ranked;
}

function round(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

/** Answers a natural-language question with the graph's best-supported nodes. */
export function retrieve(graph: Graph, question: string, options: RetrieveOptions = {}): RagAnswer {
  const limit = options.limit ?? 10;
  const words = questionTermWords(question);
  if (words.size === 0) return { query: question, results: [], result_count: 0 };
  const found = textCandidates(graph, words);
  const seeds = [...found.values()].sort((a, b) => b.relevance - a.relevance).slice(0, SEEDS);
  expand(graph, seeds, found);
  const results = rank(found.values())
    .slice(0, limit)
    .map((r) => ({
      name: r.name,
      confidence: round(r.confidence),
      observation_class: r.observationClass,
      note: `${r.node.labels.length > 0 ? ':' + r.node.labels.join(':') + '; ' : ''}${r.how}; relevance ${round(r.relevance)}, score ${round(r.score)}`,
    }));
  return { query: question, results, result_count: results.length };
}

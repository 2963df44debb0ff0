/**
 * graph_rag as one pipeline, shared by `graphdb.rag.retrieve`, `graphdb.rag.explain` and
 * MCP's `graph_rag` (which calls the procedure):
 *
 *   question → analyse (question.ts) → seeds from vector, full-text, names (seeds.ts)
 *   → reciprocal rank fusion → bounded expansion (expand.ts) → schema-aware,
 *   trust-weighted ranking and conflict marking (rank.ts) → top k with notes.
 *
 * A time budget (`deadline`) bounds the whole run: stages still to run when it is spent are
 * skipped and the trace says so; the query's own time limit still applies on top.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import { expand } from './expand.js';
import type { RagOptions } from './options.js';
import { analyseQuestion, NO_TARGETS, schemaTargets, type SchemaTargets } from './question.js';
import { markConflicts, noteFor, rank, type RankedItem } from './rank.js';
import { fuseSeeds, fulltextSeeds, hasFulltextIndex, nameSeeds, type Seed, type SeedHit, type SeedSource, textSeeds, vectorSeeds } from './seeds.js';

export interface RagEnvironment {
  graph: Graph;
  schema: Schema | undefined;
  embedding: EmbeddingProvider | undefined;
  /** The calling query's time limit check. */
  checkDeadline: () => void;
}

export interface RagTrace {
  question: { analysed: string; truncated: boolean; terms: string[] };
  targets: SchemaTargets;
  seeds: Partial<Record<SeedSource, SeedHit[]>>;
  fused: Seed[];
  reached: number;
  ranked: number;
  /** Stages skipped because the time budget ran out. */
  skipped: string[];
  elapsedMs: number;
}

export interface RagRun {
  results: RankedItem[];
  trace: RagTrace;
}

/** How many hits each seed source contributes before fusion. */
const PER_SOURCE = 25;

export function runRag(env: RagEnvironment, question: string, options: RagOptions): RagRun {
  const started = performance.now();
  const expired = (): boolean => performance.now() - started > options.deadlineMs;
  const skipped: string[] = [];
  const q = analyseQuestion(question);
  const ctx = { graph: env.graph, schema: env.schema, embedding: env.embedding, checkDeadline: env.checkDeadline, expired };
  const seeds: Partial<Record<SeedSource, SeedHit[]>> = {};
  // Without a full-text index the text scan stands in for it (when either is asked for).
  const indexed = hasFulltextIndex(env.schema);
  const fulltext = indexed && options.sources.has('fulltext');
  const text = options.sources.has('text') || (options.sources.has('fulltext') && !indexed);
  const stages: [SeedSource, () => SeedHit[]][] = [
    ['name', () => nameSeeds(ctx, q, PER_SOURCE)],
    ['fulltext', () => fulltextSeeds(ctx, q, PER_SOURCE)],
    ['text', () => textSeeds(ctx, q, PER_SOURCE)],
    ['vector', () => vectorSeeds(ctx, q, PER_SOURCE)],
  ];
  const wanted = (source: SeedSource): boolean =>
    source === 'fulltext' ? fulltext : source === 'text' ? text : options.sources.has(source);
  for (const [source, run] of stages) {
    if (!wanted(source)) continue;
    if (expired()) {
      skipped.push(`seeds.${source}`);
      continue;
    }
    const hits = run();
    if (hits.length > 0) seeds[source] = hits;
  }
  const fused = fuseSeeds(seeds, options.seeds);
  const propertyKeys = env.graph.propertyKeys();
  const byMeaning = env.embedding && options.targetSimilarity <= 1 ? { provider: env.embedding, similarity: options.targetSimilarity } : undefined;
  const targets = options.targets ? schemaTargets(env.graph, q, propertyKeys, byMeaning) : NO_TARGETS;
  if (targets.embeddingError !== undefined) skipped.push(`targets.embedding (${targets.embeddingError})`);
  if (expired()) skipped.push('expand');
  const reached = expand(env.graph, fused, expired() ? { ...options, hops: 0 } : options, expired, env.checkDeadline);
  const ranked = rank(reached, targets, options);
  const results = ranked.slice(0, options.k);
  for (const r of results) r.note = noteFor(r);
  markConflicts(results);
  return {
    results,
    trace: {
      question: { analysed: q.text, truncated: q.truncated, terms: [...q.terms.values()] },
      targets,
      seeds,
      fused,
      reached: reached.length,
      ranked: ranked.length,
      skipped,
      elapsedMs: performance.now() - started,
    },
  };
}

/**
 * The retrieval procedures:
 *
 * - `graphdb.rag.retrieve(question, {k, hops, fanout, seeds, deadline, relWeights, classWeights})`
 *   yields the ranked answers: rank, name, confidence, observationClass, note, score,
 *   node (null for a property value), evidence (element ids along the path), conflict;
 * - `graphdb.rag.explain(question, options)` yields the pipeline's steps (the analysed
 *   question, schema targets, each seed list, the fusion, the values named, the relation
 *   phrases and the chosen path, expansion and ranking sizes), one
 *   row per step with a map of details, for debugging a retrieval.
 *
 * The question arrives as a procedure argument (a parameter or literal of the calling query)
 * and is only ever read as data.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import type { ProcedureDef, ProcedureRegistry } from '../../procedures/registry.js';
import { field, procedure } from '../../procedures/define.js';
import { LazyModule } from '../lazy-module.js';

const RETRIEVE = 'graphdb.rag.retrieve';
const EXPLAIN = 'graphdb.rag.explain';

/** The pipeline and its row builders, loaded on the first call (procedure-rows.ts). */
const rows = new LazyModule(import.meta.url, './procedure-rows.js', () => import('./procedure-rows.js'));

function retrieveProcedure(embedding: EmbeddingProvider | undefined): ProcedureDef {
  return procedure(
    RETRIEVE,
    'read',
    'Answers a natural-language question from the graph: seeds from named values, names, full-text and vector matches fused by reciprocal rank, bounded graph expansion and a walk of the relation phrases the question chains (up to 3 hops), ranking by relevance, confidence and observation class. Options: k, hops, fanout, seeds, deadline, relWeights, classWeights, sources, targets, targetSimilarity.',
    [field('question', 'STRING?'), field('options', 'MAP?', new Map())],
    [
      field('rank', 'INTEGER?'),
      field('name', 'STRING?'),
      field('confidence', 'FLOAT?'),
      field('observationClass', 'STRING?'),
      field('note', 'STRING?'),
      field('score', 'FLOAT?'),
      field('node', 'NODE?'),
      field('evidence', 'LIST? OF STRING?'),
      field('conflict', 'BOOLEAN?'),
    ],
    (ctx, [question, config]) => rows.get().retrieveRows(ctx, embedding, RETRIEVE, question, config),
  );
}

function explainProcedure(embedding: EmbeddingProvider | undefined): ProcedureDef {
  return procedure(
    EXPLAIN,
    'read',
    "graph_rag's intermediate steps for a question (analysis, schema targets, seeds per source, fusion, expansion, ranking), one row per step.",
    [field('question', 'STRING?'), field('options', 'MAP?', new Map())],
    [field('step', 'STRING?'), field('detail', 'MAP?')],
    (ctx, [question, config]) => rows.get().explainRows(ctx, embedding, EXPLAIN, question, config),
  );
}

export function registerRagProcedures(registry: ProcedureRegistry, embedding: EmbeddingProvider | undefined): void {
  registry.register(retrieveProcedure(embedding));
  registry.register(explainProcedure(embedding));
}

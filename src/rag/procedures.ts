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
import type { ProcedureContext, ProcedureDef, ProcedureRegistry } from '../../procedures/registry.js';
import { field, procedure } from '../../procedures/define.js';
import { elementIdOf } from '../../functions/graph.js';
import { makeFloat, type Value } from '../../runtime/values.js';
import { ValueTypeError } from '../errors.js';
import { ragOptions } from './options.js';
import { runRag, type RagRun } from './pipeline.js';
import { entityName, pathSteps, round } from './rank.js';

const RETRIEVE = 'graphdb.rag.retrieve';
const EXPLAIN = 'graphdb.rag.explain';

function run(ctx: ProcedureContext, embedding: EmbeddingProvider | undefined, proc: string, question: Value, config: Value): RagRun {
  if (typeof question !== 'string') throw new ValueTypeError(`${proc}: the question must be a string`, 'InvalidArgumentType');
  const options = ragOptions(proc, config);
  return runRag({ graph: ctx.graph, schema: ctx.schema, embedding, checkDeadline: () => ctx.checkDeadline() }, question, options);
}

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
    (ctx, [question, config]) =>
      run(ctx, embedding, RETRIEVE, question, config).results.map((r, i) => [
        i + 1,
        r.name,
        makeFloat(r.confidence),
        r.observationClass,
        r.note,
        makeFloat(r.score),
        r.node,
        r.evidence,
        r.conflict,
      ]),
  );
}

function explainProcedure(embedding: EmbeddingProvider | undefined): ProcedureDef {
  return procedure(
    EXPLAIN,
    'read',
    "graph_rag's intermediate steps for a question (analysis, schema targets, seeds per source, fusion, expansion, ranking), one row per step.",
    [field('question', 'STRING?'), field('options', 'MAP?', new Map())],
    [field('step', 'STRING?'), field('detail', 'MAP?')],
    (ctx, [question, config]) => {
      const { trace, results } = run(ctx, embedding, EXPLAIN, question, config);
      const rows: Value[][] = [
        ['question', new Map<string, Value>([['analysed', trace.question.analysed], ['truncated', trace.question.truncated], ['terms', trace.question.terms]])],
        [
          'targets',
          new Map<string, Value>([
            ['labels', trace.targets.labels],
            ['types', trace.targets.types],
            ['properties', trace.targets.keys],
            [
              'matches',
              trace.targets.matches.map((m) => new Map<string, Value>([['kind', m.kind], ['name', m.name], ['score', round(m.score)], ['by', m.by]])),
            ],
          ]),
        ],
      ];
      for (const [source, hits] of Object.entries(trace.seeds)) {
        rows.push([
          `seeds.${source}`,
          new Map<string, Value>([['hits', hits.map((h) => new Map<string, Value>([['name', entityName(h.node)], ['id', elementIdOf(h.node)], ['score', makeFloat(h.score)], ['where', h.where]]))]]),
        ]);
      }
      rows.push([
        'fusion',
        new Map<string, Value>([['seeds', trace.fused.map((s) => new Map<string, Value>([['name', entityName(s.node)], ['relevance', round(s.relevance)], ['sources', Object.keys(s.sources)]]))]]),
      ]);
      rows.push([
        'values',
        new Map<string, Value>([['candidates', trace.values.candidates.map((c) => c.text)], ['keys', trace.values.keys], ['scanCut', trace.values.scanCut]]),
      ]);
      const chosen = results.find((r) => r.reach.walked !== undefined);
      rows.push([
        'paths',
        new Map<string, Value>([
          ['relations', trace.paths.relations.map((m) => new Map<string, Value>([['type', m.type], ['score', round(m.score)], ['by', m.by], ['word', m.word]]))],
          ['maxHops', trace.paths.maxHops],
          ['ends', trace.paths.ends],
          ['cut', trace.paths.cut],
          ['chosen', chosen ? new Map<string, Value>([['answer', chosen.name], ['path', pathSteps(chosen.reach)], ['coverage', round(chosen.reach.walked ?? 0)], ['score', round(chosen.score)]]) : null],
        ]),
      ]);
      rows.push(['expansion', new Map<string, Value>([['reached', trace.reached]])]);
      rows.push(['ranking', new Map<string, Value>([['candidates', trace.ranked], ['returned', results.map((r) => r.name)]])]);
      rows.push(['budget', new Map<string, Value>([['elapsedMs', makeFloat(trace.elapsedMs)], ['skipped', trace.skipped]])]);
      return rows;
    },
  );
}

export function registerRagProcedures(registry: ProcedureRegistry, embedding: EmbeddingProvider | undefined): void {
  registry.register(retrieveProcedure(embedding));
  registry.register(explainProcedure(embedding));
}

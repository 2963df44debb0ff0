/**
 * What the retrieval procedures (procedures.ts) run and yield: the pipeline over a call's
 * question and options, as rows. Apart from their declarations so that the pipeline's modules
 * load on the first call of one of them, not with every database.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import type { ProcedureContext } from '../../procedures/registry.js';
import { elementIdOf } from '../../functions/graph.js';
import { makeFloat, type Value } from '../../runtime/values.js';
import { ValueTypeError } from '../errors.js';
import { ragOptions } from './options.js';
import { runRag, type RagRun } from './pipeline.js';
import { entityName, pathSteps, round } from './rank.js';

function run(ctx: ProcedureContext, embedding: EmbeddingProvider | undefined, proc: string, question: Value, config: Value): RagRun {
  if (typeof question !== 'string') throw new ValueTypeError(`${proc}: the question must be a string`, 'InvalidArgumentType');
  const options = ragOptions(proc, config);
  return runRag({ graph: ctx.graph, schema: ctx.schema, embedding, checkDeadline: () => ctx.checkDeadline() }, question, options);
}

/** graphdb.rag.retrieve's rows: one per ranked answer. */
export function retrieveRows(ctx: ProcedureContext, embedding: EmbeddingProvider | undefined, proc: string, question: Value, config: Value): Value[][] {
  return run(ctx, embedding, proc, question, config).results.map((r, i) => [
    i + 1,
    r.name,
    makeFloat(r.confidence),
    r.observationClass,
    r.note,
    makeFloat(r.score),
    r.node,
    r.evidence,
    r.conflict,
  ]);
}

/** graphdb.rag.explain's rows: one per step of the pipeline. */
export function explainRows(ctx: ProcedureContext, embedding: EmbeddingProvider | undefined, proc: string, question: Value, config: Value): Value[][] {
  const { trace, results } = run(ctx, embedding, proc, question, config);
  const rows: Value[][] = [
    ['question', new Map<string, Value>([['analysed', trace.question.analysed], ['truncated', trace.question.truncated], ['terms', trace.question.terms]])],
    [
      'targets',
      new Map<string, Value>([
        ['labels', trace.targets.labels],
        ['types', trace.targets.types],
        ['properties', trace.targets.keys],
        ...(trace.targets.ruledOut ? [['ruledOut', trace.targets.ruledOut] as [string, Value]] : []),
        ...(trace.targets.prefers ? [['prefers', trace.targets.prefers] as [string, Value]] : []),
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
      [
        'relations',
        trace.paths.relations.map(
          (m) => new Map<string, Value>([['type', m.type], ['score', round(m.score)], ['by', m.by], ['word', m.word], ...(m.direction ? [['direction', m.direction] as [string, Value]] : [])]),
        ),
      ],
      ['maxHops', trace.paths.maxHops],
      ['ends', trace.paths.ends],
      ['cut', trace.paths.cut],
      ['dropped', trace.paths.dropped ?? []],
      ['chosen', chosen ? new Map<string, Value>([['answer', chosen.name], ['path', pathSteps(chosen.reach)], ['coverage', round(chosen.reach.walked ?? 0)], ['score', round(chosen.score)]]) : null],
    ]),
  ]);
  rows.push(['expansion', new Map<string, Value>([['reached', trace.reached]])]);
  rows.push(['ranking', new Map<string, Value>([['candidates', trace.ranked], ['returned', results.map((r) => r.name)]])]);
  rows.push(['budget', new Map<string, Value>([['elapsedMs', makeFloat(trace.elapsedMs)], ['stageMs', new Map<string, Value>(Object.entries(trace.stageMs).map(([k, v]) => [k, makeFloat(v)]))], ['skipped', trace.skipped]])]);
  return rows;
}

/**
 * The observation procedures:
 *
 * - `graphdb.observation.classes()`: the classes, their ranking weights and meanings;
 * - `graphdb.observation.summary()`: counts (and mean confidence) per class, per node label
 *   and per relationship type;
 * - `graphdb.observation.infer(from, type, to, evidence, {confidence, rule, source})`: creates
 *   an inferred relationship that records the element ids of its evidence and the rule;
 * - `graphdb.observation.explain(fact, {maxDepth})`: walks a fact's evidence links back to
 *   what it rests on, one row per fact reached.
 */

import type { ProcedureContext, ProcedureDef, ProcedureRegistry } from '../../procedures/registry.js';
import { field, invalidArgument, mapOrEmpty, procedure } from '../../procedures/define.js';
import { elementIdOf, parseElementId } from '../../functions/graph.js';
import { isNumber, makeFloat, toJsNumber, type Value } from '../../runtime/values.js';
import { Node, Rel } from '../store/entities.js';
import type { Graph } from '../store/graph.js';
import { ValueTypeError } from '../errors.js';
import {
  CLASS_DESCRIPTIONS,
  CLASS_KEY,
  CONFIDENCE_KEY,
  DEFAULT_CLASS_WEIGHTS,
  EVIDENCE_KEY,
  evidenceIds,
  OBSERVATION_CLASSES,
  type ObservationClass,
  readObservation,
  RULE_KEY,
  SOURCE_KEY,
} from './model.js';

function float(n: number): Value {
  return makeFloat(n);
}

const classes = procedure(
  'graphdb.observation.classes',
  'read',
  'The observation classes (observed, inferred, predicted) with their ranking weights and meanings.',
  [],
  [field('class', 'STRING?'), field('weight', 'FLOAT?'), field('description', 'STRING?'), field('isDefault', 'BOOLEAN?')],
  () => OBSERVATION_CLASSES.map((c) => [c, float(DEFAULT_CLASS_WEIGHTS[c]), CLASS_DESCRIPTIONS[c], c === 'observed']),
);

interface Tally {
  count: number;
  confidence: number;
}

function tally(into: Map<string, Map<ObservationClass, Tally>>, name: string, cls: ObservationClass, confidence: number): void {
  let byClass = into.get(name);
  if (!byClass) into.set(name, (byClass = new Map()));
  const t = byClass.get(cls) ?? { count: 0, confidence: 0 };
  t.count++;
  t.confidence += confidence;
  byClass.set(cls, t);
}

const summary = procedure(
  'graphdb.observation.summary',
  'read',
  'Counts of facts per observation class, per node label and per relationship type, with their mean confidence.',
  [],
  [
    field('entityType', 'STRING?'),
    field('name', 'STRING?'),
    field('observationClass', 'STRING?'),
    field('count', 'INTEGER?'),
    field('averageConfidence', 'FLOAT?'),
  ],
  (ctx: ProcedureContext) => {
    const labels = new Map<string, Map<ObservationClass, Tally>>();
    const types = new Map<string, Map<ObservationClass, Tally>>();
    let seen = 0;
    for (const node of ctx.graph.allNodes()) {
      if ((++seen & 4095) === 0) ctx.checkDeadline();
      const o = readObservation((k) => node.prop(k));
      for (const label of node.labels.length > 0 ? node.labels : ['']) tally(labels, label, o.observationClass, o.confidence);
    }
    for (const rel of ctx.graph.allRels()) {
      if ((++seen & 4095) === 0) ctx.checkDeadline();
      const o = readObservation((k) => rel.prop(k));
      tally(types, rel.type, o.observationClass, o.confidence);
    }
    const rows: Value[][] = [];
    for (const [entity, table] of [['node', labels], ['relationship', types]] as const) {
      for (const name of [...table.keys()].sort()) {
        for (const cls of OBSERVATION_CLASSES) {
          const t = table.get(name)!.get(cls);
          if (t) rows.push([entity, name === '' ? null : name, cls, t.count, float(t.confidence / t.count)]);
        }
      }
    }
    return rows;
  },
);

function confidenceOption(cfg: Map<string, Value>, proc: string): number {
  const v = cfg.get('confidence');
  if (v === undefined || v === null) return 1;
  if (!isNumber(v)) throw new ValueTypeError(`${proc}: confidence must be a number in [0, 1]`, 'InvalidArgumentType');
  return toJsNumber(v);
}

function entityOf(v: Value, proc: string, arg: string): Node | Rel {
  if (v instanceof Node || v instanceof Rel) return v;
  throw new ValueTypeError(`${proc}: argument \`${arg}\` must be a node or relationship`, 'InvalidArgumentType');
}

const INFER = 'graphdb.observation.infer';
const infer = procedure(
  INFER,
  'write',
  'Creates an inferred relationship (observation_class inferred) that keeps the element ids of its evidence and the rule that derived it, so graphdb.observation.explain can show why it holds.',
  [field('from', 'NODE?'), field('type', 'STRING?'), field('to', 'NODE?'), field('evidence', 'LIST? OF ANY?'), field('config', 'MAP?', new Map())],
  [field('rel', 'RELATIONSHIP?')],
  (ctx: ProcedureContext, [from, type, to, evidence, config]) => {
    if (!(from instanceof Node) || !(to instanceof Node)) throw new ValueTypeError(`${INFER}: \`from\` and \`to\` must be nodes`, 'InvalidArgumentType');
    if (typeof type !== 'string' || type === '') throw invalidArgument(INFER, 'type', 'must be a non-empty relationship type');
    if (!Array.isArray(evidence) || evidence.length === 0) throw invalidArgument(INFER, 'evidence', 'must be a non-empty list of the nodes and relationships the inference rests on');
    const cfg = mapOrEmpty(config, INFER, 'config');
    const props = new Map<string, Value>([
      [CLASS_KEY, 'inferred'],
      [CONFIDENCE_KEY, float(confidenceOption(cfg, INFER))],
      [EVIDENCE_KEY, evidence.map((e) => elementIdOf(entityOf(e, INFER, 'evidence')))],
    ]);
    const rule = cfg.get('rule');
    if (typeof rule === 'string') props.set(RULE_KEY, rule);
    const source = cfg.get('source');
    if (typeof source === 'string') props.set(SOURCE_KEY, source);
    return [[ctx.graph.createRel(type, from, to, props)]];
  },
);

function resolve(graph: Graph, id: string): Node | Rel | undefined {
  const parsed = parseElementId(id);
  if (!parsed) return undefined;
  const e = parsed.kind === 'node' ? graph.node(parsed.id) : graph.rel(parsed.id);
  return e && !e.deleted ? e : undefined;
}

const EXPLAIN = 'graphdb.observation.explain';
const explain = procedure(
  EXPLAIN,
  'read',
  "Follows a fact's evidence links (set by graphdb.observation.infer) back to the facts it rests on: one row per fact, the fact itself at depth 0.",
  [field('fact', 'ANY?'), field('config', 'MAP?', new Map())],
  [
    field('depth', 'INTEGER?'),
    field('fact', 'ANY?'),
    field('observationClass', 'STRING?'),
    field('confidence', 'FLOAT?'),
    field('source', 'STRING?'),
    field('rule', 'STRING?'),
    field('missingEvidence', 'LIST? OF STRING?'),
  ],
  (ctx: ProcedureContext, [fact, config]) => {
    const start = entityOf(fact, EXPLAIN, 'fact');
    const cfg = mapOrEmpty(config, EXPLAIN, 'config');
    const maxDepthValue = cfg.get('maxDepth') ?? 5;
    if (typeof maxDepthValue !== 'number' || !Number.isInteger(maxDepthValue) || maxDepthValue < 0 || maxDepthValue > 50) {
      throw invalidArgument(EXPLAIN, 'config.maxDepth', 'must be an integer from 0 to 50');
    }
    const rows: Value[][] = [];
    const seen = new Set<Node | Rel>([start]);
    let frontier: (Node | Rel)[] = [start];
    for (let depth = 0; frontier.length > 0 && depth <= maxDepthValue; depth++) {
      const next: (Node | Rel)[] = [];
      for (const e of frontier) {
        ctx.checkDeadline();
        const prop = (k: string): Value | undefined => e.prop(k);
        const o = readObservation(prop);
        const missing: string[] = [];
        for (const id of evidenceIds(prop)) {
          const found = resolve(ctx.graph, id);
          if (!found) missing.push(id);
          else if (!seen.has(found)) {
            seen.add(found);
            next.push(found);
          }
        }
        const rule = e.prop(RULE_KEY);
        rows.push([depth, e, o.observationClass, float(o.confidence), o.source, typeof rule === 'string' ? rule : null, missing]);
      }
      frontier = next;
    }
    return rows;
  },
);

export const OBSERVATION_PROCEDURES: readonly ProcedureDef[] = [classes, summary, infer, explain];

export function registerObservationProcedures(registry: ProcedureRegistry): void {
  for (const def of OBSERVATION_PROCEDURES) registry.register(def);
}

/**
 * graph_rag's ranking. Each reached node (and each value of a property the question asks
 * for) becomes an item scored
 *
 *   relevance × target factor × class weight × (0.5 + 0.5 × confidence × recency)
 *
 * - relevance: fused seed relevance, decayed along the path (expand.ts);
 * - target factor: 1 for an item the question names (a target label, reached over a target
 *   relationship type, the value of a target property), less for the seed it was found from
 *   (and for a seed the whole relation chain was walked from); half for anything found only
 *   from loose (text, vector) seeds when another seed matched a name or value exactly; half
 *   for a place or a time when the question asks "who" and names no label;
 * - class and confidence: the weakest of the item's own and its path's (an item reached only
 *   over predicted relationships counts as predicted);
 * - recency in [0.8, 1] where `observed_at` is known (newest 1), 0.9 where it is not.
 *
 * With the default class weights (1, 0.8, 0.5) the confidence term cannot lift a predicted
 * item over an observed one at equal relevance (options.ts). Conflicts: two items reached from the same node
 * over the same relationship type whose facts differ in class or source are both kept and
 * both marked.
 */

import { elementIdOf } from '../../functions/graph.js';
import type { Value } from '../../runtime/values.js';
import { CLASS_RANK, OBSERVATION_CLASSES, readObservation, readObservedAt, type ObservationClass } from '../observation/model.js';
import type { Node, Rel } from '../store/entities.js';
import type { Reach } from './expand.js';
import type { RagOptions } from './options.js';
import type { SchemaTargets } from './question.js';
import { displayName } from './text-match.js';
import { reachesAgent, reachesObject, reachesStranded } from './verb-roles.js';

/** Factor for an item the question does not name when it names something (the seed, usually). */
const OFF_TARGET = 0.25;
const UNDATED_RECENCY = 0.9;
/** Factor for a seed when the question asks for something it does not name: below a one-hop neighbour (0.5). */
const SEED_NOT_ASKED = 0.4;
/**
 * Factor for what is found from a seed only text or vector similarity found, when another
 * seed matched a name or a value exactly: the question is about that one ("which sea does
 * Oslo lie on" must not answer with every node whose name holds "sea").
 */
const LOOSE_SEED = 0.5;
/** Factor for a node of a label the question word rules out ("who" → not a place): a one-hop neighbour falls below the next one's. */
const RULED_OUT = 0.5;
/** Factor for a node of no label the question word prefers ("who" → people): a near tie goes to the person. */
const NOT_PREFERRED = 0.9;

export interface RankedItem {
  name: string;
  node: Node | null;
  score: number;
  relevance: number;
  confidence: number;
  observationClass: ObservationClass;
  note: string;
  /** Element ids: the seed, the relationships and nodes of the path, the item (set on the returned items). */
  evidence: string[];
  conflict: boolean;
  source: string | null;
  observedAt: number | null;
  reach: Reach;
  /** For a property answer: the property key. */
  property?: string;
}

/** Keys read one by one before the whole property map (which decodes every property, vectors included). */
const NAME_FIRST = ['name', 'title', 'label', 'caption', 'id', 'key'];

export function entityName(node: Node): string {
  for (const key of NAME_FIRST) {
    const v = node.prop(key);
    if (typeof v === 'string' && v !== '') return v;
  }
  const name = displayName(node.propertyMap() as ReadonlyMap<string, Value>);
  if (name !== undefined) return name;
  return node.labels.length > 0 ? `:${node.labels.join(':')} #${node.id}` : `#${node.id}`;
}

function weaker(a: ObservationClass, b: ObservationClass): ObservationClass {
  return OBSERVATION_CLASSES[Math.max(CLASS_RANK[a], CLASS_RANK[b])];
}

/** The path as Cypher-like steps from the seed: `'Ann' -[:WORKS_AT]-> 'Acme'`. */
export function pathSteps(r: Reach): string {
  let at = r.seed.node;
  const parts = [`'${entityName(at)}'`];
  for (const rel of r.path) {
    parts.push(rel.start === at ? `-[:${rel.type}]->` : `<-[:${rel.type}]-`);
    at = rel.other(at);
    parts.push(`'${entityName(at)}'`);
  }
  return parts.join(' ');
}

function pathText(r: Reach): string {
  if (r.path.length === 0) return 'seed';
  let at = r.seed.node;
  const steps: string[] = [];
  for (const rel of r.path) {
    const forward = rel.start === at;
    steps.push(forward ? `-[:${rel.type}]->` : `<-[:${rel.type}]-`);
    at = rel.other(at);
  }
  const hops = r.path.length === 1 ? '1 hop' : `${r.path.length} hops`;
  if (r.walked !== undefined) return `path ${pathSteps(r)} (${hops}, coverage ${round(r.walked)})`;
  return `${hops} from '${entityName(r.seed.node)}' ${steps.join(' ')}`;
}

function seedText(r: Reach): string {
  const parts = Object.entries(r.seed.sources).map(([source, s]) => `${source} #${s.rank} (${s.where})`);
  return parts.join(', ');
}

export function evidenceOf(r: Reach): string[] {
  const ids = [elementIdOf(r.seed.node)];
  let at = r.seed.node;
  for (const rel of r.path) {
    at = rel.other(at);
    ids.push(elementIdOf(rel), elementIdOf(at));
  }
  return ids;
}

function targetFactor(r: Reach, targets: SchemaTargets, walkedFrom: ReadonlySet<Node>, askedAbout: ReadonlySet<Node>): number {
  let f = 1;
  // The full end of a walked chain is the answer even when the only labels named were steps along it.
  const chainEnd = r.walked === 1 && targets.labelsAsked === false;
  if (targets.labels.length > 0 && !chainEnd && !r.node.labels.some((l) => targets.labels.includes(l))) f *= OFF_TARGET;
  // A seed found by a value the question names, of the asked label, is the answer itself ("which part has number PN-1").
  const valueAnswer = r.path.length === 0 && r.seed.sources.value !== undefined && (targets.labels.length === 0 || f === 1);
  if (targets.types.length > 0 && !valueAnswer && !r.path.some((rel) => targets.types.includes(rel.type))) f *= r.path.length === 0 ? OFF_TARGET : 0.6;
  // "Which items carry X?" asks for something other than X, though it names no label or type.
  if (r.path.length === 0 && !valueAnswer && targets.asksFor === true && targets.labels.length === 0 && targets.types.length === 0 && targets.keys.length === 0) f *= SEED_NOT_ASKED;
  // A seed the question's whole relation chain was walked from is where the question starts, not its answer ("the operator of X").
  else if (r.path.length === 0 && !valueAnswer && f === 1 && walkedFrom.has(r.node)) f *= SEED_NOT_ASKED;
  // An entity the question names, asking something about it ("X's department?", "what is X prescribed for"), is not its answer.
  else if (r.path.length === 0 && !valueAnswer && f === 1 && askedAbout.has(r.node)) f *= SEED_NOT_ASKED;
  // A place or time where "who" is asked ("Who works for X?" is not answered by X's country).
  if (targets.ruledOut !== undefined && r.node.labels.some((l) => targets.ruledOut?.includes(l))) f *= RULED_OUT;
  // A non-person where "who" asks and nothing else says what is asked ("X was led by whom?"): below a person equally near.
  if (targets.prefers !== undefined && !r.node.labels.some((l) => targets.prefers?.includes(l))) f *= NOT_PREFERRED;
  if (targets.keys.length > 0) f *= 0.5;
  return f;
}

/** The item's relevance: the reach's, times what the question makes of it (cheap: labels and path types, no property reads). */
function relevanceOf(r: Reach, targets: SchemaTargets, scope: RankScope, property: boolean): number {
  return (
    r.relevance *
    (property ? 1 : targetFactor(r, targets, scope.walkedFrom, scope.askedAbout)) *
    (scope.anchored && !exact(r) ? LOOSE_SEED : 1) *
    (leavesObject(r, scope.objectSeeds) || offObject(r, scope.subjectSeeds, scope.stranded) || offAgent(r, scope.patientSeeds) || offStranded(r, scope) ? AWAY_FROM_OBJECT : r.path.length === 0 && scope.objectSeeds.has(r.node) ? SEED_NOT_ASKED : 1)
  );
}

/** The full item of a candidate: its name and trust (the property reads ranking pays for). */
function item(c: Candidate): RankedItem {
  const r = c.reach;
  const property = c.property;
  const own = readObservation((k) => r.node.prop(k));
  const lastRel = r.path[r.path.length - 1];
  const relTrust = lastRel ? readObservation((k) => lastRel.prop(k)) : undefined;
  const observationClass = weaker(own.observationClass, r.pathClass);
  const confidence = Math.min(own.confidence, r.pathConfidence);
  const name = property ? (typeof property.value === 'string' ? property.value : JSON.stringify(property.value)) : entityName(r.node);
  return {
    name,
    node: property ? null : r.node,
    score: 0,
    relevance: c.relevance,
    confidence,
    observationClass,
    note: '',
    // Filled for the returned items only (element ids cost; most candidates are dropped).
    evidence: [],
    conflict: false,
    source: own.source ?? relTrust?.source ?? null,
    observedAt: c.observedAt,
    reach: r,
    property: property?.key,
  };
}

/** A reach (or one of its target property values) before its name and trust are read. */
interface Candidate {
  reach: Reach;
  relevance: number;
  observedAt: number | null;
  property?: { key: string; value: Value };
}

function propertyValue(v: Value | undefined): v is Value {
  return v !== undefined && v !== null && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint');
}

interface RankScope {
  /** Whether some seed matched a name or a value exactly. */
  anchored: boolean;
  /** Seeds a relation chain was walked from with full coverage. */
  walkedFrom: ReadonlySet<Node>;
  /** Seeds the question names to ask something about them (words beyond the name and the question words): not the answer. */
  askedAbout: ReadonlySet<Node>;
  /** Seeds the question names as the object of an unmatched verb ("what is shedded **at** X"). */
  objectSeeds: ReadonlySet<Node>;
  /** Seeds the question names as the subject of an unmatched verb ("what did X observe"). */
  subjectSeeds: ReadonlySet<Node>;
  /** Seeds the question names as the object of an unmatched passive verb whose agent it asks ("X was helmed by whom"). */
  patientSeeds: ReadonlySet<Node>;
  /** The preposition the question ends on ("did X star **in**?"), if any (verb-roles.ts). */
  stranded?: string;
  /** Seeds some type named with that preposition leaves. */
  strandedSeeds?: ReadonlySet<Node>;
}

/** The seeds a verb the schema does not know makes its object or its subject (verb-roles.ts). */
export interface VerbRoles {
  objectSeeds: ReadonlySet<Node>;
  subjectSeeds: ReadonlySet<Node>;
  patientSeeds?: ReadonlySet<Node>;
  /** The preposition the question ends on, which a type leaving a subject seed may name (verb-roles.ts). */
  stranded?: string;
  /** Seeds a type named with that preposition leaves: what lies over their other types is not the answer. */
  strandedSeeds?: ReadonlySet<Node>;
}

/**
 * Factor for what is reached over a relationship leaving a seed that the question names as
 * an object: relationships point from subject to object, so "what is X-ed at Y" is answered
 * by what points into Y, not by what Y points to; likewise, for a seed named as the subject
 * ("what did X observe"), for what is not its object over a plain verb.
 */
const AWAY_FROM_OBJECT = 0.7;

/**
 * Whether the item was reached from a subject seed other than over a relationship to the object of the verb its type
 * names: "What did X observe?" asks for X's direct object (`TARGETED`), "What has X published?" for what X wrote (back
 * along `written_by`), not for X's means (`onInstrument`) or its part (`hasPI`).
 */
function offObject(r: Reach, subjectSeeds: ReadonlySet<Node>, stranded: string | undefined): boolean {
  if (r.walked !== undefined || r.path.length === 0 || !subjectSeeds.has(r.seed.node)) return false;
  const forward = r.path[0].start === r.seed.node;
  // A preposition left at the question's end is the verb's: a type leaving X named with it reaches its object ("did X star **in**" → `ACTED_IN`).
  return !reachesObject(forward, r.path[0].type) && !reachesStranded(forward, r.path[0].type, stranded);
}

/**
 * Whether the item was reached from a seed a type named with the question's closing preposition leaves, over another
 * relationship: "What is X prescribed **for**?" asks over `indicatedFor`, not over `licensedTo`.
 */
function offStranded(r: Reach, scope: RankScope): boolean {
  if (r.walked !== undefined || r.path.length === 0 || scope.strandedSeeds?.has(r.seed.node) !== true) return false;
  return !reachesStranded(r.path[0].start === r.seed.node, r.path[0].type, scope.stranded);
}

/**
 * Whether the item was reached from the object of a passive question ("X was helmed by whom") back over an oblique
 * (`(person)-[:ACTED_IN]->(X)`): no way to the verb's agent. No relation phrase was walked (the verb is unknown), so a
 * chain walked to an asked label ("whom" → people) counts by its first hop as well.
 */
function offAgent(r: Reach, patientSeeds: ReadonlySet<Node>): boolean {
  return r.path.length > 0 && patientSeeds.has(r.seed.node) && !reachesAgent(r.path[0].start === r.seed.node, r.path[0].type);
}

/** Whether the item was reached over a relationship leaving an object seed (the object seed itself is where the question points, not its answer). */
function leavesObject(r: Reach, objectSeeds: ReadonlySet<Node>): boolean {
  return r.walked === undefined && r.path.length > 0 && objectSeeds.has(r.seed.node) && r.path[0].start === r.seed.node;
}

function exact(r: Reach): boolean {
  return r.seed.sources.name !== undefined || r.seed.sources.value !== undefined;
}

/** The ranking: the best `k` items, and how many distinct candidates (nodes and property values) competed. */
export interface Ranking {
  items: RankedItem[];
  candidates: number;
}

/** How many items are read in full between two checks of the k-th best score. */
const THRESHOLD_EVERY = 16;

/**
 * The `k` best items over every reach (and every target property value), best first, one per
 * node. A candidate's score is at most its relevance × the highest class weight (the trust
 * term is at most 1), so candidates are read in full — name, class, confidence, source: four
 * to ten property reads each — in order of that bound, only until the bound falls below the
 * k-th best score found: most of a question's thousands of reaches are never read. Only
 * `observed_at` is read for all of them, since recency is measured against the whole set.
 */
export function rank(
  reaches: readonly Reach[],
  targets: SchemaTargets,
  options: RagOptions,
  anchored = false,
  roles: VerbRoles = { objectSeeds: new Set(), subjectSeeds: new Set() },
  askedAbout: ReadonlySet<Node> = new Set(),
  k = Infinity,
): Ranking {
  const scope: RankScope = { anchored, walkedFrom: new Set(reaches.filter((r) => r.walked === 1 && r.path.length > 0).map((r) => r.seed.node)), ...roles, patientSeeds: roles.patientSeeds ?? new Set(), askedAbout };
  const candidates: Candidate[] = [];
  const nodes = new Set<Node>();
  const values = new Set<string>();
  let oldest = Infinity;
  let newest = -Infinity;
  for (const r of reaches) {
    const lastRel = r.path[r.path.length - 1];
    const observedAt = (lastRel ? readObservedAt((key) => lastRel.prop(key)) : null) ?? readObservedAt((key) => r.node.prop(key));
    if (observedAt !== null) {
      oldest = Math.min(oldest, observedAt);
      newest = Math.max(newest, observedAt);
    }
    nodes.add(r.node);
    candidates.push({ reach: r, relevance: relevanceOf(r, targets, scope, false), observedAt });
    for (const key of targets.keys) {
      const v = r.node.prop(key);
      if (!propertyValue(v)) continue;
      values.add(`${r.node.id}:${key}`);
      candidates.push({ reach: r, relevance: relevanceOf(r, targets, scope, true), observedAt, property: { key, value: v } });
    }
  }
  const anyDated = newest >= oldest;
  const span = anyDated ? newest - oldest : 0;
  const topWeight = Math.max(...Object.values(options.classWeights));
  candidates.sort((a, b) => b.relevance - a.relevance);
  const keyOf = (i: RankedItem): string => (i.node ? `n${i.node.id}` : `p${i.reach.node.id}:${i.property ?? ''}`);
  const items: RankedItem[] = [];
  const bestOf = new Map<string, number>();
  // The k-th best score over distinct keys so far: a lower bound of the final one (bests only grow).
  let kth = -Infinity;
  let sinceCheck = 0;
  for (const c of candidates) {
    if (c.relevance * topWeight < kth) {
      if (sinceCheck === 0) break;
      kth = kthBest(bestOf, k);
      sinceCheck = 0;
      if (c.relevance * topWeight < kth) break;
    }
    const i = item(c);
    const recency = i.observedAt === null ? (anyDated ? UNDATED_RECENCY : 1) : span > 0 ? 0.8 + (0.2 * (i.observedAt - oldest)) / span : 1;
    i.score = i.relevance * options.classWeights[i.observationClass] * (0.5 + 0.5 * i.confidence * recency);
    items.push(i);
    const key = keyOf(i);
    if ((bestOf.get(key) ?? -Infinity) < i.score) bestOf.set(key, i.score);
    if (++sinceCheck >= THRESHOLD_EVERY) {
      kth = kthBest(bestOf, k);
      sinceCheck = 0;
    }
  }
  items.sort(
    (a, b) =>
      b.score - a.score ||
      CLASS_RANK[a.observationClass] - CLASS_RANK[b.observationClass] ||
      b.confidence - a.confidence ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  // One item per node (its best way of being reached), one per property value of a node.
  const kept: RankedItem[] = [];
  const seen = new Set<string>();
  for (const i of items) {
    if (kept.length >= k) break;
    const key = keyOf(i);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(i);
  }
  return { items: kept, candidates: nodes.size + values.size };
}

/** The k-th highest of the scores (-Infinity while fewer than k). */
function kthBest(bestOf: ReadonlyMap<string, number>, k: number): number {
  if (bestOf.size < k) return -Infinity;
  return [...bestOf.values()].sort((a, b) => b - a)[k - 1];
}

/** Marks items that disagree: reached from the same node over the same type, with differing class or source. */
export function markConflicts(items: RankedItem[]): void {
  const groups = new Map<string, RankedItem[]>();
  for (const i of items) {
    const rel: Rel | undefined = i.reach.path[i.reach.path.length - 1];
    if (!rel || !i.node) continue;
    const from = rel.other(i.node);
    const key = `${from.id}:${rel.type}:${rel.start === from ? 'out' : 'in'}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(i);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const trusts = new Set(group.map((i) => `${i.observationClass}|${i.source ?? ''}`));
    if (trusts.size < 2) continue;
    for (const i of group) {
      i.conflict = true;
      const others = group.filter((o) => o !== i).map((o) => `'${o.name}' (${o.observationClass})`);
      i.note += `; conflicts with ${others.slice(0, 3).join(', ')}`;
    }
  }
}

/** The one-line note: what the item is, why it was returned, what backs it. */
export function noteFor(i: RankedItem): string {
  const r = i.reach;
  const what = i.property ? `${i.property} of '${entityName(r.node)}'` : r.node.labels.length > 0 ? `:${r.node.labels.join(':')}` : 'node';
  const how = r.path.length === 0 ? `seed: ${seedText(r)}` : `${pathText(r)}; seed: ${seedText(r)}`;
  const source = i.source !== null ? `; source ${i.source}` : '';
  return `${what}; ${how}; ${i.observationClass}, confidence ${round(i.confidence)}${source}; score ${round(i.score)}`;
}

export function round(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

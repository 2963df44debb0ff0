/**
 * graph_rag's path walk: a question that chains relations ("which country is the supplier of
 * X based in", "who supplies the parts of Y") is answered by walking, from each of the first
 * seeds (those at least half as relevant as the best), only the relationship types its phrases name (relation-match.ts), each type at most
 * once per path, up to MAX_PATH_HOPS hops (never more than the number of types named). A path
 * end is a candidate answer scored by its *coverage*: the summed scores of the named types
 * the path crossed, over the best any walked path reached; the seed's relevance is carried
 * without the per-hop decay of plain expansion, less 5 % per extra hop, so the end of the
 * chain outranks the entities along it. Trust travels as in expansion (weakest class, lowest
 * confidence), so ranking stays trust-ordered. Bounded: fanout per node, MAX_PATH_ENDS in all,
 * the deadline. Each phrase of the question (a run of adjacent content words) counts once, so
 * a second type it matched only connects; a chain ends on a hop a phrase named or at the asked
 * label. When the question asks for a label, an end of that label is scored against the best
 * end of that label, so a chain that walks past the answer does not outscore it; labels the
 * question mentions along the way, passed through, break ties between equally covered chains.
 * A type that joins a label to itself is crossed only in the direction the question reads it in
 * (relation-direction.ts), when its word order says one.
 */

import { CLASS_RANK, OBSERVATION_CLASSES, readTrust, type ObservationClass } from '../observation/model.js';
import type { Node, Rel } from '../store/entities.js';
import type { Graph } from '../store/graph.js';
import type { Reach } from './expand.js';
import type { RelationMatch } from './relation-match.js';
import type { Seed } from './seeds.js';

export const MAX_PATH_HOPS = 3;
/** Most path ends kept per question. */
export const MAX_PATH_ENDS = 5000;
/** Seeds a path is walked from. */
const PATH_SEEDS = 5;
/** A seed this far below the best is not walked from (a weak full-text or vector hit would only add distractors and time). */
const PATH_SEED_RELEVANCE = 0.5;
const EXTRA_HOP = 0.95;
/** What passing through a label the question mentions adds to a chain's coverage (a tenth of a phrase). */
const LABEL_BONUS = 0.1;
/**
 * The share of a chain found by the schema's route alone (no phrase of the question named its
 * relations): short of a full chain (1), so a seed it was walked from is not taken for the
 * question's start as a covered chain's is, but well above plain expansion's halving per hop.
 */
const ROUTE_ONLY = 0.9;
/** Each hop an uncovered route takes beyond the shortest one multiplies its share by this. */
const UNCOVERED_HOP = 0.5;

export interface WalkResult {
  reaches: Reach[];
  /** Hops walked at most. */
  maxHops: number;
  /** Whether a bound (ends, deadline) stopped the walk. */
  cut: boolean;
}

function weaker(a: ObservationClass, b: ObservationClass): ObservationClass {
  return OBSERVATION_CLASSES[Math.max(CLASS_RANK[a], CLASS_RANK[b])];
}

export function walkPaths(
  graph: Graph,
  seeds: readonly Seed[],
  relations: readonly RelationMatch[],
  fanout: number,
  relWeights: ReadonlyMap<string, number>,
  expired: () => boolean,
  checkDeadline: () => void,
  askedLabels: readonly string[] = [],
  namedLabels: readonly string[] = [],
): WalkResult {
  // A type weighted 0 is not followed here either.
  relations = relations.filter((r) => (relWeights.get(r.type) ?? 1) > 0);
  const scoreOf = new Map(relations.map((r) => [r.type, r.score]));
  const wordOf = new Map(relations.map((r) => [r.type, r.phrase ?? r.word]));
  const directionOf = new Map(relations.flatMap((r) => (r.direction ? [[r.type, r.direction] as const] : [])));
  // A type named with "co-" is crossed twice: to what the entity shares, then on to its other participants.
  const shared = new Set(relations.filter((r) => r.shared === true).map((r) => r.type));
  const named = relations.filter((r) => r.score > 0).length;
  const maxHops = Math.min(MAX_PATH_HOPS, relations.length + shared.size);
  const result: WalkResult = { reaches: [], maxHops, cut: false };
  // With no phrase naming a relation, only a schema route to the asked label is walked.
  if ((named === 0 && askedLabels.length === 0) || maxHops === 0) return result;
  const typeIds = relations.map((r) => graph.typeId(r.type)).filter((id): id is number => id !== undefined);
  interface Step {
    node: Node;
    path: Rel[];
    coverage: number;
    /** What the last hop added to the coverage. */
    last: number;
    /** The question phrases the path's types matched: each counts once ("headquartered" matches one hop, not two). */
    words: readonly string[];
    /** Labels the question mentions that the path has passed through (a tie-break between equally covered chains). */
    labels: readonly string[];
    cls: ObservationClass;
    confidence: number;
  }
  const ends: { seed: Seed; step: Step }[] = [];
  const isAsked = (n: Node): boolean => askedLabels.length > 0 && n.labels.some((l) => askedLabels.includes(l));
  outer: for (const seed of seeds.slice(0, PATH_SEEDS)) {
    if (seed.relevance < PATH_SEED_RELEVANCE) continue;
    const stack: Step[] = [{ node: seed.node, path: [], coverage: 0, last: 0, words: [], labels: [], cls: 'observed', confidence: 1 }];
    while (stack.length > 0) {
      const at = stack.pop() as Step;
      // A chain ends on a hop a phrase named, or at what is asked for: a last hop that only connects walks past the answer.
      // An end of the asked label with no phrase covered counts only when no chain covers any (see below).
      if (at.path.length > 0 && ((at.coverage > 0 && at.last > 0) || isAsked(at.node))) ends.push({ seed, step: at });
      if (ends.length >= MAX_PATH_ENDS) {
        result.cut = true;
        break outer;
      }
      if (at.path.length >= maxHops) continue;
      checkDeadline();
      if (expired()) {
        result.cut = true;
        break outer;
      }
      const relIds: number[] = [];
      graph.forEachAdjacent(at.node, typeIds, 'both', (relId) => {
        if (relIds.length < fanout) relIds.push(relId);
      });
      for (const relId of relIds) {
        const rel = graph.rel(relId);
        if (!rel || rel.deleted) continue;
        const crossed = at.path.filter((r) => r.type === rel.type);
        // A shared type's second crossing leaves the shared thing from the side the entity reached it by (the paper's
        // other authors, not what the paper cites): the shared thing stands at the same end of both relationships.
        const second = crossed.length === 1 && shared.has(rel.type) && at.path[at.path.length - 1] === crossed[0] && (crossed[0].start === at.node) === (rel.start === at.node);
        if (crossed.length > 0 && !second) continue;
        // A type joining a label to itself goes the way the question reads it (relation-direction.ts).
        const direction = directionOf.get(rel.type);
        if (direction !== undefined && (rel.start === at.node) !== (direction === 'out')) continue;
        const other = rel.other(at.node);
        if (other.deleted || other === seed.node || at.path.some((r) => r.start === other || r.end === other)) continue;
        const trust = readTrust((k) => rel.prop(k));
        const word = wordOf.get(rel.type) ?? '';
        // A phrase names one hop: a second type matched by the same phrase ("headquartered" ~ HQ_IN and ~ locatedIn)
        // adds nothing, though it may still connect ("the office … located in": BASED_AT, then LOCATED_IN).
        const score = at.words.includes(word) ? 0 : (scoreOf.get(rel.type) ?? 0);
        // The shared thing is no end ("co-authored": the paper is how, not who); the second crossing ends the phrase's hop.
        const last = second ? (scoreOf.get(rel.type) ?? 0) : shared.has(rel.type) ? 0 : score;
        // Only nodes passed through count (the end is judged by the asked label instead).
        const passed = at.path.length === 0 ? [] : namedLabels.filter((l) => !at.labels.includes(l) && at.node.labels.includes(l));
        stack.push({
          node: other,
          path: [...at.path, rel],
          coverage: at.coverage + score,
          last,
          words: score > 0 ? [...at.words, word] : at.words,
          labels: passed.length > 0 ? [...at.labels, ...passed] : at.labels,
          cls: weaker(at.cls, trust.observationClass),
          confidence: Math.min(at.confidence, trust.confidence),
        });
      }
    }
  }
  // Each label the question mentions that a chain passes through adds a little: of two chains that
  // cover the same phrases, the one through "the operator" the question names is the one it means.
  const total = (s: Step): number => s.coverage + LABEL_BONUS * s.labels.length;
  const best = ends.reduce((m, e) => Math.max(m, total(e.step)), 0);
  // Ends of the asked label that no phrase covered: the shortest routes there answer, a longer one less.
  const byRoute = (routed: readonly { seed: Seed; step: Step }[]): void => {
    const shortest = routed.reduce((m, e) => Math.min(m, e.step.path.length), MAX_PATH_HOPS);
    for (const { seed, step } of routed) {
      const share = ROUTE_ONLY * UNCOVERED_HOP ** (step.path.length - shortest);
      result.reaches.push({ node: step.node, seed, relevance: seed.relevance * share * share * EXTRA_HOP ** (step.path.length - 1), path: step.path, pathClass: step.cls, pathConfidence: step.confidence, walked: share });
    }
  };
  if (best <= 0) {
    byRoute(ends);
    return result;
  }
  // The question says what kind of thing it asks for: the best chain that ends at one is the
  // answer's chain, even when a longer one (past the answer, "the station the depot is next to"
  // on to the station's town) gathers more of the question's words.
  const bestAsked = ends.reduce((m, e) => (isAsked(e.step.node) ? Math.max(m, total(e.step)) : m), 0);
  // Phrases covered only chains that end elsewhere ("studied" ~ enrolsAt, to a hospital, when a disease is asked):
  // the asked label is still reached by the schema's route, and ranking keeps the asked label above the rest.
  if (bestAsked <= 0) byRoute(ends.filter((e) => isAsked(e.step.node)));
  for (const { seed, step } of ends) {
    if (total(step) <= 0) continue;
    const share = Math.min(1, isAsked(step.node) && bestAsked > 0 ? total(step) / bestAsked : total(step) / best);
    result.reaches.push({
      node: step.node,
      seed,
      relevance: seed.relevance * share * share * EXTRA_HOP ** (step.path.length - 1),
      path: step.path,
      pathClass: step.cls,
      pathConfidence: step.confidence,
      walked: share,
    });
  }
  return result;
}

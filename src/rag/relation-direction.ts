/**
 * The direction a question reads a relationship type in, for types that join a label to itself
 * (`(:Package)-[:dependsOn]->(:Package)`, `(:Person)-[:MANAGES]->(:Person)`): their end labels
 * cannot tell "what does X depend on" from "what depends on X", so the path walk would follow
 * both and rank the wrong end as often as the right one. The question's word order tells them
 * apart, read from where the entity's name stands against the relation's word:
 *
 * - before the verb, X is its subject: "What does X depend on?", "the packages that X depends on";
 *   "X is used by …" (a participle then "by") makes it the object;
 * - after the verb, X is its object: "What depends on X?", "packages that depend on packages
 *   maintained by X" (the hop is crossed from its object's side); "… used by X" its subject;
 * - after a noun of the relation and "of" (or before it with "'s"), X is the verb's subject for a
 *   noun of the act or state ("the dependencies of X", "X's references") and its object for an
 *   agent noun ("the dependents of X", "X's manager", "the followers of X").
 *
 * A type named in the passive (`MANAGED_BY`: its start is the verb's object) is read the other
 * way round. Types joining different labels are left to their labels.
 */

import type { Graph } from '../store/graph.js';
import { identifierWords } from './text-match.js';

/** `out`: from the entity along the relationship's arrow; `in`: against it. */
export type Direction = 'out' | 'in';

/** Relationships sampled per type. */
const SAMPLE = 64;

interface Cached {
  relCount: number;
  types: Set<string>;
}
const cache = new WeakMap<Graph, Cached>();

/** Types whose every sampled relationship joins two nodes sharing a label (cached until the relationship count moves). */
export function sameLabelTypes(graph: Graph): ReadonlySet<string> {
  const cached = cache.get(graph);
  if (cached && cached.relCount === graph.relCount) return cached.types;
  const types = new Set<string>();
  for (const type of graph.relationshipTypes()) {
    const ids = graph.typeSet(type)?.toArray() ?? [];
    let seen = 0;
    let same = true;
    for (const id of ids) {
      if (seen >= SAMPLE) break;
      const rel = graph.rel(id);
      if (!rel || rel.deleted) continue;
      seen++;
      if (!rel.start.labels.some((l) => rel.end.labels.includes(l))) {
        same = false;
        break;
      }
    }
    if (seen > 0 && same) types.add(type);
  }
  cache.set(graph, { relCount: graph.relCount, types });
  return types;
}

/** An agent noun: one who does the act ("dependents", "manager", "followers", "operator", "servant"). */
const AGENT_NOUN = /(?:er|or|ent|ant)s?$/;
/** Words that may stand between a noun of the relation and "of" / a possessive and the noun ("X's direct dependencies"). */
const MAX_GAP = 2;

function indexOfRun(raw: readonly string[], run: readonly string[], from = 0): number {
  for (let i = from; i + run.length <= raw.length; i++) if (run.every((w, j) => raw[i + j] === w)) return i;
  return -1;
}

/**
 * Whether the entity named `name` (its lower-case words) is the subject of the relation the
 * question word `word` names, by word order; undefined when either is not in the question.
 */
function entityIsSubject(raw: readonly string[], word: string, name: readonly string[], possessive: boolean): boolean | undefined {
  const at = raw.indexOf(word.split(' ')[0]);
  const seedAt = name.length > 0 ? indexOfRun(raw, name) : -1;
  if (at < 0 || seedAt < 0) return undefined;
  const agent = AGENT_NOUN.test(word);
  const seedEnd = seedAt + name.length;
  // A participle then "by" ("used by", "depended on by") turns the clause round; a "by" further on belongs to another clause.
  const passive = raw.slice(at + 1, at + 3).includes('by');
  if (seedAt < at) {
    // "X's manager", "X's dependencies": a noun of the relation after the possessive.
    if (possessive && at - seedEnd <= MAX_GAP) return !agent;
    return !passive;
  }
  if (passive) return true;
  // "the dependencies of X" / "the dependents of X".
  if (raw.slice(at + 1, at + 1 + MAX_GAP).includes('of')) return !agent;
  return false;
}

const WORD = /[\p{L}\p{N}]+/gu;
const POSSESSIVE_S = /^['’]s(?![\p{L}\p{N}])/u;

/** Whether the question `text` writes the name (its lower-case words) as a possessive: "Cy Dahl's", "Cy Dahl’s". */
export function possessiveOf(text: string, name: readonly string[]): boolean {
  if (name.length === 0) return false;
  // Constant expressions only: a pattern built from the name per question cost more than the rest of the walk.
  const words = [...text.toLowerCase().matchAll(WORD)];
  for (let i = 0; i + name.length <= words.length; i++) {
    if (!name.every((w, j) => words[i + j][0] === w)) continue;
    const last = words[i + name.length - 1];
    if (POSSESSIVE_S.test(text.slice(last.index + last[0].length))) return true;
  }
  return false;
}

/**
 * The direction to walk `type` from the entity named `name`, read from the question's words
 * (`raw`, lower case) around `word`, the word that named the type; `possessive` when the
 * question writes the name with "'s". Undefined when the order says nothing (either is missing
 * from the question).
 */
export function clauseDirection(raw: readonly string[], word: string, type: string, name: readonly string[], possessive = false): Direction | undefined {
  const subject = entityIsSubject(raw, word, name, possessive);
  if (subject === undefined) return undefined;
  const words = identifierWords(type);
  const passive = words.length > 1 && words[words.length - 1] === 'by';
  return subject !== passive ? 'out' : 'in';
}

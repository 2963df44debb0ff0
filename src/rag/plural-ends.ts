/**
 * A question that asks for a plural noun ("List the **members** of X", "X **members**") wants a
 * relation with many ends. When none of its phrases names a relation the walk could follow from
 * X, plain expansion ranks X's one-hop neighbours alike, and a single fact about X (its town, its
 * country, confident and observed) comes before the many it was asked for (its members, known with
 * less confidence). So then, when X has several ends over some type, a neighbour over a type
 * X has only one of in that direction counts half: the answers come from the types X has several
 * of — when the text is a question (a plain search with a plural in it is not). The name of X
 * followed by one plural and nothing else ("The Owls members") is such a question, about X, so X
 * itself is not its answer.
 */

import type { Node } from '../store/entities.js';
import type { Reach } from './expand.js';
import { foldWord } from './question.js';
import { isStopWord } from './text-match.js';

/** What a neighbour over a type the entity has only one of keeps of its relevance. */
const SINGLE_END = 0.5;

/** Whether the question's words (lower case) hold a plural noun outside the entity's name: a word in -s whose folded form differs. */
export function asksPlural(raw: readonly string[], nameWords: ReadonlySet<string>): boolean {
  return raw.some((w) => !nameWords.has(w) && !isStopWord(w) && w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && foldWord(w) !== w);
}

/** Words that ask for every one of something, whatever the number of its noun ("list them **all**", "the **complete** roster"). */
const ALL_WORDS: ReadonlySet<string> = new Set(['all', 'every', 'everyone', 'everybody', 'everything', 'complete', 'entire', 'list']);

/** Whether the question's words (lower case) ask for all of something outside the entity's name: "all", "everyone", "complete", "list"…. */
export function asksAll(raw: readonly string[], nameWords: ReadonlySet<string>): boolean {
  return raw.some((w) => ALL_WORDS.has(w) && !nameWords.has(w));
}

/** Whether the words are the entity's name and then one plural and nothing else ("the owls members"): a fragment asking for those of it. */
export function pluralOfName(raw: readonly string[], name: readonly string[]): boolean {
  const rest = raw.slice(0, name.length).every((w, i) => w === name[i]) ? raw.slice(name.length) : raw[0] === 'the' && name[0] !== 'the' && name.every((w, i) => raw[i + 1] === w) ? raw.slice(name.length + 1) : undefined;
  return rest !== undefined && rest.length === 1 && asksPlural(rest, new Set());
}

/**
 * The reaches with one-hop neighbours of `entity` over a (type, direction) it has only one of at half relevance; with
 * `entityToo` (the question asks for all of them), the entity itself at half relevance as well.
 */
export function preferManyEnds(reached: readonly Reach[], entity: Node, entityToo = false): Reach[] {
  const key = (r: Reach): string | undefined => {
    if (r.seed.node !== entity || r.path.length !== 1) return undefined;
    const rel = r.path[0];
    return `${rel.start === entity ? '>' : '<'}${rel.type}`;
  };
  const counts = new Map<string, Set<Node>>();
  for (const r of reached) {
    const k = key(r);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? new Set()).add(r.node));
  }
  // With no type of several ends there is nothing to prefer ("the members of X" when X has one member).
  if (![...counts.values()].some((ends) => ends.size > 1)) return [...reached];
  return reached.map((r) => {
    const k = key(r);
    const single = k !== undefined ? (counts.get(k)?.size ?? 0) === 1 : entityToo && r.path.length === 0 && r.node === entity;
    return single ? { ...r, relevance: r.relevance * SINGLE_END } : r;
  });
}

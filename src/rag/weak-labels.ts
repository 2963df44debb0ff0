/**
 * A label asked only by its nodes' words yields to what the question's own words say. A question
 * may ask for a label by a word that is neither the label's name nor a noun of its group, only a
 * word its nodes use (label-vocabulary.ts): "pictures" when studios are called "Driftwood
 * Pictures", "performers" when agencies "look after performers". That is the weakest reading of
 * what is asked, and it gives way when the question says more:
 *
 * - **the value's holder**: a value the question gives under its key's own words ("which film has
 *   the **ISAN** 0000-…", "the performer with **guild** card 823094", "which movie was **released** on
 *   6 May 1971") belongs to what is asked, so the label of the node holding it is asked instead;
 * - **the entity's own kind**: with no type named by its own words, a weakly asked label that is the
 *   label of the entity the question names ("Name a picture from Driftwood Pictures") asks for
 *   nothing: the question is about that entity, not its peers — unless a type joins that label to
 *   itself ("a library that uses X", packages depending on packages), where peers answer;
 * - **the entity's neighbourhood**: a synonym of a learnt word (a guess upon a guess) does not carry
 *   the question across the schema. A label asked only through a noun of the group of one of its
 *   learnt words, that no type joins to the entity's label and that no type the question names (by
 *   its words or a synonym) reaches, asks for nothing: "Which films did X **direct**?" (studios
 *   named "… Pictures", picture ~ film, lie two hops from people) is answered by the `DIRECTED_BY`
 *   chain, "all the movies X has been in" by X's own neighbours. Where a named type reaches the
 *   label ("What train companies run services …": run ~ `operated_by`, to the operators), a type
 *   joins it to the entity's ("What trials is H taking part in?"), or the word is one the label's
 *   nodes use themselves ("Which cooperative does the farmer of F belong to?"), it stays asked.
 *
 * Each reading keeps a question, or a fragment whose weak word comes before the entity's name ("a
 * movie by X"), asking for something other than its entity (`asksFor`). A value
 * held by a node of the asked label confirms that label.
 *
 * `explain` shows a holder's label as a target match `by: 'value'`.
 */

import type { Graph } from '../store/graph.js';
import type { AnalysedQuestion, SchemaTargets } from './question.js';
import { LEARNT_NAMING, labelNaming, stem, typeEndpoints } from './relation-match.js';
import { schemaEdges } from './schema-routes.js';
import { isStopWord } from './text-match.js';

/** What the pipeline knows when the targets are settled: the entity, the value it found and where. */
export interface WeakLabelContext {
  graph: Graph;
  q: AnalysedQuestion;
  vocabulary: ReadonlyMap<string, ReadonlySet<string>>;
  /** Words that name the entities (and the value's key), never asked words. */
  notAsked: ReadonlySet<string>;
  /** Labels of the first seed found by name (the entity the question names), if any. */
  entityLabels: readonly string[];
  /** Labels of the nodes holding a value the question gives. */
  holderLabels: ReadonlySet<string>;
  /** Stems of the words of the keys those values were found in. */
  valueKeyStems: ReadonlySet<string>;
}

/** The targets with labels asked only by learnt words replaced, or dropped, where the question's words say more. */
export function yieldWeakLabels(targets: SchemaTargets, c: WeakLabelContext): SchemaTargets {
  if (targets.labelsAsked !== true || targets.labels.length === 0) return targets;
  if (targets.matches.some((m) => m.kind === 'label' && m.by !== 'words')) return targets;
  // The asked words; in a fragment ("all the movies X has been in"), any content word outside the entities' names.
  const asked = (c.q.asked.length > 0 ? c.q.asked : c.q.raw).filter((w) => !c.notAsked.has(w) && !isStopWord(w));
  const strength = (label: string): number => Math.max(0, ...asked.map((w) => labelNaming(w, label, c.vocabulary.get(label))));
  // Every asked label named by learnt words only: not by its own word, a noun of its group or a relation synonym.
  if (asked.length === 0 || !targets.labels.every((l) => strength(l) === LEARNT_NAMING)) return targets;
  const nameAt = c.q.raw.findIndex((w) => c.notAsked.has(w));
  const headsEntity = nameAt > 0 && c.q.raw.slice(0, nameAt).some((w) => asked.includes(w));
  const withLabels = (labels: readonly string[], by: 'value' | undefined): SchemaTargets => ({
    ...targets,
    labels: [...labels],
    labelsAsked: labels.length > 0,
    // The question still asks for something other than its entity, though for no label now: a question with asked words, or
    // a fragment whose weak word heads the phrase the entity's name ends ("a movie by X" is no search for X; "X common words" is).
    asksFor: targets.asksFor === true || headsEntity,
    matches: [...targets.matches.filter((m) => m.kind !== 'label'), ...labels.map((name) => ({ kind: 'label' as const, name, score: 1, by: by ?? ('words' as const) }))],
  });
  const keyNamed = c.q.raw.some((w) => !isStopWord(w) && c.valueKeyStems.has(stem(w)));
  const holders = [...c.holderLabels];
  // A value held by a node of the asked label confirms it ("which trial enrolled its first patient on D").
  if (holders.some((l) => targets.labels.includes(l))) return targets;
  if (keyNamed && holders.length > 0) return withLabels(holders, 'value');
  if (c.entityLabels.length === 0) return targets;
  const ends = typeEndpoints(c.graph);
  const named = targets.matches.filter((m) => m.kind === 'type').map((m) => ({ by: m.by, ends: ends.get(m.name) ?? new Set<string>() }));
  // With no relation named by its own words to say where the answer lies, the entity's own kind is a reflection of its name or prose.
  // Not where a type joins that label to itself ("a library that uses X", with `dependsOn` between packages): peers answer there.
  const selfJoined = (l: string): boolean => schemaEdges(c.graph).some((e) => e.from === l && e.to === l);
  if (!named.some((t) => t.by === 'words') && targets.labels.every((l) => c.entityLabels.includes(l) && !selfJoined(l))) return withLabels([], undefined);
  // A weak word does not carry the question across the schema: a label that no type joins to the entity's and that no type
  // the question names (by its words or a synonym) reaches is not asked; the named relation, or the entity's neighbours, answer.
  const adjacent = (l: string): boolean => schemaEdges(c.graph).some((e) => (c.entityLabels.includes(e.from) && e.to === l) || (c.entityLabels.includes(e.to) && e.from === l));
  // Only a label named through a synonym of one of its learnt words ("films" ~ "pictures"), a guess upon a guess: a label
  // whose nodes use the word itself ("which cooperative …" when co-ops are called "… Cooperative") may lie hops away.
  const bySynonymOnly = (l: string): boolean => !asked.some((w) => c.vocabulary.get(l)?.has(stem(w)) === true);
  if (targets.labels.every(bySynonymOnly) && !targets.labels.some((l) => adjacent(l) || named.some((t) => t.ends.has(l)))) return withLabels([], undefined);
  return targets;
}

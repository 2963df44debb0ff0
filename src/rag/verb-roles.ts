/**
 * The entity's role for a verb the schema does not know. When no relation phrase of a question
 * names a type, its verb still says which side of a relationship the entity the question names
 * stands on, because relationships point from subject to object:
 *
 * - after a preposition ("What is parked **at** East Shed?") the entity is the verb's object: the
 *   answer points into it;
 * - after an auxiliary, with the verb right after its name ("What **did** Survey 4 **chart**?",
 *   "What **has** Kern Yard **made**?") it is the verb's subject and the wh-word its direct
 *   object: the answer is what the entity points to over a type named as a plain verb
 *   (`TARGETED`, `BUILDS`), or what points to it over a passive (`WRITTEN_BY`: from the thing
 *   written to its writer), not what lies over a type whose name carries another preposition
 *   (`onInstrument`, `USES_DATA_FROM`) or a "has" (`hasPI`), which name an oblique (the means,
 *   the place, the source) or a part, not what was done to something.
 * - before a passive verb and its "by" ("\"T\" **was** helmed **by** whom?", "X **is** chaired **by** which
 *   firm?") it is the verb's object and the answer its agent: what the entity points to
 *   (`DIRECTED_BY`, `HAS_NAVIGATOR`) or what points to it over a plain verb (`(agent)-[:BUILDS]->(X)`),
 *   not what points to it over an oblique (`(person)-[:ACTED_IN]->(X)`, `mentionedIn`).
 *
 * ranking (rank.ts) keeps 0.7 of the relevance of what lies on the other side.
 */

import { identifierWords, isStopWord } from './text-match.js';

/** Prepositions that put the entity after them in the object's place. */
const OBJECT_PREPOSITIONS: ReadonlySet<string> = new Set(['at', 'in', 'on', 'to', 'into', 'onto', 'inside', 'within']);

/** Auxiliaries that, before the subject, open a question whose wh-word is the object ("what **did** X observe"). */
const AUXILIARIES: ReadonlySet<string> = new Set(['do', 'does', 'did', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'should', 'may', 'might']);

/** Forms of "be" that, before a participle and "by", make the sentence passive ("X **was** built by …"). */
const BE_FORMS: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being']);

/** Words that, in a relationship type's name, make it no plain verb: prepositions and the verbs of having and being. */
const NOT_PLAIN: ReadonlySet<string> = new Set([
  'at', 'in', 'on', 'to', 'into', 'onto', 'inside', 'within', 'by', 'of', 'from', 'with', 'for', 'via', 'under', 'over', 'near',
  'about', 'through', 'per', 'aboard', 'across', 'along', 'among', 'around', 'behind', 'below', 'beneath', 'beside', 'between',
  'beyond', 'during', 'outside', 'toward', 'towards', 'upon', 'without', 'against', 'after', 'before', 'since', 'until',
  'has', 'have', 'had', 'is', 'are', 'was', 'were', 'be', 'been',
]);

/** Where the name's words stand in the question (the first place), or -1. */
function nameAt(raw: readonly string[], name: readonly string[]): number {
  if (name.length === 0) return -1;
  for (let i = 0; i + name.length <= raw.length; i++) if (name.every((w, j) => raw[i + j] === w)) return i;
  return -1;
}

/** Whether the name's words stand in the question right after such a preposition (an article between allowed). */
export function precededByPreposition(raw: readonly string[], name: readonly string[]): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i + name.length <= raw.length; i++) {
    if (!name.every((w, j) => raw[i + j] === w)) continue;
    const before = raw[i - 1] === 'the' ? raw[i - 2] : raw[i - 1];
    if (before !== undefined && OBJECT_PREPOSITIONS.has(before)) return true;
  }
  return false;
}

/**
 * Whether the name stands as the subject of a question's verb: an auxiliary right before it (an
 * article between allowed), the question's last content word right after it ("What did X
 * observe?"; nothing but stop words may follow, so "What did X say about Y" is no such question).
 */
export function subjectOfVerb(raw: readonly string[], name: readonly string[]): boolean {
  const at = nameAt(raw, name);
  if (at < 0) return false;
  const before = raw[at - 1] === 'the' ? raw[at - 2] : raw[at - 1];
  if (before === undefined || !AUXILIARIES.has(before)) return false;
  const verb = raw[at + name.length];
  return verb !== undefined && !isStopWord(verb) && raw.slice(at + name.length + 1).every(isStopWord);
}

/**
 * Whether the name stands as the object of a passive verb whose agent is asked: a form of "be"
 * right after it (a "has"/"had" between allowed), then one content word, then "by" ("\"T\" was helmed
 * by whom", "X has been chaired by which firm?").
 */
export function patientOfPassive(raw: readonly string[], name: readonly string[]): boolean {
  const at = nameAt(raw, name);
  if (at < 0) return false;
  let i = at + name.length;
  if (raw[i] === 'has' || raw[i] === 'have' || raw[i] === 'had') i++;
  if (!BE_FORMS.has(raw[i] ?? '')) return false;
  const verb = raw[i + 1];
  return verb !== undefined && !isStopWord(verb) && raw[i + 2] === 'by';
}

/** Prepositions a question may leave at its end, after its verb ("Which film did X star **in**?", "Which firm does Y work **for**?"). */
const STRANDED: ReadonlySet<string> = new Set(['in', 'at', 'on', 'to', 'for', 'with', 'from', 'into', 'onto', 'by', 'under']);

/** The preposition that ends the question, left there by its verb ("did X star **in**?"), if any. */
export function strandedPreposition(raw: readonly string[]): string | undefined {
  const last = raw[raw.length - 1];
  return raw.length > 2 && last !== undefined && STRANDED.has(last) ? last : undefined;
}

/**
 * Whether a relationship, crossed from the subject, reaches the object of a preposition the question strands: the
 * type leaves the subject and its name ends in that preposition ("Which film did X star **in**?": `(X)-[:ACTED_IN]->(film)`).
 */
export function reachesStranded(startsAtSubject: boolean, type: string, preposition: string | undefined): boolean {
  if (preposition === undefined || !startsAtSubject) return false;
  const words = identifierWords(type);
  return words.length > 1 && words[words.length - 1] === preposition;
}

/** Whether a relationship type is named as a plain verb (`TARGETED`, `BUILDS`), no preposition and no "has" in its name. */
export function isPlainVerbType(type: string): boolean {
  const words = identifierWords(type);
  return words.length > 0 && !words.some((w) => NOT_PLAIN.has(w));
}

/** Whether a relationship type is named as a passive (`WRITTEN_BY`, `builtBy`): it points from the verb's object to its subject. */
export function isPassiveType(type: string): boolean {
  const words = identifierWords(type);
  return words.length > 1 && words[words.length - 1] === 'by';
}

/**
 * Whether a relationship, crossed from `subject`, reaches the object of the verb its type names:
 * along a plain verb (`(X)-[:TARGETED]->(answer)`) or back along a passive (`(answer)-[:written_by]->(X)`).
 */
export function reachesObject(startsAtSubject: boolean, type: string): boolean {
  return startsAtSubject ? isPlainVerbType(type) : isPassiveType(type);
}

/**
 * Whether a relationship, crossed from the object of a passive question (`patient`: crossed from its start or not), may reach
 * the verb's agent: any type leaving it (`(X)-[:DIRECTED_BY]->(answer)`, `(X)-[:HAS_NAVIGATOR]->(answer)`), or a plain verb
 * entering it (`(answer)-[:BUILDS]->(X)`); not an oblique entering it (`(answer)-[:ACTED_IN]->(X)`, `mentionedIn`), which
 * says where its start was, not who did something to X.
 */
export function reachesAgent(startsAtPatient: boolean, type: string): boolean {
  return startsAtPatient || isPlainVerbType(type);
}

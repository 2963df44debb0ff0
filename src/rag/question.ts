/**
 * What graph_rag reads from a question. The question is data only: it is cleaned (control
 * characters become spaces, the text is cut to MAX_QUESTION_CHARS) and split into words,
 * and those words are matched against names and the schema in memory. It is never placed
 * into query text, so no question can change what the engine runs.
 *
 * From the words come: search terms (folded, without stop words), the word n-grams exact
 * name matching compares node names with, and the schema targets: labels, relationship
 * types and property keys the question names ("which company…" → :Company, "what time
 * zone…" → the `time_zone` property, "who…" → person-like labels), by their words and —
 * for the words after "which"/"what" — by the embeddings of their names (schema-match.ts).
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import { endsTheQuery, MemoryLimitError } from '../errors.js';
import type { Graph } from '../store/graph.js';
import { labelVocabulary } from './label-vocabulary.js';
import { agentPersonLabels } from './person-labels.js';
import { isModifierGerund, joinPhrases, labelNaming, labelsNamed, matchRelations, nameStems as nameStemsOf, ownWordOfType, stem } from './relation-match.js';
import { embeddingMatches, type TargetKind, type TargetMatch } from './schema-match.js';
import { identifierWords, isStopWord, questionTermWords } from './text-match.js';

export { identifierWords } from './text-match.js';

/** Longest part of a question that is analysed; the rest is ignored (a question is not a document). */
export const MAX_QUESTION_CHARS = 2000;
/** Most distinct search terms used. */
const MAX_TERMS = 48;
/** Longest name (in words) exact name matching looks for among a question's word sequences. */
export const MAX_NAME_WORDS = 6;
/**
 * Longest name (in words) the name index files: a quoted name ("Where was \"A Survey of Cool Dwarfs
 * in Lyra\" published?") is looked up whole, however many words it has, up to this many.
 */
export const MAX_QUOTED_NAME_WORDS = 24;
/** Quoted runs of a question (straight or curly quotes, double or single). */
const QUOTED = /"([^"\n]{1,200})"|“([^”\n]{1,200})”|'([^'\n]{1,200})'|‘([^’\n]{1,200})’/gu;

const WORD = /[\p{L}\p{N}]+/gu;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\ufeff]/g;

/** Labels a "who" question asks for. */
const PERSON_LABELS: ReadonlySet<string> = new Set([
  'person', 'people', 'user', 'author', 'employee', 'actor', 'member', 'customer', 'contact', 'patient', 'doctor', 'physician', 'nurse',
  'student', 'teacher', 'player', 'artist', 'musician', 'writer', 'director', 'manager', 'owner', 'founder', 'worker', 'researcher',
  'scientist', 'captain', 'pilot', 'driver', 'agent', 'officer', 'politician', 'athlete', 'coach',
]);
/** Labels a "where" question asks for. */
const PLACE_LABELS: ReadonlySet<string> = new Set([
  'place', 'city', 'country', 'location', 'region', 'town', 'site', 'address', 'village', 'state', 'province', 'county', 'district',
  'continent', 'island', 'port', 'harbour', 'harbor', 'airport', 'station', 'venue', 'building', 'office', 'facility', 'plant',
  'factory', 'warehouse', 'hospital', 'clinic', 'campus', 'area', 'zone', 'street', 'sea', 'ocean', 'lake', 'river', 'mountain',
  'municipality', 'borough', 'parish', 'suburb', 'neighbourhood', 'neighborhood', 'territory', 'depot', 'yard', 'terminal', 'base',
  'headquarters', 'locality', 'settlement', 'metropolis', 'capital', 'prefecture', 'canton', 'commune', 'shire',
]);
/** Labels a "when" question asks for. */
const TIME_LABELS: ReadonlySet<string> = new Set(['event', 'date', 'time', 'year', 'period']);
/** Question words followed by what the question asks for ("which employer", "what time zone"). */
const ASKING_WORDS: ReadonlySet<string> = new Set(['which', 'what', 'whose']);
/** Words that open a question and ask for something other than what follows them. */
const QUESTION_WORDS: ReadonlySet<string> = new Set(['who', 'whom', 'where', 'when', 'how', 'why', 'which', 'what', 'whose']);
/** Most words of the asked phrase. */
const MAX_ASKED_WORDS = 3;
/**
 * An embedding match within this much of the best match of its kind (a word match scores 1)
 * is a target too: near-ties are kept, weaker ones dropped, so the seed's label does not
 * become a target because it is loosely related.
 */
export const TARGET_MARGIN = 0.1;

export interface AnalysedQuestion {
  /** The cleaned text that was analysed. */
  text: string;
  /** Whether the question was longer than what is analysed. */
  truncated: boolean;
  /** Folded search term → the word it came from. */
  terms: Map<string, string>;
  /** Lower-cased word sequences (1 … MAX_NAME_WORDS words, and quoted runs up to MAX_QUOTED_NAME_WORDS) a node name may equal. */
  ngrams: Set<string>;
  /** Folded words of the question, stop words included, in order (for schema matching). */
  words: string[];
  /** Lower-case words of the question, unfolded, possessive "s" dropped, in order (for relation phrases). */
  raw: string[];
  /** Lower-case words right after "which"/"what"/"whose"/"how many" near the start: what the question asks for. */
  asked: string[];
}

export interface SchemaTargets {
  /** Best first (score, then name). */
  labels: string[];
  types: string[];
  /** Property keys the question names, e.g. `time_zone` for "what time zones…". */
  keys: string[];
  /**
   * Whether the labels are what the question asks for (the asked words or who/where/when name
   * them) rather than labels merely mentioned along the way ("who supplies the **parts** of X").
   */
  labelsAsked?: boolean;
  /** Whether the question asks for something ("which items…") rather than naming what it wants. */
  asksFor?: boolean;
  /** Labels the question word rules out ("who" never asks for a place or a time), when no label is asked. */
  ruledOut?: string[];
  /**
   * Labels the question word prefers when no label is asked and no relation phrase names a type:
   * for "who", the labels holding people by an agent noun and personal names (person-labels.ts).
   * Other nodes keep 0.9 of their score, so of neighbours equally near the person comes first.
   */
  prefers?: string[];
  /** Every kept match with its score and how it matched, best first, for `explain`. */
  matches: TargetMatch[];
  /** Why matching by embeddings was left out (the embedder failed), if it was. */
  embeddingError?: string;
}

export const NO_TARGETS: SchemaTargets = { labels: [], types: [], keys: [], matches: [] };

/** Lower-cased, punctuation-free form used to compare names: "Acme Corp." → "acme corp". */
export function nameKey(text: string): string {
  return (text.toLowerCase().match(WORD) ?? []).join(' ');
}

export function foldWord(word: string): string {
  // Same folding as search terms so "companies" names the label Company.
  const one = questionTermWords(word);
  return one.size > 0 ? [...one.keys()][0] : word.toLowerCase();
}

export function analyseQuestion(question: string): AnalysedQuestion {
  const truncated = question.length > MAX_QUESTION_CHARS;
  const text = (truncated ? question.slice(0, MAX_QUESTION_CHARS) : question).replace(CONTROL, ' ');
  const terms = new Map([...questionTermWords(text)].slice(0, MAX_TERMS));
  const raw = (text.match(WORD) ?? []).map((w) => w.toLowerCase());
  const ngrams = new Set<string>();
  // Possessives: "Ann's" splits into "ann", "s"; both forms are tried, but a name does not run on
  // past a possessive ("Great Ipsham's depot" names "Great Ipsham", not a node called "Ipsham Depot").
  const plain = raw.filter((w, i) => !(w === 's' && i > 0));
  const possessive = raw.flatMap((w, i) => (w === 's' && i > 0 ? [] : [raw[i + 1] === 's' && i + 1 > 0]));
  for (const [list, stops] of [[raw, []], [plain, possessive]] as const) {
    for (let i = 0; i < list.length && ngrams.size < 4000; i++) {
      for (let n = 1; n <= MAX_NAME_WORDS && i + n <= list.length; n++) {
        ngrams.add(list.slice(i, i + n).join(' '));
        if (stops[i + n - 1] === true) break;
      }
    }
  }
  // A quoted name is one name, however long: a title of nine words is looked up whole, not only as its six-word runs.
  for (const m of text.matchAll(QUOTED)) {
    const key = nameKey(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
    if (key !== '' && key.split(' ').length > MAX_NAME_WORDS && key.split(' ').length <= MAX_QUOTED_NAME_WORDS) ngrams.add(key);
  }
  return { text, truncated, terms, ngrams, words: plain.slice(0, 400).map(foldWord), raw: plain.slice(0, 400), asked: askedWords(plain) };
}

/** Imperatives that ask for what follows them ("list the parts of X", "show all suppliers in Y"). */
const ASKING_VERBS: ReadonlySet<string> = new Set(['list', 'show', 'name', 'give', 'find', 'get', 'tell', 'enumerate', 'display', 'return']);
/** Verbs that open a request without saying what it asks for ("look up X", "search for X"): never a label's noun there. */
const REQUEST_VERBS: ReadonlySet<string> = new Set([...ASKING_VERBS, 'look', 'search', 'describe', 'check', 'fetch', 'lookup']);
/** Words skipped between an imperative and what it asks for. */
const DETERMINERS: ReadonlySet<string> = new Set(['me', 'us', 'all', 'every', 'each', 'the', 'a', 'an', 'any', 'some', 'of']);

/** Nouns that classify what follows "of" ("what kind of cargo", "which body of water"): the asked words are after "of". */
const CLASSIFIERS: ReadonlySet<string> = new Set(['kind', 'kinds', 'sort', 'sorts', 'type', 'types', 'body', 'bodies', 'form', 'variety']);

/** Up to MAX_ASKED_WORDS content words from `start`, past a classifier and its "of". */
function phraseAt(words: readonly string[], start: number): string[] {
  if (CLASSIFIERS.has(words[start] ?? '') && words[start + 1] === 'of') start += 2;
  const out: string[] = [];
  for (let j = start; j < words.length && out.length < MAX_ASKED_WORDS && !isStopWord(words[j]); j++) out.push(words[j]);
  return out;
}

/**
 * The words after the first "which", "what", "whose" or "how many/much" among the first three
 * words, or after an imperative that opens the question ("list the …", "tell me the …"), or —
 * when neither opens it — after a "which"/"what" later on ("X is on which sea", "SCAC Y
 * belongs to which carrier?").
 */
function askedWords(words: readonly string[]): string[] {
  if (words.length > 0 && ASKING_VERBS.has(words[0])) {
    let j = 1;
    while (j < words.length && DETERMINERS.has(words[j])) j++;
    const out = phraseAt(words, j);
    if (out.length > 0) return out;
  }
  for (let i = 0; i < Math.min(3, words.length); i++) {
    let start = -1;
    if (ASKING_WORDS.has(words[i])) start = i + 1;
    else if (words[i] === 'how' && (words[i + 1] === 'many' || words[i + 1] === 'much')) start = i + 2;
    if (start < 0) continue;
    return phraseAt(words, start);
  }
  // A question opened by who/where/when… asks by that word; a later "which" there starts a relative clause.
  if (words.slice(0, 3).some((w) => QUESTION_WORDS.has(w))) return [];
  for (let i = 3; i < words.length; i++) {
    if (words[i] !== 'which' && words[i] !== 'what') continue;
    const out = phraseAt(words, i + 1);
    if (out.length > 0) return out;
  }
  return [];
}

/** The word after a possessive "'s" ("X's **agent**"). */
const POSSESSED = /['’]s\s+([\p{L}\p{N}]+)/u;

/**
 * The labels the noun after a possessive names strongly (its head word or a noun of the head's group, not a word its nodes
 * use): "Who is X's **agent**?" → `TalentAgency`. None when the noun is a word of a name the question gives.
 */
function possessedLabels(graph: Graph, text: string, nameWords: ReadonlySet<string>, vocabulary: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const noun = POSSESSED.exec(text)?.[1]?.toLowerCase();
  if (noun === undefined || nameWords.has(noun) || isStopWord(noun)) return [];
  return labelsNamed(noun, graph.labels(), vocabulary, 2);
}

/** Whether the word at `i` follows "as" (an article between allowed): a role given to the entity before it. */
function isRoleAfterAs(raw: readonly string[], i: number): boolean {
  const before = raw[i - 1] === 'a' || raw[i - 1] === 'an' || raw[i - 1] === 'the' ? raw[i - 2] : raw[i - 1];
  return before === 'as';
}

/** Whether `parts` (folded words) occur in order, adjacent, in `words`. */
function containsRun(words: readonly string[], parts: readonly string[]): boolean {
  if (parts.length === 0) return false;
  outer: for (let i = 0; i + parts.length <= words.length; i++) {
    for (let j = 0; j < parts.length; j++) if (words[i + j] !== parts[j]) continue outer;
    return true;
  }
  return false;
}

/** Keeps, per kind, the matches within TARGET_MARGIN of the kind's best; sorted best first, then by name. */
function keepBest(matches: readonly TargetMatch[]): TargetMatch[] {
  const best = new Map<TargetKind, number>();
  for (const m of matches) best.set(m.kind, Math.max(best.get(m.kind) ?? 0, m.score));
  return matches
    .filter((m) => m.score >= (best.get(m.kind) ?? 0) - TARGET_MARGIN)
    .sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Whether the word at `i` is the verb of the plural noun before it ("which growers **farm** in X",
 * "suppliers **supply**"): a bare word (no plural -s) that is the own word of a relationship type,
 * after a plural word. Subject and verb agree, so "farm" here is not the label :Farm.
 */
export function isVerbAfterPlural(graph: Graph, raw: readonly string[], i: number): boolean {
  const before = raw[i - 1];
  const w = raw[i];
  return i > 0 && before !== undefined && w !== undefined && foldWord(before) !== before && foldWord(w) === w && !isStopWord(w) && ownWordOfType(graph, w);
}

/** Agent and action nouns (maintainer, inspector, certification, chemist, servant): a verb's derivations. */
const DERIVED_NOUN = /(?:er|or|ion|ist|ant|ent)$/;

/** Whether the word at `i` follows a question-opening "who"/"whom": the question's verb, though it may spell a label's noun. */
export function isVerbAfterWho(raw: readonly string[], i: number): boolean {
  return i > 0 && i <= 2 && (raw[i - 1] === 'who' || raw[i - 1] === 'whom');
}

/** Forms of "be" and "have": after "who" they link to what is asked ("who **is** the skipper"), they take no object. */
const LINKING_VERBS: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had']);

/** Whether the word at `i` is the object of the verb after a question-opening "who" ("who makes **the drink**"), an article between allowed. */
export function isObjectAfterWho(raw: readonly string[], i: number): boolean {
  const verbAt = raw[i - 1] === 'the' || raw[i - 1] === 'a' || raw[i - 1] === 'an' ? i - 2 : i - 1;
  return verbAt > 0 && isVerbAfterWho(raw, verbAt) && !LINKING_VERBS.has(raw[verbAt]) && !isStopWord(raw[i] ?? '');
}

/**
 * The labels, relationship types and property keys the question names: by its words (score
 * 1) and, with an embedder, by the similarity of the asked words to each name (at least
 * `similarity`); a name matched both ways keeps the higher score.
 */
export function schemaTargets(
  graph: Graph,
  q: AnalysedQuestion,
  propertyKeys: readonly string[],
  embedding?: { provider: EmbeddingProvider; similarity: number },
  nameWords: ReadonlySet<string> = new Set(),
): SchemaTargets {
  const words = q.words;
  const asks = (name: string): boolean => containsRun(words, identifierWords(name).map(foldWord));
  // A label's word inside the name of the entity asked about ("List the wards of St Ann's **Hospital**") does not ask for that label.
  // Nor does a role given to that entity ("which project has Ann **as a maintainer**"): it says what the entity is to the answer.
  // The word right after "who" is the question's verb ("who **farms** X", "who **houses** Y"), never a label it names.
  // Nor does the object of that verb ("Who makes **the drink** served at X?" asks for the maker, not a drink).
  const outsideNames = words.map((w, i) => (nameWords.has(q.raw[i]) || isRoleAfterAs(q.raw, i) || isVerbAfterWho(q.raw, i) || isObjectAfterWho(q.raw, i) ? '' : w));
  const asksOutsideNames = (name: string): boolean => containsRun(outsideNames, identifierWords(name).map(foldWord));
  const vocabulary = labelVocabulary(graph);
  // The question word may close the question instead of opening it ("X was led by **whom**?", "X is **where**?").
  const closing = q.asked.length === 0 && QUESTION_WORDS.has(words[words.length - 1] ?? '') && !words.slice(0, 3).some((w) => QUESTION_WORDS.has(w)) ? [words[words.length - 1]] : [];
  const first = [...words.slice(0, 3), ...closing];
  // "Who certifies X?" asks for what does the certifying: a label named by an agent or action noun of that verb
  // (`CertificationBody`, `Inspector`), not one spelt as the verb itself ("who farms X" does not ask for `:Farm`).
  const verb = q.raw.find((_, i) => isVerbAfterWho(q.raw, i));
  const verbStem = verb === undefined ? undefined : stem(verb);
  const agentOfVerb = (label: string): boolean =>
    verb !== undefined && identifierWords(label).some((w) => w !== verb && w !== foldWord(verb) && DERIVED_NOUN.test(w) && stem(w) === verbStem);
  // Such a label is what is asked; others the question mentions ("who certifies the **farms** run by …") are steps.
  const agentLabels = first.includes('who') || first.includes('whom') ? graph.labels().filter(agentOfVerb) : [];
  // "Who is X's agent?" asks for what the noun X owns names (`TalentAgency`), though "who" alone would ask for a person.
  const possessed = agentLabels.length === 0 && (first.includes('who') || first.includes('whom')) ? possessedLabels(graph, q.text, nameWords, vocabulary) : [];
  let wordLabels = agentLabels.length > 0 ? agentLabels : possessed.length > 0 ? possessed : graph.labels().filter((l) => {
    if (asksOutsideNames(l)) return true;
    const lower = l.toLowerCase();
    if (first.includes('who') || first.includes('whom')) return PERSON_LABELS.has(lower);
    if (first.includes('where')) return PLACE_LABELS.has(lower);
    if (first.includes('when')) return TIME_LABELS.has(lower);
    return false;
  });
  // "Where" asks for a place: a label the question names that is no place ("Where is the **observatory** that operates X?")
  // is the thing whose place is asked, a step on the way, when some place label is there to answer.
  if (agentLabels.length === 0 && first.includes('where')) {
    const places = wordLabels.filter((l) => PLACE_LABELS.has(l.toLowerCase()));
    if (places.length > 0 && places.length < wordLabels.length) wordLabels = places;
  }
  // When the asked words name labels ("which **country** is the supplier of X based in"), those
  // are what is asked for; other labels named are steps along the way. A synonym of a label's
  // word among the asked words names it too ("which vendor" → :Supplier, "which ship" → :Vessel).
  // Words of the entity the question names are not asked words ("which ports lie on the Elgo **Sea**").
  // Two asked words that are one phrase of the lexicon ("head office") are read as that phrase, not apart ("head" ~ manage).
  // A gerund before the noun it modifies ("which **shipping** lines") is not what is asked.
  const allLabels = graph.labels();
  const namesLabel = (w: string | undefined): boolean => w !== undefined && !nameWords.has(w) && labelsNamed(w, allLabels, vocabulary).length > 0;
  // A word between two label nouns is the verb joining them ("which registries **host** packages …"): the asked
  // phrase ends before it, so the label after it is the verb's object, not a second label asked for.
  // So is the bare own word of a relationship type after a plural label noun ("which growers **farm** in X"), though it spells a label.
  // A bare word between a plural label noun and another label noun agrees with the plural as its verb ("which registries
  // **host** packages"), though the label's nodes may use the word ("hosts" in a registry's blurb).
  const agreesWithPlural = (i: number): boolean => {
    const before = q.asked[i - 1];
    const w = q.asked[i];
    return before !== undefined && w !== undefined && foldWord(before) !== before && foldWord(w) === w && !isStopWord(w) && labelsNamed(w, allLabels).length === 0;
  };
  const verbAt = q.asked.findIndex(
    (w, i) =>
      i > 0 &&
      namesLabel(q.asked[i - 1]) &&
      ((namesLabel(q.asked[i + 1]) && (!namesLabel(w) || agreesWithPlural(i))) || isVerbAfterPlural(graph, q.asked, i)),
  );
  const askedPhrase = verbAt > 0 ? q.asked.slice(0, verbAt) : q.asked;
  const asked = joinPhrases(askedPhrase.filter((w, i) => !nameWords.has(w) && !isModifierGerund(askedPhrase, i, nameWords)));
  // A word of a multi-word label other than its head only modifies: "which clinical team" does not ask for CLINICAL_STUDY (labelNaming).
  const askedLabels = [...new Set(asked.flatMap((w) => labelsNamed(w, graph.labels(), vocabulary)))];
  // A fragment ("Suppliers located in Norway?", "ships visiting Oslo", "Elgo Sea: harbours on it?")
  // asks for the first label it names outside the names of the entities it mentions.
  if (q.asked.length === 0 && !QUESTION_WORDS.has(q.raw[0] ?? '') && closing.length === 0) {
    const names = (w: string | undefined): boolean => w !== undefined && !nameWords.has(w) && !isStopWord(w) && labelsNamed(w, graph.labels(), vocabulary).length > 0;
    // An opening imperative ("**Look** up X", "**Search** for X") is the request's verb, not a noun naming a label.
    // Nor is a role given to the entity ("X's filmography **as director**"): it says what X is, not what is asked.
    let at = q.raw.findIndex((w, i) => !(i === 0 && REQUEST_VERBS.has(w)) && !isRoleAfterAs(q.raw, i) && names(w));
    // A noun phrase ends in its head: in "X's home institution" the label is named by "institution", not by "home".
    while (at >= 0 && names(q.raw[at + 1])) at++;
    const first = at >= 0 ? q.raw[at] : undefined;
    if (first !== undefined) askedLabels.push(...labelsNamed(first, graph.labels(), vocabulary).filter((l) => !askedLabels.includes(l)));
  }
  const labelsAsked = askedLabels.length > 0 ? askedLabels : wordLabels;
  const byQuestionWord = wordLabels.some((l) => !asks(l));
  // A type is named by any of its words in any inflection, or by a synonym (relation-match.ts).
  const wordTypes = matchRelations(graph, q.raw.filter((w, i) => !isModifierGerund(q.raw, i, nameWords) || ownWordOfType(graph, w)), []);
  const candidateKeys = propertyKeys.filter((k) => !['name', 'title', 'id', 'embedding'].includes(k) && identifierWords(k).length > 0);
  const byName = new Map<string, TargetMatch>();
  const add = (m: TargetMatch): void => {
    const key = `${m.kind}:${m.name}`;
    const current = byName.get(key);
    if (!current || current.score < m.score) byName.set(key, m);
  };
  for (const name of labelsAsked) add({ kind: 'label', name, score: 1, by: 'words' });
  for (const m of wordTypes) add({ kind: 'type', name: m.type, score: m.score, by: m.by === 'lexicon' ? 'lexicon' : 'words' });
  // A key's word standing between two label nouns is the verb joining them ("which registries **host** packages …"), not a property asked for.
  const linksLabels = (key: string): boolean => {
    const parts = identifierWords(key).map(foldWord);
    for (let i = 1; i + parts.length < words.length; i++) {
      if (parts.every((p, j) => words[i + j] === p) && namesLabel(q.raw[i - 1]) && namesLabel(q.raw[i + parts.length])) return true;
    }
    return false;
  };
  // "Which versions of X …" picks among things: when "which" asks by a word that names a label and also a property key
  // (`:Release` and its `version`), the things of that label are asked, not the key's values.
  const whichAsks = q.raw.slice(0, 3).includes('which') && askedLabels.length > 0;
  const askedStems = new Set(asked.map(stem));
  const picksLabel = (key: string): boolean => whichAsks && nameStemsOf(key).every((w) => askedStems.has(w));
  for (const name of candidateKeys.filter((k) => asks(k) && !linksLabels(k) && !picksLabel(k))) add({ kind: 'property', name, score: 1, by: 'words' });
  let embeddingError: string | undefined;
  if (embedding && q.asked.length > 0) {
    const candidates = [
      ...graph.labels().map((name) => ({ kind: 'label' as const, name })),
      ...graph.relationshipTypes().map((name) => ({ kind: 'type' as const, name })),
      ...candidateKeys.map((name) => ({ kind: 'property' as const, name })),
    ].map((c) => ({ ...c, words: identifierWords(c.name).join(' ') }));
    try {
      for (const m of embeddingMatches(embedding.provider, askedPhrase, candidates, embedding.similarity)) if (m.kind !== 'property' || (!linksLabels(m.name) && !picksLabel(m.name))) add(m);
    } catch (err) {
      // A broken embedder (a bad model directory) costs the meaning matches, not the answer; time and memory limits still end the query.
      if (endsTheQuery(err) || err instanceof MemoryLimitError) throw err;
      embeddingError = err instanceof Error ? err.message : String(err);
    }
  }
  // "Which festival…" asks for the festival, not its code: when the asked words name a label by its own word, a property
  // the same words only resemble by embedding (`festivalCode`, spelt with "festival") is not asked.
  const ownLabelAsked = asked.some((w) => graph.labels().some((l) => labelNaming(w, l) >= 3));
  const matches = keepBest([...byName.values()].filter((m) => !(ownLabelAsked && m.kind === 'property' && m.by === 'embedding')));
  const names = (kind: TargetKind): string[] => matches.filter((m) => m.kind === kind).map((m) => m.name);
  const labels = names('label');
  // "Who" asks for a person or a body of people: with no label asked, places and times found near the entity are not its answer.
  const who = first.includes('who') || first.includes('whom');
  const ruledOut = who && labels.length === 0 ? graph.labels().filter((l) => PLACE_LABELS.has(l.toLowerCase()) || TIME_LABELS.has(l.toLowerCase())) : [];
  // Nor, with no label asked, is a thing that is no agent: people's labels named by an agent noun (person-labels.ts) are preferred.
  const prefers = who && labels.length === 0 ? [...agentPersonLabels(graph)] : [];
  return {
    labels,
    asksFor: q.asked.length > 0,
    types: names('type'),
    keys: names('property'),
    labelsAsked: labels.length > 0 && (askedLabels.length > 0 || byQuestionWord || matches.some((m) => m.kind === 'label' && m.by === 'embedding')),
    ...(ruledOut.length > 0 ? { ruledOut } : {}),
    ...(prefers.length > 0 ? { prefers } : {}),
    matches,
    ...(embeddingError !== undefined ? { embeddingError } : {}),
  };
}

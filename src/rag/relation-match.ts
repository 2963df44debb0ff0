/**
 * graph_rag's relation phrases: which relationship types a question's words speak of, so a
 * chain such as "the supplier of the parts of X" can be walked type by type (paths.ts).
 *
 * Words are compared by a light stem (supplies / supplied / supplier / supply → "suppli",
 * operator / operating → "operat"), so a type's own words match in any inflection (score 1);
 * a small built-in lexicon of general English relation synonyms (vendor ~ supply,
 * headquartered ~ based, contains ~ component, meets ~ certified…, and two-word phrases read
 * as one: "head office") matches at 0.9. Label naming (labelsNamed) also lives here: a
 * label's own words, then groups of general English nouns (ship ~ vessel, harbour ~ port),
 * then the relation groups. With an embedder configured, each remaining content word (at most
 * MAX_EMBEDDED_WORDS) is also compared with the type names read as words ("works at"), and a
 * type at least `similarity` close matches at 0.9 × its similarity (schema-match.ts caches the
 * name embeddings). A label the question names also hints at the types that reach it (schema
 * statistics: the labels seen at each end of a type, sampled): such an *endpoint* match may be
 * walked but adds nothing to a path's coverage, so it connects phrases without deciding them.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import type { Graph } from '../store/graph.js';
import { embeddingMatches } from './schema-match.js';
import { identifierWords } from './text-match.js';
import type { Direction } from './relation-direction.js';
import { isStopWord } from './text-match.js';

export interface RelationMatch {
  type: string;
  /** 1 for the type's own word, 0.9 for a synonym, the similarity × 0.9 for an embedding match, 0 for an endpoint hint or a schema route to the asked label (walkable, no coverage). */
  score: number;
  by: 'words' | 'lexicon' | 'embedding' | 'endpoint' | 'route';
  /** The question word (or label) that matched. */
  word: string;
  /**
   * The run of adjacent content words the word stands in ("head office location"): one run names
   * one relation, so a path crosses at most one of the types it matched. The word itself when unset.
   */
  phrase?: string;
  /** For a type joining a label to itself, the direction the question reads it in from its entity (relation-direction.ts); either way when unset. */
  direction?: Direction;
  /**
   * Named with "co-" ("who **co-authored** a paper with X", "X's **co-founders**"): the relation is shared with the entity,
   * so the walk crosses the type twice, to the thing they share and on to its other participants (paths.ts).
   */
  shared?: boolean;
}

/**
 * The words of a question that carry the prefix "co-" ("co-authored", "co-founder", also written together: "coauthor"),
 * as the word without it: "co-V with X" names those who V the same thing as X. Joined forms count only when the rest
 * is a word the schema or the lexicon knows as a relation and the whole is not ("cost", "cover", "contain" are none).
 */
export function coWords(graph: Graph, raw: readonly string[]): Map<number, string> {
  const out = new Map<number, string>();
  raw.forEach((w, i) => {
    if (i > 0 && raw[i - 1] === 'co' && w.length > 2 && !isStopWord(w)) out.set(i, w);
    else if (w.length > 6 && w.startsWith('co')) {
      const rest = w.slice(2);
      const known = (x: string): boolean => ownWordOfType(graph, x) || GROUPS_OF.has(stem(x));
      if (known(rest) && !known(w)) out.set(i, rest);
    }
  });
  return out;
}

/**
 * Light stemming shared by question words and schema names: one inflection (-ing, -ed, -s,
 * -ies/-ied) comes off, then one derivation (-er, -or, -ion), so the verb, its participles and
 * its agent and action nouns meet: operates / operated / operating / operator / operation →
 * "operat", headquarters / headquartered → "headquart", supplies / supplier → "suppli".
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  // An irregular past form goes back to its verb first: written, wrote → write; built → build; led → lead.
  w = IRREGULAR.get(w) ?? w;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && (w.endsWith('ies') || w.endsWith('ied'))) w = w.slice(0, -3) + 'i';
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  // A short verb in -e takes only -d, which comes off: used, owed, aged meet uses, owes, ages (vowel, consonant, -ed; "bred", "shed", "feed" stay).
  else if (w.length === 4 && /^[aeiou][^aeiou]ed$/.test(w)) w = w.slice(0, -1);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  // A consonant doubled before the ending goes back to one: running → run, stopped → stop, planned → plan.
  if (w !== word.toLowerCase() && /([bdgmnprt])\1$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && (w.endsWith('er') || w.endsWith('or'))) w = w.slice(0, -2);
  else if (w.length > 5 && w.endsWith('ion')) w = w.slice(0, -3);
  if (w.length > 3 && w.endsWith('y')) w = w.slice(0, -1) + 'i';
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  // A noun in -ification or -ificate goes back to its verb in -ify: certification, certificate, certifies → certifi.
  if (w.length > 7 && w.endsWith('ificat')) w = w.slice(0, -3);
  // A state or quality noun in -ence/-ency/-ance goes back to its verb (dependency, dependencies → depend;
  // reference → refer; residence → reside), as Porter's stemmer does; short ones (licence, distance) keep theirs.
  if (w.length > 7 && /[ae]nci?$/.test(w)) w = w.replace(/[ae]nci?$/, '');
  return w;
}

/**
 * Irregular past tenses and participles of English verbs (general usage, our own list), so
 * "written" meets `WRITES`, "built" meets `BUILDS` and "led by" meets the lead group as the
 * regular forms do. Forms that are also other words (found, left, saw, rose, lay, born, fell,
 * bore, ground, wound) are left alone.
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map(
  (
    'written:write wrote:write built:build led:lead ran:run held:hold made:make taken:take took:take given:give gave:give ' +
    'sold:sell bought:buy taught:teach drawn:draw drew:draw grown:grow grew:grow driven:drive drove:drive flown:fly flew:fly ' +
    'chosen:choose chose:choose spoken:speak spoke:speak sent:send spent:spend paid:pay kept:keep met:meet brought:bring ' +
    'caught:catch thought:think told:tell sat:sit stood:stand understood:understand won:win begun:begin began:begin ' +
    'broken:break broke:break stolen:steal stole:steal sung:sing sang:sing fed:feed fled:flee hung:hang struck:strike ' +
    'woven:weave wove:weave frozen:freeze hidden:hide ridden:ride rode:ride eaten:eat known:know knew:know thrown:throw ' +
    'threw:throw worn:wear wore:wear torn:tear tore:tear dug:dig lent:lend lost:lose meant:mean dealt:deal felt:feel ' +
    'heard:hear sought:seek shot:shoot slept:sleep spun:spin bound:bind become:become became:become done:do did:do ' +
    'gone:go went:go seen:see sewn:sew shown:show shook:shake shaken:shake swum:swim swam:swim forgot:forget forgotten:forget'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** Groups of words that name the same kind of relation (our own small list; the schema's words come first). */
const LEXICON: readonly (readonly string[])[] = [
  ['supply', 'supplier', 'provide', 'provider', 'vendor', 'deliver', 'source', 'sell'],
  ['contain', 'component', 'include', 'use', 'consist', 'comprise', 'ingredient'],
  ['locate', 'location', 'base', 'headquarter', 'headquarters', 'head office', 'main office', 'home', 'situate', 'reside', 'seat', 'live', 'lie', 'sit', 'stand'],
  // A narrower group inside the one above: words in both are nearer each other than the rest of it.
  ['headquarter', 'headquarters', 'head office', 'main office', 'seat', 'base'],
  ['assemble', 'build', 'manufacture', 'produce', 'make', 'fabricate', 'put'],
  ['certify', 'certificate', 'comply', 'compliant', 'meet', 'conform', 'satisfy', 'approve', 'accredit'],
  ['work', 'employ', 'employer', 'employee', 'job', 'staff', 'post', 'position'],
  ['manage', 'manager', 'lead', 'leader', 'head', 'run', 'supervise', 'boss', 'direct', 'operate', 'control', 'administer', 'oversee', 'govern'],
  ['member', 'belong', 'join'],
  ['own', 'owner', 'possess', 'belong'],
  ['write', 'author', 'writer'],
  ['found', 'founder', 'establish', 'create', 'creator', 'start'],
  ['hold', 'host', 'venue', 'take'],
  ['carry', 'transport', 'haul', 'convey', 'ship', 'move', 'freight'],
  ['visit', 'call', 'stop', 'serve', 'frequent', 'pass', 'pass through'],
  ['treat', 'cure', 'prescribe', 'therapy'],
  ['teach', 'instruct', 'lecture', 'tutor'],
  ['fund', 'funder', 'finance', 'sponsor', 'pay', 'payer', 'bankroll', 'back'],
  ['investigate', 'investigator', 'research', 'researcher', 'examine', 'inquire', 'probe'],
  ['study', 'attend', 'enrol', 'enroll', 'student'],
  ['buy', 'purchase', 'order', 'acquire'],
  ['play', 'perform', 'star', 'appear'],
  ['publish', 'publisher', 'release', 'issue'],
  ['know', 'friend', 'acquaint'],
  ['border', 'neighbour', 'neighbor', 'adjoin', 'adjacent', 'next to', 'beside', 'near', 'nearby', 'close to', 'alongside', 'abut'],
];

/**
 * Groups of nouns that name the same kind of thing (general English, our own list): a label
 * is asked for by any of its group's words ("which ship" → :Vessel, "harbours" → :Port).
 */
const NOUNS: readonly (readonly string[])[] = [
  ['ship', 'vessel', 'boat', 'fleet', 'craft'],
  ['port', 'harbour', 'harbor', 'seaport', 'dock'],
  ['company', 'firm', 'business', 'enterprise', 'corporation', 'organisation', 'organization'],
  ['good', 'cargo', 'freight', 'commodity', 'merchandise', 'ware', 'load'],
  ['sea', 'ocean', 'water', 'gulf', 'bay', 'strait', 'lake', 'river'],
  ['person', 'people', 'individual', 'human', 'someone'],
  ['city', 'town', 'municipality', 'village'],
  ['country', 'nation', 'state', 'land'],
  ['car', 'vehicle', 'automobile', 'auto'],
  ['film', 'movie', 'picture'],
  ['doctor', 'physician', 'clinician'],
  ['drug', 'medicine', 'medication', 'treatment'],
  ['illness', 'disease', 'condition', 'disorder', 'ailment'],
  ['hospital', 'clinic', 'infirmary'],
  ['shop', 'store', 'outlet', 'retailer'],
  ['employee', 'worker', 'staff', 'staffer'],
  ['book', 'novel', 'volume'],
  ['song', 'track', 'tune'],
  ['part', 'component', 'piece'],
  ['product', 'item', 'article'],
];

const NOUN_OF: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  NOUNS.forEach((group, i) => group.forEach((w) => m.set(stem(w), i)));
  return m;
})();

/**
 * How a (question) word names a label: 3 by the label's own (head) word, 0.5 by another of its
 * words or a noun of its group (too weak to name it alone: labelsNamed asks for at least 1), 2 by
 * a noun of the head's group, 1.5 by a word the label's nodes are called by (its learnt vocabulary, when
 * given), 1 by a word of the same relation group ("vendor" → :Supplier), 0 not at all. A
 * relation group holds both ends of a relation, so a patient noun (-ee) is not named by its
 * agent ("employer" does not name :Employee).
 */
/** labelNaming's score for a word the label's own data uses (its learnt vocabulary), neither its name nor a noun of its group. */
export const LEARNT_NAMING = 1.5;

export function labelNaming(word: string, label: string, vocabulary?: ReadonlySet<string>): number {
  const s = stem(word);
  const own = nameStems(label);
  // A label of several words is named by its head, the last ("board" names HEALTH_BOARD); another of its words only modifies ("clinical team" is no CLINICAL_STUDY).
  if (own.includes(s)) return own.length > 1 && own[own.length - 1] !== s ? 0.5 : 3;
  // An agent noun in -ent/-ant names the office or firm its -ency/-ancy spells ("agent" names TalentAgency, "consultant" a Consultancy), and back.
  const head = own[own.length - 1];
  if (head !== undefined && ((OFFICE_END.test(word) && officeStem(word) === head) || labelOffice(label) === s)) return 2;
  const noun = NOUN_OF.get(s);
  // So does a noun of a modifier's group: "movie" is no FILM_FESTIVAL, though "film" is one of its words.
  if (noun !== undefined && NOUN_OF.get(own[own.length - 1] ?? '') === noun) return 2;
  // The label's own data calls its nodes by the word, or by a noun of its group (label-vocabulary.ts).
  if (vocabulary !== undefined && (vocabulary.has(s) || (noun !== undefined && [...vocabulary].some((v) => NOUN_OF.get(v) === noun)))) return LEARNT_NAMING;
  const patient = (w: string): boolean => w.toLowerCase().replace(/s$/, '').endsWith('ee');
  const words = identifierWords(label);
  if (own.some((o, i) => sameGroup(o, s) && patient(words[i] ?? '') === patient(word))) return 1;
  return noun !== undefined && own.some((o) => NOUN_OF.get(o) === noun) ? 0.5 : 0;
}

/** The ending officeStem needs (a cheap test first: labelNaming runs for every word and label). */
const OFFICE_END = /[ae]nts?$/i;

const officeOfLabel = new Map<string, string | undefined>();

/** The office stem a label's head spells when it is an agent noun (`Agent` → "agenci"), cached per label name. */
function labelOffice(label: string): string | undefined {
  if (officeOfLabel.has(label)) return officeOfLabel.get(label);
  const head = identifierWords(label).at(-1) ?? '';
  const office = OFFICE_END.test(head) ? officeStem(head) : undefined;
  if (officeOfLabel.size < 10_000) officeOfLabel.set(label, office);
  return office;
}

/**
 * The stem of the office noun an agent noun in -ent/-ant spells by -ency/-ancy: agent → agency, consultant → consultancy,
 * tenant → tenancy, president → presidency (a spelling rule: the -cy noun names what the -nt noun holds or runs). Undefined
 * for other words and for short ones ("ant", "rent").
 */
export function officeStem(word: string): string | undefined {
  let w = word.toLowerCase();
  if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length < 5 || !/[ae]nt$/.test(w) || w.endsWith('ment')) return undefined;
  return stem(`${w.slice(0, -1)}cy`);
}

/** The labels a word names, by the best way any label is named by it (labelNaming), with each label's learnt words if given. */
export function labelsNamed(word: string, labels: readonly string[], vocabulary?: ReadonlyMap<string, ReadonlySet<string>>, least = 1): string[] {
  const scored = labels.map((l) => [l, labelNaming(word, l, vocabulary?.get(l))] as const);
  const best = Math.max(0, ...scored.map(([, n]) => n));
  return best < least ? [] : scored.filter(([, n]) => n === best).map(([l]) => l);
}

/** A lexicon entry's key: the stems of its words ("head office" → "head offic"). */
const phraseStem = (phrase: string): string => phrase.split(' ').map(stem).join(' ');

/** A word may belong to more than one group ("belong" ~ member, ~ own): each stem maps to all of its groups. */
const GROUPS_OF: ReadonlyMap<string, readonly number[]> = (() => {
  const m = new Map<string, number[]>();
  LEXICON.forEach((group, i) =>
    group.forEach((w) => {
      const key = phraseStem(w);
      const list = m.get(key) ?? [];
      if (!list.includes(i)) list.push(i);
      m.set(key, list);
    }),
  );
  return m;
})();

/** How many lexicon groups two stems share (0: none). */
function sharedGroups(a: string, b: string): number {
  const ga = GROUPS_OF.get(a);
  const gb = GROUPS_OF.get(b);
  return ga === undefined || gb === undefined ? 0 : ga.filter((g) => gb.includes(g)).length;
}

/** Whether two stems share a lexicon group. */
function sameGroup(a: string, b: string): boolean {
  return sharedGroups(a, b) > 0;
}

/** A synonym's score: 0.9, a little more when the words also share a narrower group ("head office" ~ headquarters before ~ located). */
function synonymScore(shared: number): number {
  return shared === 0 ? 0 : shared === 1 ? 0.9 : 0.95;
}

/**
 * The question's words with the lexicon's two-word phrases joined into one ("head office"),
 * so a compound is read as one phrase and its parts ("head" ~ manage) are not read apart.
 */
export function joinPhrases(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const pair = i + 1 < words.length ? `${words[i]} ${words[i + 1]}` : '';
    if (pair !== '' && GROUPS_OF.has(phraseStem(pair))) {
      out.push(pair);
      i++;
    } else out.push(words[i]);
  }
  return out;
}

/** The lexicon groups of a word's stem (none when it is in no group). */
export function synonymGroups(word: string): readonly number[] {
  return GROUPS_OF.get(phraseStem(word)) ?? [];
}

/**
 * Whether words[i] is a gerund that modifies the noun after it ("**shipping** lines", "a
 * **building** firm") rather than a verb ("the company **running** the line"): it ends in -ing
 * and a content word follows that is not part of a name (`names`). Such a word names no
 * label, and a relation only by the type's own word (ownWordOfType).
 */
export function isModifierGerund(words: readonly string[], i: number, names: ReadonlySet<string> = new Set()): boolean {
  const w = words[i];
  const next = words[i + 1];
  return w !== undefined && w.length > 5 && w.endsWith('ing') && next !== undefined && !isStopWord(next) && !names.has(next);
}

/**
 * Whether a word is one of a relationship type's own words in some inflection ("calling" ~
 * `CALLS_AT`), not merely a synonym: a modifier gerund still names the relation then ("the
 * **calling** points of X", "the train **operating** company for X").
 */
export function ownWordOfType(graph: Graph, word: string): boolean {
  const s = stem(word);
  return graph.relationshipTypes().some((t) => nameStems(t).includes(s));
}

/**
 * Common English abbreviations that schema names use for a whole word (`HQ_IN`, `MFR`,
 * `dept`): read as the word, so "headquartered" meets `HQ_IN`. General usage, our own list.
 */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['hq', 'headquarters'], ['hqs', 'headquarters'], ['loc', 'location'], ['org', 'organisation'], ['dept', 'department'],
  ['mgr', 'manager'], ['mgmt', 'management'], ['emp', 'employee'], ['addr', 'address'], ['cust', 'customer'],
  ['prod', 'product'], ['mfr', 'manufacturer'], ['mfg', 'manufacture'], ['qty', 'quantity'], ['grp', 'group'],
  ['acct', 'account'], ['govt', 'government'], ['corp', 'corporation'], ['assoc', 'association'], ['auth', 'author'],
  ['supp', 'supplier'], ['dest', 'destination'], ['orig', 'origin'], ['resp', 'responsible'],
  ['no', 'number'], ['nr', 'number'], ['num', 'number'], ['ref', 'reference'],
]);

/** Content words of a schema name (abbreviations read in full; no stop words, no one- or two-letter words), stemmed. */
export function nameStems(name: string): string[] {
  return identifierWords(name)
    .map((w) => ABBREVIATIONS.get(w) ?? w)
    .filter((w) => w.length > 2 && !isStopWord(w))
    .map(stem);
}

/**
 * The two-letter acronyms a schema name spells in capitals (`hasPI`, `HAS_PI`, `CEO_OF` has none:
 * three letters are words nameStems keeps), lower-cased; stop words (`IN`, `AT`, `OF`) are none.
 */
export function typeAcronyms(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => /^\p{Lu}{2}$/u.test(w) && !isStopWord(w.toLowerCase()) && !ABBREVIATIONS.has(w.toLowerCase()))
    .map((w) => w.toLowerCase());
}

/** The two-letter words a question writes in capitals ("Who was the PI on X?"), lower-cased: acronyms typeAcronyms may meet. */
export function questionAcronyms(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![\p{L}\p{N}])\p{Lu}{2}(?![\p{L}\p{N}])/gu)].map((m) => m[0].toLowerCase()).filter((w) => !isStopWord(w)));
}

/**
 * The verb stem of a short agent noun that stem() leaves whole (it strips -er/-or from longer words only, so "paper" stays
 * "paper"): actor → act, owner → own, maker → make. A question's "actors" then names `ACTED_IN` as "directors" names
 * `DIRECTED_BY`; only a type's own word is compared with it, so "paper" meets no `PAP` that no schema has.
 */
export function shortAgentVerb(word: string): string | undefined {
  let w = word.toLowerCase();
  if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 || !/[^aeiou](?:er|or)$/.test(w)) return undefined;
  const base = w.slice(0, -2);
  return base.length >= 3 ? stem(base) : undefined;
}

/** Most question words compared with type names by embedding. */
const MAX_EMBEDDED_WORDS = 12;

interface Endpoints {
  relCount: number;
  labels: Map<string, Set<string>>;
}
const endpointCache = new WeakMap<Graph, Endpoints>();
/** Relationships sampled per type for its end labels. */
const ENDPOINT_SAMPLE = 64;

/** The labels seen at either end of each type (a sample per type, cached until the graph's size changes). */
export function typeEndpoints(graph: Graph): Map<string, Set<string>> {
  const cached = endpointCache.get(graph);
  if (cached && cached.relCount === graph.relCount) return cached.labels;
  const labels = new Map<string, Set<string>>();
  for (const type of graph.relationshipTypes()) {
    const set = new Set<string>();
    const ids = graph.typeSet(type);
    if (ids) {
      let n = 0;
      for (const id of ids.toArray()) {
        if (n++ >= ENDPOINT_SAMPLE) break;
        const rel = graph.rel(id);
        if (!rel || rel.deleted) continue;
        for (const l of rel.start.labels) set.add(l);
        for (const l of rel.end.labels) set.add(l);
      }
    }
    labels.set(type, set);
  }
  endpointCache.set(graph, { relCount: graph.relCount, labels });
  return labels;
}

/**
 * The relationship types the words speak of, best first: by their own words, by the
 * lexicon, and (score 0) by the labels in `namedLabels` their ends carry.
 */
export function matchRelations(
  graph: Graph,
  words: readonly string[],
  namedLabels: readonly string[],
  embedding?: { provider: EmbeddingProvider; similarity: number },
  acronyms: ReadonlySet<string> = new Set(),
): RelationMatch[] {
  const stems = joinPhrases(words)
    .filter((w) => w.length > 2 && !isStopWord(w))
    .map((w) => ({ word: w, stem: phraseStem(w), agentOf: shortAgentVerb(w) }));
  const out = new Map<string, RelationMatch>();
  const shortWords = words.filter((w) => acronyms.has(w));
  for (const type of graph.relationshipTypes()) {
    // A two-letter acronym the question writes in capitals ("the **PI** on X") names a type that spells it in capitals (`hasPI`).
    const acronym = shortWords.length > 0 ? shortWords.find((w) => typeAcronyms(type).includes(w)) : undefined;
    if (acronym !== undefined) {
      out.set(type, { type, score: 1, by: 'words', word: acronym });
      continue;
    }
    const own = nameStems(type);
    for (const s of stems) {
      const synonym = synonymScore(Math.max(0, ...own.map((o) => sharedGroups(o, s.stem))));
      const m: RelationMatch | undefined = own.includes(s.stem) || (s.agentOf !== undefined && own.includes(s.agentOf))
        ? { type, score: 1, by: 'words', word: s.word }
        : synonym > 0
          ? { type, score: synonym, by: 'lexicon', word: s.word }
          : undefined;
      const current = out.get(type);
      if (m && (!current || current.score < m.score)) out.set(type, m);
    }
  }
  if (embedding) {
    const types = graph.relationshipTypes().filter((t) => !out.has(t));
    const candidates = types.map((name) => ({ kind: 'type' as const, name, words: identifierWords(name).join(' ') }));
    const seen = new Set<string>();
    for (const s of stems) {
      if (candidates.length === 0 || seen.size >= MAX_EMBEDDED_WORDS) break;
      if (seen.has(s.word)) continue;
      seen.add(s.word);
      for (const m of embeddingMatches(embedding.provider, [s.word], candidates, embedding.similarity)) {
        const score = 0.9 * m.score;
        const current = out.get(m.name);
        if (!current || current.score < score) out.set(m.name, { type: m.name, score, by: 'embedding', word: s.word });
      }
    }
  }
  if (namedLabels.length > 0) {
    for (const [type, ends] of typeEndpoints(graph)) {
      if (out.has(type)) continue;
      const label = namedLabels.find((l) => ends.has(l));
      if (label !== undefined) out.set(type, { type, score: 0, by: 'endpoint', word: label });
    }
  }
  return [...out.values()].sort((a, b) => b.score - a.score || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

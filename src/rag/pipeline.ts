/**
 * graph_rag as one pipeline, shared by `graphdb.rag.retrieve`, `graphdb.rag.explain` and
 * MCP's `graph_rag` (which calls the procedure):
 *
 *   question → analyse (question.ts) → seeds from values, names, full-text, vector
 *   (value-match.ts, seeds.ts) → reciprocal rank fusion → bounded expansion (expand.ts) and
 *   a walk of the relation phrases the question chains (relation-match.ts, paths.ts) →
 *   schema-aware, trust-weighted ranking and conflict marking (rank.ts) → top k with notes.
 *
 * A time budget (`deadline`) bounds the whole run: stages still to run when it is spent are
 * skipped and the trace says so; the query's own time limit still applies on top.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import { endsTheQuery, MemoryLimitError } from '../errors.js';
import type { Node } from '../store/entities.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import { expand, type Reach } from './expand.js';
import type { RagOptions } from './options.js';
import { analyseQuestion, foldWord, isVerbAfterPlural, isVerbAfterWho, NO_TARGETS, schemaTargets, type SchemaTargets } from './question.js';
import { walkPaths } from './paths.js';
import { leavesNamedWith, locativeEnds, routeTypes, routeTypesTo, typesReach } from './schema-routes.js';
import { asksAll, asksPlural, pluralOfName, preferManyEnds } from './plural-ends.js';
import { clauseDirection, possessiveOf, sameLabelTypes } from './relation-direction.js';
import { evidenceOf, markConflicts, noteFor, rank, type RankedItem } from './rank.js';
import { coWords, isModifierGerund, labelNaming, labelsNamed, LEARNT_NAMING, matchRelations, ownWordOfType, nameStems, questionAcronyms, stem, typeEndpoints, type RelationMatch } from './relation-match.js';
import { labelVocabulary } from './label-vocabulary.js';
import { identifierWords, isStopWord } from './text-match.js';
import { valueSeeds, type ValueCandidate } from './value-match.js';
import { yieldWeakLabels } from './weak-labels.js';
import { patientOfPassive, precededByPreposition, strandedPreposition, subjectOfVerb } from './verb-roles.js';
import { fuseSeeds, fulltextSeeds, hasFulltextIndex, nameSeeds, type Seed, type SeedHit, type SeedSource, textSeeds, vectorSeeds } from './seeds.js';

export interface RagEnvironment {
  graph: Graph;
  schema: Schema | undefined;
  embedding: EmbeddingProvider | undefined;
  /** The calling query's time limit check. */
  checkDeadline: () => void;
}

export interface RagTrace {
  question: { analysed: string; truncated: boolean; terms: string[] };
  targets: SchemaTargets;
  seeds: Partial<Record<SeedSource, SeedHit[]>>;
  fused: Seed[];
  /** Values the question names and the keys they were found in. */
  values: { candidates: ValueCandidate[]; keys: string[]; scanCut: boolean };
  /**
   * The relation phrases matched and the path walk's size; `dropped`: the types a phrase right before the entity's name
   * seemed to name that the schema never sees at the entity's label (not walked, not targets).
   */
  paths: { relations: RelationMatch[]; maxHops: number; ends: number; cut: boolean; dropped?: string[] };
  reached: number;
  ranked: number;
  /** Stages skipped because the time budget ran out. */
  skipped: string[];
  elapsedMs: number;
  /** Milliseconds per stage (seeds by source, targets, expand, paths, rank), for explain: where a slow question's time went. */
  stageMs: Record<string, number>;
}

export interface RagRun {
  results: RankedItem[];
  trace: RagTrace;
}

function nameWords(node: Node): string[] {
  const out: string[] = [];
  for (const key of ['name', 'title']) {
    const v = node.prop(key);
    if (typeof v === 'string' && v.length <= 200) out.push(...v.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ''));
  }
  return out;
}

/** Words that may stand between a relation phrase and the name it governs ("members **of the** X", "belongs **to the** X"). */
const LINKING: ReadonlySet<string> = new Set(['of', 'to', 'by', 'in', 'at', 'on', 'for', 'with', 'from', 'the', 'a', 'an']);

/**
 * Whether `word` (its first word) stands right before the name `name`, one to three linking words between and at least one
 * a preposition, or is a plural noun right after it.
 */
function beforeName(raw: readonly string[], word: string, name: readonly string[]): boolean {
  const at = raw.indexOf(word.split(' ')[0]);
  if (at < 0 || name.length === 0) return false;
  // So does a plural noun right after the name ("the X Co-op **members**", "X's members").
  if (at >= name.length && foldWord(raw[at]) !== raw[at] && name.every((w, j) => raw[at - name.length + j] === w)) return true;
  let i = at + word.split(' ').length;
  const start = i;
  while (i < raw.length && i - start < 3 && LINKING.has(raw[i])) i++;
  const linking = raw.slice(start, i);
  return linking.some((w) => w !== 'the' && w !== 'a' && w !== 'an') && name.every((w, j) => raw[i + j] === w);
}

/** Whether a path passes through (not ends at) a node of one of the labels. */
function passesLabel(r: Reach, labels: readonly string[]): boolean {
  let at = r.seed.node;
  for (const rel of r.path.slice(0, -1)) {
    at = rel.other(at);
    if (at.labels.some((l) => labels.includes(l))) return true;
  }
  return false;
}

/** Words that, closing a question, ask for a name rather than a relation. */
const NAMING_WORDS: ReadonlySet<string> = new Set(['called', 'named', 'titled', 'known']);

/**
 * The run of adjacent content words (no stop word, no word of a seed's name between) around
 * the first place `word` stands in the question: "head office location" for "location" in
 * "the head office location of X". Such a run is one noun phrase and names one relation.
 */
function phraseRun(raw: readonly string[], word: string, seedWords: ReadonlySet<string>): string {
  const first = word.split(' ')[0];
  const at = raw.indexOf(first);
  if (at < 0) return word;
  const inRun = (w: string | undefined): boolean => w !== undefined && !isStopWord(w) && !seedWords.has(w);
  let a = at;
  let b = at + word.split(' ').length - 1;
  while (inRun(raw[a - 1])) a--;
  while (inRun(raw[b + 1])) b++;
  return raw.slice(a, b + 1).join(' ');
}

/** Words that frame a question without asking anything of its entity ("tell me about X", "who is X"). */
const QUESTION_FRAME: ReadonlySet<string> = new Set(['who', 'whom', 'what', 'which', 'where', 'when', 'tell', 'show', 'find', 'give', 'get', 'look', 'describe', 'about', 'please', 'info', 'information', 'details']);

/** First words that make a text a question or a request rather than a search ("item 1 common words"). */
const QUESTION_OPENERS: ReadonlySet<string> = new Set(['who', 'whom', 'whose', 'what', 'which', 'where', 'when', 'how', 'why', 'list', 'show', 'name', 'give', 'find', 'get', 'tell', 'enumerate', 'display', 'return', 'is', 'are', 'does', 'do']);

/** Words that open a relative clause inside a fragment ("a library **that** uses X"). */
const RELATIVE_PRONOUNS: ReadonlySet<string> = new Set(['that', 'which', 'who', 'whom', 'whose']);

/** How many hits each seed source contributes before fusion. */
const PER_SOURCE = 25;

export function runRag(env: RagEnvironment, question: string, options: RagOptions): RagRun {
  const started = performance.now();
  const stageMs: Record<string, number> = {};
  let lap = started;
  // Each call charges the time since the previous one to `stage`.
  const charge = (stage: string): void => {
    const now = performance.now();
    stageMs[stage] = (stageMs[stage] ?? 0) + (now - lap);
    lap = now;
  };
  const expired = (): boolean => performance.now() - started > options.deadlineMs;
  const skipped: string[] = [];
  const q = analyseQuestion(question);
  charge('question');
  const ctx = { graph: env.graph, schema: env.schema, embedding: env.embedding, checkDeadline: env.checkDeadline, expired };
  const seeds: Partial<Record<SeedSource, SeedHit[]>> = {};
  // Without a full-text index the text scan stands in for it (when either is asked for).
  const indexed = hasFulltextIndex(env.schema);
  const fulltext = indexed && options.sources.has('fulltext');
  const text = options.sources.has('text') || (options.sources.has('fulltext') && !indexed);
  let values: RagTrace['values'] = { candidates: [], keys: [], scanCut: false };
  const stages: [SeedSource, () => SeedHit[]][] = [
    [
      'value',
      () => {
        const found = valueSeeds(ctx, q.text, PER_SOURCE);
        values = { candidates: found.candidates, keys: [...found.keys], scanCut: found.scanCut };
        return found.hits;
      },
    ],
    ['name', () => nameSeeds(ctx, q, PER_SOURCE)],
    ['fulltext', () => fulltextSeeds(ctx, q, PER_SOURCE)],
    ['text', () => textSeeds(ctx, q, PER_SOURCE)],
    ['vector', () => vectorSeeds(ctx, q, PER_SOURCE)],
  ];
  const wanted = (source: SeedSource): boolean =>
    source === 'fulltext' ? fulltext : source === 'text' ? text : options.sources.has(source);
  for (const [source, run] of stages) {
    if (!wanted(source)) continue;
    if (expired()) {
      skipped.push(`seeds.${source}`);
      continue;
    }
    charge('other');
    const hits = run();
    charge(`seeds.${source}`);
    if (hits.length > 0) seeds[source] = hits;
  }
  const fused = fuseSeeds(seeds, options.seeds);
  const propertyKeys = env.graph.propertyKeys();
  const byMeaning = env.embedding && options.targetSimilarity <= 1 ? { provider: env.embedding, similarity: options.targetSimilarity } : undefined;
  // Words of the seeds' own names are neither what is asked for nor relation phrases ("Acme Supply" names a node, not SUPPLIED_BY).
  // When some seed matched exactly, only those name the question's entities; loose hits ("Elgo Sea" for the word "sea") do not.
  const exactSeeds = fused.filter((s) => s.sources.name !== undefined || s.sources.value !== undefined);
  const seedWords = new Set((exactSeeds.length > 0 ? exactSeeds : fused).slice(0, 3).flatMap((s) => nameWords(s.node)));
  // The words naming the key a question's value was found in ("whose **producer number** is 476-691-ZM" → `producer_no`) say
  // where the value is, not what is asked: they ask for no label or property (the holder's own label aside: "which part has
  // the part number PN-1"), as the words of the seeds' names do not.
  const valueKeyStems = new Set(values.keys.flatMap(nameStems));
  const holderLabels = new Set(fused.filter((s) => s.sources.value !== undefined).flatMap((s) => s.node.labels));
  const valueKeyWords = q.raw.filter(
    (w) => valueKeyStems.has(stem(w)) && !labelsNamed(w, env.graph.labels(), labelVocabulary(env.graph)).some((l) => holderLabels.has(l)),
  );
  const notAsked = valueKeyWords.length > 0 ? new Set([...seedWords, ...valueKeyWords]) : seedWords;
  let targets = options.targets ? schemaTargets(env.graph, q, propertyKeys, byMeaning, notAsked) : NO_TARGETS;
  // A label asked only by words its nodes use gives way to the value's holder, a relation named by its own words, or the entity's own kind (weak-labels.ts).
  if (options.targets) {
    const entityLabels = fused.find((s) => s.sources.name !== undefined)?.node.labels ?? [];
    targets = yieldWeakLabels(targets, { graph: env.graph, q, vocabulary: labelVocabulary(env.graph), notAsked, entityLabels, holderLabels, valueKeyStems });
  }
  if (values.keys.length > 0 && targets.keys.some((k) => values.keys.includes(k))) {
    // The question gave the value ("which part has part number PN-1"): the entity holding it is the answer, not the value.
    targets = { ...targets, keys: targets.keys.filter((k) => !values.keys.includes(k)), matches: targets.matches.filter((m) => m.kind !== 'property' || !values.keys.includes(m.name)) };
  }
  // "Where" about the entity itself (no other label named: "Where was \"T\" published?", "Where did F premiere?") asks what it
  // is in, at or on: the far ends of its types named with a preposition of place answer as a place does (schema-routes.ts).
  // Not when the question names a relation that ends at a place ("Where is X's office **located**?": that place is asked).
  const asksWhere = q.asked.length === 0 && (q.raw.slice(0, 3).includes('where') || q.raw[q.raw.length - 1] === 'where');
  if (options.targets && asksWhere && fused.length > 0 && !typesReach(env.graph, targets.types, targets.labels)) {
    const labels = env.graph.labels();
    const namesOther = q.raw.some((w) => !seedWords.has(w) && !isStopWord(w) && labelsNamed(w, labels, undefined, 2).some((l) => !fused[0].node.labels.includes(l)));
    const places = namesOther ? [] : locativeEnds(env.graph, fused[0].node.labels).filter((l) => !targets.labels.includes(l));
    if (places.length > 0) {
      targets = {
        ...targets,
        labels: [...targets.labels, ...places],
        labelsAsked: true,
        matches: [...targets.matches, ...places.map((name) => ({ kind: 'label' as const, name, score: 1, by: 'locative' as const }))],
      };
    }
  }
  if (targets.embeddingError !== undefined) skipped.push(`targets.embedding (${targets.embeddingError})`);
  charge('targets');
  if (expired()) skipped.push('expand');
  const reached: Reach[] = expand(env.graph, fused, expired() ? { ...options, hops: 0 } : options, expired, env.checkDeadline);
  charge('expand');
  let paths: RagTrace['paths'] = { relations: [], maxHops: 0, ends: 0, cut: false };
  // Types a relation phrase seemed to name that the schema rules out for the entity it governs (beforeName below).
  const notNamed = new Set<string>();
  if (options.targets && options.hops > 0 && fused.length > 0) {
    if (expired()) skipped.push('paths');
    else {
      // The words of the key a quoted value was found in name that value, not a relation ("call sign X" is not CALLS_AT),
      // and a closing "called"/"named" asks for a name ("what's the ship called?").
      const keyWords = new Set(values.keys.flatMap(identifierWords));
      const last = q.raw.length - 1;
      const rawStems = new Set(q.raw.map(stem));
      const vocabulary = labelVocabulary(env.graph);
      const named = new Set([
        ...targets.labels,
        ...env.graph.labels().filter((l) => { const own = nameStems(l); return own.length > 0 && own.every((w) => rawStems.has(w)); }),
        // A label the question mentions by a noun of its group or a word its nodes use ("the **trials** that test X").
        ...q.raw.filter((w) => !seedWords.has(w) && !isStopWord(w)).flatMap((w) => labelsNamed(w, env.graph.labels(), vocabulary, 1.5)),
      ]);
      for (const s of fused.slice(0, 1)) for (const l of s.node.labels) named.delete(l);
      // An asked word that names the asked label says what the answer is, not how to reach it ("which **suppliers** are based in …").
      const askedLabelStems = new Set(targets.labelsAsked ? targets.labels.flatMap(nameStems) : []);
      // A word that is a label's noun ("suppliers located in …") names the label, not a relation, unless a role follows ("the supplier of X").
      const labelNouns = new Set(env.graph.labels().map((l) => foldWord(l.toLowerCase())));
      // "Co-authored" is "authored", shared with the entity: the word without its prefix names the relation, walked twice.
      const shared = coWords(env.graph, q.raw);
      const phraseWords = q.raw.map((w, i) => shared.get(i) ?? w).filter(
        (w, i) =>
          !seedWords.has(w) &&
          !keyWords.has(w) &&
          !(i === last && NAMING_WORDS.has(w)) &&
          !(q.asked.includes(w) && askedLabelStems.has(stem(w))) &&
          !(labelNouns.has(q.words[i]) && q.raw[i + 1] !== 'of' && !isVerbAfterWho(q.raw, i) && !(labelNouns.has(q.words[i - 1] ?? '') && isVerbAfterPlural(env.graph, q.raw, i))) &&
          !(isModifierGerund(q.raw, i, seedWords) && !ownWordOfType(env.graph, w)),
      );
      let relations: RelationMatch[];
      const acronyms = questionAcronyms(q.text);
      try {
        relations = matchRelations(env.graph, phraseWords, [...named], byMeaning, acronyms);
      } catch (err) {
        // As for targets: a broken embedder costs the meaning matches only.
        if (endsTheQuery(err) || err instanceof MemoryLimitError) throw err;
        skipped.push(`paths.embedding (${err instanceof Error ? err.message : String(err)})`);
        relations = matchRelations(env.graph, phraseWords, [...named], undefined, acronyms);
      }
      const sharedWords = new Set(shared.values());
      relations = relations.map((m) => (m.by === 'endpoint' ? m : { ...m, phrase: phraseRun(q.raw, m.word, seedWords), ...(sharedWords.has(m.word) && m.score > 0 ? { shared: true } : {}) }));
      // A type joining a label to itself is walked the way the question's word order reads it ("what X depends on", not "what depends on X").
      const selfJoining = sameLabelTypes(env.graph);
      const entityName = nameWords(fused[0].node);
      relations = relations.map((m) => {
        const direction = m.score > 0 && selfJoining.has(m.type) ? clauseDirection(q.raw, m.word, m.type, entityName, possessiveOf(q.text, entityName)) : undefined;
        return direction === undefined ? m : { ...m, direction };
      });
      // A relation phrase right before the entity's name, only a preposition and an article between ("the **members of** the X
      // Co-op", "who **belongs to** the X Co-op"), names a relationship of that entity: a type the schema never sees at the
      // entity's label (`belongsTo` joins plots to farms, not co-ops) is not what it names, and is not walked to.
      const ends = typeEndpoints(env.graph);
      const entityLabels = fused[0].node.labels;
      // Unless the type reaches the label asked for ("Which doctors **work at** X Hospital?": `HOLDS_POST_IN` ends at the
      // doctors, a unit away from the hospital): then the question says the relation is reached beyond the entity.
      const touches = (type: string, labels: readonly string[]): boolean => labels.some((l) => ends.get(type)?.has(l) === true);
      const askedNow = targets.labelsAsked === true ? targets.labels : [];
      // Nor when the name is a possessive: "the suppliers of **X's** parts" governs X's parts, not X.
      const possessed = possessiveOf(q.text, entityName);
      const misread = (m: RelationMatch): boolean =>
        !possessed && m.score > 0 && m.shared !== true && beforeName(q.raw, m.word, entityName) && !touches(m.type, entityLabels) && !touches(m.type, askedNow);
      for (const m of relations) if (misread(m)) notNamed.add(m.type);
      relations = relations.filter((m) => !misread(m));
      // The schema's shortest routes from the question's entity to the asked label connect what the phrases leave open.
      // So do the routes to a type the question names by its own word that does not touch the entity's label ("the network
      // that shows T **headquartered**": T's `:Title` reaches `HQ_CITY`'s `:BROADCASTER` over `AIRS_ON`, `operatedBy`).
      const toNamed = relations.filter((m) => m.by === 'words').flatMap((m) => routeTypesTo(env.graph, fused[0].node.labels, m.type).map((type) => ({ type, to: m.type })));
      const withRoutes = (asked: readonly string[]): RelationMatch[] => {
        const out = [...relations];
        const add = (type: string, word: string): void => {
          if (!out.some((m) => m.type === type)) out.push({ type, score: 0, by: 'route', word });
        };
        for (const type of routeTypes(env.graph, fused[0].node.labels, asked)) add(type, asked.join('|'));
        for (const r of toNamed) add(r.type, r.to);
        return out;
      };
      const walkTo = (asked: readonly string[]): { relations: RelationMatch[]; walk: ReturnType<typeof walkPaths> } => {
        const all = withRoutes(asked);
        return { relations: all, walk: walkPaths(env.graph, fused, all, options.fanout, options.relWeights, expired, env.checkDeadline, asked, [...named].filter((l) => !asked.includes(l))) };
      };
      let run = walkTo(targets.labelsAsked === true ? targets.labels : []);
      // "Who" asks for a person (person-labels.ts): when no label is asked and the phrases reached nothing ("Who has led runs
      // on X?", where "led" names no type near X), the schema's shortest routes to the labels of people that pass through a
      // label the question mentions ("runs") are the answer's chain. A route the question's words do not support is left
      // alone: "Who bought lot X?" may ask for a firm, not for the grower three hops away.
      // A body of people answers "who" as a person does ("Who makes the drug tested in X?" → the firm the drug is licensed
      // to): labels whose head is a noun of the company group (`PharmaFirm`, `Company`) are walked to as well.
      const bodies = targets.prefers !== undefined ? env.graph.labels().filter((l) => !targets.prefers?.includes(l) && labelNaming('company', l) >= 2) : [];
      if (run.walk.reaches.length === 0 && targets.prefers !== undefined && !targets.labelsAsked) {
        const toPeople = walkTo([...targets.prefers, ...bodies]);
        // Mentioned outside the entities' names: "Who belongs to the Hill **Farmers** Co-op?" mentions no farm.
        const mentioned = [...new Set(q.raw.filter((w) => !seedWords.has(w) && !isStopWord(w)).flatMap((w) => labelsNamed(w, env.graph.labels(), vocabulary, LEARNT_NAMING)))].filter(
          (l) => !targets.prefers?.includes(l),
        );
        const through = toPeople.walk.reaches.filter((r) => passesLabel(r, mentioned));
        if (through.length > 0) {
          run = { relations: toPeople.relations, walk: { ...toPeople.walk, reaches: through } };
          const reachedBodies = bodies.filter((l) => through.some((r) => r.node.labels.includes(l)));
          if (reachedBodies.length > 0) targets = { ...targets, prefers: [...(targets.prefers ?? []), ...reachedBodies] };
        }
      }
      relations = run.relations;
      reached.push(...run.walk.reaches);
      paths = { relations, maxHops: run.walk.maxHops, ends: run.walk.reaches.length, cut: run.walk.cut, ...(notNamed.size > 0 ? { dropped: [...notNamed] } : {}) };
    }
  }
  if (notNamed.size > 0) targets = { ...targets, types: targets.types.filter((t) => !notNamed.has(t)), matches: targets.matches.filter((m) => m.kind !== 'type' || !notNamed.has(m.name)) };
  charge('paths');
  // "Who" with no label asked prefers people (person-labels.ts) only where nothing else says what is asked: once a relation
  // phrase was walked from the entity, its end is the answer, person or not ("Who employs X?" → an institute).
  if (targets.prefers !== undefined && paths.ends > 0 && paths.relations.some((m) => m.score > 0)) targets = { ...targets, prefers: undefined };
  // An entity the question names exactly (by name or a value it holds) anchors it: loose text and vector hits are then only noise.
  const anchored = exactSeeds.length > 0;
  // A verb the schema does not know, with the entity after a preposition ("what is shedded at X"), makes X its object.
  const verbUnknown = options.targets && targets.types.length === 0 && !paths.relations.some((m) => m.score > 0);
  const objectSeeds = verbUnknown ? new Set(exactSeeds.slice(0, 3).filter((s) => precededByPreposition(q.raw, nameWords(s.node))).map((s) => s.node)) : new Set<Node>();
  // And with the entity between an auxiliary and that verb ("What did X observe?"), X is its subject and the answer its object (verb-roles.ts).
  const subjectSeeds = verbUnknown ? new Set(exactSeeds.slice(0, 3).filter((s) => subjectOfVerb(q.raw, nameWords(s.node))).map((s) => s.node)) : new Set<Node>();
  // A question with words beyond the names of its entities and its question words asks something about them ("X's department?"):
  // those entities found by name are not its answer. "Who is X?" and "tell me about X" have no such word.
  // A fragment with a relative clause ("a library that uses X") asks about X as much as a question does,
  // and so does an entity's name followed by a plural and nothing else ("The Owls members": plural-ends.ts); a plain search does not.
  const questionLike =
    /\?\s*$/.test(q.text) ||
    q.asked.length > 0 ||
    QUESTION_OPENERS.has(q.raw[0] ?? '') ||
    q.raw.slice(1).some((w) => RELATIVE_PRONOUNS.has(w)) ||
    (exactSeeds.length > 0 && pluralOfName(q.raw, nameWords(exactSeeds[0].node)));
  // A plural asked for with no relation walked from the entity ("List the members of X"): X's single facts (its town) are not the list.
  // A word that asks for all of them ("List them **all**", "**everyone**", "the **complete** roster", "the client **list**") asks
  // for many though its noun is singular or no noun names the relation: then the relation with many ends is preferred even
  // when a route to the asked label was walked (no phrase named one), and the entity, being one, is not the list either.
  const listing = options.targets && questionLike && exactSeeds.length > 0 && asksAll(q.raw, seedWords);
  const reachedNow =
    options.targets && questionLike && paths.ends === 0 && targets.labels.length === 0 && exactSeeds.length > 0 && asksPlural(q.raw, seedWords)
      ? preferManyEnds(reached, exactSeeds[0].node, listing)
      : listing && !paths.relations.some((m) => m.score > 0)
        ? preferManyEnds(reached, exactSeeds[0].node, true)
        : reached;
  const asksAbout = options.targets && questionLike && q.raw.some((w, i) => !seedWords.has(w) && !isStopWord(w) && !QUESTION_FRAME.has(w) && !(w === 's' && i > 0) && !/^\d+$/.test(w));
  const askedAbout = asksAbout ? new Set(exactSeeds.filter((s) => s.sources.value === undefined).slice(0, 3).map((s) => s.node)) : new Set<Node>();
  // Before a passive verb and its "by" ("\"T\" was helmed by whom?"), X is the verb's object and the answer its agent (verb-roles.ts).
  const patientSeeds = verbUnknown ? new Set(exactSeeds.slice(0, 3).filter((s) => patientOfPassive(q.raw, nameWords(s.node))).map((s) => s.node)) : new Set<Node>();
  // A preposition the question ends on ("What is X prescribed **for**?", "Which film did X star **in**?") is its verb's: when a
  // type leaving X is named with it (`indicatedFor`, `ACTED_IN`), what lies over X's other types is not the answer (verb-roles.ts).
  const stranded = verbUnknown ? strandedPreposition(q.raw) : undefined;
  const strandedSeeds =
    stranded !== undefined ? new Set(exactSeeds.slice(0, 3).filter((s) => leavesNamedWith(env.graph, s.node.labels, stranded)).map((s) => s.node)) : new Set<Node>();
  const roles = { objectSeeds, subjectSeeds, patientSeeds, ...(stranded !== undefined ? { stranded, strandedSeeds } : {}) };
  const ranked = rank(reachedNow, targets, options, anchored, roles, askedAbout, options.k);
  const results = ranked.items;
  for (const r of results) {
    r.note = noteFor(r);
    r.evidence = evidenceOf(r.reach);
  }
  markConflicts(results);
  charge('rank');
  return {
    results,
    trace: {
      question: { analysed: q.text, truncated: q.truncated, terms: [...q.terms.values()] },
      targets,
      seeds,
      fused,
      values,
      paths,
      reached: reached.length,
      ranked: ranked.candidates,
      skipped,
      elapsedMs: performance.now() - started,
      stageMs,
    },
  };
}

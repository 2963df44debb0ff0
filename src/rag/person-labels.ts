/**
 * Which labels hold people, for a "who" question that names no label: beyond the general nouns
 * question.ts lists (person, author, employee…), a label whose own word is an agent noun
 * (astronomer, grower, maintainer, clinician, chemist, engineer: -er, -or, -ist, -ian, -eer on
 * a stem of four letters or more, so "paper" or "order" is none) and whose sampled nodes are
 * called by personal names ("Ines Moro", "Wen V. Novak": two to four capitalised words, one of
 * them maybe an initial, no digits, no lower-case word between; no last word most names share;
 * not the label's own word) holds people. Codes, titles, "Institute for Astrophysics", "Vale
 * Radio" and "Hill Radio" fail the name test, so a container, a paper, an institute or a
 * broadcaster is not taken for a person. Cached per graph until its node count moves by more than a tenth.
 */

import type { Graph } from '../store/graph.js';
import { identifierWords } from './text-match.js';

/** Nodes sampled per label. */
const SAMPLE = 48;
/** Share of the sampled names that must read as personal names. */
const MIN_SHARE = 0.8;
/** Most any one last word may take of those names (family names spread; "Radio", "Display" do not). */
const MAX_LAST_WORD_SHARE = 0.25;

/** An agent noun: a stem of four letters or more and a suffix that names who does it. */
const AGENT_NOUN = /^[a-z]{4,}(?:er|or|ist|ian|eer)$/;
/** A personal name: capitalised words (an initial with its dot allowed), two to four of them. */
const PERSON_NAME = /^\p{Lu}[\p{Ll}'’-]+(?: (?:\p{Lu}\.|\p{Lu}[\p{Ll}'’-]+)){1,3}$/u;

interface Cached {
  nodeCount: number;
  labels: Set<string>;
}
const cache = new WeakMap<Graph, Cached>();

/**
 * Whether most sampled nodes of `label` are called by personal names: the shape of a name, no
 * last word most of them share ("Vale Radio", "Hill Radio": a kind, not a family; family names
 * spread), and no name holding the label's own word ("Hall Monitor Display" for `:Monitor`).
 */
function namedLikePeople(graph: Graph, label: string, head: string): boolean {
  const ids = graph.labelSet(label);
  if (!ids) return false;
  let seen = 0;
  let people = 0;
  const lastWords = new Map<string, number>();
  for (const id of ids.toArray()) {
    if (seen >= SAMPLE) break;
    const node = graph.node(id);
    if (!node || node.deleted) continue;
    const name = node.prop('name');
    if (typeof name !== 'string') continue;
    seen++;
    const words = name.trim().toLowerCase().split(' ');
    if (words.includes(head)) return false;
    if (!PERSON_NAME.test(name.trim())) continue;
    people++;
    const last = words[words.length - 1];
    lastWords.set(last, (lastWords.get(last) ?? 0) + 1);
  }
  const commonest = Math.max(0, ...lastWords.values());
  return seen >= 2 && people >= seen * MIN_SHARE && (commonest === 1 || commonest <= people * MAX_LAST_WORD_SHARE);
}

/** The labels of `graph` that hold people by their agent-noun word and their nodes' names (not the listed person nouns). */
export function agentPersonLabels(graph: Graph): ReadonlySet<string> {
  const cached = cache.get(graph);
  const n = graph.nodeCount;
  if (cached && Math.abs(cached.nodeCount - n) <= cached.nodeCount * 0.1) return cached.labels;
  const labels = new Set<string>();
  for (const label of graph.labels()) {
    const words = identifierWords(label);
    const head = words[words.length - 1];
    if (head !== undefined && AGENT_NOUN.test(head) && namedLikePeople(graph, label, head)) labels.add(label);
  }
  cache.set(graph, { nodeCount: n, labels });
  return labels;
}

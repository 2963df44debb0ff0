/**
 * graph_rag's value seeds: a question that quotes or names a value — a code ("PN-48213-K",
 * "LIS"), an id or number ("123456789"), a date ("2019-04-12"), a quoted string — points at
 * the nodes holding that value in some property, whatever the key. The candidates come from
 * the question's raw tokens (before word splitting, so hyphenated codes stay whole); each is
 * looked up in every property index first (a seek per index, fast), then, for the keys no
 * index covers, by a bounded scan of the property columns (at most MAX_SCAN_CELLS cells,
 * checked against the deadline), so it works on any graph and quickly on an indexed one.
 *
 * Names and titles are left to the name seeds; free text (long strings, lists) is not compared.
 * A hit scores more for an indexed key and for a key that reads like an identifier (code,
 * id, number, sku…), so "code LIS" finds the airport before a note that happens to say "LIS".
 */

import type { Value } from '../../runtime/values.js';
import type { Graph } from '../store/graph.js';
import type { Schema } from '../store/schema.js';
import { identifierWords } from './text-match.js';
import type { SeedHit, SeedContext } from './seeds.js';

/** Most values looked for per question. */
const MAX_CANDIDATES = 14;
/** Most value-like tokens joined into one value. */
const MAX_JOINED = 4;
/** Most property cells the scan reads per question (bounds a graph without indexes). */
export const MAX_SCAN_CELLS = 400_000;
/** Longest stored string compared (longer ones are text, not values). */
const MAX_VALUE_CHARS = 80;
/** Keys never compared here: names go to the name seeds, vectors are not values. */
const SKIPPED_KEYS: ReadonlySet<string> = new Set(['name', 'title', 'embedding', 'observation_class', 'confidence', 'source', 'observed_at']);
/** Words that make a key read like an identifier. */
const KEY_WORDS: ReadonlySet<string> = new Set(['code', 'id', 'number', 'no', 'num', 'sku', 'iso', 'ref', 'reference', 'key', 'serial', 'isbn', 'iata', 'icao', 'duns', 'vat', 'ean', 'upc', 'symbol', 'ticker', 'date', 'email', 'phone', 'zip', 'postcode']);

const QUOTED = /"([^"\n]{1,80})"|“([^”\n]{1,80})”|'([^'\n]{1,80})'|‘([^’\n]{1,80})’/gu;
// A handle or tag keeps its leading mark ("@quietfox", "#release"): the mark is part of the stored value.
const TOKEN = /[@#]?[\p{L}\p{N}][\p{L}\p{N}\-_./:+#@]*[\p{L}\p{N}]|[\p{N}]/gu;
/** What may stand between two tokens of one value: a single space, and a sign before the second ("15h04m48s -84d55m56s"). */
const JOINER = /^ [+\-−]?$/u;
/** Marks inside or before a word that ordinary words do not carry: hosts, paths, emails, handles, tags. */
const MARKED = /^[@#]|[\p{L}\p{N}][./:@][\p{L}\p{N}]/u;

export interface ValueCandidate {
  /** As written in the question. */
  text: string;
  /**
   * Why it reads as a value: quoted, has digits, all capitals, marked (a host, path, email or
   * handle: "cargo.io", "@quietfox"), or named (a capitalised run after "named"/"called").
   */
  kind: 'quoted' | 'digits' | 'capitals' | 'marked' | 'named';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
/** Dates written out in words: "7 May 1928", "the 7th of May, 1928", "May 7, 1928". */
const SPOKEN_DATES: readonly { re: RegExp; day: number; month: number; year: number }[] = [
  { re: new RegExp(`\\b${DAY}\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})\\b`, 'giu'), day: 1, month: 2, year: 3 },
  { re: new RegExp(`\\b${MONTH}\\s+${DAY},?\\s+(\\d{4})\\b`, 'giu'), day: 2, month: 1, year: 3 },
];

/** The ISO dates written out in words in the question, with where each was written. */
function spokenDates(question: string): { iso: string; start: number; end: number }[] {
  const out: { iso: string; start: number; end: number }[] = [];
  for (const form of SPOKEN_DATES) {
    for (const m of question.matchAll(form.re)) {
      const day = Number(m[form.day]);
      const month = MONTHS.indexOf(m[form.month].toLowerCase().slice(0, 3)) + 1;
      if (day < 1 || day > 31 || month < 1) continue;
      const iso = `${m[form.year]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      out.push({ iso, start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
    }
  }
  return out;
}

/**
 * A run of capitalised words right after a naming word ("the release code-named Amber Mole",
 * "a ship called Sea Wren", "the unit abbreviated CrB"): a value given whole, spaces and all,
 * as if it were quoted. Word by word it would only match names that share one of its words (and
 * a short mixed-case abbreviation such as "CrB" or "Mon" would not be sought at all).
 */
const NAMED_RUN = /\b(?:named|called|code-?named|nicknamed|dubbed|titled|known as|abbreviated|abbreviation)\s+((?:\p{Lu}[\p{L}\p{N}'-]*)(?:\s+\p{Lu}[\p{L}\p{N}'-]*){0,3})/gu;

/** The values a question names, in order, at most MAX_CANDIDATES. */
export function valueCandidates(question: string): ValueCandidate[] {
  const out: ValueCandidate[] = [];
  const seen = new Set<string>();
  const add = (text: string, kind: ValueCandidate['kind']): void => {
    const t = text.trim();
    if (t === '' || seen.has(t.toLowerCase()) || out.length >= MAX_CANDIDATES) return;
    seen.add(t.toLowerCase());
    out.push({ text: t, kind });
  };
  for (const m of question.matchAll(QUOTED)) add(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '', 'quoted');
  for (const m of question.matchAll(NAMED_RUN)) add(m[1], 'named');
  // A date in words is sought as its ISO text (how dates compare); its day and year are not values of their own.
  const dates = spokenDates(question);
  for (const d of dates) add(d.iso, 'digits');
  // Value-like tokens (with digits, or in capitals) written one after another, a space (and maybe a sign) apart, are one
  // value too ("14h29m43s -62d40m46s", "ISAN 0000-8F2A-E3E7-0000-N", "WW PAB"): a stored value may hold the space. Every
  // run of two to four of them is sought, longest first (the first word may be the key's name, "ISAN", or part of the
  // value); each token is still sought alone below.
  const tokens = [...question.matchAll(TOKEN)].map((m) => ({ t: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
  const valueLike = (t: string): boolean => /\p{N}/u.test(t) || (t.length >= 2 && t === t.toUpperCase() && /\p{Lu}/u.test(t));
  const inDate = (start: number, end: number): boolean => dates.some((d) => start < d.end && end > d.start);
  for (let i = 0; i < tokens.length; i++) {
    let j = i;
    while (j + 1 < tokens.length && valueLike(tokens[j].t) && valueLike(tokens[j + 1].t) && JOINER.test(question.slice(tokens[j].end, tokens[j + 1].start))) j++;
    const last = Math.min(j, i + MAX_JOINED - 1);
    for (let n = last - i + 1; n >= 2; n--) {
      for (let a = i; a + n - 1 <= last; a++) {
        const from = tokens[a];
        const to = tokens[a + n - 1];
        // A run of capitals alone must hold a digit or be two words at most ("WW PAB"), not a shouted sentence.
        if (!inDate(from.start, to.end) && (n === 2 || tokens.slice(a, a + n).some((x) => /\p{N}/u.test(x.t)))) add(question.slice(from.start, to.end), 'digits');
      }
    }
    i = j;
  }
  for (const m of question.matchAll(TOKEN)) {
    const t = m[0];
    const at = m.index ?? 0;
    if (dates.some((d) => at >= d.start && at < d.end)) continue;
    if (/\p{N}/u.test(t)) add(t, 'digits');
    else if (MARKED.test(t)) add(t, 'marked');
    // "LIS", "XQ", "EN-1234": capitals of two or more letters, not a lone "I" or "A".
    else if (t.length >= 2 && t === t.toUpperCase() && /\p{Lu}/u.test(t)) add(t, 'capitals');
  }
  return out;
}

/** The comparable form of a stored value, or undefined for values that are not compared. */
function comparable(v: Value | undefined): string | undefined {
  if (typeof v === 'string') return v.length <= MAX_VALUE_CHARS ? v.trim().toLowerCase() : undefined;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map) && 'toString' in v) {
    // Temporal values print in ISO form: a date property matches "2019-04-12".
    const s = String(v);
    return s.length <= MAX_VALUE_CHARS && s !== '[object Object]' ? s.toLowerCase() : undefined;
  }
  return undefined;
}

function keyLike(key: string): boolean {
  return identifierWords(key).some((w) => KEY_WORDS.has(w));
}

/** The stored forms a candidate is sought as: the string, and the number it spells if any. */
function seekValues(c: ValueCandidate): Value[] {
  const out: Value[] = [c.text];
  if (/^-?\d+(\.\d+)?$/.test(c.text)) {
    const n = Number(c.text);
    if (Number.isSafeInteger(n)) out.push(BigInt(n));
    out.push(n);
  }
  return out;
}

export interface ValueSeedResult {
  hits: SeedHit[];
  /** Keys whose values matched: the question named the value, so the value is not the answer. */
  keys: Set<string>;
  candidates: ValueCandidate[];
  /** Whether the scan stopped at its bound or the deadline. */
  scanCut: boolean;
}

/** Nodes holding a value the question names, best first (indexed, key-like keys first). */
export function valueSeeds(ctx: SeedContext, question: string, k: number): ValueSeedResult {
  const candidates = valueCandidates(question);
  const result: ValueSeedResult = { hits: [], keys: new Set(), candidates, scanCut: false };
  if (candidates.length === 0) return result;
  const wanted = new Map<string, ValueCandidate>();
  for (const c of candidates) wanted.set(c.text.toLowerCase(), c);
  const byNode = new Map<number, SeedHit>();
  const hit = (graph: Graph, id: number, key: string, c: ValueCandidate, indexed: boolean): void => {
    const node = graph.node(id);
    if (!node || node.deleted) return;
    const score = 1 + (indexed ? 1 : 0) + (keyLike(key) ? 1 : 0) + (c.kind === 'capitals' ? 0 : 0.5);
    const current = byNode.get(id);
    result.keys.add(key);
    if (!current || current.score < score) byNode.set(id, { node, score, where: `${key} = '${c.text}'` });
  };
  const indexedKeys = new Set<string>();
  for (const info of indexesOf(ctx.schema)) {
    // An index still being filled is left to the scan: seeking it would finish its fill inside this question.
    if (SKIPPED_KEYS.has(info.key) || !ctx.schema?.hasIndex(info.label, info.key)) continue;
    const idx = ctx.schema.index(info.label, info.key);
    if (!idx) continue;
    indexedKeys.add(info.key);
    for (const c of candidates) for (const v of seekValues(c)) for (const id of idx.seek(v)) hit(ctx.graph, id, info.key, c, true);
  }
  // Keys without an index: the graph's value table (built once per graph version), or on a graph too large for one a
  // bounded scan of their columns. (An indexed key may also be held by nodes outside the indexed label; those are found
  // here unless the index already answered.)
  const graph = ctx.graph;
  const table = valueTable(graph, ctx.checkDeadline);
  if (table !== undefined) {
    const found: { at: ValueCell; c: ValueCandidate }[] = [];
    for (const [form, c] of wanted) for (const at of table.get(form) ?? []) found.push({ at, c });
    // In the scan's order (key by key, ids ascending), so the first key's hit wins a tie as it did.
    found.sort((a, b) => a.at.order - b.at.order || a.at.id - b.at.id);
    const skipKey = new Map<string, boolean>();
    for (const { at, c } of found) {
      let skip = skipKey.get(at.key);
      if (skip === undefined) skipKey.set(at.key, (skip = indexedKeys.has(at.key) && byNode.size > 0));
      if (!skip && graph.hasLiveNode(at.id)) hit(graph, at.id, at.key, c, indexedKeys.has(at.key));
    }
  } else scanValues(ctx, wanted, indexedKeys, byNode, hit, result);
  result.hits = [...byNode.values()].sort((a, b) => b.score - a.score || a.node.id - b.node.id).slice(0, k);
  return result;
}

/** The bounded column scan, for a graph whose compared cells exceed MAX_SCAN_CELLS (no value table is built for it). */
function scanValues(
  ctx: SeedContext,
  wanted: ReadonlyMap<string, ValueCandidate>,
  indexedKeys: ReadonlySet<string>,
  byNode: ReadonlyMap<number, SeedHit>,
  hit: (graph: Graph, id: number, key: string, c: ValueCandidate, indexed: boolean) => void,
  result: ValueSeedResult,
): void {
  const graph = ctx.graph;
  const bound = graph.nodes.length;
  let cells = 0;
  scan: for (const key of graph.propertyKeys()) {
    if (SKIPPED_KEYS.has(key) || (indexedKeys.has(key) && byNode.size > 0)) continue;
    const column = graph.nodeProps.column(key);
    if (!column) continue;
    for (let id = 0; id < bound; id++) {
      if ((++cells & 4095) === 0) {
        ctx.checkDeadline();
        if (ctx.expired() || cells > MAX_SCAN_CELLS) {
          result.scanCut = true;
          break scan;
        }
      }
      const form = comparable(column.get(id));
      if (form === undefined) continue;
      const c = wanted.get(form);
      if (c && graph.hasLiveNode(id)) hit(graph, id, key, c, indexedKeys.has(key));
    }
  }
}

/** One compared cell of the value table: the key (and its place in the scan's key order) and the node. */
interface ValueCell {
  key: string;
  order: number;
  id: number;
}

/** Per graph: the comparable form of every compared cell, and the graph version it was read at (null: too large for one). */
const valueTables = new WeakMap<Graph, { version: number; table: Map<string, ValueCell[]> | null }>();

/**
 * The graph's compared cells by comparable form, read once per graph version (every write and
 * rollback bumps it, so a changed value is never missed): a question then looks its values up
 * instead of reading, lower-casing and comparing every cell. Undefined when the cells exceed
 * MAX_SCAN_CELLS: such a graph keeps the bounded per-question scan.
 */
export function valueTable(graph: Graph, checkDeadline: () => void): Map<string, ValueCell[]> | undefined {
  const cached = valueTables.get(graph);
  if (cached !== undefined && cached.version === graph.version) return cached.table ?? undefined;
  const version = graph.version;
  const bound = graph.nodes.length;
  const keys = graph.propertyKeys().filter((key) => !SKIPPED_KEYS.has(key) && graph.nodeProps.column(key) !== undefined);
  if (keys.length * bound > MAX_SCAN_CELLS) {
    valueTables.set(graph, { version, table: null });
    return undefined;
  }
  const table = new Map<string, ValueCell[]>();
  let cells = 0;
  keys.forEach((key, order) => {
    const column = graph.nodeProps.column(key);
    if (!column) return;
    for (let id = 0; id < bound; id++) {
      if ((++cells & 4095) === 0) checkDeadline();
      const form = comparable(column.get(id));
      if (form === undefined || !graph.hasLiveNode(id)) continue;
      let at = table.get(form);
      if (!at) table.set(form, (at = []));
      at.push({ key, order, id });
    }
  });
  valueTables.set(graph, { version, table });
  return table;
}

function indexesOf(schema: Schema | undefined): { label: string; key: string }[] {
  return schema ? schema.listIndexes() : [];
}

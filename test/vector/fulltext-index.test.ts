/**
 * The full-text index's in-memory structures (src/fulltext/inverted-index.ts,
 * term-dictionary.ts, the standard analyzer's ASCII scanner) against simple models, and the
 * index through the query language where they show: BM25 scores equal to a direct
 * computation, answers after heavy churn (tombstones, compactions, a rollback across a
 * compaction) equal to the index rebuilt from the store, and a saved file of an older
 * format version refused with a warning that names the versions.
 */

import * as fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { analyzer, AsciiWords, WORD_STRIDE } from '../../src/fulltext/analyzers.js';
import { ELEMENT_END, FIELD_END, InvertedIndex } from '../../src/fulltext/inverted-index.js';
import { hashTerm, TermDictionary } from '../../src/fulltext/term-dictionary.js';
import { FULLTEXT_FILES, FulltextIndex } from '../../src/fulltext/fulltext-index.js';
import { indexFiles } from '../../src/vector/persistence.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { rows, seeded } from './helpers.js';

afterAll(removeTempDirs);

describe('term dictionary and ASCII scanner', () => {
  it('interns, finds and hashes terms as a Map would, through rehashing', () => {
    const dict = new TermDictionary();
    const scanner = new AsciiWords();
    const model = new Map<string, number>();
    const rnd = seeded(3);
    for (let i = 0; i < 20_000; i++) {
      // Short ASCII terms (packed in their cells), longer ones and non-ASCII ones (compared by code units).
      const n = Math.floor(rnd() * 1e9).toString(36);
      const term = i % 7 === 0 ? `t${Math.floor(rnd() * 500)}` : i % 5 === 0 ? `${n}${n}` : n + (i % 3 === 0 ? 'é' : '');
      // Half of the ASCII terms are looked up as the scanner finds them, in upper case in a longer text:
      // lowered, hashed and packed as the dictionary does (else the term would be added twice).
      const scanned = i % 2 === 1 && scanner.scan(`  ${term.toUpperCase()}!`);
      const w = scanner.words;
      const id = scanned ? dict.internLowered(scanner.text, w[0], w[1], w[2], w[3], w[4]) : dict.intern(term);
      if (!model.has(term)) model.set(term, model.size);
      expect(id).toBe(model.get(term));
    }
    expect(dict.size).toBe(model.size);
    for (const [term, id] of model) {
      expect(dict.idOf(term)).toBe(id);
      expect(dict.term(id)).toBe(term);
    }
    expect(dict.idOf('absent')).toBe(-1);
    expect(dict.idOf('')).toBe(-1);
  });

  it('looks up scanned words joined by apostrophes and dots, short and long, as the terms they lower-case to', () => {
    const dict = new TermDictionary();
    const scanner = new AsciiWords();
    const terms = ["it's", 'u.s.a', "o'clock", "rock'n'roll", 'v1.2.3', 'x_y', 'ab'];
    const ids = terms.map((t) => dict.intern(t));
    expect(scanner.scan("IT'S the U.S.A. at O'Clock: Rock'N'Roll v1.2.3 X_Y ab")).toBe(true);
    const found: number[] = [];
    for (let i = 0; i < scanner.count; i++) {
      const w = scanner.words.subarray(WORD_STRIDE * i, WORD_STRIDE * i + WORD_STRIDE);
      found.push(dict.internLowered(scanner.text, w[0], w[1], w[2], w[3], w[4]));
    }
    // 'the' and 'at' are new terms (added lower-cased); the others are the ones interned above.
    expect(found).toEqual([ids[0], terms.length, ids[1], terms.length + 1, ids[2], ids[3], ids[4], ids[5], ids[6]]);
    expect(dict.term(terms.length)).toBe('the');
    expect(dict.size).toBe(terms.length + 2);
  });

  it('finds the standard analyzer’s words with their hashes, and declines non-ASCII text', () => {
    const standard = analyzer('standard');
    const scanner = new AsciiWords();
    const alphabet = "aZ09_ .'-,x\tQ..''";
    const rnd = seeded(11);
    for (let n = 0; n < 3000; n++) {
      const text = Array.from({ length: Math.floor(rnd() * 40) }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
      expect(scanner.scan(text)).toBe(true);
      const words: string[] = [];
      for (let i = 0; i < scanner.count; i++) {
        const word = scanner.word(i);
        expect(scanner.words[WORD_STRIDE * i + 2]).toBe(hashTerm(word));
        words.push(word);
      }
      expect(words).toEqual(standard.terms(text));
    }
    expect(scanner.scan('Ünïcode words')).toBe(false);
    expect(scanner.scan("it's U.S.A. o'clock.")).toBe(true);
    expect(scanner.count).toBe(3);
  });
});

describe('inverted index', () => {
  /** Entity id → its forward entries, with terms as their numbers n (the index's term `w<n>`). */
  type Model = Map<number, number[]>;
  const VOCABULARY = 300;
  const print = (id: number, length: number): number => id * 31 + length;

  function put(index: InvertedIndex, model: Model, id: number, entries: number[]): void {
    index.remove(id);
    model.delete(id);
    const length = entries.filter((e) => e < FIELD_END).length;
    if (length === 0) return;
    index.begin();
    for (const e of entries) index.push(e >= FIELD_END ? e : index.intern(`w${e}`));
    index.finish(id, length, print(id, length));
    model.set(id, entries);
  }

  function check(index: InvertedIndex, model: Model): void {
    const termId = (n: number): number => index.termId(`w${n}`);
    expect(index.size).toBe(model.size);
    let total = 0;
    const postings = new Map<number, Map<number, number>>();
    for (const [id, entries] of model) {
      const slot = index.slotOf(id);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(index.idOf(slot)).toBe(id);
      expect([...index.sequence(slot)]).toEqual(entries.map((e) => (e >= FIELD_END ? e : termId(e))));
      const terms = entries.filter((e) => e < FIELD_END);
      expect(index.lengthOf(slot)).toBe(terms.length);
      expect(index.printOf(slot)).toBe(print(id, terms.length));
      total += terms.length;
      for (const t of terms) {
        const list = postings.get(t) ?? new Map<number, number>();
        postings.set(t, list.set(id, (list.get(id) ?? 0) + 1));
      }
    }
    expect(index.totalLength).toBe(total);
    expect(new Set(index.ids())).toEqual(new Set(model.keys()));
    for (let n = 0; n < VOCABULARY; n++) {
      const expected = postings.get(n) ?? new Map<number, number>();
      const id = termId(n);
      if (id < 0) {
        expect(expected.size).toBe(0);
        continue;
      }
      expect(index.df(id)).toBe(expected.size);
      const got = new Map<number, number>();
      let last = -1;
      index.forEachPosting(id, (slot, tf) => {
        expect(slot).toBeGreaterThan(last); // sorted by slot
        last = slot;
        got.set(index.idOf(slot), tf);
      });
      expect(got).toEqual(expected);
    }
    const listed: string[] = [];
    index.forEachTerm((term) => listed.push(term) > 0);
    expect(new Set(listed)).toEqual(new Set([...postings.keys()].map((n) => `w${n}`)));
  }

  it('follows adds, replacements and removals, and compaction keeps every answer', () => {
    const index = new InvertedIndex();
    const model: Model = new Map();
    const rnd = seeded(5);
    const document = (): number[] => {
      const entries: number[] = [];
      const fields = 1 + Math.floor(rnd() * 2);
      for (let f = 0; f < fields; f++) {
        const words = Math.floor(rnd() * 12);
        for (let w = 0; w < words; w++) entries.push(rnd() < 0.1 ? ELEMENT_END : Math.floor(VOCABULARY * rnd() ** 2));
        entries.push(FIELD_END);
      }
      return entries;
    };
    for (let round = 0; round < 12; round++) {
      for (let op = 0; op < 400; op++) {
        const id = Math.floor(rnd() * 300);
        if (rnd() < 0.25) {
          index.remove(id);
          model.delete(id);
        } else put(index, model, id, document());
      }
      if (round % 3 === 2) {
        expect(index.deadSlots).toBeGreaterThan(0);
        index.compact();
        expect(index.deadSlots).toBe(0);
        expect(index.slotCount).toBe(model.size);
      }
      check(index, model);
    }
    // A compaction drops the terms no document holds any more.
    for (const id of [...model.keys()]) index.remove(id);
    index.compact();
    expect(index.size).toBe(0);
    expect(index.termId('w0')).toBe(-1);
    index.clear();
    expect(index.slotCount).toBe(0);
  });
});

/** BM25 as Lucene defines it (k1 = 1.2, b = 0.75), computed straight from the texts. */
function bm25(texts: Map<number, string>, query: string[]): Map<number, number> {
  const standard = analyzer('standard');
  const docs = new Map([...texts].map(([id, t]) => [id, standard.terms(t)]));
  const avg = [...docs.values()].reduce((s, d) => s + d.length, 0) / docs.size;
  const out = new Map<number, number>();
  for (const term of query) {
    const holders = [...docs].filter(([, d]) => d.includes(term));
    const idf = Math.log(1 + (docs.size - holders.length + 0.5) / (holders.length + 0.5));
    for (const [id, d] of holders) {
      const tf = d.filter((w) => w === term).length;
      out.set(id, (out.get(id) ?? 0) + (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg)));
    }
  }
  return out;
}

const WORDS = ['graph', 'vector', 'store', 'index', 'query', 'node', 'edge', 'label', 'search', 'rank', 'Phrase', 'term'];
const QUERIES = ['graph', 'vector store', '"graph store"', 'inde*', 'serch~', 'graph AND NOT label', 'w7 OR w8', '"phrase term"', 'title:rank', 'body:rank'];

function text(rnd: () => number, i: number): string {
  return `w${i % 50} ` + Array.from({ length: 3 + Math.floor(rnd() * 8) }, () => WORDS[Math.floor(rnd() * WORDS.length)]).join(' ');
}

const answers = (db: Database): unknown[][] =>
  QUERIES.map((q) => rows(db, "CALL db.index.fulltext.queryNodes('texts', $q) YIELD node, score RETURN node.i, score ORDER BY score DESC, node.i", { q }));

describe('the index through the query language', () => {
  it('scores are BM25 computed from the texts', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE FULLTEXT INDEX texts FOR (n:Doc) ON EACH [n.body]');
    const rnd = seeded(2);
    const texts = new Map<number, string>();
    for (let i = 0; i < 300; i++) texts.set(i, text(rnd, i));
    db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, body: d.body})', { docs: [...texts].map(([i, body]) => ({ i, body })) });
    // Rewrite a third, so that scores are computed over replaced (tombstoned) documents too.
    for (let i = 0; i < 300; i += 3) texts.set(i, text(rnd, i + 1));
    db.executeSync('UNWIND $docs AS d MATCH (n:Doc {i: d.i}) SET n.body = d.body', { docs: [...texts].filter(([i]) => i % 3 === 0).map(([i, body]) => ({ i, body })) });
    for (const query of [['graph'], ['vector', 'store'], ['w7'], ['phrase', 'rank', 'w0']]) {
      const got = new Map(rows(db, "CALL db.index.fulltext.queryNodes('texts', $q) YIELD node, score RETURN node.i, score", { q: query.join(' ') }) as [number, number][]);
      const expected = bm25(texts, query);
      expect(new Set(got.keys())).toEqual(new Set(expected.keys()));
      for (const [id, score] of expected) expect(got.get(id)).toBeCloseTo(score, 10);
    }
  });

  it('phrases and field clauses respect list-element and field boundaries', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE FULLTEXT INDEX texts FOR (n:Doc) ON EACH [n.title, n.body]');
    db.executeSync(`CREATE (:Doc {i: 1, title: ['graph', 'store'], body: 'other words'}),
      (:Doc {i: 2, title: 'alpha', body: 'beta gamma'}),
      (:Doc {i: 3, title: 'graph store', body: 'alpha beta graph'}),
      (:Doc {i: 4, title: ['x', 'graph store graph store'], body: 'graph'})`);
    const hits = (q: string): unknown[] =>
      rows(db, "CALL db.index.fulltext.queryNodes('texts', $q) YIELD node, score RETURN node.i ORDER BY score DESC, node.i", { q }).map((r) => r[0]);
    expect(hits('"graph store"')).toEqual([4, 3]); // 4 holds it twice; not 1: the words are two elements of a list
    expect(hits('"alpha beta"')).toEqual([3]); // not 2: title and body are two fields
    expect(hits('title:"graph store"')).toEqual([4, 3]);
    expect(hits('body:"graph store"')).toEqual([]);
    expect(hits('body:graph')).toEqual([3, 4]); // one occurrence each; 3 is the shorter document
    expect(hits('title:alpha')).toEqual([2]);
  });

  it('after heavy churn (compactions, a rollback across one) answers equal the index rebuilt from the store', () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE FULLTEXT INDEX texts FOR (n:Doc|Note) ON EACH [n.title, n.body]');
    db.executeSync('CREATE INDEX FOR (n:Doc) ON (n.i)');
    const rnd = seeded(9);
    const N = 3000;
    const docs = Array.from({ length: N }, (_, i) => ({ i, title: i % 4 === 0 ? [WORDS[i % 12], WORDS[(i + 5) % 12]] : WORDS[i % 12], body: text(rnd, i) }));
    db.executeSync('UNWIND $docs AS d CREATE (n:Doc {i: d.i, title: d.title, body: d.body})', { docs });
    const index = db.schema.extensionIndex('texts') as FulltextIndex;
    let compactions = 0;
    let dead = index.deadDocuments;
    for (let round = 0; round < 6; round++) {
      const changed = Array.from({ length: N }, (_, i) => ({ i, body: text(rnd, i + round) })).filter((_, i) => (i + round) % 3 !== 0);
      db.executeSync('UNWIND $docs AS d MATCH (n:Doc {i: d.i}) SET n.body = d.body', { docs: changed });
      db.executeSync('MATCH (n:Doc) WHERE n.i % 17 = $r DELETE n', { r: round });
      db.executeSync('UNWIND range($from, $from + 99) AS i CREATE (:Note {i: i, body: "late w" + i + " graph"})', { from: N + round * 100 });
      db.executeSync('MATCH (n:Note) WHERE n.i % 5 = 0 REMOVE n:Note');
      rows(db, "CALL db.index.fulltext.queryNodes('texts', 'graph') YIELD node RETURN count(*)");
      if (index.deadDocuments < dead) compactions++;
      dead = index.deadDocuments;
    }
    expect(compactions).toBeGreaterThan(0);
    const before = answers(db);
    // Rewritten twice inside one transaction that then fails: a compaction runs in between.
    const failing = `MATCH (n:Doc) SET n.body = 'first ' + n.i
      WITH count(*) AS c CALL db.index.fulltext.queryNodes('texts', 'first') YIELD node WITH count(node) AS a
      MATCH (n:Doc) SET n.body = 'second ' + n.i
      WITH a, count(*) AS c CALL db.index.fulltext.queryNodes('texts', 'second') YIELD node WITH a, count(node) AS b
      RETURN a / 0`;
    const deadBefore = index.deadDocuments;
    expect(() => db.executeSync(failing)).toThrow();
    expect(rows(db, "CALL db.index.fulltext.queryNodes('texts', 'first OR second') YIELD node RETURN count(*)")).toEqual([[0]]);
    expect(index.deadDocuments).toBeLessThan(deadBefore + 2 * index.size);
    expect(answers(db)).toEqual(before);
    expect(before[0].length).toBeGreaterThan(100);
    // The same index built from the store.
    const size = index.size;
    db.executeSync('DROP INDEX texts');
    db.executeSync('CREATE FULLTEXT INDEX texts FOR (n:Doc|Note) ON EACH [n.title, n.body]');
    expect((db.schema.extensionIndex('texts') as FulltextIndex).size).toBe(size);
    expect(answers(db)).toEqual(before);
  });

  it('a saved file of an older format version is refused with a warning naming the versions, and the index rebuilt', async () => {
    const dir = tempDir('graphdb-fulltext-version-');
    const open = async (): Promise<{ db: Database; warnings: string[] }> => {
      const warnings: string[] = [];
      const db = await Database.open({ dataDir: dir, storage: { log: { write: (s: string) => void warnings.push(s) } } });
      return { db, warnings };
    };
    let { db } = await open();
    db.executeSync('CREATE FULLTEXT INDEX texts FOR (n:Doc|Note) ON EACH [n.title, n.body]');
    const rnd = seeded(4);
    db.executeSync('UNWIND $docs AS d CREATE (:Doc {i: d.i, title: d.title, body: d.body})', {
      docs: Array.from({ length: 200 }, (_, i) => ({ i, title: WORDS[i % 12], body: text(rnd, i) })),
    });
    const expected = answers(db);
    db.close();
    const header = indexFiles(dir, 'texts', FULLTEXT_FILES).header;
    const json = JSON.parse(fs.readFileSync(header, 'utf8')) as { version: number };
    expect(json.version).toBe(FULLTEXT_FILES.version);
    fs.writeFileSync(header, JSON.stringify({ ...json, version: 2 }));
    let warnings: string[];
    ({ db, warnings } = await open());
    expect(warnings.join('')).toMatch(
      new RegExp(`full-text index texts: not loading its saved file, rebuilding it from the store: .*was written in format graphdb-fulltext version 2; this build reads graphdb-fulltext version ${FULLTEXT_FILES.version}`),
    );
    expect((rows(db, 'SHOW FULLTEXT INDEXES')[0][7] as { populatedFrom: string }).populatedFrom).toBe('built');
    expect(answers(db)).toEqual(expected);
    db.close();
    // The close saved it again in the current version: loaded from the file next time.
    ({ db, warnings } = await open());
    expect(warnings).toEqual([]);
    expect((rows(db, 'SHOW FULLTEXT INDEXES')[0][7] as { populatedFrom: string }).populatedFrom).toBe('file');
    expect(answers(db)).toEqual(expected);
    db.close();
  });
});

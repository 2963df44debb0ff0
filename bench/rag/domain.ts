/**
 * The contract between the by-shape graph_rag bench (shapes.ts) and a domain: a domain is a
 * module at bench/rag/domains/<name>.ts whose default export is a `Domain`. It owns its
 * vocabulary (schema, entity generator, question templates); the harness owns the database,
 * the pipeline variants, scoring and printing. Also the seeded helpers domains share, so a
 * domain's graph and questions are the same on every run.
 */

import type { Database } from '../../src/engine/database.js';

export type Shape = 'one-hop' | 'reverse' | 'value' | 'multi-hop' | 'listing';
export const SHAPES: readonly Shape[] = ['one-hop', 'reverse', 'value', 'multi-hop', 'listing'];

export interface Question {
  shape: Shape;
  text: string;
  /** Any of these names at a rank counts as a hit there. */
  gold: Set<string>;
  /** Printed apart from the main rows (phrasings kept back from tuning). */
  heldOut?: boolean;
  /** A fact with an observed answer and a more confident predicted one: the predicted must not rank above. */
  trust?: { observed: string; predicted: string };
}

export interface BuildOptions {
  /** About how many nodes to create. */
  entities: number;
  /** At least this many questions per shape (held-out ones not counted). */
  perShape: number;
  /** The domain's random source (seeded by the harness). */
  rng: Rng;
}

export interface Domain {
  /** One line for the bench's header. */
  description: string;
  /** Creates the graph in `db` (nodes, relationships, indexes, embeddings) and returns the questions with their gold answers. */
  build(db: Database, options: BuildOptions): Question[];
}

/** A small seeded generator (the same linear congruence the first version of the bench used). */
export class Rng {
  private state: number;
  constructor(seed = 7) {
    this.state = seed;
  }
  next(): number {
    this.state = (Math.imul(this.state, 1103515245) + 12345) & 0x7fffffff;
    return this.state / 0x7fffffff;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  digits(n: number): string {
    return Array.from({ length: n }, () => String(this.int(10))).join('');
  }
}

/**
 * The draws a held-out world generator makes from `r`: names unique across its graph (so each
 * gold answer is one entity), codes, numbers and dates unique across it (so a value names one
 * entity), letter strings, ISO dates and sets of distinct indexes. Arrow properties, so a
 * generator can destructure them.
 */
export class WorldDraws {
  private readonly names = new Set<string>();
  private readonly codes = new Set<string>();
  constructor(private readonly r: Rng) {}

  /** A name no other entity of the world has (case aside). */
  readonly uname = (make: () => string): string => unique(make, this.names);
  /** A code, number or date no other value of the world has (case aside). */
  readonly ucode = <T extends string | number>(make: () => T): T => unique(make, this.codes);
  readonly chars = (k: number, from: string): string => Array.from({ length: k }, () => from[this.r.int(from.length)]).join('');
  /** A date in `span` years from `from` (days 1-28). */
  readonly date = (from: number, span: number): string =>
    `${from + this.r.int(span)}-${String(1 + this.r.int(12)).padStart(2, '0')}-${String(1 + this.r.int(28)).padStart(2, '0')}`;
  /** Up to `k` distinct indexes in [from, from + of). */
  readonly distinct = (k: number, of: number, from = 0): number[] => {
    const s = new Set<number>();
    for (let i = 0; i < k * 4 && s.size < Math.min(k, of); i++) s.add(from + this.r.int(of));
    return [...s];
  };
}

function unique<T extends string | number>(make: () => T, seen: Set<string>): T {
  for (let tries = 0; ; tries++) {
    const v = make();
    const key = String(v).toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      return v;
    }
    if (tries > 100000) throw new Error(`generator exhausted near ${String(v)}`);
  }
}

/** Unique made-up names from a syllable set, and unique codes, per domain. */
export class Namer {
  private readonly usedNames = new Set<string>();
  private readonly usedCodes = new Set<string>();
  constructor(
    private readonly rng: Rng,
    private readonly syllables: readonly string[],
  ) {}
  name(words: number): string {
    for (;;) {
      const parts: string[] = [];
      for (let w = 0; w < words; w++) {
        let word = '';
        for (let i = 0, n = 2 + this.rng.int(2); i < n; i++) word += this.rng.pick(this.syllables);
        parts.push(word[0].toUpperCase() + word.slice(1));
      }
      const name = parts.join(' ');
      if (!this.usedNames.has(name.toLowerCase())) {
        this.usedNames.add(name.toLowerCase());
        return name;
      }
    }
  }
  code(make: () => string): string {
    for (;;) {
      const c = make();
      if (!this.usedCodes.has(c)) {
        this.usedCodes.add(c);
        return c;
      }
    }
  }
}

export const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** Embeds each label's `summary` with the default embedder and indexes it (vector per label, one full-text index). */
export function embedAndIndex(db: Database, labels: readonly string[]): void {
  for (const label of labels) {
    db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: 'summary', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
    db.executeSync(`CREATE VECTOR INDEX ${label.toLowerCase()}_vec FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
    db.executeSync(`CALL db.awaitIndex('${label.toLowerCase()}_vec')`);
  }
  db.executeSync(`CREATE FULLTEXT INDEX summaries FOR (n:${labels.join('|')}) ON EACH [n.name, n.summary]`);
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('summaries')");
}

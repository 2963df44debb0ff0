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

/**
 * What the held-out graph_rag domains (heldout2, heldout3, heldout4) share in making their
 * questions: a phrasing draws an `Ask` (text, the Cypher that finds its gold names, its
 * parameter), and `drawQuestions` cycles through each shape's phrasings, reading every gold set
 * from the loaded graph and drawing again while one comes out empty.
 */

import type { Database } from '../../src/engine/database.js';
import { type Question as DomainQuestion, Rng, SHAPES, type Shape } from './domain.js';

export interface Trust {
  /** The answer an observed fact gives. */
  observed: string;
  /** The answer a more confident predicted fact gives instead. */
  predicted: string;
}

export interface Question extends DomainQuestion {
  /** Which phrasing made it. */
  form: string;
}

/** One phrasing drawn: the question text, the Cypher that finds its gold names (column `name`), its parameter `x`. */
export interface Ask {
  text: string;
  gold: string;
  x: unknown;
  trust?: Trust;
}

export type Template = (r: Rng) => Ask;

export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * `perShape` questions of each shape, cycling through that shape's phrasings, with gold answers
 * read from the graph in `db` (which must hold the world the phrasings were made for).
 */
export function drawQuestions(db: Database, phrasings: Record<Shape, [string, Template][]>, perShape: number, seed: number): Question[] {
  const r = new Rng(seed);
  const qs: Question[] = [];
  for (const shape of SHAPES) {
    const forms = phrasings[shape];
    for (let i = 0; i < perShape; i++) {
      const [form, make] = forms[i % forms.length];
      for (let tries = 0; ; tries++) {
        const a = make(r);
        const gold = new Set(db.executeSync(a.gold, { x: a.x }).records.map((rec) => String(rec[0])));
        if (gold.size > 0) {
          qs.push({ shape, form, text: a.text, gold, ...(a.trust ? { trust: a.trust } : {}) });
          break;
        }
        if (tries > 50) throw new Error(`no question with a gold answer for ${shape} / ${form}`);
      }
    }
  }
  return qs;
}

/**
 * What the general-rules tests (general-rules-heldout*.test.ts) read from graph_rag through the
 * query language: the names of the top five answers, and the top answer's note (its path).
 */
import type { Database } from '../../src/engine/database.js';

/** The names of graph_rag's five best answers to `question`, best first. */
export function ask(db: Database, question: string): string[] {
  return db.executeSync('CALL graphdb.rag.retrieve($q, {k: 5}) YIELD name RETURN name', { q: question }).records.map((r) => String(r[0]));
}

/** The best answer's note: the path it was reached by, where one was walked. */
export function note(db: Database, question: string): string {
  return String(db.executeSync('CALL graphdb.rag.retrieve($q, {k: 1}) YIELD note RETURN note', { q: question }).records[0][0]);
}

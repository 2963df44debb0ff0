/**
 * The checks every held-out graph_rag domain's generator test makes (test/rag/heldout*-domain.test.ts):
 * a world and its questions come out the same for the same seed, every gold name is one entity
 * of the loaded graph, and each trust probe's observed answer is gold while its predicted rival
 * is not. Each domain's test adds the facts particular to its world.
 */

import { expect } from 'vitest';
import type { Database } from '../../src/engine/database.js';
import type { Question } from '../../bench/rag/held-out-questions.js';

/** A domain's small world, loaded into a database, and the questions drawn on it. */
export interface BuiltDomain<World> {
  db: Database;
  world: World;
  qs: Question[];
}

/** The single number a counting query returns. */
export const count = (db: Database, cypher: string, params: Record<string, unknown> = {}): number => Number(db.executeSync(cypher, params).records[0][0]);

/**
 * The loaded graph holds exactly the entities `counts` lists (per kind), within 10 % of the
 * `entities` asked for, each with a name no other shares (case aside).
 */
export function expectEntityCounts(db: Database, counts: Record<string, number>, entities: number): void {
  const total = Object.values(counts).reduce((s, n) => s + n, 0);
  expect(db.graph.nodeCount).toBe(total);
  expect(Math.abs(total - entities)).toBeLessThan(entities * 0.1);
  expect(count(db, 'MATCH (n) RETURN count(DISTINCT toLower(n.name))')).toBe(total);
}

/** Two builds give the same world and questions; `otherSeed` (a world from another seed) differs. */
export function expectSameForSameSeed<World>(build: () => BuiltDomain<World>, otherSeed: () => World): void {
  const a = build();
  const b = build();
  try {
    expect(JSON.stringify(b.world)).toBe(JSON.stringify(a.world));
    const drawn = (qs: Question[]): unknown[] => qs.map((q) => [q.shape, q.form, q.text, [...q.gold].sort(), q.trust ?? null]);
    expect(drawn(b.qs)).toEqual(drawn(a.qs));
    expect(JSON.stringify(otherSeed())).not.toBe(JSON.stringify(a.world));
  } finally {
    a.db.close();
    b.db.close();
  }
}

/**
 * `perShape` questions of every shape in at least 60 phrasings, each with gold names that are
 * one entity of the graph apiece; a value question names exactly one entity.
 */
export function expectGoldInGraph(db: Database, qs: readonly Question[], shapes: readonly string[], perShape: number): void {
  for (const shape of shapes) expect(qs.filter((q) => q.shape === shape)).toHaveLength(perShape);
  for (const q of qs) {
    expect(q.gold.size, q.text).toBeGreaterThan(0);
    for (const g of q.gold) expect(count(db, 'MATCH (n {name: $g}) RETURN count(n)', { g }), g).toBe(1);
  }
  expect(new Set(qs.map((q) => q.form)).size).toBeGreaterThanOrEqual(60);
  for (const q of qs.filter((x) => x.shape === 'value')) expect(q.gold.size, q.text).toBe(1);
}

/** The trust probes (at least `atLeast`, all one-hop or multi-hop): observed answer gold, predicted rival not. */
export function expectTrustProbes(qs: readonly Question[], atLeast: number): Question[] {
  const probes = qs.filter((q) => q.trust);
  expect(probes.length).toBeGreaterThanOrEqual(atLeast);
  expect(new Set(probes.map((q) => q.shape))).toEqual(new Set(['one-hop', 'multi-hop']));
  for (const q of probes) {
    const t = q.trust as { observed: string; predicted: string };
    expect(t.observed).not.toBe(t.predicted);
    expect(q.gold.has(t.observed), q.text).toBe(true);
    expect(q.gold.has(t.predicted), q.text).toBe(false);
  }
  return probes;
}

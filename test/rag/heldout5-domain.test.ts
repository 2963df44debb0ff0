/**
 * The fifth held-out graph_rag domain (bench/rag/heldout5, arable farming): its generator and
 * question maker, not the pipeline. A small world must come out the same for the same seed, load
 * into a real database, and give every question a non-empty gold set that the graph agrees with;
 * the trust probes must point at a predicted fact the graph really holds.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { farmingCounts, generateFarming, loadFarming, type FarmingWorld } from '../../bench/rag/heldout5/farming.js';
import { farmingQuestions, SHAPES, spokenDate } from '../../bench/rag/heldout5/farming-questions.js';
import { type BuiltDomain, count, expectEntityCounts, expectGoldInGraph, expectSameForSameSeed, expectTrustProbes } from './held-out-domain-checks.js';

const ENTITIES = 600;
const PER_SHAPE = 30;

function build(): BuiltDomain<FarmingWorld> {
  const db = Database.openInMemory();
  const world = generateFarming(ENTITIES);
  // Embeddings only feed the pipeline; the generator's facts and gold do not need them.
  loadFarming(db, world, { vectors: false });
  return { db, world, qs: farmingQuestions(db, world, PER_SHAPE) };
}

describe('held-out arable-farming domain (bench/rag/heldout5)', () => {
  it('generates the same world and questions for the same seed, another world for another seed', () => {
    expectSameForSameSeed(build, () => generateFarming(ENTITIES, 99));
  });

  it('loads about the asked number of entities with unique names, and the expected facts', () => {
    const { db, world } = build();
    try {
      const c = farmingCounts(ENTITIES);
      expectEntityCounts(db, c, ENTITIES);
      const predictedCoops = world.growers.filter((g) => g.predicted >= 0).length;
      const predictedMills = world.lots.filter((l) => l.predicted >= 0).length;
      expect(predictedCoops).toBeGreaterThan(0);
      expect(predictedMills).toBeGreaterThan(0);
      expect(count(db, `MATCH ()-[a:affiliatedWith]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedCoops);
      expect(count(db, `MATCH ()-[a:deliveredTo]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedMills);
      // Every grower has exactly one observed cooperative; every lot one observed mill.
      expect(count(db, `MATCH ()-[a:affiliatedWith]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.growers);
      expect(count(db, `MATCH ()-[a:deliveredTo]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.lots);
      expect(count(db, 'MATCH (:Plot)-[r:belongsTo]->(:Farm) RETURN count(r)')).toBe(c.plots);
      expect(count(db, 'MATCH (:HarvestLot)-[r:HARVESTED_FROM]->(:Plot) RETURN count(r)')).toBe(c.lots);
      expect(count(db, 'MATCH (:Variety)-[r:CULTIVAR_OF]->(:CROP) RETURN count(r)')).toBe(c.varieties);
      // Every farm has a plot, and every grower farms a farm (there are more farms than growers here).
      expect(count(db, 'MATCH (f:Farm) WHERE NOT (f)<-[:belongsTo]-() RETURN count(f)')).toBe(0);
      expect(count(db, 'MATCH (g:Grower) WHERE NOT (g)<-[:FARMED_BY]-() RETURN count(g)')).toBe(0);
      // Parcel references hold a space and name one plot each.
      for (const p of world.plots) expect(p.parcelRef).toMatch(/^[A-Z]{2}\d{4} \d{4}$/);
      expect(count(db, 'MATCH (p:Plot) RETURN count(DISTINCT p.parcel_ref)')).toBe(c.plots);
    } finally {
      db.close();
    }
  });

  it('asks every shape in every phrasing, with non-empty gold that agrees with the generated facts', () => {
    const { db, world, qs } = build();
    try {
      expectGoldInGraph(db, qs, SHAPES, PER_SHAPE);

      // Cross-check a sample of gold sets against the world as generated, not the graph.
      for (const q of qs.filter((x) => x.form === 'who farms')) {
        const f = /^Who farms (.+)\?$/.exec(q.text)?.[1] ?? '';
        const fm = world.farms.find((x) => x.name === f);
        expect([...q.gold]).toEqual([world.growers[fm?.grower ?? -1]?.name]);
      }
      for (const q of qs.filter((x) => x.form === 'harvested spoken')) {
        const [name] = [...q.gold];
        const l = world.lots.find((y) => y.name === name);
        expect(q.text).toContain(spokenDate(l?.harvested ?? 'missing'));
      }
      for (const q of qs.filter((x) => x.form === 'all fields')) {
        const f = /^all fields of (.+)$/.exec(q.text)?.[1] ?? '';
        const ix = world.farms.findIndex((x) => x.name === f);
        expect([...q.gold].sort()).toEqual(world.plots.filter((p) => p.farm === ix).map((p) => p.name).sort());
      }
    } finally {
      db.close();
    }
  });

  it('gives trust probes whose predicted answer the graph holds only as a predicted fact', () => {
    const { db, qs } = build();
    try {
      // 30 questions a shape give about two draws per trust-carrying phrasing, half of them on a predicted rival.
      const probes = expectTrustProbes(qs, 3);
      for (const q of probes.filter((x) => x.form === 'mill of lot')) {
        const l = /^Which mill was (.+) delivered to\?$/.exec(q.text)?.[1] ?? '';
        const rows = db.executeSync(
          'MATCH (:HarvestLot {name: $l})-[a:deliveredTo]->(m:Mill {name: $m}) RETURN a.observation_class, a.confidence',
          { l, m: q.trust?.predicted },
        ).records;
        expect(rows).toEqual([['predicted', 0.94]]);
      }
    } finally {
      db.close();
    }
  });
});

/**
 * The second held-out graph_rag domain (bench/rag/heldout2): its generator and question maker,
 * not the pipeline. A small world must come out the same for the same seed, load into a real
 * database, and give every question a non-empty gold set that the graph agrees with; the trust
 * probes must point at a predicted fact the graph really holds.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { clinicalCounts, generateClinical, loadClinical, type ClinicalWorld } from '../../bench/rag/heldout2/clinical.js';
import { clinicalQuestions, SHAPES, spokenDate } from '../../bench/rag/heldout2/clinical-questions.js';
import { type BuiltDomain, count, expectEntityCounts, expectGoldInGraph, expectSameForSameSeed, expectTrustProbes } from './held-out-domain-checks.js';

const ENTITIES = 500;
const PER_SHAPE = 30;

function build(): BuiltDomain<ClinicalWorld> {
  const db = Database.openInMemory();
  const world = generateClinical(ENTITIES);
  // Embeddings only feed the pipeline; the generator's facts and gold do not need them.
  loadClinical(db, world, { vectors: false });
  return { db, world, qs: clinicalQuestions(db, world, PER_SHAPE) };
}

describe('held-out clinical domain (bench/rag/heldout2)', () => {
  it('generates the same world and questions for the same seed, another world for another seed', () => {
    expectSameForSameSeed(build, () => generateClinical(ENTITIES, 99));
  });

  it('loads about the asked number of entities with unique names, and the expected facts', () => {
    const { db, world } = build();
    try {
      const c = clinicalCounts(ENTITIES);
      expectEntityCounts(db, c, ENTITIES);
      const predictedPosts = world.clinicians.filter((x) => x.predicted >= 0).length;
      const predictedCompounds = world.studies.filter((s) => s.predicted >= 0).length;
      expect(predictedPosts).toBeGreaterThan(0);
      expect(predictedCompounds).toBeGreaterThan(0);
      expect(count(db, `MATCH ()-[a:HOLDS_POST_IN]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedPosts);
      expect(count(db, `MATCH ()-[a:evaluates]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedCompounds);
      // Every clinician holds exactly one observed post; every study evaluates exactly one observed compound.
      expect(count(db, `MATCH (c:Clinician)-[a:HOLDS_POST_IN]->() WHERE a.observation_class = 'observed' RETURN count(DISTINCT c)`)).toBe(c.clinicians);
      expect(count(db, `MATCH ()-[a:HOLDS_POST_IN]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.clinicians);
      expect(count(db, `MATCH ()-[a:evaluates]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.studies);
      expect(count(db, 'MATCH (:CLINICAL_STUDY)-[r:enrolsAt]->(:Hospital) RETURN count(r)')).toBe(world.studies.reduce((s, x) => s + x.sites.length, 0));
    } finally {
      db.close();
    }
  });

  it('asks every shape in every phrasing, with non-empty gold that agrees with the generated facts', () => {
    const { db, world, qs } = build();
    try {
      expectGoldInGraph(db, qs, SHAPES, PER_SHAPE);

      // Cross-check a sample of gold sets against the world as generated, not the graph.
      const unitOfClinician = new Map(world.clinicians.map((c) => [c.name, world.units[c.unit].name]));
      for (const q of qs.filter((x) => x.form === 'ward works on')) {
        const who = /^Which ward does (.+) work on\?$/.exec(q.text)?.[1] ?? '';
        expect([...q.gold]).toEqual([unitOfClinician.get(who)]);
      }
      for (const q of qs.filter((x) => x.form === 'registered spoken date')) {
        const [name] = [...q.gold];
        const c = world.clinicians.find((x) => x.name === name);
        expect(q.text).toContain(spokenDate(c?.registered ?? 'missing'));
      }
      for (const q of qs.filter((x) => x.form === 'list wards of')) {
        const h = /^List the wards of (.+)\.$/.exec(q.text)?.[1] ?? '';
        const hi = world.hospitals.findIndex((x) => x.name === h);
        expect([...q.gold].sort()).toEqual(world.units.filter((u) => u.hospital === hi).map((u) => u.name).sort());
      }
    } finally {
      db.close();
    }
  });

  it('gives trust probes whose predicted answer the graph holds only as a predicted fact', () => {
    const { db, qs } = build();
    try {
      const probes = expectTrustProbes(qs, 10);
      // One-hop probes: the predicted rival hangs off the question's own entity by a predicted, more confident edge.
      for (const q of probes.filter((x) => x.form === 'ward works on')) {
        const who = /^Which ward does (.+) work on\?$/.exec(q.text)?.[1] ?? '';
        const rows = db.executeSync(
          'MATCH (:Clinician {name: $who})-[a:HOLDS_POST_IN]->(u:CareUnit {name: $unit}) RETURN a.observation_class, a.confidence',
          { who, unit: q.trust?.predicted },
        ).records;
        expect(rows).toEqual([['predicted', 0.94]]);
      }
    } finally {
      db.close();
    }
  });
});

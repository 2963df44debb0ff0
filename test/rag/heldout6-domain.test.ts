/**
 * The sixth held-out graph_rag domain (bench/rag/heldout6, observational astronomy): its generator
 * and question maker, not the pipeline. A small world must come out the same for the same seed,
 * load into a real database, and give every question a non-empty gold set that the graph agrees
 * with; the trust probes must point at a predicted fact the graph really holds.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { generateObservatory, loadObservatory, observatoryCounts, type ObservatoryWorld } from '../../bench/rag/heldout6/observatory.js';
import { observatoryQuestions, SHAPES, spokenDate } from '../../bench/rag/heldout6/observatory-questions.js';
import { type BuiltDomain, count, expectEntityCounts, expectGoldInGraph, expectSameForSameSeed, expectTrustProbes } from './held-out-domain-checks.js';

const ENTITIES = 600;
const PER_SHAPE = 30;

function build(): BuiltDomain<ObservatoryWorld> {
  const db = Database.openInMemory();
  const world = generateObservatory(ENTITIES);
  // Embeddings only feed the pipeline; the generator's facts and gold do not need them.
  loadObservatory(db, world, { vectors: false });
  return { db, world, qs: observatoryQuestions(db, world, PER_SHAPE) };
}

describe('held-out astronomy domain (bench/rag/heldout6)', () => {
  it('generates the same world and questions for the same seed, another world for another seed', () => {
    expectSameForSameSeed(build, () => generateObservatory(ENTITIES, 99));
  });

  it('loads about the asked number of entities with unique names, and the expected facts', () => {
    const { db, world } = build();
    try {
      const c = observatoryCounts(ENTITIES);
      expectEntityCounts(db, c, ENTITIES);
      const predictedEmployers = world.astronomers.filter((a) => a.predicted >= 0).length;
      const predictedTargets = world.runs.filter((x) => x.predicted >= 0).length;
      expect(predictedEmployers).toBeGreaterThan(0);
      expect(predictedTargets).toBeGreaterThan(0);
      expect(count(db, `MATCH ()-[e:EMPLOYS]->() WHERE e.observation_class = 'predicted' RETURN count(e)`)).toBe(predictedEmployers);
      expect(count(db, `MATCH ()-[e:TARGETED]->() WHERE e.observation_class = 'predicted' RETURN count(e)`)).toBe(predictedTargets);
      // Every astronomer has exactly one observed employer; every run one observed target, one PI and one instrument.
      expect(count(db, `MATCH ()-[e:EMPLOYS]->() WHERE e.observation_class = 'observed' RETURN count(e)`)).toBe(c.astronomers);
      expect(count(db, `MATCH ()-[e:TARGETED]->() WHERE e.observation_class = 'observed' RETURN count(e)`)).toBe(c.runs);
      expect(count(db, 'MATCH (:ObservingRun)-[r:hasPI]->(:Astronomer) RETURN count(r)')).toBe(c.runs);
      expect(count(db, 'MATCH (:ObservingRun)-[r:onInstrument]->(:instrument) RETURN count(r)')).toBe(c.runs);
      expect(count(db, 'MATCH (:instrument)-[r:MOUNTED_ON]->(:TELESCOPE) RETURN count(r)')).toBe(c.instruments);
      expect(count(db, 'MATCH (:Paper)-[r:written_by]->(:Astronomer) RETURN count(r)')).toBe(world.papers.reduce((s, p) => s + p.authors.length, 0));
      expect(count(db, 'MATCH (:Observatory)-[r:FUNDED_BY]->(:FundingAgency) RETURN count(r)')).toBe(world.observatories.reduce((s, o) => s + o.funders.length, 0));
      // Every site has an observatory, every observatory a telescope, every telescope an instrument.
      expect(count(db, 'MATCH (s:Site) WHERE NOT (s)<-[:SITED_AT]-() RETURN count(s)')).toBe(0);
      expect(count(db, 'MATCH (o:Observatory) WHERE NOT (o)<-[:operated_by]-() RETURN count(o)')).toBe(0);
      expect(count(db, 'MATCH (t:TELESCOPE) WHERE NOT (t)<-[:MOUNTED_ON]-() RETURN count(t)')).toBe(0);
      // Coordinates hold a space and a sign, and name one object each; bibcodes are 19 characters.
      for (const o of world.objects) expect(o.coords).toMatch(/^\d{2}h\d{2}m\d{2}s [+-]\d{2}d\d{2}m\d{2}s$/);
      for (const p of world.papers) expect(p.bibcode).toHaveLength(19);
      expect(count(db, 'MATCH (o:celestial_object) RETURN count(DISTINCT o.coordinates)')).toBe(c.objects);
    } finally {
      db.close();
    }
  });

  it('asks every shape in every phrasing, with non-empty gold that agrees with the generated facts', () => {
    const { db, world, qs } = build();
    try {
      expectGoldInGraph(db, qs, SHAPES, PER_SHAPE);

      // Cross-check a sample of gold sets against the world as generated, not the graph.
      for (const q of qs.filter((x) => x.form === 'who was PI')) {
        const n = /^Who was the PI on (.+)\?$/.exec(q.text)?.[1] ?? '';
        const x = world.runs.find((y) => y.name === n);
        expect([...q.gold]).toEqual([world.astronomers[x?.pi ?? -1]?.name]);
      }
      for (const q of qs.filter((x) => x.form === 'published spoken')) {
        const [name] = [...q.gold];
        const p = world.papers.find((y) => y.name === name);
        expect(q.text).toContain(spokenDate(p?.published ?? 'missing'));
      }
      for (const q of qs.filter((x) => x.form === 'enumerate objects')) {
        const n = /^Enumerate the objects in (.+)$/.exec(q.text)?.[1] ?? '';
        const ix = world.constellations.findIndex((y) => y.name === n);
        expect([...q.gold].sort()).toEqual(world.objects.filter((o) => o.constellation === ix).map((o) => o.name).sort());
      }
      // A co-author question never counts the astronomer asked about.
      for (const q of qs.filter((x) => x.form === 'co-authors')) {
        const n = /^Who has co-authored a paper with (.+)\?$/.exec(q.text)?.[1] ?? '';
        expect(q.gold.has(n)).toBe(false);
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
      for (const q of probes.filter((x) => x.form === 'where works' || x.form === 'who employs')) {
        const a = /^(?:Where does|Who employs) (.+?)(?: work)?\?$/.exec(q.text)?.[1] ?? '';
        const rows = db.executeSync(
          'MATCH (i:Institute {name: $i})-[e:EMPLOYS]->(:Astronomer {name: $a}) RETURN e.observation_class, e.confidence',
          { a, i: q.trust?.predicted },
        ).records;
        expect(rows).toEqual([['predicted', 0.92]]);
      }
    } finally {
      db.close();
    }
  });
});

/**
 * The third held-out graph_rag domain (bench/rag/heldout3, film and broadcasting): its generator
 * and question maker, not the pipeline. A small world must come out the same for the same seed,
 * load into a real database, and give every question a non-empty gold set that the graph agrees
 * with; the trust probes must point at a predicted fact the graph really holds.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { generateScreen, loadScreen, screenCounts, type ScreenWorld } from '../../bench/rag/heldout3/screen.js';
import { screenQuestions, SHAPES, spokenDate } from '../../bench/rag/heldout3/screen-questions.js';
import { type BuiltDomain, count, expectEntityCounts, expectGoldInGraph, expectSameForSameSeed, expectTrustProbes } from './held-out-domain-checks.js';

const ENTITIES = 600;
const PER_SHAPE = 30;

function build(): BuiltDomain<ScreenWorld> {
  const db = Database.openInMemory();
  const world = generateScreen(ENTITIES);
  // Embeddings only feed the pipeline; the generator's facts and gold do not need them.
  loadScreen(db, world, { vectors: false });
  return { db, world, qs: screenQuestions(db, world, PER_SHAPE) };
}

describe('held-out film and broadcasting domain (bench/rag/heldout3)', () => {
  it('generates the same world and questions for the same seed, another world for another seed', () => {
    expectSameForSameSeed(build, () => generateScreen(ENTITIES, 99));
  });

  it('loads about the asked number of entities with unique names, and the expected facts', () => {
    const { db, world } = build();
    try {
      const c = screenCounts(ENTITIES);
      expectEntityCounts(db, c, ENTITIES);
      const predictedAgencies = world.people.filter((p) => p.predicted >= 0).length;
      const predictedChannels = world.titles.filter((t) => t.predicted >= 0).length;
      expect(predictedAgencies).toBeGreaterThan(0);
      expect(predictedChannels).toBeGreaterThan(0);
      expect(count(db, `MATCH ()-[a:REPRESENTED_BY]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedAgencies);
      expect(count(db, `MATCH ()-[a:AIRS_ON]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedChannels);
      // Every person has exactly one observed agency; every title airs on exactly one observed channel.
      expect(count(db, `MATCH ()-[a:REPRESENTED_BY]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.people);
      expect(count(db, `MATCH ()-[a:AIRS_ON]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.titles);
      expect(count(db, 'MATCH (:Title)-[r:DIRECTED_BY]->(p:Person) WHERE p.profession = $d RETURN count(r)', { d: 'director' })).toBe(c.titles);
      expect(count(db, 'MATCH (p:Person)-[r:ACTED_IN]->(:Title) WHERE p.profession = $a RETURN count(r)', { a: 'actor' })).toBe(
        world.titles.reduce((s, t) => s + t.cast.length, 0),
      );
    } finally {
      db.close();
    }
  });

  it('asks every shape in every phrasing, with non-empty gold that agrees with the generated facts', () => {
    const { db, world, qs } = build();
    try {
      expectGoldInGraph(db, qs, SHAPES, PER_SHAPE);

      // Cross-check a sample of gold sets against the world as generated, not the graph.
      for (const q of qs.filter((x) => x.form === 'who directed')) {
        const t = /^Who directed (.+)\?$/.exec(q.text)?.[1] ?? '';
        const title = world.titles.find((x) => x.name === t);
        expect([...q.gold]).toEqual([world.people[title?.director ?? -1]?.name]);
      }
      for (const q of qs.filter((x) => x.form === 'released on spoken')) {
        const [name] = [...q.gold];
        const t = world.titles.find((x) => x.name === name);
        expect(q.text).toContain(spokenDate(t?.releaseDate ?? 'missing'));
      }
      for (const q of qs.filter((x) => x.form === 'full cast')) {
        const t = /^List the full cast of (.+)\.$/.exec(q.text)?.[1] ?? '';
        const title = world.titles.find((x) => x.name === t);
        expect([...q.gold].sort()).toEqual((title?.cast ?? []).map((p) => world.people[p].name).sort());
      }
    } finally {
      db.close();
    }
  });

  it('gives trust probes whose predicted answer the graph holds only as a predicted fact', () => {
    const { db, qs } = build();
    try {
      const probes = expectTrustProbes(qs, 10);
      for (const q of probes.filter((x) => x.form === 'station shows')) {
        const t = /^What station shows (.+)\?$/.exec(q.text)?.[1] ?? '';
        const rows = db.executeSync(
          'MATCH (:Title {name: $t})-[a:AIRS_ON]->(c:Channel {name: $c}) RETURN a.observation_class, a.confidence',
          { t, c: q.trust?.predicted },
        ).records;
        expect(rows).toEqual([['predicted', 0.95]]);
      }
    } finally {
      db.close();
    }
  });
});

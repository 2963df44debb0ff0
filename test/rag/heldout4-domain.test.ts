/**
 * The fourth held-out graph_rag domain (bench/rag/heldout4, software packages): its generator and
 * question maker, not the pipeline. A small world must come out the same for the same seed, load
 * into a real database, and give every question a non-empty gold set that the graph agrees with;
 * the trust probes must point at a predicted fact the graph really holds.
 */

import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { generateSoftware, loadSoftware, softwareCounts, type SoftwareWorld } from '../../bench/rag/heldout4/software.js';
import { softwareQuestions, SHAPES, spokenDate } from '../../bench/rag/heldout4/software-questions.js';
import { type BuiltDomain, count, expectEntityCounts, expectGoldInGraph, expectSameForSameSeed, expectTrustProbes } from './held-out-domain-checks.js';

const ENTITIES = 600;
const PER_SHAPE = 30;

function build(): BuiltDomain<SoftwareWorld> {
  const db = Database.openInMemory();
  const world = generateSoftware(ENTITIES);
  // Embeddings only feed the pipeline; the generator's facts and gold do not need them.
  loadSoftware(db, world, { vectors: false });
  return { db, world, qs: softwareQuestions(db, world, PER_SHAPE) };
}

describe('held-out software-package domain (bench/rag/heldout4)', () => {
  it('generates the same world and questions for the same seed, another world for another seed', () => {
    expectSameForSameSeed(build, () => generateSoftware(ENTITIES, 99));
  });

  it('loads about the asked number of entities with unique names, and the expected facts', () => {
    const { db, world } = build();
    try {
      const c = softwareCounts(ENTITIES);
      expectEntityCounts(db, c, ENTITIES);
      const predictedOrgs = world.maintainers.filter((m) => m.predicted >= 0).length;
      const predictedRegistries = world.packages.filter((p) => p.predicted >= 0).length;
      expect(predictedOrgs).toBeGreaterThan(0);
      expect(predictedRegistries).toBeGreaterThan(0);
      expect(count(db, `MATCH ()-[a:memberOf]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedOrgs);
      expect(count(db, `MATCH ()-[a:PUBLISHED_TO]->() WHERE a.observation_class = 'predicted' RETURN count(a)`)).toBe(predictedRegistries);
      // Every maintainer has exactly one observed organisation; every package one observed registry.
      expect(count(db, `MATCH ()-[a:memberOf]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.maintainers);
      expect(count(db, `MATCH ()-[a:PUBLISHED_TO]->() WHERE a.observation_class = 'observed' RETURN count(a)`)).toBe(c.packages);
      expect(count(db, 'MATCH (:Release)-[r:releaseOf]->(:Package) RETURN count(r)')).toBe(c.releases);
      expect(count(db, 'MATCH (:Package)-[r:dependsOn]->(:Package) RETURN count(r)')).toBe(world.packages.reduce((s, p) => s + p.deps.length, 0));
      // A release is signed by one of its own package's maintainers.
      expect(count(db, 'MATCH (x:Release)-[:SIGNED_BY]->(m:Maintainer), (x)-[:releaseOf]->(p:Package) WHERE NOT (p)-[:MAINTAINED_BY]->(m) RETURN count(x)')).toBe(0);
      // Code names hold a space and name one release each.
      const coded = world.releases.filter((x) => x.codename !== null);
      expect(coded.length).toBeGreaterThan(0);
      for (const x of coded) expect(x.codename).toMatch(/^\S+ \S+$/);
      expect(count(db, 'MATCH (x:Release) WHERE x.codename IS NOT NULL RETURN count(DISTINCT x.codename)')).toBe(coded.length);
    } finally {
      db.close();
    }
  });

  it('asks every shape in every phrasing, with non-empty gold that agrees with the generated facts', () => {
    const { db, world, qs } = build();
    try {
      expectGoldInGraph(db, qs, SHAPES, PER_SHAPE);

      // Cross-check a sample of gold sets against the world as generated, not the graph.
      for (const q of qs.filter((x) => x.form === 'who maintains')) {
        const p = /^Who maintains (.+)\?$/.exec(q.text)?.[1] ?? '';
        const pk = world.packages.find((x) => x.name === p);
        expect([...q.gold].sort()).toEqual((pk?.maintainers ?? []).map((m) => world.maintainers[m].name).sort());
      }
      for (const q of qs.filter((x) => x.form === 'released spoken')) {
        const [name] = [...q.gold];
        const x = world.releases.find((y) => y.name === name);
        expect(q.text).toContain(spokenDate(x?.releasedOn ?? 'missing'));
      }
      for (const q of qs.filter((x) => x.form === 'all dependencies')) {
        const p = /^all dependencies of (.+)$/.exec(q.text)?.[1] ?? '';
        const pk = world.packages.find((x) => x.name === p);
        expect([...q.gold].sort()).toEqual((pk?.deps ?? []).map((d) => world.packages[d].name).sort());
      }
    } finally {
      db.close();
    }
  });

  it('gives trust probes whose predicted answer the graph holds only as a predicted fact', () => {
    const { db, qs } = build();
    try {
      const probes = expectTrustProbes(qs, 8);
      for (const q of probes.filter((x) => x.form === 'published to')) {
        const p = /^Which registry is (.+) published to\?$/.exec(q.text)?.[1] ?? '';
        const rows = db.executeSync(
          'MATCH (:Package {name: $p})-[a:PUBLISHED_TO]->(g:Registry {name: $g}) RETURN a.observation_class, a.confidence',
          { p, g: q.trust?.predicted },
        ).records;
        expect(rows).toEqual([['predicted', 0.95]]);
      }
    } finally {
      db.close();
    }
  });
});

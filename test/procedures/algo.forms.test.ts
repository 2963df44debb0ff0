/**
 * The shape every `algo.*` procedure shares: one configuration map (aliases, typed errors that
 * name the option), the `.stats` form, and the `.write` form, which stores results through the
 * store's transaction — counted as property sets, undone with the query on error, refused in
 * read-only calls, and durable across a reopen of an on-disk database.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { ArgumentError, GraphDbError } from '../../src/errors.js';
import { toJs } from '../../runtime/format.js';
import { ALGORITHM_CATALOGUE } from '../../procedures/algo/index.js';
import { optionsOf } from '../../procedures/algo/define.js';
import { NOTES, renderAlgorithmsDoc } from '../../procedures/algo/docs.js';

const CYCLE = "CREATE (a:N {i: 0})-[:R {w: 1}]->(b:N {i: 1})-[:R {w: 2}]->(c:N {i: 2})-[:R {w: 3}]->(a), (c)-[:S]->(:M {i: 3})";

function rows(db: Database, q: string, params?: Record<string, unknown>): unknown[][] {
  return db.executeSync(q, params).records.map((r) => r.map((v) => toJs(v)));
}

describe('the configuration map', () => {
  const db = Database.openInMemory();
  db.executeSync(CYCLE);

  it('accepts nodeLabels/relationshipTypes and their aliases label/relationshipType alike', () => {
    const a = rows(db, "CALL algo.wcc({nodeLabels: ['N'], relationshipTypes: ['R']}) YIELD node, componentId RETURN node.i, componentId");
    const b = rows(db, "CALL algo.wcc({label: 'N', relationshipType: 'R'}) YIELD node, componentId RETURN node.i, componentId");
    expect(a).toEqual(b);
    expect(a.length).toBe(3);
    expect(rows(db, "CALL algo.wcc({nodeLabels: ['N', 'M']}) YIELD node RETURN count(*)")).toEqual([[4]]);
  });

  it('accepts orientation as an alias of direction', () => {
    const a = rows(db, "CALL algo.degree({orientation: 'REVERSE'}) YIELD node, degree RETURN node.i, degree");
    const b = rows(db, "CALL algo.degree({direction: 'IN'}) YIELD node, degree RETURN node.i, degree");
    expect(a).toEqual(b);
  });

  it.each([
    ['an unknown option', 'CALL algo.betweenness({samplingsize: 3})', /unknown configuration key `samplingsize`/],
    ['a string for a number', "CALL algo.pageRank({dampingFactor: 'high'})", /`dampingFactor` must be a number/],
    ['an integer option given a float', 'CALL algo.louvain({maxLevels: 2.5})', /`maxLevels` must be an integer/],
    ['a boolean option given a number', 'CALL algo.closeness({harmonic: 1})', /`harmonic` must be a boolean/],
    ['an unknown choice', "CALL algo.nodeSimilarity({similarityMetric: 'cosine'})", /`similarityMetric` must be one of 'JACCARD', 'OVERLAP'/],
    ['a direction on an undirected algorithm', "CALL algo.louvain({direction: 'OUT'})", /unknown configuration key `direction`/],
    ['a write property on the stream form', "CALL algo.pageRank({writeProperty: 'x'})", /unknown configuration key `writeProperty`/],
    ['a missing write property', 'CALL algo.pageRank.write({})', /`writeProperty` must be given/],
    ['a missing required node', 'CALL algo.yens({source: 0})', /`target` must be given/],
    ['an option given twice through its alias', "CALL algo.wcc({label: 'N', nodeLabels: 'N'})", /given twice/],
    ['a weight option on an unweighted algorithm', "CALL algo.hits({weightProperty: 'w'})", /unknown configuration key `weightProperty`/],
  ])('rejects %s with an ArgumentError naming it', (_what, call, message) => {
    let error: unknown;
    try {
      db.executeSync(call);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ArgumentError);
    expect((error as Error).message).toMatch(message);
  });

  it('declares every option with a documented default or as optional, and describes it in SHOW PROCEDURES', () => {
    const shown = new Map(rows(db, 'SHOW PROCEDURES').map((r) => [r[0] as string, r[1] as string]));
    for (const alg of ALGORITHM_CATALOGUE) {
      const description = shown.get(alg.name) as string;
      for (const o of optionsOf(alg)) {
        expect(o.doc.length).toBeGreaterThan(5);
        expect(description).toContain(o.name);
      }
      expect(shown.has(`${alg.name}.stats`)).toBe(true);
    }
  });
});

describe('the .stats form', () => {
  it('yields one row with the node count and the algorithm figures', () => {
    const db = Database.openInMemory();
    db.executeSync(CYCLE);
    const [[count, summary]] = rows(db, "CALL algo.pageRank.stats({label: 'N'}) YIELD nodeCount, summary RETURN nodeCount, summary");
    expect(count).toBe(3);
    expect(summary).toMatchObject({ ranIterations: expect.any(Number), didConverge: true });
    expect((summary as { mean: number }).mean).toBeCloseTo(1 / 3, 9);
    expect(rows(db, 'CALL algo.wcc.stats() YIELD summary RETURN summary.componentCount')).toEqual([[1]]);
    expect(rows(db, "CALL algo.bridges.stats() YIELD rowCount RETURN rowCount")).toEqual([[1]]);
  });
});

describe('the .write form', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('sets the property on every node through the transaction and counts it', async () => {
    const db = Database.openInMemory();
    db.executeSync(CYCLE);
    const r = await db.execute("CALL algo.pageRank.write({label: 'N', writeProperty: 'pr'}) YIELD nodeCount, nodePropertiesWritten, writeProperty RETURN *");
    expect(r.stats.propertiesSet).toBe(3);
    expect(r.records.map((x) => x.map((v) => toJs(v)))).toEqual([[3, 3, 'pr']]);
    const stored = rows(db, 'MATCH (n:N) RETURN n.i, n.pr ORDER BY n.i');
    for (const [, pr] of stored) expect(pr).toBeCloseTo(1 / 3, 9);
    expect(rows(db, 'MATCH (m:M) RETURN m.pr')).toEqual([[null]]);
  });

  it('is undone with the query when a later clause fails', () => {
    const db = Database.openInMemory();
    db.executeSync(CYCLE);
    expect(() => db.executeSync("CALL algo.wcc.write({writeProperty: 'c'}) YIELD nodeCount RETURN nodeCount / 0")).toThrow(GraphDbError);
    expect(rows(db, 'MATCH (n) WHERE n.c IS NOT NULL RETURN count(*)')).toEqual([[0]]);
  });

  it('is refused in a read-only call', async () => {
    const db = Database.openInMemory();
    db.executeSync(CYCLE);
    await expect(db.query("CALL algo.wcc.write({writeProperty: 'c'}) YIELD nodeCount RETURN nodeCount")).rejects.toThrow(/read-only/);
  });

  it('survives a reopen of an on-disk database (logged like any SET)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-algo-write-'));
    dirs.push(dir);
    let db = await Database.open({ dataDir: dir });
    await db.execute(CYCLE);
    await db.execute("CALL algo.louvain.write({writeProperty: 'community'}) YIELD nodeCount RETURN nodeCount");
    await db.execute("CALL algo.fastRP.write({writeProperty: 'embedding', embeddingDimension: 8}) YIELD nodeCount RETURN nodeCount");
    const before = rows(db, 'MATCH (n) RETURN n.i, n.community, n.embedding ORDER BY n.i');
    db.close();
    db = await Database.open({ dataDir: dir });
    expect(rows(db, 'MATCH (n) RETURN n.i, n.community, n.embedding ORDER BY n.i')).toEqual(before);
    expect((before[0][2] as number[]).length).toBe(8);
    db.close();
  });
});

describe('docs/ALGORITHMS.md', () => {
  it('is the rendering of the declarations (regenerate: npx tsx procedures/algo/docs.ts > docs/ALGORITHMS.md)', () => {
    for (const alg of ALGORITHM_CATALOGUE) expect(NOTES[alg.name], alg.name).toBeDefined();
    const file = readFileSync(fileURLToPath(new URL('../../docs/ALGORITHMS.md', import.meta.url)), 'utf8');
    expect(file).toBe(renderAlgorithmsDoc());
  });
});

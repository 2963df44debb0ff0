/**
 * A query worker's replica shares its primary's structure instead of holding copies: it starts
 * from a graph image that carries the entity arrays (the primary's own when it has not changed
 * since its bulk load) and the adjacency bases as they are, never merges its own blocks, and
 * adopts the bases each of the primary's merges makes. Driven here in one thread through the
 * worker's own follow step (`followCommit`) against a primary under random bulk writes,
 * deletes, rollbacks and replacement images; after every commit the replica must hold the same
 * entities and expand exactly as the primary does, and every base the primary holds must be the
 * replica's very buffer. Then across real threads, through a worker pool.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../procedures/algo/random.js';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { followCommit } from '../../src/engine/workers/replica-commits.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import type { ToWorker } from '../../src/engine/workers/protocol.js';
import { ReplicaApplier } from '../../src/replication/applier.js';
import type { Graph } from '../../src/store/graph.js';
import { storeMemory } from '../../src/store/memory.js';
import { captureGraphImage, loadGraphImage } from '../../src/store/persist/graph-image.js';

type CommitMessage = Extract<ToWorker, { t: 'commit' }>;

/** Every live entity's id with its labels or type and ends and its properties, read without making objects, and the label and type sets. */
function entities(graph: Graph): string {
  const out: string[] = [];
  const props = (map: Map<string, unknown>): string => JSON.stringify([...map].sort(([x], [y]) => (x < y ? -1 : 1)));
  for (let id = 0; id < graph.nextNodeId; id++) {
    const labels = graph.liveLabels(id);
    if (labels !== undefined) out.push(`${id}${JSON.stringify(labels)}${props(graph.nodeProps.mapOf(id))}`);
  }
  const shape = { typeId: -1, start: -1, end: -1 };
  for (let id = 0; id < graph.nextRelId; id++) {
    if (graph.liveRelInto(id, shape)) out.push(`${id}:${graph.typeName(shape.typeId)}:${shape.start}>${shape.end}${props(graph.relProps.mapOf(id))}`);
  }
  // The label and type sets in scan order: a replica scans in the primary's order.
  for (const label of graph.labels()) out.push(`:${label}=${graph.labelSet(label)!.toArray().join(',')}`);
  for (const type of graph.relationshipTypes()) out.push(`:${type}=${graph.typeSet(type)!.toArray().join(',')}`);
  return out.join(' ');
}

/** Every live node's expansions by direction and type name (type ids may differ between graphs). */
function expansions(graph: Graph): string {
  const types = graph.relationshipTypes();
  const out: string[] = [];
  for (const node of graph.allNodes()) {
    for (const direction of ['out', 'in'] as const) {
      for (const type of types) {
        const typeId = graph.typeId(type)!;
        const seen: number[] = [];
        graph.forEachAdjacent(node, [typeId], direction, (relId, nbrId) => seen.push(relId, nbrId));
        if (seen.length > 0) out.push(`${node.id}${direction}${type}:${seen.join(',')}`);
      }
    }
  }
  return out.join('\n');
}

function openReplica(image: ReturnType<typeof captureGraphImage>): { replica: Database; applier: ReplicaApplier } {
  const replica = new Database();
  replica.graph.adoptsMerges = true;
  loadGraphImage(replica.graph, replica.schema, image, true);
  return { replica, applier: new ReplicaApplier(replica) };
}

describe('structure shared between a primary and its query workers\' replicas', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  // Seeds alternate between a graph in memory and a reopened data directory; CI runs one of each,
  // GRAPHDB_SHARED_STRUCTURE_SEEDS=16 (say) the long form.
  const seeds = Number(process.env.GRAPHDB_SHARED_STRUCTURE_SEEDS ?? 2);
  for (const [seed, stored] of Array.from({ length: seeds }, (_, i) => [i + 1, i % 2 === 1] as const)) {
    it(`follows bulk writes, deletes, rollbacks and replacement images with the primary's own structure (seed ${seed}, ${stored ? 'reopened data directory' : 'in memory'})`, async () => {
      const random = seededRandom(seed);
      let nodes = 2000;
      const pairs = (n: number): number[][] => Array.from({ length: n }, () => [Math.floor(random() * nodes), Math.floor(random() * nodes), random()]);
      const seedGraph = (db: Database): void => {
        db.executeSync('CREATE INDEX FOR (p:P) ON (p.k)');
        db.executeSync('UNWIND range(0, 1999) AS k CREATE (:P {k: k})');
        db.executeSync('UNWIND $pairs AS p MATCH (a:P {k: p[0]}), (b:P {k: p[1]}) CREATE (a)-[:T0 {w: p[2]}]->(b)', { pairs: pairs(3000) });
      };
      let primary: Database;
      if (stored) {
        // Reopened: bulk-loaded and unchanged, so the image hands over the primary's own entity arrays.
        const dataDir = mkdtempSync(join(tmpdir(), 'graphdb-shared-'));
        dirs.push(dataDir);
        const first = await Database.open({ dataDir });
        seedGraph(first);
        await first.close();
        primary = await Database.open({ dataDir });
      } else {
        primary = new Database();
        seedGraph(primary);
      }
      const image = captureGraphImage(primary.graph, primary.schema);
      expect(image.entities.relStart === primary.graph.bulk?.relStart).toBe(stored);

      const messages: CommitMessage[] = [];
      let posted = primary.graph.mutationSeq;
      primary.observeCommits((commit) => {
        const after = primary.committedSeq;
        messages.push({ t: 'commit', before: posted, after, payloads: commit.encoded, merged: primary.graph.takeMergedBases(after) });
        posted = after;
      });
      const state = (db: Database): string => entities(db.graph) + expansions(db.graph);
      /** Two replicas (as two workers) following the primary, each with what it held after its last follow. */
      const followers = [openReplica(image), openReplica(image)].map((f) => ({ ...f, held: '' }));
      let adopted = 0;
      let primaryHeld = state(primary);

      const check = (): void => {
        // No write of the primary's shows through shared memory before a replica follows it.
        for (const f of followers) if (f.held !== '') expect(state(f.replica)).toBe(f.held);
        const pending = messages.splice(0);
        for (const m of pending) adopted += m.merged.length;
        for (const f of followers) {
          for (const m of pending) followCommit(f.replica, f.applier, m);
          expect(f.replica.graph.mutationSeq).toBe(primary.graph.mutationSeq);
        }
        primaryHeld = state(primary);
        for (const f of followers) {
          f.held = state(f.replica);
          expect(f.held).toBe(primaryHeld);
        }
        for (const type of primary.graph.relationshipTypes()) {
          for (const side of ['adjOut', 'adjIn'] as const) {
            const mine = primary.graph[side][primary.graph.typeId(type)!]!;
            for (const { replica } of followers) {
              const theirs = replica.graph[side][replica.graph.typeId(type)!]!;
              // The replica never makes a base of its own: each is the primary's (current or, until it merges again, the one before).
              if (mine.deltaEntries === 0 && mine.deadEntries === 0) expect(theirs.rels).toBe(mine.rels);
              expect(theirs.rels.buffer).toBeInstanceOf(SharedArrayBuffer);
            }
          }
        }
      };
      check();
      // Right after the image every typed column and every set is one copy: the replicas read the primary's arrays.
      expect(followers[0].replica.graph.nodeProps.column('k')!.ints).toBe(primary.graph.nodeProps.column('k')!.ints);
      expect(followers[0].replica.graph.labelSet('P')!.ids).toBe(primary.graph.labelSet('P')!.ids);

      for (let step = 0; step < 22; step++) {
        const roll = random();
        const type = random() < 0.7 ? 'T0' : 'T1';
        if (roll < 0.3) {
          primary.executeSync(`UNWIND $pairs AS p MATCH (a:P {k: p[0]}), (b:P {k: p[1]}) CREATE (a)-[:${type} {w: p[2]}]->(b)`, { pairs: pairs(500 + Math.floor(random() * 4500)) });
        } else if (roll < 0.42) {
          primary.executeSync(`MATCH ()-[r:${type}]->() WHERE r.w < $x DELETE r`, { x: random() * 0.5 });
        } else if (roll < 0.5) {
          primary.executeSync('MATCH (p:P) WHERE p.k % 97 = $m DETACH DELETE p', { m: Math.floor(random() * 97) });
        } else if (roll < 0.58) {
          primary.executeSync("UNWIND range($from, $from + 199) AS k CREATE (:P {k: k, name: 'new ' + toString(k)})", { from: nodes });
          nodes += 200;
        } else if (roll < 0.7) {
          // Property writes of every typed kind: integers, floats, booleans, repeated and distinct strings; and removals.
          primary.executeSync("MATCH (p:P) WHERE p.k % 7 = $m SET p.score = p.k * 0.5, p.flag = p.k % 2 = 0, p.tag = 't' + toString(p.k % 5), p.name = 'name ' + toString(p.k) + $suffix", {
            m: Math.floor(random() * 7),
            suffix: String(step),
          });
          primary.executeSync(`MATCH ()-[r:${type}]->() WHERE r.w > $x SET r.w = r.w / 2, r.seen = true`, { x: random() });
        } else if (roll < 0.74) {
          primary.executeSync('MATCH (p:P) WHERE p.k % 11 = $m REMOVE p.score, p.name, p.tag', { m: Math.floor(random() * 11) });
        } else if (roll < 0.8) {
          // Fails after writing: rolled back on the primary, so the replicas never hear of it.
          expect(() => primary.executeSync(`UNWIND $pairs AS p MATCH (a:P {k: p[0]}), (b:P {k: p[1]}) CREATE (a)-[:${type}]->(b) WITH count(*) AS c RETURN c / 0`, { pairs: pairs(5000) })).toThrow();
          expect(() => primary.executeSync("MATCH (p:P) SET p.k = p.k + 1, p.name = 'gone', p.score = -1 WITH count(*) AS c RETURN c / 0")).toThrow();
        } else if (roll < 0.88) {
          // A write on one replica alone (as a worker runs one before the primary takes it): neither
          // the primary nor the other replica may see any of it. That replica is then replaced.
          check();
          followers[0].replica.executeSync('MATCH (p:P) WHERE p.k % 3 = 0 REMOVE p.k, p.name, p.tag');
          followers[0].replica.executeSync('MATCH ()-[r]->() WHERE r.w < 0.5 REMOVE r.w');
          followers[0].replica.executeSync("MATCH (p:P) SET p.k = -p.k, p.score = 99.5, p.flag = false, p.tag = 'rogue', p.name = 'rogue ' + toString(p.k)");
          followers[0].replica.executeSync('MATCH ()-[r]->() SET r.w = -1.0 WITH r LIMIT 100 DELETE r');
          expect(state(primary)).toBe(primaryHeld);
          expect(state(followers[1].replica)).toBe(followers[1].held);
          Object.assign(followers[0], openReplica(captureGraphImage(followers[1].replica.graph, followers[1].replica.schema)), { held: '' });
        } else {
          // A replacement worker: an image of a replica (deltas and tombstones copied, bases and columns shared).
          check();
          const k = Math.floor(random() * 2);
          Object.assign(followers[k], openReplica(captureGraphImage(followers[1 - k].replica.graph, followers[1 - k].replica.schema)), { held: '' });
        }
        check();
      }
      // The bulk writes pass the merge threshold many times over: the sharing was exercised.
      expect(adopted).toBeGreaterThan(0);
      await primary.close();
    });
  }

  it('refuses a base that does not list the replica\'s live entries (diverged copies)', () => {
    const primary = new Database();
    primary.executeSync('UNWIND range(1, 5000) AS i CREATE (:A)-[:R]->(:B)');
    const { replica } = openReplica(captureGraphImage(primary.graph, primary.schema));
    replica.executeSync('MATCH (a:A) WITH a LIMIT 1 CREATE (a)-[:R]->(:B)');
    const stale = primary.graph.adjOut[primary.graph.typeId('R')!]!.base();
    expect(() => replica.graph.adoptMergedBases([{ type: 'R', isIn: false, base: stale }])).toThrow(/5000 entries, but the block has 5001 live/);
  });

  it('is one copy across threads: worker threads read the very buffers of the primary\'s merged bases', async () => {
    const db = Database.openInMemory();
    db.executeSync('CREATE INDEX FOR (p:P) ON (p.k)');
    db.executeSync('UNWIND range(0, 9999) AS k CREATE (:P {k: k})');
    db.executeSync('MATCH (a:P) MATCH (b:P {k: (a.k * 7 + 1) % 10000}) CREATE (a)-[:R]->(b)');
    const logs: string[] = [];
    const pool = await QueryWorkerPool.start(db, 2, (line) => logs.push(line));
    try {
      const router = new QueryRouter(db, pool);
      // A write on a worker, applied by the primary, whose merge makes new bases the workers adopt.
      await router.execute('MATCH (a:P) WHERE a.k < 6000 MATCH (b:P {k: (a.k * 13 + 5) % 10000}) CREATE (a)-[:R]->(b)');
      const block = db.graph.adjOut[db.graph.typeId('R')!]!;
      expect(block.deltaEntries).toBe(0);
      const onWorkers = async (): Promise<unknown[][]> => {
        const answers = await Promise.all(Array.from({ length: 6 }, () => pool.run('MATCH (:P {k: 0})-[:R]->(b) RETURN b.k AS k ORDER BY k', undefined)));
        return answers.map((r) => r.records.map(([k]) => k));
      };
      expect(await onWorkers()).toEqual(Array(6).fill([1, 5]));
      // Retarget node 0's first base entry in the primary's buffer (test only): only a thread that
      // reads that very buffer sees it.
      const start = db.graph.nodeAt(db.executeSync('MATCH (a:P {k: 0}) RETURN id(a)').records[0][0] as number)!;
      const target = db.executeSync('MATCH (b:P {k: 4242}) RETURN id(b)').records[0][0] as number;
      const at = block.offsets[block.baseRow(start.id)];
      const was = block.nbrs[at];
      block.nbrs[at] = target;
      try {
        expect(await onWorkers()).toEqual(Array(6).fill([5, 4242].sort((a, b) => a - b)));
      } finally {
        block.nbrs[at] = was;
      }
      expect(logs.filter((line) => /out of step|reload/.test(line))).toEqual([]);
    } finally {
      await pool.close();
      db.close();
    }
  });

  it('is one copy across threads: worker threads of a just-opened data directory read the primary\'s own entity arrays and property columns', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'graphdb-shared-'));
    dirs.push(dataDir);
    const first = await Database.open({ dataDir });
    first.executeSync('UNWIND range(0, 999) AS k CREATE (:P {k: k})-[:R]->(:Q {k: k})');
    await first.close();
    const db = await Database.open({ dataDir });
    const pool = await QueryWorkerPool.start(db, 2);
    try {
      const rel = db.executeSync('MATCH (:P {k: 7})-[r:R]->() RETURN id(r)').records[0][0] as number;
      const other = db.executeSync('MATCH (q:Q {k: 8}) RETURN id(q)').records[0][0] as number;
      const endOf = async (): Promise<unknown[]> => {
        const answers = await Promise.all(Array.from({ length: 6 }, () => pool.run('MATCH ()-[r]->() WHERE id(r) = $rel RETURN endNode(r).k AS k', { rel })));
        return answers.map((r) => r.records[0][0]);
      };
      // Retarget the relationship's end in the primary's own array (test only): a worker that
      // makes the relationship's object from that very array sees it.
      const bulk = db.graph.bulk!;
      const was = bulk.relEnd[rel];
      bulk.relEnd[rel] = other;
      try {
        expect(await endOf()).toEqual(Array(6).fill(8));
      } finally {
        bulk.relEnd[rel] = was;
      }
      // The same for a property column: lent at the image, so the workers read the primary's very array.
      const k = db.graph.nodeProps.column('k')!;
      expect(k.isBorrowed).toBe(true);
      const readK = async (): Promise<unknown[]> => {
        const answers = await Promise.all(Array.from({ length: 6 }, () => pool.run('MATCH (q) WHERE id(q) = $other RETURN q.k AS k', { other })));
        return answers.map((r) => r.records[0][0]);
      };
      expect(await readK()).toEqual(Array(6).fill(8));
      k.ints[other] = 4242;
      try {
        expect(await readK()).toEqual(Array(6).fill(4242));
      } finally {
        k.ints[other] = 8;
      }
      // The worker budget counts the shared structure once: a change makes later images copy the entities.
      const shared = storeMemory(db.graph).sharedBytes;
      expect(shared).toBeGreaterThan(bulk.arrayBytes());
      db.executeSync('CREATE (:P {k: -1})');
      expect(storeMemory(db.graph).sharedBytes).toBe(shared - bulk.arrayBytes());
    } finally {
      await pool.close();
      await db.close();
    }
  });
});

/**
 * Crash test: a graphdb TCP server with --data-dir under write load from several
 * connections is killed with SIGKILL at a random moment; after a restart every
 * acknowledged write must be there, at most the one write in flight per connection may
 * be there besides, and the store must be consistent (counts, adjacency both ways, label
 * and property indexes), and a snapshot file left behind must be whole. CI runs a few
 * trials; GRAPHDB_CRASH_TRIALS=100 runs the long form.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { Graph } from '../../src/store/graph.js';
import { Schema } from '../../src/store/schema.js';
import { loadSnapshotExact } from '../../src/store/persist/durable-store.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';

afterAll(removeTempDirs);
import { consistencyProblems, exited, startServer, writeLoop } from './crash-harness.js';

const TRIALS = Number(process.env.GRAPHDB_CRASH_TRIALS ?? 5);
const CONNECTIONS = 4;

const write = (c: number) => (i: number) =>
  i % 3 === 2
    ? `MATCH (a:W {c: ${c}, i: ${i - 1}}) CREATE (a)-[:NEXT {c: ${c}, i: ${i}}]->(:W {c: ${c}, i: ${i}, t: timestamp(), r: rand()})`
    : `CREATE (:W {c: ${c}, i: ${i}, t: timestamp(), r: rand()})-[:R {c: ${c}, i: ${i}}]->(:V {c: ${c}, i: ${i}})`;

async function trial(n: number): Promise<{ acked: number; extra: number }> {
  const dir = tempDir(`graphdb-crash-${n}-`);
  // A first life with an index, so the schema and a checkpointed store are part of what must survive.
  const first = await startServer(dir);
  const setup = writeLoop(first.port, (i) => (i === 0 ? 'CREATE INDEX w_i FOR (w:W) ON (w.i)' : 'RETURN 1'));
  // Wait until the index is acknowledged (a loaded machine can take longer than a fixed pause).
  for (let t = 0; t < 500 && setup.writer.acked.length === 0; t++) await new Promise((r) => setTimeout(r, 20));
  expect(setup.writer.acked.length, `trial ${n}: CREATE INDEX was not acknowledged`).toBeGreaterThan(0);
  first.child.kill('SIGTERM');
  await setup.done;
  await exited(first.child);

  const server = await startServer(dir, n % 2 === 0 ? 40 : 100_000);
  const loops = Array.from({ length: CONNECTIONS }, (_, c) => writeLoop(server.port, write(c)));
  // Kill at a random moment after the first acknowledgement (a loaded machine may take a while to get there).
  const firstAckBy = Date.now() + 60_000;
  while (loops.every((l) => l.writer.acked.length === 0) && Date.now() < firstAckBy) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, Math.random() * 700));
  server.child.kill('SIGKILL');
  await Promise.all(loops.map((l) => l.done));
  await exited(server.child);

  // A snapshot file, if any, is always whole (written to a temporary file and renamed).
  const snapshotFile = path.join(dir, 'graphdb.snapshot.json');
  if (fs.existsSync(snapshotFile)) {
    const g = new Graph();
    await loadSnapshotExact(g, new Schema(g), snapshotFile, undefined);
  }
  const db = await Database.open({ dataDir: dir, storage: { log: null } });
  try {
    let acked = 0;
    let extra = 0;
    for (let c = 0; c < CONNECTIONS; c++) {
      const { writer } = loops[c];
      expect(writer.errors).toEqual([]);
      const present = db.executeSync(`MATCH (w:W {c: ${c}}) RETURN w.i AS i ORDER BY i`).records.map((r) => r[0] as number);
      const set = new Set(present);
      const lost = writer.acked.filter((i) => !set.has(i));
      expect(lost, `trial ${n}, connection ${c}: acknowledged writes lost`).toEqual([]);
      const unacked = present.filter((i) => !writer.acked.includes(i));
      expect(unacked.length, `trial ${n}, connection ${c}: unacknowledged writes present ${unacked}`).toBeLessThanOrEqual(1);
      if (unacked.length === 1) expect(unacked[0]).toBe(writer.inFlight);
      acked += writer.acked.length;
      extra += unacked.length;
      // Each write is whole: its relationship and its other node came with it.
      const rels = db.executeSync(`MATCH (:W {c: ${c}})-[r]->() RETURN count(r)`).records[0][0];
      expect(rels).toBe(present.length);
    }
    expect(consistencyProblems(db)).toEqual([]);
    // The index agrees with a scan.
    expect(db.executeSync('SHOW INDEXES YIELD name').records.map((r) => r[0])).toContain('w_i');
    for (const i of [0, 1, 2, 5]) {
      const viaIndex = db.executeSync(`MATCH (w:W) WHERE w.i = ${i} RETURN count(w)`).records[0][0];
      const viaScan = db.executeSync(`MATCH (w:W) WHERE w.i + 0 = ${i} RETURN count(w)`).records[0][0];
      expect(viaIndex).toBe(viaScan);
    }
    // The recovered store takes new writes.
    db.executeSync('CREATE (:After)');
    return { acked, extra };
  } finally {
    db.close();
  }
}

describe('crash recovery over TCP', () => {
  it(
    `loses no acknowledged write in ${TRIALS} SIGKILL trials`,
    async () => {
      let acked = 0;
      let extra = 0;
      for (let n = 0; n < TRIALS; n++) {
        const r = await trial(n);
        acked += r.acked;
        extra += r.extra;
      }
      if (process.env.GRAPHDB_CRASH_TRIALS) console.log(`crash test: ${TRIALS} trials, ${acked} acknowledged writes, none lost, ${extra} in-flight writes also present`);
      expect(acked).toBeGreaterThan(0);
    },
    TRIALS * 90_000,
  );
});

/**
 * The WAL archive against a real S3-compatible server (s3rver) on loopback: a `graphdb`
 * primary ships base snapshot and segments (`--wal-archive`), is SIGKILLed, and
 * `graphdb restore` rebuilds fresh directories from the archive — all of it, and to a point
 * in time (`--until-seq`) — whose content and fingerprint equal the crashed primary's.
 */

import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import S3rver from 's3rver';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { GRAPHDB_BIN } from '../server/helpers.js';
import { kill, Processes, query, until } from './harness.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-archive-'));
const procs = new Processes();
const run = promisify(execFile);

afterAll(() => {
  procs.killAll();
  fs.rmSync(root, { recursive: true, force: true });
});

async function fact(s: Parameters<typeof query>[0], field: string): Promise<string> {
  const r = await query(s, 'CALL graphdb.replication.objectStoreFanout() YIELD field, value RETURN field, value');
  return r.rows.find((row) => row.field === field)?.value ?? '';
}

async function seq(s: Parameters<typeof query>[0]): Promise<string> {
  const r = await query(s, "CALL graphdb.replication.walTailing() YIELD field, value WHERE field = 'mutation_seq' RETURN value");
  return r.rows[0]?.value ?? '';
}

async function snapshotOf(dir: string): Promise<{ fingerprint: string; content: string[] }> {
  const db = await Database.open({ dataDir: dir, storage: { log: null } });
  try {
    const rows = db.executeSync('MATCH (n) OPTIONAL MATCH (n)-[r]->(m) RETURN labels(n), properties(n), type(r), properties(r), m.k').records;
    return { fingerprint: db.fingerprint(), content: rows.map((r) => JSON.stringify(r)).sort() };
  } finally {
    db.close();
  }
}

describe('WAL archive to S3-compatible storage', () => {
  it('restores a crashed primary from the archive, whole and to a point in time', async () => {
    const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(root, 's3'), configureBuckets: [{ name: 'graphdb-archive', configs: [] }] });
    const { port } = await server.run();
    try {
      const endpoint = `http://127.0.0.1:${port}`;
      // The spawned servers inherit these; vitest puts them back after the test (the worker runs other files next).
      vi.stubEnv('AWS_ACCESS_KEY_ID', 'S3RVER');
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'S3RVER');
      const archive = 's3://graphdb-archive/cluster-a';
      const primaryDir = path.join(root, 'primary');
      const primary = await procs.start(['--data-dir', primaryDir, '--http', '0', '--replication-role', 'primary', '--replication-secret', 'x', '--wal-archive', archive, '--wal-archive-endpoint', endpoint]);
      await query(primary, "UNWIND range(1, 50) AS i CREATE (:K {k: i, name: 'k' + i})");
      await query(primary, 'CREATE INDEX k_idx FOR (n:K) ON (n.k)');
      const middle = await seq(primary);
      for (let i = 0; i < 20; i++) await query(primary, `MATCH (a:K {k: ${i + 1}}), (b:K {k: ${i + 2}}) CREATE (a)-[:NEXT {w: ${i}}]->(b)`);
      await query(primary, 'MATCH (n:K) WHERE n.k > 45 DETACH DELETE n');
      await query(primary, "MATCH (n:K {k: 3}) SET n.name = 'three', n:Special");
      const last = await seq(primary);
      expect(await until(async () => (await fact(primary, 'archived_seq')) === last, 30_000)).toBe(true);
      await kill(primary);

      const whole = path.join(root, 'restored');
      const out = await run(process.execPath, [GRAPHDB_BIN, 'restore', '--from', archive, '--to', whole, '--endpoint', endpoint]);
      expect(JSON.parse(out.stdout).seq).toBe(Number(last));
      const original = await snapshotOf(primaryDir);
      const restored = await snapshotOf(whole);
      expect(restored.content).toEqual(original.content);
      expect(restored.fingerprint).toBe(original.fingerprint);

      const early = path.join(root, 'early');
      await run(process.execPath, [GRAPHDB_BIN, 'restore', '--from', archive, '--to', early, '--until-seq', middle, '--endpoint', endpoint]);
      const db = await Database.open({ dataDir: early, storage: { log: null } });
      try {
        expect(db.executeSync('MATCH (n:K) RETURN count(n)').records).toEqual([[50]]);
        expect(db.executeSync('MATCH ()-[r]->() RETURN count(r)').records).toEqual([[0]]);
        expect(String(db.graph.mutationSeq)).toBe(middle);
      } finally {
        db.close();
      }
    } finally {
      vi.unstubAllEnvs();
      await server.close();
    }
  }, 120_000);
});

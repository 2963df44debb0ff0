/**
 * Bookmarks across a real primary and read replica (`graphdb --bolt` processes) with
 * neo4j-driver: a write's bookmark is the primary's committed sequence; a read on the replica
 * given that bookmark waits until the replica has applied it and sees the write; a bookmark
 * the replica cannot reach fails within the transaction timeout with a TransientError
 * (so drivers retry); a replica refuses writes with Neo4j's code; the primary's routing table
 * lists the replica's Bolt door as a reader, and a neo4j:// driver reads through it.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import neo4j, { type Driver } from 'neo4j-driver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpawnedServers } from '../server/helpers.js';
import { converge, Processes, SECRET, urlOf } from './harness.js';
import type { PackValue } from '../../src/server/bolt/packstream.js';
import { map, message, rawLoggedIn, SUCCESS } from '../server/bolt-raw.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-bolt-bookmarks-'));
const procs = new Processes();
let primary: SpawnedServers;
let replica: SpawnedServers;
let toPrimary: Driver;
let toReplica: Driver;

beforeAll(async () => {
  primary = await procs.start(['--data-dir', path.join(root, 'p'), '--http', '0', '--bolt', '0', '--replication-role', 'primary', '--replication-secret', SECRET]);
  replica = await procs.start(['--data-dir', path.join(root, 'r'), '--http', '0', '--bolt', '0', '--replica-of', urlOf(primary), '--replication-secret', SECRET]);
  await converge([primary, replica], 60_000);
  toPrimary = neo4j.driver(`bolt://127.0.0.1:${primary.ports.bolt}`, neo4j.auth.basic('u', SECRET));
  toReplica = neo4j.driver(`bolt://127.0.0.1:${replica.ports.bolt}`, neo4j.auth.basic('u', SECRET));
}, 120_000);

afterAll(async () => {
  await toPrimary?.close();
  await toReplica?.close();
  procs.killAll();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('bookmarks with a replica', () => {
  it("a read on the replica with the primary's bookmark sees the write (every time)", async () => {
    for (let round = 1; round <= 5; round++) {
      const writer = toPrimary.session();
      let bookmarks: string[];
      try {
        await writer.executeWrite((tx) => tx.run('UNWIND range(1, 2000) AS i CREATE (:Marked {round: $round, i: i})', { round }));
        bookmarks = writer.lastBookmarks();
      } finally {
        await writer.close();
      }
      expect(bookmarks).toHaveLength(1);
      expect(bookmarks[0]).toMatch(/^graphdb:seq:\d+$/);
      const reader = toReplica.session({ bookmarks, defaultAccessMode: neo4j.session.READ });
      try {
        const n = await reader.executeRead(async (tx) => (await tx.run('MATCH (m:Marked {round: $round}) RETURN count(m) AS c', { round })).records[0].get('c').toNumber());
        expect(n).toBe(2000);
        // Auto-commit (bookmarks in RUN) too.
        const auto = await reader.run('MATCH (m:Marked {round: $round}) RETURN count(m) AS c', { round });
        expect(auto.records[0].get('c').toNumber()).toBe(2000);
      } finally {
        await reader.close();
      }
    }
  }, 120_000);

  it('a bookmark the replica cannot reach fails within the transaction timeout as a TransientError', async () => {
    const session = toReplica.session({ bookmarks: ['graphdb:seq:999999999'] });
    const t0 = Date.now();
    try {
      await expect(session.run('RETURN 1', {}, { timeout: 400 })).rejects.toMatchObject({ code: 'Neo.TransientError.Transaction.BookmarkTimeout' });
    } finally {
      await session.close();
    }
    expect(Date.now() - t0).toBeLessThan(5000);
    // The replica refuses a write in its own words, and reads on.
    await expect(toReplica.executeQuery('CREATE (:NotHere)')).rejects.toHaveProperty('code');
    const { records } = await toReplica.executeQuery('RETURN 2 AS two', {}, { routing: neo4j.routing.READ });
    expect(records[0].get('two').toNumber()).toBe(2);
  }, 60_000);

  it("the primary's routing table lists the replica's Bolt door as a reader; neo4j:// reads and writes through it", async () => {
    const replicaAddress = `127.0.0.1:${replica.ports.bolt}`;
    const primaryAddress = `127.0.0.1:${primary.ports.bolt}`;
    let table: Map<string, PackValue[]> | undefined;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const c = await rawLoggedIn(primary.ports.bolt!, SECRET);
      try {
        c.write(message(0x66, map({ address: primaryAddress }), [], map({ db: 'neo4j' })));
        const answer = await c.next();
        expect(answer.tag).toBe(SUCCESS);
        const rt = (answer.fields[0] as Map<string, PackValue>).get('rt') as Map<string, PackValue>;
        table = new Map((rt.get('servers') as Map<string, PackValue>[]).map((s) => [s.get('role') as string, s.get('addresses') as PackValue[]]));
      } finally {
        c.close();
      }
      if (table.get('READ')?.includes(replicaAddress)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(table?.get('READ')).toEqual([replicaAddress, primaryAddress]);
    expect(table?.get('WRITE')).toEqual([primaryAddress]);
    // The replica's own table names only itself.
    const r = await rawLoggedIn(replica.ports.bolt!, SECRET);
    try {
      r.write(message(0x66, map({}), [], map({})));
      const rt = ((await r.next()).fields[0] as Map<string, PackValue>).get('rt') as Map<string, PackValue>;
      const read = (rt.get('servers') as Map<string, PackValue>[]).find((s) => s.get('role') === 'READ')!;
      expect(read.get('addresses')).toEqual([replicaAddress]);
    } finally {
      r.close();
    }
    const routed = neo4j.driver(`neo4j://${primaryAddress}`, neo4j.auth.basic('u', SECRET));
    try {
      const written = await routed.executeQuery('CREATE (:Routed {v: 1})', {}, { routing: neo4j.routing.WRITE });
      for (let i = 0; i < 6; i++) {
        // executeQuery carries the write's bookmark: a read on the replica waits for it.
        const { records } = await routed.executeQuery('MATCH (n:Routed) RETURN count(n) AS c', {}, { routing: neo4j.routing.READ });
        expect(records[0].get('c').toNumber()).toBe(1);
      }
      expect(written.summary.counters.updates().nodesCreated).toBe(1);
    } finally {
      await routed.close();
    }
  }, 60_000);
});

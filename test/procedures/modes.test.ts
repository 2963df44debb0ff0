/**
 * Procedure modes are enforced: WRITE and SCHEMA procedures make a query a write (refused
 * by `Database.query()` and MCP `read_query`, run in a transaction that rolls back whole,
 * counted in the statistics, durable in the write-ahead log); READ and DBMS ones do not.
 * The MCP part drives the built `graphdb-mcp` through the MCP SDK client.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Database } from '../../src/engine/database.js';
import { MCP_BIN } from '../server/helpers.js';
import { fixture, rows, value } from './catalogue-helpers.js';

describe('procedure modes', () => {
  it('a WRITE procedure through Database.query() is refused like any write, and changes nothing', async () => {
    const db = fixture();
    const before = db.fingerprint();
    await expect(db.query("CALL apoc.create.node(['X'], {}) YIELD node RETURN node")).rejects.toMatchObject({ detail: 'WriteInReadOnlyCall' });
    expect(db.isMutating("CALL apoc.cypher.doIt('RETURN 1 AS x', {}) YIELD value RETURN value")).toBe(true);
    expect(db.fingerprint()).toBe(before);
    // READ and DBMS procedures are reads.
    expect((await db.query('CALL db.labels() YIELD label RETURN count(label) AS n')).records).toEqual([[3]]);
    expect((await db.query('CALL db.clearQueryCaches()')).records).toHaveLength(1);
  });

  it('a SCHEMA procedure is a write too', async () => {
    const db = Database.openInMemory();
    db.procedures.register({ name: 'test.schemaThing', mode: 'schema', description: 'test', inputs: [], outputs: [], invoke: () => [] });
    expect(db.isMutating('CALL test.schemaThing()')).toBe(true);
    await expect(db.query('CALL test.schemaThing()')).rejects.toMatchObject({ detail: 'WriteInReadOnlyCall' });
  });

  it('writes through procedures are counted and roll back whole when the query fails', () => {
    const db = fixture();
    const r = db.executeSync("UNWIND range(1, 3) AS i CALL apoc.create.node(['Made'], {i: i}) YIELD node RETURN count(node)");
    expect(r.stats).toMatchObject({ nodesCreated: 3, labelsAdded: 3, propertiesSet: 3 });
    const before = db.fingerprint();
    expect(() => db.executeSync("UNWIND range(1, 3) AS i CALL apoc.create.node(['Made'], {i: i}) YIELD node RETURN 1 / (i - 3)")).toThrow(/by zero/);
    expect(db.fingerprint()).toBe(before);
    expect(value(db, 'MATCH (m:Made) RETURN count(m)')).toBe(3);
  });

  it('a write procedure after a read sees a stable input (an Eager barrier), so it cannot feed itself', () => {
    const db = fixture();
    db.executeSync("MATCH (p:Person) CALL apoc.create.node(['Person'], {copy: true}) YIELD node RETURN count(*)");
    expect(value(db, 'MATCH (p:Person) RETURN count(p)')).toBe(6);
  });

  it('writes through procedures reach the write-ahead log and survive a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-proc-wal-'));
    try {
      const db = await Database.open({ dataDir: dir });
      await db.mutate("CALL apoc.create.node(['Durable'], {n: 1}) YIELD node RETURN node");
      await db.mutate("MATCH (d:Durable) CALL apoc.create.setProperty(d, 'n', 2) YIELD node RETURN node");
      db.close();
      const again = await Database.open({ dataDir: dir });
      expect(rows(again, 'MATCH (d:Durable) RETURN d.n')).toEqual([[2]]);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('procedure modes through MCP', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'graphdb-catalogue-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], stderr: 'pipe' }));
  }, 60_000);
  afterAll(async () => client.close());

  const text = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

  it('read_query refuses a WRITE procedure and runs a READ one', async () => {
    const refused = await client.callTool({ name: 'read_query', arguments: { cypher: "CALL apoc.create.node(['X'], {}) YIELD node RETURN node" } });
    expect((refused as { isError?: boolean }).isError).toBe(true);
    expect(text(refused)).toContain('write_query');
    const ok = await client.callTool({ name: 'read_query', arguments: { cypher: 'CALL dbms.components() YIELD name RETURN name' } });
    expect(JSON.parse(text(ok)).rows[0]).toEqual({ name: 'Neo4j Kernel' });
  });

  it('get_capabilities lists each procedure with its mode and signature', async () => {
    const caps = JSON.parse(text(await client.callTool({ name: 'get_capabilities', arguments: {} }))) as { procedures: { name: string; mode: string; signature: string }[]; function_count: number };
    const create = caps.procedures.find((p) => p.name === 'apoc.create.node');
    expect(create).toMatchObject({ mode: 'WRITE', signature: 'apoc.create.node(labels :: LIST<STRING>, props :: MAP) :: (node :: NODE)' });
    expect(caps.procedures.find((p) => p.name === 'db.clearQueryCaches')?.mode).toBe('DBMS');
    expect(caps.function_count).toBeGreaterThanOrEqual(200);
  });
});

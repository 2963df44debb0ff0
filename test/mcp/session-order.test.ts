/**
 * Per-session order (issue 28): a client that sends a write and then reads without waiting
 * sees its write in the reads. MCP over stdio, through the MCP SDK's client and a real
 * graphdb-mcp process (with its query worker, so reads run on another thread than writes);
 * and the TCP door with query workers, both lines sent in one packet.
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { QueryRouter } from '../../src/engine/workers/query-router.js';
import { QueryWorkerPool } from '../../src/engine/workers/worker-pool.js';
import { startTcpServer } from '../../src/server/tcp/server.js';
import { requestKind, SessionOrder } from '../../src/mcp/session-order.js';
import { converse, MCP_BIN } from '../server/helpers.js';

const textOf = (r: unknown): string => ((r as { content: { text: string }[] }).content[0]?.text ?? '');

describe('MCP over stdio', () => {
  it('write_query, get_schema and graph_rag sent without waiting: the reads see the write', async () => {
    const client = new Client({ name: 'order-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--workers', '2'], stderr: 'pipe' }));
    try {
      for (let round = 0; round < 5; round++) {
        const company = `Zeta${round}`;
        const [write, schema, rag] = await Promise.all([
          client.callTool({ name: 'write_query', arguments: { cypher: `CREATE (:Person {name: 'Zed${round}'})-[:WORKS_AT]->(:Company${round} {name: '${company}'})` } }),
          client.callTool({ name: 'get_schema', arguments: {} }),
          client.callTool({ name: 'read_query', arguments: { cypher: `MATCH (c:Company${round}) RETURN c.name AS name` } }),
        ]);
        expect(write.isError).toBeFalsy();
        expect(textOf(schema)).toContain(`Company${round}`);
        expect(JSON.parse(textOf(rag)).rows).toEqual([{ name: company }]);
      }
      const [, answer] = await Promise.all([
        client.callTool({ name: 'write_query', arguments: { cypher: "CREATE (:Person {name: 'Ann'})-[:WORKS_AT]->(:Company {name: 'Acme'})" } }),
        client.callTool({ name: 'graph_rag', arguments: { query: 'Which company does Ann work at?' } }),
      ]);
      expect(textOf(answer)).toContain('Acme');
    } finally {
      await client.close();
    }
  });

  it('lets reads that follow only reads overlap, and holds a write until they finish', () => {
    const started: (string | number)[] = [];
    const order = new SessionOrder((m) => started.push((m as { id: string | number }).id));
    const call = (id: number, name: string) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name, arguments: {} } });
    order.submit(1, call(1, 'read_query'));
    order.submit(2, call(2, 'get_schema'));
    order.submit(3, call(3, 'write_query'));
    order.submit(4, call(4, 'read_query'));
    expect(started).toEqual([1, 2]);
    order.done(1);
    expect(started).toEqual([1, 2]);
    order.done(2);
    expect(started).toEqual([1, 2, 3]);
    order.done(3);
    expect(started).toEqual([1, 2, 3, 4]);
    expect(requestKind(call(5, 'some_new_tool'))).toBe('write');
    expect(requestKind({ jsonrpc: '2.0', id: 6, method: 'tools/list' })).toBe('read');
  });
});

describe('the TCP door with query workers', () => {
  const db = Database.openInMemory();
  let pool: QueryWorkerPool | undefined;
  afterAll(async () => {
    await pool?.close();
    db.close();
  });

  it('answers a read sent right behind a write with the write in it', async () => {
    pool = await QueryWorkerPool.start(db, 2, () => undefined);
    const server = await startTcpServer(new QueryRouter(db, pool), { port: 0, log: () => undefined });
    try {
      const lines = Array.from({ length: 10 }, (_, i) => `CREATE (:T {i: ${i}})\nMATCH (t:T) RETURN count(t) AS c\n`).join('');
      const { text } = await converse(server.port, [lines], { end: true, quietMs: 3000 });
      const answers = text.trim().split('\n').map((l) => JSON.parse(l) as { rows?: { c: unknown }[] });
      const counts = answers.filter((a) => a.rows?.[0]?.c !== undefined).map((a) => Number(a.rows![0].c));
      expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    } finally {
      await server.close();
    }
  });
});

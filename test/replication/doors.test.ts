/**
 * A write sent to a read replica is refused with the same code, READ_ONLY, on every door of
 * a real `graphdb` replica process: HTTP (status 409, the status of other refusals caused by
 * the instance's state), the TCP line protocol, PostgreSQL wire (SQLSTATE 25006
 * read_only_sql_transaction, the engine code in the detail) and MCP over HTTP (a tool error
 * carrying the code). Reads work on each door.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { SpawnedServers } from '../server/helpers.js';
import { converge, Processes, query, SECRET, urlOf } from './harness.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-replication-doors-'));
const procs = new Processes();
let primary: SpawnedServers;
let replica: SpawnedServers;

beforeAll(async () => {
  primary = await procs.start(['--data-dir', path.join(root, 'p'), '--http', '0', '--replication-role', 'primary', '--replication-secret', SECRET]);
  replica = await procs.start(['--data-dir', path.join(root, 'r'), '--http', '0', '--serve', '0', '--pg', '0', '--replica-of', urlOf(primary), '--replication-secret', SECRET]);
  expect((await query(primary, "CREATE (:Item {uid: 'one'})")).ok).toBe(true);
  const fps = await converge([primary, replica], 60_000);
  expect(new Set(fps).size, fps.join(' ')).toBe(1);
}, 120_000);

afterAll(() => {
  procs.killAll();
  fs.rmSync(root, { recursive: true, force: true });
});

const WRITE = "CREATE (:Item {uid: 'refused'})";

/** One line to the TCP door, one JSON answer back. */
function tcpAsk(port: number, line: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      text += d;
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      socket.destroy();
      resolve(JSON.parse(text.slice(0, nl)) as Record<string, unknown>);
    });
    socket.on('error', reject);
    socket.on('connect', () => socket.write(line + '\n'));
  });
}

describe('a write on a replica is READ_ONLY on every door', () => {
  it('HTTP: status 409, code READ_ONLY; reads answer 200', async () => {
    const res = await fetch(`${urlOf(replica)}/query`, { method: 'POST', body: WRITE });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe('READ_ONLY');
    expect(body.message).toContain(urlOf(primary));
    const read = await fetch(`${urlOf(replica)}/query`, { method: 'POST', body: 'MATCH (n:Item) RETURN n.uid AS uid' });
    expect(read.status).toBe(200);
  });

  it('TCP: an error line with code READ_ONLY', async () => {
    const port = replica.ports.tcp!;
    expect(await tcpAsk(port, WRITE)).toMatchObject({ code: 'READ_ONLY' });
    expect(await tcpAsk(port, 'MATCH (n:Item) RETURN n.uid AS uid')).toEqual({ columns: ['uid'], rows: [{ uid: 'one' }] });
  });

  it('PostgreSQL wire: SQLSTATE 25006 read_only_sql_transaction, detail naming READ_ONLY', async () => {
    const c = new pg.Client({ host: '127.0.0.1', port: replica.ports.pg, user: 'tester', database: 'graphdb' });
    await c.connect();
    try {
      const err = (await c.query(WRITE).then(
        () => undefined,
        (e: unknown) => e,
      )) as { code?: string; detail?: string } | undefined;
      expect(err?.code).toBe('25006');
      expect(err?.detail).toContain('READ_ONLY');
      expect((await c.query('MATCH (n:Item) RETURN n.uid AS uid')).rows).toEqual([{ uid: 'one' }]);
    } finally {
      await c.end();
    }
  });

  it('MCP over HTTP: write_query is a tool error with code READ_ONLY', async () => {
    const client = new Client({ name: 'graphdb-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${urlOf(replica)}/mcp`)));
    try {
      const result = (await client.callTool({ name: 'write_query', arguments: { cypher: WRITE } })) as { isError?: boolean; content: { text: string }[] };
      expect(result.isError).toBe(true);
      expect((JSON.parse(result.content[0].text) as { code: string }).code).toBe('READ_ONLY');
      const read = (await client.callTool({ name: 'read_query', arguments: { cypher: 'MATCH (n:Item) RETURN n.uid AS uid' } })) as { isError?: boolean };
      expect(read.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });
});

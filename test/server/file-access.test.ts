/**
 * File access (issue 9): LOAD CSV reads no file on a server without --import-dir, only
 * files inside the import directory with it (real paths, so a symbolic link cannot lead
 * out), only regular files (a FIFO or /dev/zero never blocks or fills memory), within a
 * size bound and the query deadline. The library and CLI keep reading local files.
 */

import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Database } from '../../src/engine/database.js';
import { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import { GraphDbError } from '../../src/errors.js';
import { converse, MCP_BIN, spawnGraphdb, type SpawnedServers } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'graphdb-import-'));
const outside = mkdtempSync(join(tmpdir(), 'graphdb-outside-'));
writeFileSync(join(dir, 'ok.csv'), 'a,b\n1,2\n');
writeFileSync(join(outside, 'secret.csv'), 'secret\n');
symlinkSync(join(outside, 'secret.csv'), join(dir, 'link.csv'));
symlinkSync('/proc/self/environ', join(dir, 'environ.csv'));
symlinkSync('/dev/zero', join(dir, 'zero.csv'));
mkdirSync(join(dir, 'sub'));
execFileSync('mkfifo', [join(dir, 'fifo.csv')]);

function failure(db: Database, query: string): GraphDbError {
  try {
    db.executeSync(query);
  } catch (err) {
    return err as GraphDbError;
  }
  throw new Error(`expected ${query} to fail`);
}

describe('FileAccessPolicy', () => {
  it('none: every path is refused with FILE_ACCESS_DENIED', () => {
    const db = Database.openInMemory({ fileAccess: FileAccessPolicy.none() });
    for (const url of ['file:///etc/passwd', '/proc/self/cmdline', 'ok.csv']) {
      const e = failure(db, `LOAD CSV FROM '${url}' AS r RETURN r`);
      expect(e.code).toBe('FILE_ACCESS_DENIED');
      expect(e.message).toMatch(/--import-dir/);
    }
  });

  it('confined: inside files load; links, parents, FIFOs, devices and /proc are refused', () => {
    const db = Database.openInMemory({ fileAccess: FileAccessPolicy.confined(dir) });
    expect(db.executeSync("LOAD CSV WITH HEADERS FROM 'file:///ok.csv' AS r RETURN r.b AS b").records).toEqual([['2']]);
    for (const url of ['link.csv', 'environ.csv', '../' + 'x.csv']) {
      expect(failure(db, `LOAD CSV FROM '${url}' AS r RETURN r`).code).toBe('FILE_ACCESS_DENIED');
    }
    // An absolute path is taken inside the import directory, where there is no etc/passwd.
    expect(failure(db, "LOAD CSV FROM 'file:///../../etc/passwd' AS r RETURN r").message).toMatch(/cannot read .*ENOENT/);
    const started = Date.now();
    for (const url of ['fifo.csv', 'sub']) {
      const e = failure(db, `LOAD CSV FROM '${url}' AS r RETURN r`);
      expect(e.code).toBe('FILE_ACCESS_DENIED');
      expect(e.message).toMatch(/not a regular file/);
    }
    expect(Date.now() - started).toBeLessThan(5000); // the FIFO did not wait for a writer
  });

  it('local: any regular file, but never a FIFO or /dev/zero', () => {
    const db = Database.openInMemory();
    expect(db.executeSync(`LOAD CSV FROM '${join(outside, 'secret.csv')}' AS r RETURN r`).records).toEqual([[['secret']]]);
    for (const url of [join(dir, 'fifo.csv'), '/dev/zero']) {
      expect(failure(db, `LOAD CSV FROM '${url}' AS r RETURN r`).message).toMatch(/not a regular file/);
    }
  });

  it('a file over the size bound is refused', () => {
    writeFileSync(join(dir, 'big.csv'), 'x\n'.repeat(5000));
    const db = Database.openInMemory({ fileAccess: FileAccessPolicy.confined(dir, 1000) });
    expect(failure(db, "LOAD CSV FROM 'big.csv' AS r RETURN r").message).toMatch(/larger than the limit of 1000 bytes/);
  });

  it('the read honours the query deadline', () => {
    writeFileSync(join(dir, 'many.csv'), 'x\n'.repeat(4 * 1024 * 1024));
    const db = Database.openInMemory({ fileAccess: FileAccessPolicy.confined(dir), queryTimeoutMs: 1 });
    const e = failure(db, "LOAD CSV FROM 'many.csv' AS r WITH r WHERE false RETURN r");
    expect(e.code).toBe('TIMEOUT');
  });
});

describe('servers refuse files without --import-dir', () => {
  let srv: SpawnedServers;
  beforeAll(async () => {
    srv = await spawnGraphdb(['--http', '0', '--serve', '0', '--pg', '0']);
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('HTTP, TCP and PG answer FILE_ACCESS_DENIED for /etc/passwd and /proc/self/cmdline', async () => {
    for (const url of ['file:///etc/passwd', 'file:///proc/self/cmdline']) {
      const q = `LOAD CSV FROM '${url}' AS r RETURN r`;
      const http = await fetch(`http://127.0.0.1:${srv.ports.http}/query`, { method: 'POST', body: q });
      expect(http.status).toBe(403);
      expect(await http.json()).toMatchObject({ error: true, code: 'FILE_ACCESS_DENIED' });
      const tcp = await converse(srv.ports.tcp!, [q + '\n'], { end: true });
      expect(JSON.parse(tcp.text.trim())).toMatchObject({ error: true, code: 'FILE_ACCESS_DENIED' });
      const client = new pg.Client({ host: '127.0.0.1', port: srv.ports.pg, user: 'u', database: 'graph' });
      await client.connect();
      await expect(client.query(q)).rejects.toMatchObject({ code: '42501' });
      await client.end();
    }
  });

  it('with --import-dir the directory is readable and nothing else', async () => {
    const confined = await spawnGraphdb(['--http', '0', '--import-dir', dir]);
    try {
      const post = (q: string): Promise<Response> => fetch(`http://127.0.0.1:${confined.ports.http}/query`, { method: 'POST', body: q });
      expect(await (await post("LOAD CSV FROM 'ok.csv' AS r RETURN r[0] AS a")).json()).toEqual({ columns: ['a'], rows: [{ a: 'a' }, { a: '1' }] });
      expect(await (await post("LOAD CSV FROM 'link.csv' AS r RETURN r")).json()).toMatchObject({ code: 'FILE_ACCESS_DENIED' });
      expect(await (await post("LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r")).json()).toMatchObject({ error: true });
    } finally {
      await confined.stop();
    }
  });

  it('graphdb-mcp read_query refuses files too', async () => {
    const child = spawn(process.execPath, [MCP_BIN], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_query', arguments: { cypher: "LOAD CSV FROM 'file:///proc/self/environ' AS r RETURN r" } } },
    ];
    child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await new Promise((resolve) => child.once('exit', resolve));
    const reply = out.trim().split('\n').map((l) => JSON.parse(l) as { id?: number; result?: { isError?: boolean; content: { text: string }[] } }).find((m) => m.id === 2);
    expect(reply?.result?.isError).toBe(true);
    expect(reply?.result?.content[0].text).toMatch(/FILE_ACCESS_DENIED|file access is disabled/);
  });
});

/**
 * graphdb-mcp input over the line cap (issue 9): the oversized message gets a JSON-RPC
 * parse error and the session goes on — through the real binary (16 MiB cap) and through
 * the transport with a small cap.
 */

import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { LineTransport } from '../../src/mcp/line-transport.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { MCP_BIN } from './helpers.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
const PING = (id: number): object => ({ jsonrpc: '2.0', id, method: 'ping' });

type Reply = { id?: number | null; error?: { code: number; message: string }; result?: unknown };

function replies(text: string): Reply[] {
  return text.trim().split('\n').map((l) => JSON.parse(l) as Reply);
}

describe('MCP oversized input', () => {
  it('the transport answers an over-long line with -32700 and keeps serving', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const server = createMcpServer(Database.openInMemory());
    const closed = new Promise<void>((resolve) => (server.onclose = resolve));
    await server.connect(new LineTransport(input, output, 1024));
    input.write(JSON.stringify(INIT) + '\n');
    // One oversized line in pieces, then one in the same chunk as a good line.
    input.write('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"pad":"' + 'x'.repeat(3000));
    input.write('x'.repeat(3000) + '"}}\n' + JSON.stringify(PING(2)) + '\n');
    input.write('y'.repeat(2000) + '\n' + JSON.stringify(PING(3)) + '\n');
    input.end();
    await closed;
    const got = replies(out);
    expect(got.filter((r) => r.error?.code === -32700)).toHaveLength(2);
    expect(got.some((r) => r.id === 2 && r.result !== undefined)).toBe(true);
    expect(got.some((r) => r.id === 3 && r.result !== undefined)).toBe(true);
  });

  it('graphdb-mcp survives a 17 MB line', async () => {
    const child = spawn(process.execPath, [MCP_BIN], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stdin.write(JSON.stringify(INIT) + '\n');
    child.stdin.write('"' + 'z'.repeat(17 * 1024 * 1024) + '"\n');
    child.stdin.end(JSON.stringify(PING(5)) + '\n');
    const status = await new Promise((resolve) => child.once('exit', resolve));
    expect(status).toBe(0);
    const got = replies(out);
    expect(got.some((r) => r.error?.code === -32700 && /longer than the limit/.test(r.error.message))).toBe(true);
    expect(got.some((r) => r.id === 5 && r.result !== undefined)).toBe(true);
  }, 60_000);
});

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in this process (its `main`, with captured streams): no blocking of the peer served here. */
async function cli(args: string[]): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]): Writable =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        into.push(chunk.toString());
        done();
      },
    });
  const status = await main(['node', 'graphdb', ...args], { stdin: new PassThrough(), stdout: sink(out), stderr: sink(err) });
  return { status, stdout: out.join(''), stderr: err.join('') };
}

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-sync-cli-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('graphdb sync', () => {
  it('has --help for every subcommand', async () => {
    for (const sub of ['announce', 'health', 'scopes', 'push', 'pull', 'start']) {
      const r = await cli(['sync', sub, '--help']);
      expect(r.status, sub).toBe(0);
      expect(r.stdout).toContain(`graphdb sync ${sub}`);
    }
  });

  it('keeps the peer id, announces it, records scopes, and refuses another id for the same directory', async () => {
    const dir = path.join(root, 'a');
    expect((await cli(['--data-dir', dir, '--peer-id', 'alpha', 'query', 'CREATE (:A {v: 1})', '--json'])).status).toBe(0);
    const a = await cli(['--data-dir', dir, 'sync', 'announce', '--data-port', '7001']);
    expect(JSON.parse(a.stdout)).toEqual({ op: 'announce', peer_id: 'alpha', data_port: 7001 });
    const bad = await cli(['--data-dir', dir, '--peer-id', 'beta', 'sync', 'announce']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/belongs to sync peer alpha/);
    const s = await cli(['--data-dir', dir, 'sync', 'scopes', '--add', 'people', '--labels', 'Person, User', '--types', 'KNOWS']);
    expect(JSON.parse(s.stdout)).toEqual({ scopes: [{ name: 'people', labels: ['Person', 'User'], types: ['KNOWS'] }] });
    expect(JSON.parse((await cli(['--data-dir', dir, 'sync', 'scopes'])).stdout).scopes).toHaveLength(1);
  });

  it('pushes to and pulls from a peer over HTTP', async () => {
    const peer = Database.openInMemory({ sync: { peerId: 'server' } });
    await peer.mutate("CREATE (:FromServer {v: 'x'})");
    const server = await startHttpServer(peer, { port: 0, apiKey: 'k', log: () => undefined });
    try {
      const dir = path.join(root, 'b');
      expect((await cli(['--data-dir', dir, '--sync', 'query', "CREATE (:FromCli {v: 'y'})"])).status).toBe(0);
      const url = `http://127.0.0.1:${server.port}`;
      const pushed = await cli(['--data-dir', dir, 'sync', 'push', '--peer', url, '--peer-key', 'k']);
      expect(pushed.status, pushed.stderr).toBe(0);
      expect(JSON.parse(pushed.stdout)).toMatchObject({ peer: 'server', pending: 0 });
      const pulled = await cli(['--data-dir', dir, 'sync', 'pull', '--peer', url, '--peer-key', 'k']);
      expect(pulled.status, pulled.stderr).toBe(0);
      const out = JSON.parse(pulled.stdout) as { fingerprint: string; remote_fingerprint: string };
      expect(out.fingerprint).toBe(out.remote_fingerprint);
      expect(out.fingerprint).toBe(peer.fingerprint());
      expect(peer.stats().nodes).toBe(2);
      const wrongKey = await cli(['--data-dir', dir, 'sync', 'push', '--peer', url]);
      expect(wrongKey.status).not.toBe(0);
      expect(wrongKey.stderr).toMatch(/401/);
    } finally {
      await server.close();
      peer.close();
    }
  });

  it('pulls only the scope named with --scope, and refuses a scope the directory lacks', async () => {
    const peer = Database.openInMemory({ sync: { peerId: 'hub' } });
    await peer.mutate("CREATE (:City {name: 'Lyon'})-[:ROAD]->(:City {name: 'Nice'}), (:Secret {name: 'vault'})");
    const server = await startHttpServer(peer, { port: 0, log: () => undefined });
    try {
      const dir = path.join(root, 'scoped');
      const url = `http://127.0.0.1:${server.port}`;
      expect((await cli(['--data-dir', dir, 'sync', 'scopes', '--add', 'cities', '--labels', 'City', '--types', 'ROAD'])).status).toBe(0);
      const missing = await cli(['--data-dir', dir, 'sync', 'pull', '--peer', url, '--scope', 'towns']);
      expect(missing.status).not.toBe(0);
      expect(missing.stderr).toMatch(/no sync scope named "towns"/);
      const pulled = await cli(['--data-dir', dir, 'sync', 'pull', '--peer', url, '--scope', 'cities']);
      expect(pulled.status, pulled.stderr).toBe(0);
      const names = await cli(['--data-dir', dir, '--sync', 'query', 'MATCH (n) RETURN n.name AS name ORDER BY name', '--json']);
      expect(names.stdout).toContain('Lyon');
      expect(names.stdout).toContain('Nice');
      expect(names.stdout).not.toContain('vault');
    } finally {
      await server.close();
      peer.close();
    }
  });
});

/**
 * One help style (issue 28): `graphdb help [command]`, an unknown command answered with the
 * list of commands, global options in sections (common first; servers, sync, replication and
 * the WAL archive each in their own), subcommand help without the ~30 global options, the
 * same layout for graphdb-mcp, and the HTTP server's 404 listing /mcp.
 */

import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startHttpServer } from '../../src/server/http/server.js';
import { MCP_BIN } from '../server/helpers.js';
import { runCli } from './run-cli.js';

describe('help', () => {
  it('graphdb --help groups the global options, common ones first', () => {
    const out = runCli(['--help']).stdout;
    const headings = [...out.matchAll(/^(\S[^\n]*):$/gm)].map((m) => m[1]);
    expect(headings).toEqual(['Options', 'Server options', 'Sync options (see graphdb help sync)', 'Replication options (with the servers; see docs/REPLICATION.md)', 'WAL archive options', 'Commands', 'Examples']);
    expect(out.indexOf('--data-dir')).toBeLessThan(out.indexOf('--http <port>'));
    expect(out).toMatch(/WAL archive options:\n {2}--wal-archive <url>/);
    expect(out.replace(/\s+/g, ' ')).toContain('--api-key <api_key> require this key on every door: HTTP Bearer header (/mcp included), TCP AUTH line, PG password (any user)');
  });

  it('graphdb help query shows the command alone, not every global option', () => {
    const r = runCli(['help', 'query']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: graphdb query \[options\] <query>/);
    expect(r.stdout).toContain('--param <name=value...>');
    expect(r.stdout).not.toContain('--replica-of');
    expect(r.stdout).not.toContain('--wal-archive');
    expect(r.stdout).toContain('apply here too: see graphdb help');
    expect(runCli(['query', '--help']).stdout).toBe(r.stdout);
  });

  it('an unknown command lists the commands', () => {
    const r = runCli(['foo']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('graphdb: unknown command "foo"; the commands are query, sync, skills, restore, import, console, help (graphdb help <command>)\n');
    expect(runCli(['MATCH (n) RETURN n']).stderr).toContain('to run a query: graphdb query "MATCH (n) RETURN n"');
  });

  it('graphdb-mcp --help has the same layout: sections and aligned columns', () => {
    const out = spawnSync(process.execPath, [MCP_BIN, '--help'], { encoding: 'utf8' }).stdout;
    expect(out).toMatch(/^Usage: graphdb-mcp \[options\]/);
    expect(out).toMatch(/\nOptions:\n/);
    expect(out).toMatch(/\nRelay options \(no local database\):\n/);
    const columns = new Set(
      out
        .split('\n')
        .filter((l) => /^ {2}-/.test(l))
        .map((l) => /^ {2}\S.*?\s{2,}(?=\S)/.exec(l)![0].length),
    );
    expect(columns.size).toBe(1);
  });
});

describe('the HTTP server', () => {
  const db = Database.openInMemory();
  afterAll(() => db.close());

  it('lists /mcp among the routes of its 404', async () => {
    const srv = await startHttpServer(db, { port: 0, log: () => undefined });
    try {
      const res = await fetch(`http://127.0.0.1:${srv.port}/nowhere`);
      expect(res.status).toBe(404);
      const body = (await res.json()) as { message: string };
      expect(body.message).toBe('No route GET /nowhere; routes: POST /query, GET /query?q=, GET /status, GET /health, GET /ready, POST|GET|DELETE /mcp, POST /db/neo4j/tx/commit, POST /db/neo4j/query/v2, POST /query/pages, GET /query/pages/<cursor>, POST /query/source, GET /');
      const put = await fetch(`http://127.0.0.1:${srv.port}/mcp`, { method: 'PUT' });
      expect(put.status).toBe(405);
    } finally {
      await srv.close();
    }
  });
});

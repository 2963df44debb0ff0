/**
 * The PG server driven by `psql` (Debian's postgresql-client), spawned as a real process:
 * graph queries, the SQL shims, several statements in one command, errors with their
 * SQLSTATE, password authentication and query logging. psql must be installed (CI's
 * `.ci/run` installs it); without it these tests fail and say so rather than skipping.
 */

import { execFile, execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { startPgServer, type PgServer } from '../../src/server/pg/index.js';
import { packageVersion } from '../../src/version.js';

interface PsqlRun {
  code: number;
  stdout: string;
  stderr: string;
}

function psqlAvailable(): boolean {
  try {
    execFileSync('psql', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Runs psql with one `-c` per command; unaligned, tuples-only output when `plain`. */
function psql(port: number, commands: string[], opts: { password?: string; plain?: boolean; extra?: string[] } = {}): Promise<PsqlRun> {
  const args = ['-h', '127.0.0.1', '-p', String(port), '-U', 'x', '-d', 'graphdb', '-X', '-w', '-v', 'VERBOSITY=verbose'];
  if (opts.plain !== false) args.push('-A', '-t', '-F', '|');
  args.push(...(opts.extra ?? []));
  for (const c of commands) args.push('-c', c);
  const env: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: '10' };
  delete env.PGPASSWORD;
  if (opts.password !== undefined) env.PGPASSWORD = opts.password;
  return new Promise((resolve) => {
    execFile('psql', args, { env, timeout: 20_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

let db: Database;
let server: PgServer;
let secured: PgServer;
let logged: PgServer;
const logLines: string[] = [];

beforeAll(async () => {
  if (!psqlAvailable()) {
    throw new Error('psql is not installed: these tests need it (apt-get install -y postgresql-client; CI installs it in .ci/run)');
  }
  db = Database.openInMemory();
  await db.execute("UNWIND range(1, 10) AS i CREATE (:City {id: i, name: 'c' + toString(i), pop: i * 1000, big: i > 5, lat: i + 0.25})");
  server = await startPgServer(db, { port: 0, log: null });
  secured = await startPgServer(db, { port: 0, password: 'pw-1', log: null });
  logged = await startPgServer(db, { port: 0, logQueries: true, log: (line) => logLines.push(line) });
});

afterAll(async () => {
  await Promise.all([server?.close(), secured?.close(), logged?.close()]);
});

describe('psql', () => {
  it('runs a graph query and prints typed values', async () => {
    const r = await psql(server.port, ['MATCH (c:City) WHERE c.id <= 3 RETURN c.name, c.pop, c.big, c.lat ORDER BY c.pop']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['c1|1000|f|1.25', 'c2|2000|f|2.25', 'c3|3000|f|3.25']);
  });

  it('prints the header and row count of an aligned table', async () => {
    const r = await psql(server.port, ['MATCH (c:City {id: 7}) RETURN c.name AS name, c'], { plain: false });
    expect(r.stdout).toContain(' name |');
    expect(r.stdout).toContain("(:City {id: 7, name: 'c7', pop: 7000, big: true, lat: 7.25})");
    expect(r.stdout).toContain('(1 row)');
  });

  it('BEGIN … ROLLBACK discards and BEGIN … COMMIT applies the writes between them', async () => {
    const r = await psql(server.port, [
      'BEGIN',
      'CREATE (:PsqlTx {k: 1})',
      'MATCH (t:PsqlTx) RETURN count(t) AS n',
      'ROLLBACK',
      'MATCH (t:PsqlTx) RETURN count(t) AS n',
      'BEGIN',
      'CREATE (:PsqlTx {k: 2})',
      'CREATE (:PsqlTx {k: 3})',
      'COMMIT',
      'MATCH (t:PsqlTx) RETURN count(t) AS n',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['BEGIN', 'INSERT 0 1', '1', 'ROLLBACK', '0', 'BEGIN', 'INSERT 0 1', 'INSERT 0 1', 'COMMIT', '2']);
  });

  it('answers the SQL shims', async () => {
    const r = await psql(server.port, [
      'SHOW SERVER_VERSION',
      'SELECT VERSION()',
      'SELECT CURRENT_SCHEMA()',
      "SET application_name = 'x'",
      'BEGIN',
      'COMMIT',
      'ROLLBACK',
      'DISCARD ALL',
      'SELECT relname FROM pg_catalog.pg_class',
      'SELECT * FROM information_schema.tables',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(packageVersion());
    expect(lines[1]).toMatch(/^graphdb .* \(PostgreSQL wire protocol 3\.0\)$/);
    expect(lines[2]).toBe('public');
    expect(lines.slice(3)).toEqual(['SET', 'BEGIN', 'COMMIT', 'ROLLBACK', 'DISCARD ALL']);
  });

  it('answers psql backslash commands that read the catalog with empty results', async () => {
    const r = await psql(server.port, ['\\dt'], { plain: false });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Did not find any relations');
  });

  it('runs several statements sent in one Simple Query', async () => {
    const r = await psql(server.port, ["CREATE (:Note {t: 'a;b'}); MATCH (n:Note) RETURN n.t; MATCH (n:Note) DELETE n"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['INSERT 0 1', 'a;b', 'DELETE 1']);
  });

  it('reports a syntax error with SQLSTATE 42000 and exits non-zero', async () => {
    const r = await psql(server.port, ['MATCH (n RETURN n']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/ERROR: {2}42000: Invalid input/);
  });

  it('connects with the right password and is refused with a wrong one', async () => {
    const ok = await psql(secured.port, ['RETURN 41 + 1'], { password: 'pw-1' });
    expect(ok.stdout.trim()).toBe('42');
    const bad = await psql(secured.port, ['RETURN 1'], { password: 'nope' });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('password authentication failed for user "x"');
    const missing = await psql(secured.port, ['RETURN 1']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/no password supplied|password authentication failed/);
  });

  it('logs every query with the client address when asked', async () => {
    const r = await psql(logged.port, ['RETURN 1 AS logged_one', 'MATCH (c:City {id: 1})\nRETURN c.name']);
    expect(r.code).toBe(0);
    expect(logLines.filter((l) => l.startsWith('graphdb pg '))).toEqual([
      expect.stringMatching(/^graphdb pg 127\.0\.0\.1:\d+ user=x: RETURN 1 AS logged_one$/),
      expect.stringMatching(/^graphdb pg 127\.0\.0\.1:\d+ user=x: MATCH \(c:City \{id: 1\}\) RETURN c\.name$/),
    ]);
  });
});

/**
 * Full-text queries are bounded before they are built (issue 26): a query of many terms or
 * prefixes is refused by name of its limit instead of filling the heap, a repeated prefix is
 * expanded once, and evaluation honours the query's deadline. Through the library and through
 * the real binary's HTTP door, which a 450 KB `w* w* …` query used to kill.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import type { GraphDbError } from '../../src/errors.js';
import { MAX_FULLTEXT_CLAUSES } from '../../src/fulltext/query-parser.js';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';

function failure(db: Database, query: string, params: Record<string, unknown>, timeoutMs?: number): GraphDbError {
  try {
    db.executeSync(query, params, { timeoutMs });
  } catch (err) {
    return err as GraphDbError;
  }
  throw new Error('expected the query to fail');
}

const CALL = 'CALL db.index.fulltext.queryNodes($index, $q) YIELD node RETURN count(node) AS n';

describe('full-text query bounds (library)', () => {
  const db = Database.openInMemory();
  beforeAll(() => {
    db.executeSync('CREATE FULLTEXT INDEX notes FOR (n:Note) ON EACH [n.body]');
    db.executeSync("UNWIND range(1, 20000) AS i CREATE (:Note {body: 'w' + i + ' x' + i + ' common'})");
  });

  it('450 KB of prefix terms is refused naming the clause limit', () => {
    const q = Array.from({ length: 225_000 }, () => 'w*').join(' ');
    const started = Date.now();
    const e = failure(db, CALL, { index: 'notes', q });
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toContain(String(MAX_FULLTEXT_CLAUSES));
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('deep parentheses are refused by name of the nesting limit', () => {
    const e = failure(db, CALL, { index: 'notes', q: '('.repeat(10_000) + 'w1' + ')'.repeat(10_000) });
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toMatch(/nests parentheses deeper than \d+/);
  });

  it('a query at the clause limit still answers; a repeated prefix is expanded once', () => {
    const q = Array.from({ length: MAX_FULLTEXT_CLAUSES }, (_, i) => `w${i + 1}`).join(' ');
    expect(db.executeSync(CALL, { index: 'notes', q }).records).toEqual([[MAX_FULLTEXT_CLAUSES]]);
    expect(failure(db, CALL, { index: 'notes', q: q + ' w2' }).message).toContain(String(MAX_FULLTEXT_CLAUSES));
    // w199, w1990..w1999, w19900..w19999: 111 terms, 140 times over.
    const repeated = Array.from({ length: 140 }, () => 'w199*').join(' ');
    expect(db.executeSync(CALL, { index: 'notes', q: repeated }).records).toEqual([[111]]);
  });

  it('expansions over the scored-term bound are refused', () => {
    // Sixteen prefixes, each matching its full 1 024 terms, then more: past 16 384 scored terms.
    const q = Array.from({ length: 40 }, (_, i) => `${i % 2 === 0 ? 'w' : 'x'}${Math.floor(i / 2) + 1}*`).join(' ');
    const e = failure(db, CALL, { index: 'notes', q });
    expect(e.code).toBe('LIMIT_EXCEEDED');
    expect(e.message).toMatch(/more than 16384 terms/);
  });

  it('evaluation stops at the query deadline', () => {
    // A thousand distinct fuzzy terms, each compared with every one of the 40 001 terms.
    const q = Array.from({ length: 1000 }, (_, i) => `q${i}zz~2`).join(' ');
    const started = Date.now();
    const e = failure(db, CALL, { index: 'notes', q }, 300);
    expect(e.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('full-text query bounds (HTTP, real binary)', () => {
  let server: SpawnedServers;
  beforeAll(async () => {
    server = await spawnGraphdb(['--http', '0', '--workers', '1']);
    const post = (q: string): Promise<Response> => fetch(`http://127.0.0.1:${server.ports.http}/query`, { method: 'POST', body: q });
    expect((await post('CREATE FULLTEXT INDEX notes FOR (n:Note) ON EACH [n.body]')).status).toBe(200);
    expect((await post("UNWIND range(1, 2000) AS i CREATE (:Note {body: 'w' + i})")).status).toBe(200);
  }, 30_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('a 450 KB prefix query is answered with the limit and the server lives on', async () => {
    const words = Array.from({ length: 225_000 }, () => 'w*').join(' ');
    const res = await fetch(`http://127.0.0.1:${server.ports.http}/query`, {
      method: 'POST',
      body: `CALL db.index.fulltext.queryNodes('notes', '${words}') YIELD node RETURN count(node)`,
    });
    const text = await res.text();
    expect(text).toMatch(/LIMIT_EXCEEDED/);
    expect(text).toContain(String(MAX_FULLTEXT_CLAUSES));
    expect((await fetch(`http://127.0.0.1:${server.ports.http}/health`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 30_000);
});

/**
 * Paged answers (POST /query/pages, GET and DELETE /query/pages/<cursor>), the console's
 * server-side "load more", through the real `graphdb --http` process: pages in order with
 * their counts, the key checked, bad sizes refused, closed and finished cursors answered with
 * CURSOR_NOT_FOUND, a foreign page's write refused; and the cursor store's own bounds.
 * Assumes `npm run build` has run.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCursors } from '../../src/server/http/result-cursors.js';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';

interface Page {
  columns?: string[];
  rows: unknown[][];
  cursor: string | null;
  remaining: number;
  stats?: { nodesCreated: number; containsUpdates: boolean };
}

describe('paged answers on graphdb --http --api-key', () => {
  let servers: SpawnedServers | undefined;
  const url = (path: string): string => `http://127.0.0.1:${servers!.ports.http!}${path}`;
  const auth = { Authorization: 'Bearer k' };
  const open = (body: unknown): Promise<Response> =>
    fetch(url('/query/pages'), { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const more = (cursor: string, rows?: number): Promise<Response> => fetch(url(`/query/pages/${cursor}${rows === undefined ? '' : `?rows=${rows}`}`), { headers: auth });

  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--api-key', 'k', '--workers', '1']);
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  it('answers the first page with a cursor, then the next pages in order until the cursor closes', async () => {
    const first = await open({ query: 'UNWIND range(1, $n) AS i RETURN i, i * 2 AS twice', params: { n: 25 }, pageSize: 10 });
    expect(first.status).toBe(200);
    const p1 = (await first.json()) as Page;
    expect(p1.columns).toEqual(['i', 'twice']);
    expect(p1.rows.map((r) => r[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(p1.remaining).toBe(15);
    expect(p1.cursor).toMatch(/^[\w-]{20,}$/);
    expect(p1.stats?.containsUpdates).toBe(false);

    const p2 = (await (await more(p1.cursor!)).json()) as Page;
    expect(p2.rows.map((r) => r[0])).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(p2).toMatchObject({ cursor: p1.cursor, remaining: 5 });
    const p3 = (await (await more(p1.cursor!, 3)).json()) as Page;
    expect(p3.rows).toEqual([[21, 42], [22, 44], [23, 46]]);
    const p4 = (await (await more(p1.cursor!)).json()) as Page;
    expect(p4).toEqual({ rows: [[24, 48], [25, 50]], cursor: null, remaining: 0 });

    const gone = await more(p1.cursor!);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { code: string }).code).toBe('CURSOR_NOT_FOUND');
  });

  it('keeps no cursor for an answer that fits one page; typed cells and write counters as on POST /query', async () => {
    const res = await open({ query: "CREATE (a:Paged {name: 'p'}) RETURN a", pageSize: 5 });
    const page = (await res.json()) as Page;
    expect(page.cursor).toBeNull();
    expect(page.remaining).toBe(0);
    expect(page.stats).toMatchObject({ nodesCreated: 1, containsUpdates: true });
    expect(page.rows[0][0]).toMatchObject({ labels: ['Paged'], properties: { name: 'p' } });
    // Without pageSize a page holds 1000 rows.
    const big = (await (await open({ query: 'UNWIND range(1, 1500) AS i RETURN i' })).json()) as Page;
    expect(big.rows).toHaveLength(1000);
    expect(big.remaining).toBe(500);
    expect((await fetch(url(`/query/pages/${big.cursor!}`), { method: 'DELETE', headers: auth })).status).toBe(200);
  });

  it('closes a cursor on DELETE, and checks the key on every cursor route', async () => {
    const page = (await (await open({ query: 'UNWIND range(1, 30) AS i RETURN i', pageSize: 10 })).json()) as Page;
    expect((await fetch(url(`/query/pages/${page.cursor!}`))).status).toBe(401);
    expect((await fetch(url(`/query/pages/${page.cursor!}`), { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(url('/query/pages'), { method: 'POST', body: '{"query": "RETURN 1"}' })).status).toBe(401);
    const closed = await fetch(url(`/query/pages/${page.cursor!}`), { method: 'DELETE', headers: auth });
    expect(await closed.json()).toEqual({ closed: true });
    expect((await more(page.cursor!)).status).toBe(404);
    const again = await fetch(url(`/query/pages/${page.cursor!}`), { method: 'DELETE', headers: auth });
    expect(((await again.json()) as { code: string }).code).toBe('CURSOR_NOT_FOUND');
  });

  it('refuses bad bodies and sizes with BAD_REQUEST, and reports query errors in the usual shape', async () => {
    for (const body of [{ query: 'RETURN 1', pageSize: 0 }, { query: 'RETURN 1', pageSize: 10_001 }, { query: 'RETURN 1', pageSize: 2.5 }, { query: 'RETURN 1', pageSize: '10' }, { params: {} }, { query: 'RETURN 1', params: [1] }]) {
      const res = await open(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { code: string }).code, JSON.stringify(body)).toBe('BAD_REQUEST');
    }
    const notJson = await fetch(url('/query/pages'), { method: 'POST', headers: auth, body: 'RETURN 1' });
    expect(((await notJson.json()) as { code: string }).code).toBe('BAD_REQUEST');
    const page = (await (await open({ query: 'UNWIND range(1, 30) AS i RETURN i', pageSize: 10 })).json()) as Page;
    for (const rows of ['0', 'x', '99999']) {
      const res = await fetch(url(`/query/pages/${page.cursor!}?rows=${rows}`), { headers: auth });
      expect(res.status, rows).toBe(400);
    }
    // The refused reads took nothing: the next page is still rows 11 to 20.
    expect(((await (await more(page.cursor!)).json()) as Page).rows[0]).toEqual([11]);
    const bad = await open({ query: 'MATCH (n RETURN n' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('COMPILE_ERR');
  });
});

describe('paged answers on graphdb --http without a key', () => {
  let servers: SpawnedServers | undefined;

  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--workers', '0']);
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  it("refuses a foreign page's write, as POST /query does", async () => {
    const res = await fetch(`http://127.0.0.1:${servers!.ports.http!}/query/pages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' },
      body: JSON.stringify({ query: 'CREATE (:Evil)' }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { code: string }).code).toBe('CROSS_SITE_WRITE');
  });
});

describe('the cursor store', () => {
  it('closes the least recently used cursor past its count or row bound, and an idle one after its time', async () => {
    const rows = (n: number): number[][] => Array.from({ length: n }, (_, i) => [i]);
    const store = new ResultCursors({ maxOpen: 2, maxHeldRows: 100, idleMs: 50 });
    const a = store.add(rows(10), 0, 5);
    const b = store.add(rows(10), 0, 5);
    expect(store.next(a)?.rows).toEqual(rows(5));
    // a was used last: c pushes out b.
    const c = store.add(rows(10), 0, 5);
    expect(store.next(b)).toBeUndefined();
    expect(store.size).toBe(2);
    // Past the held rows, older ones go and the newest stays even alone over the bound.
    const d = store.add(rows(200), 0, 5);
    expect(store.size).toBe(1);
    expect(store.next(c)).toBeUndefined();
    expect(store.next(d, 3)).toEqual({ rows: rows(3), remaining: 197 });
    await new Promise((r) => setTimeout(r, 120));
    expect(store.next(d)).toBeUndefined();
    expect(store.size).toBe(0);
  });
});

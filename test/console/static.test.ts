/**
 * The console's files over plain HTTP (no browser needed): the page at `/` and its assets
 * under `/console/` come from the real `graphdb --http` without the API key, while data routes
 * still need it; names that would leave the folder are refused.
 * And `graphdb console`: the same server on a port of its own, whose own origin may write.
 * Assumes `npm run build` has run (it writes dist/console).
 */

import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';
import { freePort } from './helpers.js';

/** One request as sent, with no decoding: the status, headers and body bytes as they came. */
function raw(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the console files served by graphdb --http --api-key', () => {
  let servers: SpawnedServers | undefined;
  const url = (path: string): string => `http://127.0.0.1:${servers!.ports.http!}${path}`;

  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--api-key', 'k', '--workers', '0']);
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  it('serves the page and its script and stylesheet without the key, and lists / in the banner', async () => {
    const page = await fetch(url('/'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('/console/console.js');
    // Every asset the page names is served here: nothing comes from another host.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const js = await fetch(url('/console/console.js'));
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await js.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(url('/console/console.css'))).headers.get('content-type')).toMatch(/^text\/css/);
    expect(servers!.stderr()).toMatch(/GET\s+\/\s+the web console/);
  });

  it('sends the files brotli- or gzip-compressed as the client asks, with Vary and an ETag per representation that revalidates to 304', async () => {
    const plain = await raw(servers!.ports.http!, '/console/console.js', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    const js = plain.body;
    expect(js.length).toBeGreaterThan(100_000);

    const br = await raw(servers!.ports.http!, '/console/console.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(js.length / 2);
    expect(brotliDecompressSync(br.body).equals(js)).toBe(true);
    expect(br.headers.etag).not.toBe(plain.headers.etag);

    // br refused (q=0): gzip; x-gzip is gzip's old name.
    for (const accept of ['br;q=0, gzip', 'x-gzip', 'br;q=0.1, gzip;q=0.9']) {
      const gz = await raw(servers!.ports.http!, '/console/console.js', { 'Accept-Encoding': accept });
      expect(gz.headers['content-encoding'], accept).toBe('gzip');
      expect(gunzipSync(gz.body).equals(js), accept).toBe(true);
    }
    // Nothing acceptable but identity: the file as it is.
    const none = await raw(servers!.ports.http!, '/console/console.js', { 'Accept-Encoding': 'br;q=0, gzip;q=0, deflate' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body.equals(js)).toBe(true);

    // Revalidation: the tag of the representation sent answers 304 with no body; another tag the file.
    const again = await raw(servers!.ports.http!, '/console/console.js', { 'Accept-Encoding': 'br', 'If-None-Match': br.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    const stale = await raw(servers!.ports.http!, '/console/console.js', { 'Accept-Encoding': 'br', 'If-None-Match': '"stale"' });
    expect(stale.status).toBe(200);
    // The page itself too, and HEAD answers the headers alone.
    const page = await raw(servers!.ports.http!, '/', { 'Accept-Encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.body).toString()).toContain('/console/console.js');
    const head = await raw(servers!.ports.http!, '/console/console.css', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });

  it('still asks for the key on the data routes', async () => {
    expect((await fetch(url('/status'))).status).toBe(401);
    expect((await fetch(url('/query'), { method: 'POST', body: 'RETURN 1' })).status).toBe(401);
    expect((await fetch(url('/status'), { headers: { Authorization: 'Bearer k' } })).status).toBe(200);
  });

  it('POST /query/source answers the generated JavaScript with the key, and errors in the usual shape', async () => {
    const source = (body: string, key = 'k'): Promise<Response> =>
      fetch(url('/query/source'), { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body });
    expect((await source('{"query": "RETURN 1"}', 'wrong')).status).toBe(401);
    const ok = await source(JSON.stringify({ query: 'MATCH (n:City) RETURN n.name' }));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { source: string }).source).toContain('"use strict"');
    const bad = await source(JSON.stringify({ query: 'MATCH (n RETURN n' }));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { code: string }).code).toBe('COMPILE_ERR');
    expect(((await (await source('not json')).json()) as { code: string }).code).toBe('BAD_REQUEST');
    const long = await source(JSON.stringify({ query: 'RETURN ' + '1 + '.repeat(20_000) + '1' }));
    expect(((await long.json()) as { code: string }).code).toBe('LIMIT_EXCEEDED');
  });

  it('refuses names outside the console folder and unknown files with 404 and the error object', async () => {
    // Encoded names are not console names at all: the key check answers them (401) before any file is looked for.
    for (const path of ['/console/..%2Fpackage.json', '/console/%2e%2e%2f%2e%2e%2fpackage.json']) {
      const res = await fetch(url(path));
      expect(res.status, path).toBe(401);
      expect(await res.text(), path).not.toContain('"devDependencies"');
    }
    for (const path of ['/console/nope.js', '/console/.hidden', '/console/index.txt']) {
      const res = await fetch(url(path));
      expect(res.status, path).toBe(path === '/console/.hidden' ? 401 : 404);
      if (res.status === 404) expect(((await res.json()) as { code: string }).code, path).toBe('NOT_FOUND');
    }
    // A deeper path is not a console file: it needs the key like any other unknown route.
    expect((await fetch(url('/console/a/b.js'))).status).toBe(401);
  });
});

describe('graphdb console', () => {
  let servers: SpawnedServers | undefined;
  let port = 0;

  beforeAll(async () => {
    port = await freePort();
    servers = await spawnGraphdb(['--playground', '--workers', '0', 'console', '--port', String(port)]);
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  const write = (origin: string): Promise<Response> =>
    fetch(`http://127.0.0.1:${port}/query`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({ query: 'CREATE (:Note {text: $t})', params: { t: 'hi' } }),
    });

  it('prints the console URL, serves it, and lets its own origin write while other pages may only read', async () => {
    expect(servers!.ports.http).toBe(port);
    expect(servers!.stderr()).toContain(`web console: http://127.0.0.1:${port}/`);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    const own = await write(`http://127.0.0.1:${port}`);
    expect(own.status).toBe(200);
    expect(((await own.json()) as { stats: { nodesCreated: number } }).stats.nodesCreated).toBe(1);
    expect((await write(`http://localhost:${port}`)).status).toBe(200);
    const other = await write('http://evil.example');
    expect(other.status).toBe(403);
    expect(((await other.json()) as { code: string }).code).toBe('CROSS_SITE_WRITE');
  });
});

describe('a console build without its compressed copies (as the npm package ships it)', () => {
  it('compresses each file once when it is loaded, and the copies decode to the file', async () => {
    const { mkdtempSync, copyFileSync, rmSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadAsset, chooseRepresentation } = await import('../../src/server/http/static-assets.js');
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-console-'));
    try {
      const built = join(process.cwd(), 'dist', 'console', 'console.js');
      copyFileSync(built, join(dir, 'console.js'));
      const asset = await loadAsset(dir, 'console.js');
      const body = readFileSync(built);
      const br = chooseRepresentation(asset!, 'br');
      const gz = chooseRepresentation(asset!, 'gzip');
      expect(br.coding).toBe('br');
      expect(gz.coding).toBe('gzip');
      expect(br.body.length).toBeLessThan(body.length / 2);
      expect(brotliDecompressSync(br.body).equals(body)).toBe(true);
      expect(gunzipSync(gz.body).equals(body)).toBe(true);
      expect(chooseRepresentation(asset!, undefined).body.equals(body)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

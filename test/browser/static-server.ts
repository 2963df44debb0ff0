/** A static file server on 127.0.0.1 (port 0) for the browser tests: dist/browser at /, dist/console at /console/, the test page at /test.html, and any extra files. */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../../dist/browser/', import.meta.url));
/** The web console's bundle, which the playground loads from ../../console as the package lays it out. */
const CONSOLE = fileURLToPath(new URL('../../dist/console/', import.meta.url));
const PAGE = fileURLToPath(new URL('./page.html', import.meta.url));
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.txt': 'text/plain', '.css': 'text/css' };

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/** `extra`: more files to serve, by URL path (the TCK sample's bundle). */
export async function serveBrowserBuild(extra: Record<string, string> = {}): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const safe = normalize(path).replace(/^(\.\.[/\\])+/, '');
    const file = extra[path] ?? (path === '/test.html' ? PAGE : safe.startsWith('/console/') ? join(CONSOLE, safe.slice('/console/'.length)) : join(DIST, safe));
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        res.end(body);
      },
      () => {
        res.writeHead(404);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

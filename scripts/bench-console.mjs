// Console benchmarks (issue 30's report), in headless Debian chromium against the real
// `graphdb --http`: the bundle's size, the time until the editor is usable on a local server,
// and the graph view with about 1k and 5k elements (time to answer and draw, and the mean
// frame time while panning). Needs `npm run build` and /usr/bin/chromium. Prints one JSON line.
// Usage: node scripts/bench-console.mjs
/* global fetch, document, window, requestAnimationFrame -- the page callbacks run in the browser */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const bundle = { raw: 0, gzip: 0, brotli: 0 };
for (const name of readdirSync('dist/console')) {
  // The .gz and .br copies are what the server sends; count them once, as their file's compressed size.
  if (name.endsWith('.gz') || name.endsWith('.br')) continue;
  const bytes = readFileSync(`dist/console/${name}`);
  bundle.raw += bytes.length;
  bundle.gzip += gzipSync(bytes, { level: 9 }).length;
  bundle.brotli += brotliCompressSync(bytes).length;
}

const child = spawn(process.execPath, ['bin/graphdb.js', '--http', '0', '--workers', '1'], { stdio: ['ignore', 'ignore', 'pipe'] });
const port = await new Promise((resolve, reject) => {
  let err = '';
  child.stderr.on('data', (d) => {
    err += d;
    const m = /listening on http:\/\/[^:]+:(\d+)/.exec(err);
    if (m && err.includes('serving')) resolve(Number(m[1]));
  });
  child.once('exit', (code) => reject(new Error(`graphdb exited with ${code}: ${err}`)));
});
const base = `http://127.0.0.1:${port}`;
const query = async (q) => {
  const res = await fetch(`${base}/query`, { method: 'POST', body: q });
  if (!res.ok) throw new Error(await res.text());
};

const browser = await chromium.launch({ executablePath: process.env.GRAPHDB_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const t0 = performance.now();
  await page.goto(base + '/');
  await page.waitForFunction(() => document.body.dataset.ready === 'true' && document.querySelector('.cm-content') !== null);
  const firstUsableMs = Math.round(performance.now() - t0);

  // The whole answer at once: the row cap (1000 by default) would hold back the 5k graph's rows.
  if ((await page.$('#row-cap')) !== null) {
    await page.fill('#row-cap', '10000');
    await page.dispatchEvent('#row-cap', 'change');
  }
  const graph = {};
  // Two shapes at about 1k and 5k elements each: many small components (pairs: two nodes and a
  // relationship), and one connected component (a binary tree: node i hangs under node i / 2).
  const shapes = [
    ['pairs1k', 'UNWIND range(1, 334) AS i CREATE (:A {name: \'a\' + i})-[:R]->(:B {name: \'b\' + i})'],
    ['pairs5k', 'UNWIND range(1, 1667) AS i CREATE (:A {name: \'a\' + i})-[:R]->(:B {name: \'b\' + i})'],
    ['tree1k', 'UNWIND range(1, 501) AS i CREATE (:T {k: i}) WITH count(*) AS _ MATCH (a:T), (b:T) WHERE a.k > 1 AND b.k = a.k / 2 CREATE (a)-[:R]->(b)'],
    ['tree5k', 'UNWIND range(1, 2501) AS i CREATE (:T {k: i}) WITH count(*) AS _ MATCH (a:T), (b:T) WHERE a.k > 1 AND b.k = a.k / 2 CREATE (a)-[:R]->(b)'],
  ];
  for (const [shape, create] of shapes) {
    await query('MATCH (n) DETACH DELETE n');
    await query(create);
    await page.click('#tab-graph');
    await page.evaluate(() => {
      const e = window.graphdbConsole.editor;
      e.dispatch({ changes: { from: 0, to: e.state.doc.length, insert: 'MATCH p = ()-[:R]->() RETURN p' } });
    });
    const start = performance.now();
    await page.click('#run');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    const drawMs = Math.round(performance.now() - start);
    const frame = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const cy = window.graphdbConsole.graph.cy;
          const times = [];
          let last = performance.now();
          const step = () => {
            const now = performance.now();
            times.push(now - last);
            last = now;
            cy.panBy({ x: 2, y: 1 });
            if (times.length < 61) requestAnimationFrame(step);
            else resolve({ elements: cy.elements().length, meanFrameMs: times.slice(1).reduce((a, b) => a + b, 0) / (times.length - 1) });
          };
          requestAnimationFrame(step);
        }),
    );
    graph[shape] = { elements: frame.elements, answerAndDrawMs: drawMs, meanFrameMs: Number(frame.meanFrameMs.toFixed(1)) };
  }
  console.log(JSON.stringify({ bundleBytes: bundle.raw, bundleGzipBytes: bundle.gzip, bundleBrotliBytes: bundle.brotli, firstUsableMs, graph }));
} finally {
  await browser.close();
  child.kill('SIGTERM');
}

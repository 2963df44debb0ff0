/**
 * The web console in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) against the real `graphdb --http` process, loading the page the server
 * serves at `/` and using it as a person would: run a query and read the table, the graph
 * view (drawn elements, pixels, click, double-click to expand), Stop on a long query, an
 * error marked at its position, a PROFILE plan tree, completion from the live schema, and
 * the API-key prompt with a write and its counters.
 *
 * Without chromium the tests are skipped on a workstation but fail under CI (CI=1).
 * The graph screenshot is kept at dist/test-artifacts/console-graph.png; GRAPHDB_UPDATE_DOCS=1
 * also writes docs/console.png (the README's picture).
 * Assumes `npm run build` has run (as `npm test` does): it builds dist/console.
 */

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium } from '../headless-chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGraphdb, type SpawnedServers } from '../server/helpers.js';
import { freePort } from './helpers.js';

const UNDER_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0';
const ARTIFACTS = fileURLToPath(new URL('../../dist/test-artifacts/', import.meta.url));
const DOCS_SHOT = fileURLToPath(new URL('../../docs/console.png', import.meta.url));

/** Counts for minutes, checking its deadline all along (as in test/server/cancellation.test.ts). */
const LONG = 'UNWIND range(1, 10000000) AS x UNWIND range(1, 10000000) AS y RETURN count(*) AS c';

let browser: Browser | undefined;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) {
    if (UNDER_CI) throw new Error(`No chromium at ${CHROMIUM}: the console tests need it under CI (.ci/run installs Debian's chromium)`);
    return;
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

/** A fresh tab at 1280×720 on the console of `port`, recording every URL it asks for. */
async function openConsole(port: number): Promise<{ page: Page; requested: string[]; pageErrors: string[] }> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 720 } });
  // The copy buttons write the clipboard; the tests read it back.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  const requested: string[] = [];
  const pageErrors: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  page.on('pageerror', (err) => pageErrors.push(err.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  return { page, requested, pageErrors };
}

async function setQuery(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const editor = window.graphdbConsole.editor;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: t } });
  }, text);
}

/** Runs `text` with Ctrl-Enter in the editor and waits until it has an answer or an error. */
async function runQuery(page: Page, text: string): Promise<string> {
  await setQuery(page, text);
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+Enter');
  await page.waitForFunction(() => document.body.dataset.state !== 'running' && document.body.dataset.state !== undefined);
  await page.waitForFunction(() => document.body.dataset.state !== 'running');
  return (await page.evaluate(() => document.body.dataset.state)) ?? '';
}

async function tableRows(page: Page): Promise<string[][]> {
  return page.$$eval('#view-table tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

describe.skipIf(!HAVE_CHROMIUM && !UNDER_CI)('the console on a server without a key', () => {
  let servers: SpawnedServers | undefined;
  let page: Page;
  let requested: string[];
  let pageErrors: string[];

  beforeAll(async () => {
    // One query worker and a two-minute limit: after Stop, a short query can only be answered if the long one was cancelled.
    servers = await spawnGraphdb(['--http', '0', '--playground', '--workers', '1', '--query-timeout', '120000']);
    ({ page, requested, pageErrors } = await openConsole(servers.ports.http!));
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
  }, 60_000);

  afterAll(async () => {
    // Nothing the tests did threw in the page.
    expect(pageErrors).toEqual([]);
    await page?.context().close();
    await servers?.stop();
  });

  it('loads from the server alone, with the status and the labels and types with their counts in the sidebar', async () => {
    const origin = `http://127.0.0.1:${servers!.ports.http!}/`;
    expect(requested.length).toBeGreaterThan(2);
    expect(requested.filter((u) => !u.startsWith(origin))).toEqual([]);
    expect(await page.textContent('#status [data-key="nodes"]')).toMatch(/^\d+$/);
    const labels = await page.$$eval('#labels button', (bs) => bs.map((b) => b.textContent));
    expect(labels).toContain('City (8)');
    expect(await page.$$eval('#types button', (bs) => bs.map((b) => b.dataset.name))).toContain('LIVES_IN');
  });

  it('runs a query with Ctrl-Enter and parameters, shows the table, and keeps the query in the history', async () => {
    await page.click('#params-panel summary');
    await page.fill('#params', '{"country": "Germany"}');
    const state = await runQuery(page, 'MATCH (c:City) WHERE c.country = $country RETURN c.name AS name ORDER BY name');
    expect(state).toBe('done');
    expect(await page.$$eval('#view-table th', (ths) => ths.map((th) => th.textContent))).toEqual(['name']);
    const names = (await tableRows(page)).map((r) => r[0]);
    expect(names).toContain('"Berlin"');
    expect(names).not.toContain('"Dublin"');
    expect(await page.textContent('#summary')).toMatch(/\d+ rows? in \d+ ms/);
    const stored = await page.evaluate(() => localStorage.getItem('graphdb.console.history'));
    expect(JSON.parse(stored ?? '[]')[0]).toContain('c.country = $country');
    expect(await page.textContent('#history li')).toContain('$country');
    await page.fill('#params', '{}');
  });

  it('draws a result as a graph: nodes and relationships on the canvas, properties on click, neighbours on double-click', async () => {
    await runQuery(page, 'MATCH (p:Person)-[r:LIVES_IN]->(c:City {name: "Berlin"}) RETURN p, r, c LIMIT 5');
    await page.click('#tab-graph');
    const drawn = await page.evaluate(() => ({ nodes: window.graphdbConsole.graph.cy.nodes().length, edges: window.graphdbConsole.graph.cy.edges().length }));
    expect(drawn.nodes).toBeGreaterThanOrEqual(2);
    expect(drawn.edges).toBeGreaterThanOrEqual(1);
    expect(await page.evaluate(() => window.graphdbConsole.graph.cy.edges()[0].data('type'))).toBe('LIVES_IN');

    // The pixels: the canvases cytoscape draws on are not blank.
    await page.waitForTimeout(300);
    const inked = await page.evaluate(() => {
      let count = 0;
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>('#graph canvas')) {
        const ctx = canvas.getContext('2d');
        if (ctx === null || canvas.width === 0) continue;
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) count++;
      }
      return count;
    });
    expect(inked).toBeGreaterThan(1000);
    mkdirSync(ARTIFACTS, { recursive: true });
    const shot = await page.screenshot({ path: `${ARTIFACTS}console-graph.png` });
    expect(shot.length).toBeGreaterThan(10_000);
    if (process.env.GRAPHDB_UPDATE_DOCS === '1') writeFileSync(DOCS_SHOT, shot);
    const [png] = await Promise.all([page.waitForEvent('download'), page.click('#export-png')]);
    const pngBytes = readFileSync((await png.path())!);
    expect(pngBytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(pngBytes.length).toBeGreaterThan(5_000);

    // Click the Berlin node: its properties show. Double-click: its neighbours are added.
    const where = async (): Promise<{ x: number; y: number }> => {
      const box = (await page.locator('#graph').boundingBox())!;
      const p = await page.evaluate(() => window.graphdbConsole.graph.cy.nodes().filter((n) => n.data('caption') === 'Berlin')[0].renderedPosition());
      return { x: box.x + p.x, y: box.y + p.y };
    };
    let at = await where();
    await page.mouse.click(at.x, at.y);
    await page.waitForSelector('#inspector dd');
    expect(await page.textContent('#inspector')).toContain('Germany');
    const before = drawn.nodes;
    at = await where();
    await page.mouse.dblclick(at.x, at.y);
    await page.waitForFunction(() => document.getElementById('graph')!.dataset.expanded === '1');
    const after = await page.evaluate(() => window.graphdbConsole.graph.cy.nodes().length);
    expect(after).toBeGreaterThan(before);
    // The colour key names the labels drawn.
    expect(await page.$$eval('#legend .legend-item', (items) => items.map((i) => i.dataset.label))).toEqual(expect.arrayContaining(['City', 'Person']));

    // Pin the node (layouts leave it), then hide it: it leaves the drawing with its relationships.
    at = await where();
    await page.mouse.click(at.x, at.y);
    await page.click('#pin-node');
    expect(await page.textContent('#pin-node')).toBe('Unpin');
    expect(await page.evaluate(() => window.graphdbConsole.graph.cy.nodes().filter((n) => n.data('caption') === 'Berlin')[0].locked())).toBe(true);
    await page.click('#hide-node');
    expect(await page.evaluate(() => window.graphdbConsole.graph.cy.nodes().filter((n) => n.data('caption') === 'Berlin').length)).toBe(0);
    expect(await page.evaluate(() => window.graphdbConsole.graph.cy.nodes().length)).toBe(after - 1);
    await page.click('#tab-table');
  });

  it('shows a syntax error with its line and column and marks that place in the editor', async () => {
    const state = await runQuery(page, 'MATCH (a:City\n RETURN a');
    expect(state).toBe('error');
    expect(await page.getAttribute('#error', 'data-code')).toBe('COMPILE_ERR');
    expect(await page.textContent('#error')).toContain('line 2, column 2');
    expect(await page.getAttribute('#error', 'data-line')).toBe('2');
    expect(await page.textContent('.cm-error-mark')).toBe('RETURN');
  });

  it('runs statements separated by ; one after another and marks an error inside a later one at its place', async () => {
    expect(await runQuery(page, 'RETURN 1 AS a;\nRETURN 2 AS b')).toBe('done');
    expect(await page.$$eval('#view-table th', (ths) => ths.map((th) => th.textContent))).toEqual(['b']);
    expect(await page.textContent('#summary')).toMatch(/^2 statements; the last: 1 row/);
    expect(await runQuery(page, "RETURN ';' AS a; // a comment; still one\nMATCH (x:City\nRETURN x")).toBe('error');
    expect(await page.textContent('#error')).toMatch(/^statement 2: COMPILE_ERR/);
    expect(await page.getAttribute('#error', 'data-line')).toBe('3');
    expect(await page.getAttribute('#error', 'data-column')).toBe('1');
    expect(await page.textContent('.cm-error-mark')).toBe('RETURN');
  });

  it('shows a long table a page at a time, sorts it by a column, and exports it as CSV', async () => {
    await runQuery(page, 'UNWIND range(1, 250) AS i RETURN i, i % 7 AS r');
    expect((await tableRows(page)).length).toBe(100);
    expect(await page.textContent('#table-more')).toContain('150 more rows');
    await page.click('#table-more');
    expect((await tableRows(page)).length).toBe(200);
    await page.click('#view-table th:first-child button');
    await page.click('#view-table th:first-child button');
    expect(await page.getAttribute('#view-table th:first-child', 'aria-sort')).toBe('descending');
    expect((await tableRows(page))[0]).toEqual(['250', '5']);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.click('#export-csv')]);
    expect(csv.suggestedFilename()).toBe('result.csv');
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text.startsWith('i,r\r\n1,1\r\n2,2\r\n')).toBe(true);
    expect(text.split('\r\n').length).toBe(252);
    // An export is not a view: the table stays shown.
    expect(await page.isVisible('#view-table tbody')).toBe(true);
  });

  it('copies a cell, a row and the table (TSV and CSV) to the clipboard, from the keyboard too', async () => {
    const clipboard = (): Promise<string> => page.evaluate(() => navigator.clipboard.readText());
    const copied = async (button: string): Promise<string> => {
      await page.evaluate(() => delete document.getElementById('copy-status')!.dataset.copied);
      await page.click(button);
      await page.waitForFunction(() => document.getElementById('copy-status')?.dataset.copied !== undefined);
      return clipboard();
    };
    await runQuery(page, "UNWIND range(1, 3) AS i RETURN i, 'v' + i AS s, CASE i WHEN 2 THEN 'a\tb' ELSE null END AS t");
    // A click focuses a cell; Ctrl+C copies it (strings without their quotes).
    await page.click('#view-table tbody tr:nth-child(2) td:nth-child(2)');
    await page.keyboard.press('Control+C');
    await page.waitForFunction(() => document.getElementById('copy-status')?.dataset.copied === 'a cell');
    expect(await clipboard()).toBe('v2');
    // The arrow keys move the focus through the grid.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => [document.activeElement?.tagName, (document.activeElement as HTMLElement).dataset.row, (document.activeElement as HTMLElement).dataset.column])).toEqual(['TD', '2', '0']);
    await page.evaluate(() => delete document.getElementById('copy-status')!.dataset.copied);
    await page.keyboard.press('Control+C');
    await page.waitForFunction(() => document.getElementById('copy-status')?.dataset.copied === 'a cell');
    expect(await clipboard()).toBe('3');
    expect(await copied('#copy-row')).toBe('3\tv3\t\n');
    expect(await copied('#copy-tsv')).toBe('i\ts\tt\n1\tv1\t\n2\tv2\t"a\tb"\n3\tv3\t\n');
    expect(await copied('#copy-csv')).toBe('i,s,t\r\n1,v1,\r\n2,v2,a\tb\r\n3,v3,\r\n');
    // Keyboard reachable: the buttons are in the Tab order, and the grid is one Tab stop after the column headers.
    await page.focus('#view-table th:last-child button');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TD');
    await page.focus('#copy-tsv');
    await page.evaluate(() => delete document.getElementById('copy-status')!.dataset.copied);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('copy-status')?.dataset.copied !== undefined);
    expect(await clipboard()).toMatch(/^i\ts\tt\n/);
  });

  it('caps the rows an answer brings and fetches the next page from the server on Show more', async () => {
    await page.fill('#row-cap', '50');
    await page.dispatchEvent('#row-cap', 'change');
    const [first] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/query/pages')), runQuery(page, 'UNWIND range(1, 250) AS i RETURN i')]);
    const body = (await first.json()) as { rows: unknown[]; remaining: number; cursor: string };
    expect(body.rows).toHaveLength(50);
    expect(body.remaining).toBe(200);
    expect((await tableRows(page)).length).toBe(50);
    expect(await page.textContent('#summary')).toMatch(/^50 rows in \d+ ms \(row cap; 200 more on the server\)/);
    expect(await page.textContent('#table-more')).toBe('Show more (200 more rows, from the server)');
    const [next] = await Promise.all([page.waitForResponse((r) => r.url().includes('/query/pages/')), page.click('#table-more')]);
    expect(next.url()).toContain(`/query/pages/${body.cursor}`);
    await page.waitForFunction(() => document.querySelectorAll('#view-table tbody tr').length === 100);
    expect((await tableRows(page)).map((r) => r[0]).slice(48, 52)).toEqual(['49', '50', '51', '52']);
    expect(await page.textContent('#summary')).toMatch(/^100 rows in \d+ ms \(row cap; 150 more on the server\)/);
    // The JSON view and the exports have what was loaded.
    expect(JSON.parse((await page.textContent('#json')) ?? '{}').rows).toHaveLength(100);
    // The cap is kept in the browser; back to the default for the other tests.
    expect(await page.evaluate(() => localStorage.getItem('graphdb.console.rowCap'))).toBe('50');
    await page.fill('#row-cap', '1000');
    await page.dispatchEvent('#row-cap', 'change');
  });

  it('lists constraints in the sidebar beside the indexes', async () => {
    expect(await runQuery(page, 'CREATE CONSTRAINT probe_code FOR (p:ConsoleProbe) REQUIRE p.code IS UNIQUE')).toBe('done');
    await page.click('#refresh');
    await page.waitForSelector('#constraints li[data-name="probe_code"]');
    expect(await page.textContent('#constraints li[data-name="probe_code"]')).toBe('probe_code: (:ConsoleProbe) code UNIQUENESS');
    expect(await runQuery(page, 'DROP CONSTRAINT probe_code')).toBe('done');
  });

  it('lays out a thousand nodes in many components readably and fast: components packed, no two nodes on top of each other', async () => {
    await runQuery(page, 'UNWIND range(1, 300) AS i CREATE (:LayoutProbe {name: i})-[:PAIRED]->(:LayoutProbe)');
    await runQuery(page, "UNWIND range(1, 400) AS i CREATE (:LayoutProbe:Chain {k: i}) WITH count(*) AS _ MATCH (a:Chain), (b:Chain) WHERE b.k = a.k / 2 AND a.k > 1 CREATE (a)-[:UP]->(b)");
    await page.click('#tab-graph');
    const started = Date.now();
    expect(await runQuery(page, 'MATCH p = (:LayoutProbe)-->(:LayoutProbe) RETURN p')).toBe('done');
    const drawMs = Date.now() - started;
    const drawn = await page.evaluate(() => {
      const cy = window.graphdbConsole.graph.cy;
      const ps = cy.nodes().map((n) => n.position());
      let closest = Infinity;
      for (let i = 0; i < ps.length; i++) for (let j = i + 1; j < ps.length; j++) closest = Math.min(closest, Math.hypot(ps[i].x - ps[j].x, ps[i].y - ps[j].y));
      const bb = cy.nodes().boundingBox({});
      return { nodes: ps.length, closest, components: document.getElementById('graph')!.dataset.components, aspect: bb.w / bb.h };
    });
    expect(drawn.nodes).toBe(1000);
    expect(drawn.components).toBe('301');
    expect(drawn.closest, JSON.stringify(drawn)).toBeGreaterThan(20);
    // Packed in the viewport's proportions, not one long row or column.
    expect(drawn.aspect).toBeGreaterThan(0.5);
    expect(drawn.aspect).toBeLessThan(4);
    expect(drawMs).toBeLessThan(30_000);
    await page.click('#tab-table');
    await runQuery(page, 'MATCH (n:LayoutProbe) DETACH DELETE n');
  });

  it('draws PROFILE as a plan tree with rows per operator', async () => {
    await runQuery(page, 'PROFILE MATCH (c:City)-[:LOCATED_IN]-(x) RETURN count(*) AS n');
    expect(await page.isVisible('#view-plan')).toBe(true);
    const ops = await page.$$eval('#view-plan .plan-op', (els) => els.map((e) => e.textContent));
    expect(ops[0]).toBe('ProduceResults');
    expect(ops).toContain('NodeByLabelScan');
    // Nested: the scan sits below the root, not beside it.
    expect(await page.$$eval('.plan-tree > li > ul li .plan-op', (els) => els.map((e) => e.textContent))).toContain('NodeByLabelScan');
    expect(await page.$$eval('#view-plan .plan-rows', (els) => els.length)).toBeGreaterThan(1);
    expect(await page.textContent('.plan-footer')).toMatch(/result rows in/);
    // The generated JavaScript behind the plan, compiled by the server when the toggle opens.
    await page.click('#plan-js summary');
    await page.waitForFunction(() => document.getElementById('plan-js-source')?.dataset.loaded === 'true');
    expect(await page.textContent('#plan-js-source')).toMatch(/^"use strict";[\s\S]*labelSet/);
  });

  it('offers a label from the live schema while typing', async () => {
    await page.waitForFunction(() => document.body.dataset.schema === 'loaded');
    await setQuery(page, '');
    await page.locator('.cm-content').click();
    await page.keyboard.type('MATCH (n:Comp');
    // The list follows the typing a moment later: wait for it to settle on the label.
    await page
      .waitForFunction(() => [...document.querySelectorAll('.cm-tooltip-autocomplete li')].some((li) => li.textContent?.startsWith('Company')), undefined, { timeout: 10_000 })
      .catch(() => undefined);
    const offered = await page.$$eval('.cm-tooltip-autocomplete li', (lis) => lis.map((li) => li.textContent ?? ''));
    expect(offered.filter((o) => o.startsWith('Company')), offered.join(' | ')).toHaveLength(1);
    expect(await page.textContent('.cm-completionIcon-class + .cm-completionLabel, .cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel')).toBe('Company');
    // CodeMirror ignores Enter for a moment after the list changes (its interaction delay, so that a fast typist's Enter is a newline).
    await page.waitForTimeout(300);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => window.graphdbConsole.editor.state.doc.toString())).toBe('MATCH (n:Company');
  });

  it('Stop cancels a long query on the server: the only query worker is free again at once', async () => {
    await setQuery(page, LONG);
    await page.click('#run');
    await page.waitForFunction(() => /running \d/.test(document.getElementById('elapsed')!.textContent ?? ''));
    await page.waitForTimeout(700);
    await page.click('#stop');
    await page.waitForFunction(() => document.body.dataset.state === 'stopped');
    expect(await page.textContent('#summary')).toMatch(/Stopped after/);
    // With one worker and a two-minute limit, this answers within the test's time only if the long query was stopped.
    const started = Date.now();
    expect(await runQuery(page, "MATCH (c:City {name: 'Lisbon'}) RETURN c.name AS name")).toBe('done');
    expect(await tableRows(page)).toEqual([['"Lisbon"']]);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('lists the algorithms with their documented options; Use writes a call that runs', async () => {
    await page.click('#algorithms details[data-name="algo.pageRank"] summary');
    expect(await page.textContent('#algorithms details[data-name="algo.pageRank"] p')).toMatch(/dampingFactor/);
    await page.click('#algorithms details[data-name="algo.pageRank"] button');
    const text = await page.evaluate(() => window.graphdbConsole.editor.state.doc.toString());
    expect(text).toMatch(/^CALL algo\.pageRank\(\{\}\)\nYIELD node, score\nRETURN node, score\nLIMIT 25$/);
    expect(await runQuery(page, text)).toBe('done');
    expect((await tableRows(page)).length).toBe(25);
  });

  it('keeps saved queries in the browser: save, pick, remove', async () => {
    await setQuery(page, 'MATCH (s:Skill) RETURN s.name AS skill ORDER BY skill');
    await page.click('#save');
    expect(await page.textContent('#saved li .name')).toBe('MATCH (s:Skill) RETURN s.name AS skill ORDER BY skill');
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('graphdb.console.saved'))) ?? '[]')).toEqual(['MATCH (s:Skill) RETURN s.name AS skill ORDER BY skill']);
    await setQuery(page, 'RETURN 1');
    await page.click('#saved li .name');
    expect(await page.evaluate(() => window.graphdbConsole.editor.state.doc.toString())).toBe('MATCH (s:Skill) RETURN s.name AS skill ORDER BY skill');
    await page.click('#saved li button');
    expect(await page.$$('#saved li')).toHaveLength(0);
  });

  it('is readable in dark mode at a tablet width: dark page, sidebar folded away, queries still run', async () => {
    const context = await browser!.newContext({ viewport: { width: 820, height: 1180 }, colorScheme: 'dark' });
    const tablet = await context.newPage();
    await tablet.goto(`http://127.0.0.1:${servers!.ports.http!}/`);
    await tablet.waitForFunction(() => document.body.dataset.ready === 'true');
    const [r, g, b] = (await tablet.evaluate(() => getComputedStyle(document.body).backgroundColor)).match(/\d+/g)!.map(Number);
    expect(r + g + b).toBeLessThan(150);
    const fg = (await tablet.evaluate(() => getComputedStyle(document.body).color)).match(/\d+/g)!.map(Number);
    expect(fg[0] + fg[1] + fg[2]).toBeGreaterThan(500);
    expect(await tablet.isVisible('#sidebar')).toBe(false);
    expect(await runQuery(tablet, 'RETURN 40 + 2 AS answer')).toBe('done');
    expect(await tableRows(tablet)).toEqual([['42']]);
    await context.close();
  });

  it('clicking a label in the sidebar runs a sample query', async () => {
    await page.click('#labels button[data-name="Skill"]');
    await page.waitForFunction(() => document.body.dataset.state === 'done');
    expect(await page.evaluate(() => window.graphdbConsole.editor.state.doc.toString())).toContain('MATCH (n:`Skill`)');
    expect((await tableRows(page)).length).toBe(12);
  });
});

describe.skipIf(!HAVE_CHROMIUM && !UNDER_CI)('the console on a server with --api-key', () => {
  let servers: SpawnedServers | undefined;

  beforeAll(async () => {
    servers = await spawnGraphdb(['--http', '0', '--api-key', 'console-secret', '--workers', '1']);
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  it('serves the page without the key, asks for the key, keeps it for the tab, and sends it to write', async () => {
    const port = servers!.ports.http!;
    // The server still refuses data without the key.
    expect((await fetch(`http://127.0.0.1:${port}/status`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);

    const { page } = await openConsole(port);
    await page.waitForSelector('#key-dialog[open]');
    await page.fill('#key-input', 'wrong');
    await page.click('#key-save');
    await page.waitForSelector('#key-error:not([hidden])');
    expect(await page.isVisible('#key-dialog')).toBe(true);
    await page.fill('#key-input', 'console-secret');
    await page.click('#key-save');
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    expect(await page.isVisible('#key-dialog')).toBe(false);
    expect(await page.evaluate(() => sessionStorage.getItem('graphdb.console.apiKey'))).toBe('console-secret');
    expect(await page.evaluate(() => localStorage.getItem('graphdb.console.apiKey'))).toBeNull();

    expect(await runQuery(page, "CREATE (:Probe {at: 'console'})-[:SEEN_BY]->(:Probe {at: 'test'})")).toBe('done');
    expect(await page.textContent('#summary')).toContain('2 nodes created, 1 relationship created, 2 labels added, 2 properties set');
    await page.waitForFunction(() => document.querySelector('#labels button[data-name="Probe"]') !== null);

    // A skill registered from the console shows in the sidebar; a click fills the editor and the parameters.
    expect(
      await runQuery(page, "CALL skills.register('probeAt', 'Probes by place', 'MATCH (p:Probe {at: $at}) RETURN p', {parameters: {at: 'STRING'}})"),
    ).toBe('done');
    await page.click('#refresh');
    await page.click('#skills button[data-name="probeAt"]');
    expect(await page.evaluate(() => window.graphdbConsole.editor.state.doc.toString())).toBe('MATCH (p:Probe {at: $at}) RETURN p');
    expect(JSON.parse(await page.inputValue('#params'))).toEqual({ at: null });
    await page.fill('#params', '{"at": "test"}');
    expect(await runQuery(page, 'MATCH (p:Probe {at: $at}) RETURN p.at AS at')).toBe('done');
    expect(await tableRows(page)).toEqual([['"test"']]);

    // A reload in the same tab keeps the key: no prompt.
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    expect(await page.isVisible('#key-dialog')).toBe(false);
    expect(await page.textContent('#status [data-key="nodes"]')).toBe('2');
    await page.context().close();
  });
});

describe.skipIf(!HAVE_CHROMIUM && !UNDER_CI)('graphdb console (no key)', () => {
  let servers: SpawnedServers | undefined;

  beforeAll(async () => {
    servers = await spawnGraphdb(['--workers', '1', 'console', '--port', String(await freePort())]);
  }, 60_000);

  afterAll(async () => {
    await servers?.stop();
  });

  it('writes from the console without a key, since the command allows its own origin', async () => {
    const { page } = await openConsole(servers!.ports.http!);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    expect(await page.isVisible('#key-dialog')).toBe(false);
    expect(await runQuery(page, "CREATE (:Note {text: 'from the console'})")).toBe('done');
    expect(await page.textContent('#summary')).toContain('1 node created');
    await page.waitForFunction(() => document.querySelector('#status [data-key="nodes"]')?.textContent === '1');
    await page.context().close();
  });
});

/**
 * The openCypher TCK run inside the browser build of the engine, by the same runner as
 * `npm run tck` (test/tck/scenario.ts), in a Web Worker in headless Chromium, the runner bundled
 * with the browser build's module replacements (scripts/browser-bundle-options.mjs). The browser
 * must pass exactly the scenarios recorded as passing on Node (test/tck/baseline.json, which
 * `npm test`'s TCK stage holds Node to), so the Node side is not run a second time here. Needs
 * the TCK features (../shared/tck/features or GRAPHDB_TCK_DIR, as `npm run tck`); skipped
 * without them, or without chromium outside CI.
 *
 * By default it runs every third scenario of each feature file (the first, fourth, ...), so that
 * every feature is exercised in the browser while the suite stays short; the full TCK runs on
 * Node in `npm test`'s TCK stage. `GRAPHDB_BROWSER_TCK=all` runs every scenario here too.
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser } from 'playwright-core';
import { CHROMIUM, HAVE_CHROMIUM, launchChromium } from '../headless-chromium.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { browserBundleOptions } from '../../scripts/browser-bundle-options.mjs';
import { loadScenarios, type TckScenario } from '../tck/features.js';
import { parseBaseline, scenarioIds } from '../tck/ratchet.js';
import { serveBrowserBuild, type StaticServer } from './static-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FEATURES = process.env.GRAPHDB_TCK_DIR || resolve(ROOT, '..', 'shared', 'tck', 'features');
const GRAPHS = resolve(FEATURES, '..', 'graphs');
const UNDER_CI = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== '0';
const QUERY_TIMEOUT_MS = 10_000;
const EVERY_SCENARIO = process.env.GRAPHDB_BROWSER_TCK === 'all';
const SAMPLE_STRIDE = 3;

/** Every scenario, or each feature file's scenarios at positions 0, 3, 6, ... */
function chosenScenarios(all: readonly TckScenario[]): TckScenario[] {
  if (EVERY_SCENARIO) return [...all];
  const seen = new Map<string, number>();
  return all.filter((sc) => {
    const position = seen.get(sc.file) ?? 0;
    seen.set(sc.file, position + 1);
    return position % SAMPLE_STRIDE === 0;
  });
}

let browser: Browser | undefined;
let server: StaticServer | undefined;
let bundleDir: string | undefined;

beforeAll(async () => {
  if (!HAVE_CHROMIUM || !existsSync(FEATURES)) {
    if (UNDER_CI && !HAVE_CHROMIUM) throw new Error(`No chromium at ${CHROMIUM}: the browser tests need it under CI`);
    return;
  }
  bundleDir = mkdtempSync(join(tmpdir(), 'graphdb-browser-tck-'));
  await build({ ...(await browserBundleOptions(ROOT)), entryPoints: [join(ROOT, 'test/browser/tck-worker.ts')], outfile: join(bundleDir, 'tck-worker.js'), logLevel: 'error' });
  server = await serveBrowserBuild({ '/tck-worker.js': join(bundleDir, 'tck-worker.js') });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
});

const it_ = HAVE_CHROMIUM && existsSync(FEATURES) ? it : it.skip;

it_(`passes the same TCK scenarios in the browser as on Node (${EVERY_SCENARIO ? 'every scenario' : `every ${SAMPLE_STRIDE}rd scenario of each feature`})`, async () => {
  const all: TckScenario[] = loadScenarios(FEATURES);
  expect(all.length).toBeGreaterThan(3800);
  const allIds = scenarioIds(all);
  const ids = new Map(all.map((sc, i) => [sc, allIds[i]]));
  const recorded = new Set(parseBaseline(readFileSync(join(ROOT, 'test', 'tck', 'baseline.json'), 'utf8')).scenarios ?? []);
  expect(recorded.size, 'test/tck/baseline.json lists the passing scenarios').toBeGreaterThan(3800);
  const scenarios = chosenScenarios(all);
  // Every feature file is in the sample.
  expect(new Set(scenarios.map((sc) => sc.file)).size).toBe(new Set(all.map((sc) => sc.file)).size);
  const graphs: Record<string, string> = {};
  for (const name of ['binary-tree-1', 'binary-tree-2']) {
    const file = join(GRAPHS, name, `${name}.cypher`);
    if (existsSync(file)) graphs[name] = readFileSync(file, 'utf8');
  }
  const onNode = scenarios.map((sc) => recorded.has(ids.get(sc)!));

  const page = await browser!.newPage();
  await page.goto(`${server!.origin}/test.html`);
  const inBrowser = await page.evaluate(
    (batch) =>
      new Promise<{ passed: boolean; reason?: string }[]>((resolvePage, reject) => {
        const worker = new Worker('/tck-worker.js', { type: 'module' });
        worker.onmessage = (event: MessageEvent<{ passed: boolean; reason?: string }[]>) => resolvePage(event.data);
        worker.onerror = (event) => reject(new Error(event.message || 'the TCK worker did not start'));
        worker.postMessage(batch);
      }),
    { scenarios, graphs, queryTimeoutMs: QUERY_TIMEOUT_MS },
  );
  await page.close();

  const differ = scenarios
    .map((sc, i) => ({ where: `${sc.file}:${sc.line} ${sc.name}`, node: onNode[i], browser: inBrowser[i]?.passed, reason: inBrowser[i]?.reason }))
    .filter((d) => d.node !== d.browser);
  const passed = (list: readonly (boolean | undefined)[]): number => list.filter(Boolean).length;
  console.log(`TCK in the browser: ${scenarios.length} scenarios, ${passed(onNode)} recorded as passing on Node, ${passed(inBrowser.map((v) => v.passed))} in Chromium`);
  expect(differ).toEqual([]);
  expect(passed(onNode)).toBeGreaterThan(scenarios.length * 0.9);
}, 300_000);

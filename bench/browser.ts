/**
 * The browser build against Node, short and one-off (not part of `bench/run`): the same graph
 * (10,000 :Person with an index on id, 50,000 :KNOWS) and the same short reads (a point lookup,
 * a one-hop neighbourhood) and small writes, timed in-process on Node (`Database`), in
 * Chromium's page (`GraphDB.open({ worker: false })`) and through the Web Worker
 * (`GraphDB.open()`, each call a postMessage round trip); then the time to open a store of
 * about 10 MB from OPFS (snapshot plus log). Needs `npm run build` (dist/browser) and chromium.
 *
 *   npx tsx bench/browser.ts
 */
import { chromium } from 'playwright-core';
import { Database } from '../src/engine/database.js';
import { serveBrowserBuild } from '../test/browser/static-server.js';

const PEOPLE = 10_000;
const KNOWS = 50_000;
const READS = 2_000;
const WRITES = 500;

const SETUP = [
  'CREATE INDEX person_id FOR (p:Person) ON (p.id)',
  `UNWIND range(0, ${PEOPLE - 1}) AS i CREATE (:Person {id: i, name: 'p' + toString(i), age: i % 90})`,
  `UNWIND range(0, ${KNOWS - 1}) AS k MATCH (a:Person {id: (k * 7919) % ${PEOPLE}}), (b:Person {id: (k * 104729 + 13) % ${PEOPLE}}) CREATE (a)-[:KNOWS {w: k % 10}]->(b)`,
];
const POINT = 'MATCH (p:Person {id: $id}) RETURN p.name AS name, p.age AS age';
const HOP = 'MATCH (p:Person {id: $id})-[:KNOWS]->(f) RETURN f.name AS name ORDER BY name LIMIT 20';
const WRITE = "MATCH (p:Person {id: $id}) CREATE (p)-[:WROTE]->(:Post {at: $id, text: 'hello'})";

interface Timings {
  point: number;
  hop: number;
  write: number;
}

async function onNode(): Promise<Timings> {
  const db = Database.openInMemory();
  for (const q of SETUP) await db.mutate(q);
  const time = async (n: number, q: string, write: boolean): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await (write ? db.mutate(q, { id: (i * 31) % PEOPLE }) : db.query(q, { id: (i * 31) % PEOPLE }));
    return ((performance.now() - t0) * 1000) / n;
  };
  // A first pass warms the JIT and the plan cache; the second is timed.
  await time(READS, POINT, false);
  await time(READS, HOP, false);
  const r = { point: await time(READS, POINT, false), hop: await time(READS, HOP, false), write: await time(WRITES, WRITE, true) };
  db.close();
  return r;
}

const server = await serveBrowserBuild();
const browser = await chromium.launch({ executablePath: process.env.GRAPHDB_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  // tsx compiles with esbuild's keepNames, whose __name helper the functions handed to the page then call.
  await page.addInitScript('globalThis.__name = (f) => f');
  await page.goto(`${server.origin}/test.html`);
  await page.waitForFunction(() => (window as unknown as { graphdbReady?: boolean }).graphdbReady === true);
  const inChromium = (worker: boolean): Promise<Timings> =>
    page.evaluate(
      async ({ worker, setup, point, hop, write, reads, writes, people }) => {
        const G = (window as unknown as { GraphDB: typeof import('../src/browser/index.js').GraphDB }).GraphDB;
        const db = await G.open({ worker });
        for (const q of setup) await db.mutate(q);
        const time = async (n: number, q: string, w: boolean): Promise<number> => {
          const t0 = performance.now();
          for (let i = 0; i < n; i++) await (w ? db.mutate(q, { id: (i * 31) % people }) : db.query(q, { id: (i * 31) % people }));
          return ((performance.now() - t0) * 1000) / n;
        };
        await time(reads, point, false);
        await time(reads, hop, false);
        const r = { point: await time(reads, point, false), hop: await time(reads, hop, false), write: await time(writes, write, true) };
        await db.close();
        return r;
      },
      { worker, setup: SETUP, point: POINT, hop: HOP, write: WRITE, reads: READS, writes: WRITES, people: PEOPLE },
    );
  const node = await onNode();
  const inPage = await inChromium(false);
  const inWorker = await inChromium(true);
  const load = await page.evaluate(async (setup) => {
    const G = (window as unknown as { GraphDB: typeof import('../src/browser/index.js').GraphDB }).GraphDB;
    let db = await G.open({ name: 'bench-load' });
    for (const q of setup) await db.mutate(q);
    await db.mutate("MATCH (p:Person) SET p.bio = reduce(s = '', i IN range(1, 12) | s + 'a longer text that makes each person take room in the store ') + toString(p.id)");
    await db.checkpoint();
    await db.mutate('UNWIND range(1, 2000) AS i CREATE (:Note {i: i})');
    await db.close();
    const t0 = performance.now();
    db = await G.open({ name: 'bench-load' });
    const ms = performance.now() - t0;
    const s = await db.stats();
    await db.close();
    return { ms, bytes: s.store?.bytes ?? 0, nodes: s.nodes, relationships: s.relationships };
  }, SETUP);
  const row = (name: string, t: Timings): string =>
    `${name.padEnd(22)} point ${t.point.toFixed(0).padStart(6)} µs (×${(t.point / node.point).toFixed(1)})  hop ${t.hop.toFixed(0).padStart(6)} µs (×${(t.hop / node.hop).toFixed(1)})  write ${t.write.toFixed(0).padStart(6)} µs (×${(t.write / node.write).toFixed(1)})`;
  console.log(row('Node, in process', node));
  console.log(row('Chromium, in page', inPage));
  console.log(row('Chromium, Web Worker', inWorker));
  console.log(`OPFS open of ${(load.bytes / 1048576).toFixed(1)} MiB (${load.nodes} nodes, ${load.relationships} relationships): ${load.ms.toFixed(0)} ms`);
} finally {
  await browser.close();
  await server.close();
}

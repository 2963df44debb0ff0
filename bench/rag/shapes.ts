/**
 * graph_rag by question shape (issue 32), on a second generated domain whose vocabulary the
 * pipeline was not developed on: products, parts, suppliers, countries and standards, with
 * codes (SKUs, part numbers, DUNS numbers, ISO country codes, standard codes) and dates.
 *
 *   (:Product)-[:HAS_COMPONENT]->(:Part)-[:SUPPLIED_BY]->(:Supplier)-[:BASED_IN]->(:Country)
 *   (:Product)-[:ASSEMBLED_IN]->(:Country)    (:Product)-[:CERTIFIED_TO]->(:Standard)
 *
 * Every tenth part also has a more confident predicted supplier (the trust probes). Questions
 * come in five shapes, several phrasings each, asked the way people ask them:
 *
 *   one-hop    paraphrases of a fact asked from its subject ("Who makes the parts …")
 *   reverse    from a fact's object back to its subject ("Which suppliers are in Norway?")
 *   value      an entity named by a value it holds ("Which part has number PN-48213?")
 *   multi-hop  two or three hops through intermediate entities
 *   listing    many answers ("List the components of …")
 *
 * A smaller held-out set asks the same shapes in phrasings written after the pipeline was
 * tuned on the main set; it is printed apart, as a check on overfitting to the templates.
 *
 * For each pipeline variant it prints hit@1, hit@5, MRR and p50/p95 latency per shape, and the
 * trust figure: of the questions about a part with an observed and a more confident predicted
 * supplier, how often the predicted one ranks above the observed one (goal 0).
 *
 *   node --import tsx bench/rag/shapes.ts [--entities 10000] [--per-shape 60] [--variants full,hybrid] [--mcp] [--misses]
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../../src/engine/database.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const ENTITIES = Number(arg('entities', '10000'));
const PER_SHAPE = Number(arg('per-shape', '60'));
const WITH_MCP = process.argv.includes('--mcp');
const SHOW_MISSES = process.argv.includes('--misses');

let state = 7;
function rand(): number {
  state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
  return state / 0x7fffffff;
}
function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}
function int(n: number): number {
  return Math.floor(rand() * n);
}

// Syllables unlike the development bench's, so names do not read alike.
const SYL = ['ab', 'ux', 'tre', 'vol', 'kin', 'dra', 'om', 'pha', 'sil', 'cor', 'ny', 'gast', 'ith', 'bel', 'rum', 'eq', 'zo', 'hal', 'wen', 'ty'];
const used = new Set<string>();
function uniqueName(words: number): string {
  for (;;) {
    const parts: string[] = [];
    for (let w = 0; w < words; w++) {
      let word = '';
      for (let i = 0, n = 2 + int(2); i < n; i++) word += pick(SYL);
      parts.push(word[0].toUpperCase() + word.slice(1));
    }
    const name = parts.join(' ');
    if (!used.has(name.toLowerCase())) {
      used.add(name.toLowerCase());
      return name;
    }
  }
}
const usedCodes = new Set<string>();
function uniqueCode(make: () => string): string {
  for (;;) {
    const c = make();
    if (!usedCodes.has(c)) {
      usedCodes.add(c);
      return c;
    }
  }
}
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const digits = (n: number): string => Array.from({ length: n }, () => String(int(10))).join('');

type Shape = 'one-hop' | 'reverse' | 'value' | 'multi-hop' | 'listing';
const SHAPES: Shape[] = ['one-hop', 'reverse', 'value', 'multi-hop', 'listing'];

interface Question {
  shape: Shape;
  /** Phrasings written after the pipeline was tuned on the others, never tuned on (issue 32's report). */
  heldOut?: boolean;
  text: string;
  gold: Set<string>;
  trust?: { observed: string; predicted: string };
}

interface World {
  countries: { name: string; iso: string }[];
  standards: { name: string; code: string }[];
  suppliers: { name: string; duns: string; founded: string; country: number }[];
  parts: { name: string; pn: string; supplier: number; predicted: number }[];
  products: { name: string; sku: string; country: number; parts: number[]; standards: number[] }[];
}

function generate(n: number): World {
  const nc = 40;
  const ns = Math.max(20, Math.round(n * 0.02));
  const nsup = Math.round(n * 0.1);
  const np = Math.round(n * 0.45);
  const nprod = n - nc - ns - nsup - np;
  const countries = Array.from({ length: nc }, () => ({ name: uniqueName(1), iso: uniqueCode(() => pick([...LETTERS]) + pick([...LETTERS])) }));
  const standards = Array.from({ length: ns }, () => {
    const code = uniqueCode(() => `${pick(['EN', 'IEC', 'ASTM', 'DIN'])}-${digits(4)}`);
    return { name: `${uniqueName(1)} ${pick(['Safety', 'Emissions', 'Durability', 'Hygiene'])} Norm`, code };
  });
  const suppliers = Array.from({ length: nsup }, () => ({
    name: `${uniqueName(1)} ${pick(['Industries', 'Works', 'Components', 'Supply'])}`,
    duns: uniqueCode(() => String(100000000 + int(899999999))),
    founded: uniqueCode(() => `${1950 + int(70)}-${String(1 + int(12)).padStart(2, '0')}-${String(1 + int(28)).padStart(2, '0')}`),
    country: int(nc),
  }));
  const parts = Array.from({ length: np }, (_, i) => {
    const supplier = int(nsup);
    let predicted = -1;
    if (i % 10 === 0) predicted = (supplier + 1 + int(nsup - 1)) % nsup;
    return { name: `${uniqueName(1)} ${pick(['Valve', 'Bearing', 'Gasket', 'Sensor', 'Bracket', 'Spring'])}`, pn: uniqueCode(() => `PN-${digits(5)}-${pick([...LETTERS])}`), supplier, predicted };
  });
  const products = Array.from({ length: nprod }, () => {
    const ps = new Set<number>();
    for (let k = 0, m = 3 + int(4); k < m; k++) ps.add(int(np));
    const ss = new Set<number>();
    for (let k = 0, m = 1 + int(2); k < m; k++) ss.add(int(ns));
    return { name: `${uniqueName(2)}`, sku: uniqueCode(() => `SKU-${digits(6)}`), country: int(nc), parts: [...ps], standards: [...ss] };
  });
  return { countries, standards, suppliers, parts, products };
}

function load(db: Database, w: World): void {
  db.executeSync('UNWIND $rows AS r CREATE (:Country {name: r.name, iso_code: r.iso, summary: r.name + " is a country"})', { rows: w.countries });
  db.executeSync('UNWIND $rows AS r CREATE (:Standard {name: r.name, code: r.code, summary: r.name + " is a standard"})', { rows: w.standards });
  for (const [label, key] of [['Country', 'name'], ['Standard', 'name'], ['Supplier', 'name'], ['Part', 'name'], ['Product', 'name'], ['Part', 'part_number'], ['Product', 'sku']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  db.executeSync(
    `UNWIND $rows AS r MATCH (c:Country {name: r.country})
     CREATE (:Supplier {name: r.name, duns: r.duns, founded: r.founded, summary: r.name + " is a supplier"})-[:BASED_IN {source: 'registry'}]->(c)`,
    { rows: w.suppliers.map((s) => ({ ...s, country: w.countries[s.country].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (s:Supplier {name: r.supplier})
     CREATE (:Part {name: r.name, part_number: r.pn, summary: r.name + " is a part"})-[:SUPPLIED_BY {source: 'erp', confidence: 0.7}]->(s)`,
    { rows: w.parts.map((p) => ({ name: p.name, pn: p.pn, supplier: w.suppliers[p.supplier].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (p:Part {name: r.part}), (s:Supplier {name: r.supplier})
     CREATE (p)-[:SUPPLIED_BY {observation_class: 'predicted', confidence: 0.97, source: 'model'}]->(s)`,
    { rows: w.parts.filter((p) => p.predicted >= 0).map((p) => ({ part: p.name, supplier: w.suppliers[p.predicted].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (c:Country {name: r.country})
     CREATE (:Product {name: r.name, sku: r.sku, summary: r.name + " is a product"})-[:ASSEMBLED_IN]->(c)`,
    { rows: w.products.map((p) => ({ name: p.name, sku: p.sku, country: w.countries[p.country].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (p:Product {name: r.product}), (x:Part {name: r.part}) CREATE (p)-[:HAS_COMPONENT]->(x)`,
    { rows: w.products.flatMap((p) => p.parts.map((i) => ({ product: p.name, part: w.parts[i].name }))) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (p:Product {name: r.product}), (s:Standard {name: r.standard}) CREATE (p)-[:CERTIFIED_TO]->(s)`,
    { rows: w.products.flatMap((p) => p.standards.map((i) => ({ product: p.name, standard: w.standards[i].name }))) },
  );
  for (const label of ['Country', 'Standard', 'Supplier', 'Part', 'Product']) {
    db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: 'summary', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
    db.executeSync(`CREATE VECTOR INDEX ${label.toLowerCase()}_vec FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
    db.executeSync(`CALL db.awaitIndex('${label.toLowerCase()}_vec')`);
  }
  db.executeSync('CREATE FULLTEXT INDEX summaries FOR (n:Country|Standard|Supplier|Part|Product) ON EACH [n.name, n.summary]');
}

function questions(w: World): Question[] {
  const qs: Question[] = [];
  const partsOf = (p: number): Set<string> => new Set(w.products[p].parts.map((i) => w.parts[i].name));
  const productsUsing = new Map<number, number[]>();
  w.products.forEach((p, i) => p.parts.forEach((x) => productsUsing.set(x, [...(productsUsing.get(x) ?? []), i])));
  const usedPart = (): number => {
    for (;;) {
      const i = int(w.parts.length);
      if (productsUsing.has(i)) return i;
    }
  };
  const supplierOf = (part: number): string => w.suppliers[w.parts[part].supplier].name;
  const trustOf = (part: number): Question['trust'] =>
    w.parts[part].predicted >= 0 ? { observed: supplierOf(part), predicted: w.suppliers[w.parts[part].predicted].name } : undefined;
  const add = (shape: Shape, text: string, gold: Iterable<string>, trust?: Question['trust']): void => {
    const g = new Set(gold);
    if (g.size > 0) qs.push({ shape, text, gold: g, ...(trust ? { trust } : {}) });
  };

  for (let i = 0; i < PER_SHAPE; i++) {
    // one-hop, from the subject, phrased five ways.
    const part = i % 3 === 0 ? int(w.parts.length) : Math.floor(int(w.parts.length) / 10) * 10; // half the probes carry a predicted supplier
    const prod = int(w.products.length);
    const sup = int(w.suppliers.length);
    const oneHop: [string, string[], Question['trust']?][] = [
      [`Who supplies the ${w.parts[part].name}?`, [supplierOf(part)], trustOf(part)],
      [`${w.parts[part].name}: which vendor provides it?`, [supplierOf(part)], trustOf(part)],
      [`Where is ${w.products[prod].name} assembled?`, [w.countries[w.products[prod].country].name]],
      [`In what country is the ${w.products[prod].name} put together`, [w.countries[w.products[prod].country].name]],
      [`Tell me the home country of ${w.suppliers[sup].name}`, [w.countries[w.suppliers[sup].country].name]],
      [`${w.suppliers[sup].name} is headquartered in which country?`, [w.countries[w.suppliers[sup].country].name]],
    ];
    const [t1, g1, tr1] = oneHop[i % oneHop.length];
    add('one-hop', t1, g1, tr1);

    // reverse: from the object back to the subject.
    const country = int(w.countries.length);
    const std = int(w.standards.length);
    const p2 = usedPart();
    const reverse: [string, Iterable<string>][] = [
      [`Which suppliers are based in ${w.countries[country].name}?`, w.suppliers.filter((s) => s.country === country).map((s) => s.name)],
      [`Which products are certified to the ${w.standards[std].name}?`, w.products.filter((p) => p.standards.includes(std)).map((p) => p.name)],
      [`What product uses the ${w.parts[p2].name}?`, (productsUsing.get(p2) ?? []).map((x) => w.products[x].name)],
      [`Name a product assembled in ${w.countries[country].name}`, w.products.filter((p) => p.country === country).map((p) => p.name)],
      [`Which parts come from ${w.suppliers[sup].name}?`, w.parts.filter((p) => p.supplier === sup).map((p) => p.name)],
    ];
    const [t2, g2] = reverse[i % reverse.length];
    add('reverse', t2, g2);

    // value: an entity named by a code, id, number or date it holds.
    const value: [string, string[]][] = [
      [`Which part has the part number ${w.parts[part].pn}?`, [w.parts[part].name]],
      [`What product is SKU ${w.products[prod].sku}?`, [w.products[prod].name]],
      [`Which country has the ISO code ${w.countries[country].iso}?`, [w.countries[country].name]],
      [`Who has DUNS number ${w.suppliers[sup].duns}?`, [w.suppliers[sup].name]],
      [`Which standard is "${w.standards[std].code}"?`, [w.standards[std].name]],
      [`Which supplier was founded on ${w.suppliers[sup].founded}?`, [w.suppliers[sup].name]],
    ];
    const [t3, g3] = value[i % value.length];
    add('value', t3, g3);

    // multi-hop: two hops, and every third question three.
    const p3 = usedPart();
    const using = productsUsing.get(p3) ?? [];
    const multi: [string, Iterable<string>][] = [
      [`Which country is the supplier of the ${w.parts[part].name} based in?`, [w.countries[w.suppliers[w.parts[part].supplier].country].name]],
      [`Who supplies the parts of ${w.products[prod].name}?`, w.products[prod].parts.map((x) => supplierOf(x))],
      [`Which countries are the suppliers of the parts in ${w.products[prod].name} based in?`, w.products[prod].parts.map((x) => w.countries[w.suppliers[w.parts[x].supplier].country].name)],
      [`Where is the supplier of ${w.parts[part].name} located?`, [w.countries[w.suppliers[w.parts[part].supplier].country].name]],
      [`Which standards does the product that uses the ${w.parts[p3].name} meet?`, using.flatMap((x) => w.products[x].standards.map((s) => w.standards[s].name))],
      [`In which country is the product containing the ${w.parts[p3].name} assembled?`, using.map((x) => w.countries[w.products[x].country].name)],
    ];
    const [t4, g4] = multi[i % multi.length];
    add('multi-hop', t4, g4);

    // listing: many answers.
    const listing: [string, Iterable<string>][] = [
      [`List the parts of ${w.products[prod].name}.`, partsOf(prod)],
      [`What components go into the ${w.products[prod].name}?`, partsOf(prod)],
      [`Show all suppliers in ${w.countries[country].name}`, w.suppliers.filter((s) => s.country === country).map((s) => s.name)],
      [`Name every part ${w.suppliers[sup].name} provides`, w.parts.filter((p) => p.supplier === sup).map((p) => p.name)],
      [`members of the ${w.standards[std].name}: which products?`, w.products.filter((p) => p.standards.includes(std)).map((p) => p.name)],
    ];
    const [t5, g5] = listing[i % listing.length];
    add('listing', t5, g5);

    // Held out: other phrasings of the same shapes, a fifth as many.
    if (i % 5 === 0) {
      const j = i / 5;
      const h = qs.length;
      const held: [Shape, string, Iterable<string>, Question['trust']?][] = [
        ['one-hop', `Who is the vendor of ${w.parts[part].name}?`, [supplierOf(part)], trustOf(part)],
        ['one-hop', `What's the country of origin of ${w.suppliers[sup].name}?`, [w.countries[w.suppliers[sup].country].name]],
        ['one-hop', `${w.products[prod].name}, assembled where?`, [w.countries[w.products[prod].country].name]],
        ['reverse', `Suppliers located in ${w.countries[country].name}?`, w.suppliers.filter((s) => s.country === country).map((s) => s.name)],
        ['reverse', `Which items carry the ${w.standards[std].name}?`, w.products.filter((p) => p.standards.includes(std)).map((p) => p.name)],
        ['value', `Find the part numbered ${w.parts[part].pn}`, [w.parts[part].name]],
        ['value', `${w.products[prod].sku} is which product?`, [w.products[prod].name]],
        ['value', `Look up DUNS ${w.suppliers[sup].duns}`, [w.suppliers[sup].name]],
        ['multi-hop', `What country do the suppliers of ${w.products[prod].name}'s parts come from?`, w.products[prod].parts.map((x) => w.countries[w.suppliers[w.parts[x].supplier].country].name)],
        ['multi-hop', `Where are the vendors of the ${w.parts[part].name} headquartered?`, [w.countries[w.suppliers[w.parts[part].supplier].country].name]],
        ['listing', `Which parts are in ${w.products[prod].name}?`, partsOf(prod)],
        ['listing', `Give me the components of ${w.products[prod].name}`, partsOf(prod)],
      ];
      for (let k = 0; k < 5; k++) {
        const [shape, text, gold, trust] = held.filter((x) => x[0] === SHAPES[k])[j % held.filter((x) => x[0] === SHAPES[k]).length];
        add(shape, text, gold, trust);
      }
      for (let x = h; x < qs.length; x++) qs[x].heldOut = true;
    }
  }
  return qs;
}

interface Score {
  n: number;
  hit1: number;
  hit5: number;
  mrr: number;
  p50: number;
  p95: number;
  trustViolations: number;
  trustCases: number;
}

async function evaluate(qs: readonly Question[], answer: (q: string) => Promise<string[]> | string[]): Promise<Score> {
  let hit1 = 0, hit5 = 0, mrr = 0, trustViolations = 0, trustCases = 0;
  const times: number[] = [];
  for (const q of qs) {
    const t0 = performance.now();
    const names = await answer(q.text);
    times.push(performance.now() - t0);
    const rank = names.findIndex((n) => q.gold.has(n));
    if (rank === 0) hit1++;
    if (rank >= 0 && rank < 5) hit5++;
    if (rank >= 0) mrr += 1 / (rank + 1);
    if (SHOW_MISSES && rank !== 0) console.log(`  miss (${q.shape}) ${JSON.stringify(q.text)} → ${JSON.stringify(names.slice(0, 3))}, gold ${JSON.stringify([...q.gold].slice(0, 3))}`);
    if (q.trust) {
      trustCases++;
      const o = names.indexOf(q.trust.observed);
      const p = names.indexOf(q.trust.predicted);
      if (p >= 0 && (o < 0 || p < o)) trustViolations++;
    }
  }
  times.sort((a, b) => a - b);
  const at = (f: number): number => times[Math.min(times.length - 1, Math.floor(f * times.length))] ?? 0;
  const n = Math.max(1, qs.length);
  return { n: qs.length, hit1: hit1 / n, hit5: hit5 / n, mrr: mrr / n, p50: at(0.5), p95: at(0.95), trustViolations, trustCases };
}

function line(name: string, s: Score): string {
  return `${name.padEnd(22)} n ${String(s.n).padStart(3)}  hit@1 ${s.hit1.toFixed(3)}  hit@5 ${s.hit5.toFixed(3)}  MRR ${s.mrr.toFixed(3)}  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  trust ${s.trustViolations}/${s.trustCases}`;
}

const VARIANTS: Record<string, Record<string, unknown>> = {
  'text-only': { sources: ['text'], targets: false },
  'vector-only': { sources: ['vector'], targets: false },
  hybrid: { sources: ['name', 'fulltext', 'vector'], targets: false },
  full: {},
};

async function report(name: string, all: readonly Question[], answer: (q: string) => Promise<string[]> | string[]): Promise<void> {
  const qs = all.filter((q) => !q.heldOut);
  const held = all.filter((q) => q.heldOut);
  for (const shape of SHAPES) console.log(line(`${name} ${shape}`, await evaluate(qs.filter((q) => q.shape === shape), answer)));
  console.log(line(`${name} ALL`, await evaluate(qs, answer)));
  for (const shape of SHAPES) console.log(line(`${name} held-out ${shape}`, await evaluate(held.filter((q) => q.shape === shape), answer)));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-bench-rag-shapes-'));
  try {
    const db = await Database.open({ dataDir: dir });
    const t0 = performance.now();
    const world = generate(ENTITIES);
    load(db, world);
    const qs = questions(world);
    console.log(`graph: ${db.graph.nodeCount} nodes, ${db.graph.relCount} relationships, built in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${qs.filter((q) => !q.heldOut).length} questions, ${qs.filter((q) => q.heldOut).length} held out`);
    const wanted = arg('variants', Object.keys(VARIANTS).join(',')).split(',');
    for (const [name, options] of Object.entries(VARIANTS)) {
      if (!wanted.includes(name)) continue;
      await report(name, qs, (q) =>
        db.executeSync('CALL graphdb.rag.retrieve($q, $o) YIELD name RETURN name', { q, o: { ...options, k: 10 } }).records.map((r) => String(r[0])),
      );
    }
    db.close();
    if (WITH_MCP) {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const client = new Client({ name: 'bench-rag-shapes', version: '1' });
      const bin = fileURLToPath(new URL('../../bin/graphdb-mcp.js', import.meta.url));
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, '--data-dir', dir] }));
      await report('full (MCP)', qs, async (q) => {
        const r = (await client.callTool({ name: 'graph_rag', arguments: { query: q, limit: 10 } })) as { content: { text: string }[] };
        return (JSON.parse(r.content[0].text) as { results: { name: string }[] }).results.map((x) => x.name);
      });
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

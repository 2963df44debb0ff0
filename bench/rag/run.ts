/**
 * graph_rag evaluation (issue 15). Builds a seeded knowledge graph — people, companies,
 * cities, products, events; observed, inferred and predicted facts; conflicting employers —
 * with embeddings from the default embedder, a full-text index and vector indexes, then asks
 * templated questions with gold answers and prints, per retrieval variant, hit@1, hit@5, MRR
 * and latency p50/p95:
 *
 *   text-only   the text scan with expansion, no schema targets (what main did)
 *   vector-only vector seeds alone, with expansion, no schema targets
 *   hybrid      name + full-text + vector seeds fused, with expansion, no schema targets
 *   full        the whole pipeline (defaults)
 *
 * and the trust figure: of the people with an observed employer and a more confident
 * predicted one, how often the predicted employer ranks above the observed one (goal 0).
 * With --mcp the full pipeline's questions also run through the MCP SDK client against a
 * `graphdb-mcp --data-dir` process on the same graph (needs `npm run build`).
 *
 * It also times the `name` seed source alone both ways on the same questions: lookups in the
 * name index (src/rag/name-index.ts, what graph_rag does) against a scan of every node's
 * name and title (what it did before the index), and prints the ratio.
 *
 *   node --import tsx bench/rag/run.ts [--entities 10000] [--questions 360] [--mcp]
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../../src/engine/database.js';
import { nameIndexFor } from '../../src/rag/name-index.js';
import { analyseQuestion, nameKey } from '../../src/rag/question.js';
import { preloadLazyModules } from '../../src/lazy-module.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const ENTITIES = arg('entities', 10000);
const QUESTIONS = arg('questions', 360);
const WITH_MCP = process.argv.includes('--mcp');

let seed = 42;
function rand(): number {
  // Math.imul keeps the product exact: in floating point it loses bits and the sequence
  // cycles after about 10,000 draws (uniqueName then never finds a new name).
  seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
function pick<T>(xs: readonly T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

const SYL = ['ka', 'lo', 'mi', 'ren', 'to', 'sa', 'vi', 'dor', 'el', 'na', 'qu', 'bri', 'zan', 'fe', 'gor', 'li', 'mar', 'os', 'pel', 'tur'];
const used = new Set<string>();
function uniqueName(words: number): string {
  for (;;) {
    const parts: string[] = [];
    for (let w = 0; w < words; w++) {
      const n = 2 + Math.floor(rand() * 2);
      let word = '';
      for (let i = 0; i < n; i++) word += pick(SYL);
      parts.push(word[0].toUpperCase() + word.slice(1));
    }
    const name = parts.join(' ');
    if (!used.has(name.toLowerCase())) {
      used.add(name.toLowerCase());
      return name;
    }
  }
}

const ZONES = ['Europe/Oslo', 'Europe/Paris', 'America/Lima', 'Asia/Tokyo', 'Africa/Lagos', 'Australia/Perth', 'America/Denver', 'Asia/Dubai'];
const INDUSTRIES = ['shipping', 'software', 'mining', 'textiles', 'farming', 'banking', 'robotics', 'media'];

interface Question {
  text: string;
  gold: Set<string>;
  trust?: { observed: string; predicted: string };
}

function build(db: Database): Question[] {
  const n = ENTITIES;
  const counts = { city: Math.max(10, Math.round(n * 0.05)), company: Math.round(n * 0.15), product: Math.round(n * 0.2), event: Math.round(n * 0.1) };
  const people = n - counts.city - counts.company - counts.product - counts.event;
  const cities = Array.from({ length: counts.city }, () => ({ name: uniqueName(1), zone: pick(ZONES) }));
  const companies = Array.from({ length: counts.company }, () => ({ name: uniqueName(2), city: Math.floor(rand() * counts.city), industry: pick(INDUSTRIES) }));
  const products = Array.from({ length: counts.product }, () => ({ name: uniqueName(1) + ' ' + pick(['Pro', 'Max', 'Lite', 'One']), maker: Math.floor(rand() * counts.company) }));
  const events = Array.from({ length: counts.event }, () => ({ name: uniqueName(1) + ' ' + pick(['Summit', 'Fair', 'Expo', 'Forum']), city: Math.floor(rand() * counts.city) }));
  const persons = Array.from({ length: people }, (_, i) => ({
    name: uniqueName(2),
    company: Math.floor(rand() * counts.company),
    // Every 7th person also has a more confident predicted employer: a conflict.
    predicted: i % 7 === 0 ? Math.floor(rand() * counts.company) : -1,
    inferred: i % 11 === 0,
  }));
  db.executeSync('UNWIND $rows AS r CREATE (:City {name: r.name, time_zone: r.zone, description: r.name + " is a city"})', { rows: cities });
  db.executeSync(
    `UNWIND $rows AS r MATCH (c:City {name: r.city}) CREATE (:Company {name: r.name, industry: r.industry, description: r.name + " works in " + r.industry})-[:LOCATED_IN {source: 'registry'}]->(c)`,
    { rows: companies.map((c) => ({ ...c, city: cities[c.city].name })) },
  );
  db.executeSync('CREATE INDEX FOR (n:Company) ON (n.name)');
  db.executeSync('CREATE INDEX FOR (n:City) ON (n.name)');
  db.executeSync('CREATE INDEX FOR (n:Person) ON (n.name)');
  db.executeSync(
    `UNWIND $rows AS r MATCH (c:Company {name: r.maker}) CREATE (c)-[:MAKES]->(:Product {name: r.name, description: r.name + " is a product"})`,
    { rows: products.map((p) => ({ ...p, maker: companies[p.maker].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (c:City {name: r.city}) CREATE (:Event {name: r.name, description: r.name + " is an event"})-[:HELD_IN]->(c)`,
    { rows: events.map((e) => ({ ...e, city: cities[e.city].name })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (c:Company {name: r.company})
     CREATE (p:Person {name: r.name, description: r.name + " is a person"})-[:WORKS_AT {observation_class: r.cls, confidence: r.conf, source: 'hr'}]->(c)`,
    { rows: persons.map((p) => ({ name: p.name, company: companies[p.company].name, cls: p.inferred ? 'inferred' : 'observed', conf: p.inferred ? 0.8 : 0.6 })) },
  );
  db.executeSync(
    `UNWIND $rows AS r MATCH (p:Person {name: r.name}), (c:Company {name: r.company})
     CREATE (p)-[:WORKS_AT {observation_class: 'predicted', confidence: 0.95, source: 'model'}]->(c)`,
    { rows: persons.filter((p) => p.predicted >= 0 && p.predicted !== p.company && !p.inferred).map((p) => ({ name: p.name, company: companies[p.predicted].name })) },
  );
  for (const label of ['Person', 'Company', 'City', 'Product', 'Event']) {
    db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: 'description', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
    db.executeSync(`CREATE VECTOR INDEX ${label.toLowerCase()}_vec FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
    // A large index is built in the background: the questions are asked of the finished one.
    db.executeSync(`CALL db.awaitIndex('${label.toLowerCase()}_vec')`);
  }
  db.executeSync('CREATE FULLTEXT INDEX texts FOR (n:Person|Company|City|Product|Event) ON EACH [n.name, n.description]');
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('texts')");

  const qs: Question[] = [];
  const per = Math.ceil(QUESTIONS / 6);
  for (let i = 0; i < per; i++) {
    const p = persons[Math.floor(rand() * persons.length)];
    const conflict = p.predicted >= 0 && p.predicted !== p.company && !p.inferred;
    qs.push({
      text: `Which company does ${p.name} work at?`,
      gold: new Set([companies[p.company].name]),
      trust: conflict ? { observed: companies[p.company].name, predicted: companies[p.predicted].name } : undefined,
    });
    const c = companies[Math.floor(rand() * companies.length)];
    const ci = companies.indexOf(c);
    const staff = persons.filter((x) => x.company === ci).map((x) => x.name);
    if (staff.length > 0) qs.push({ text: `Who works at ${c.name}?`, gold: new Set(staff) });
    qs.push({ text: `Which city is ${c.name} located in?`, gold: new Set([cities[c.city].name]) });
    const city = cities[Math.floor(rand() * cities.length)];
    qs.push({ text: `What time zone is ${city.name} in?`, gold: new Set([city.zone]) });
    const prod = products[Math.floor(rand() * products.length)];
    qs.push({ text: `Which company makes ${prod.name}?`, gold: new Set([companies[prod.maker].name]) });
    const ev = events[Math.floor(rand() * events.length)];
    qs.push({ text: `Which city was ${ev.name} held in?`, gold: new Set([cities[ev.city].name]) });
  }
  // Trust probes: every conflicted person, asked directly.
  for (const p of persons.slice(0, 7 * 40)) {
    if (p.predicted >= 0 && p.predicted !== p.company && !p.inferred) {
      qs.push({ text: `Which company does ${p.name} work at?`, gold: new Set([companies[p.company].name]), trust: { observed: companies[p.company].name, predicted: companies[p.predicted].name } });
    }
  }
  return qs;
}

interface Score {
  hit1: number;
  hit5: number;
  mrr: number;
  p50: number;
  p95: number;
  trustViolations: number;
  trustCases: number;
}

function evaluate(questions: readonly Question[], answer: (q: string) => Promise<string[]> | string[]): Promise<Score> {
  return (async () => {
    let hit1 = 0, hit5 = 0, mrr = 0, trustViolations = 0, trustCases = 0;
    const times: number[] = [];
    for (const q of questions) {
      const t0 = performance.now();
      const names = await answer(q.text);
      times.push(performance.now() - t0);
      const rank = names.findIndex((n) => q.gold.has(n));
      if (rank === 0) hit1++;
      if (rank >= 0 && rank < 5) hit5++;
      if (rank >= 0) mrr += 1 / (rank + 1);
      if (q.trust) {
        trustCases++;
        const o = names.indexOf(q.trust.observed);
        const p = names.indexOf(q.trust.predicted);
        if (p >= 0 && (o < 0 || p < o)) trustViolations++;
      }
    }
    times.sort((a, b) => a - b);
    const at = (f: number): number => times[Math.min(times.length - 1, Math.floor(f * times.length))];
    const n = questions.length;
    return { hit1: hit1 / n, hit5: hit5 / n, mrr: mrr / n, p50: at(0.5), p95: at(0.95), trustViolations, trustCases };
  })();
}

function line(name: string, s: Score): string {
  return `${name.padEnd(12)} hit@1 ${s.hit1.toFixed(3)}  hit@5 ${s.hit5.toFixed(3)}  MRR ${s.mrr.toFixed(3)}  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  trust ${s.trustViolations}/${s.trustCases}`;
}

/** Percentiles of a list of times, in ms. */
function percentiles(times: number[]): { p50: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (f: number): number => sorted[Math.min(sorted.length - 1, Math.floor(f * sorted.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

/**
 * The name seed source both ways on the same questions: index lookups (what graph_rag does)
 * and the scan of every node it replaced. Both return the matching node ids; they must agree.
 */
function nameSeedPeers(db: Database, questions: readonly Question[]): string {
  const scan = (ngrams: ReadonlySet<string>): number[] => {
    const ids: number[] = [];
    for (const node of db.graph.allNodes()) {
      for (const key of ['name', 'title']) {
        const v = node.prop(key);
        if (typeof v !== 'string' || v.length > 200) continue;
        const name = nameKey(v);
        if (name !== '' && ngrams.has(name)) {
          ids.push(node.id);
          break;
        }
      }
    }
    return ids.sort((a, b) => a - b);
  };
  const lookup = (ngrams: ReadonlySet<string>): number[] => {
    const index = nameIndexFor(db.graph, db.schema);
    const ids = new Set<number>();
    for (const g of ngrams) for (const id of index.lookup(g) ?? []) if (db.graph.node(id)?.deleted === false) ids.add(id);
    return [...ids].sort((a, b) => a - b);
  };
  lookup(new Set()); // builds the index (once per database), outside the timings
  const times = { index: [] as number[], scan: [] as number[] };
  for (const q of questions) {
    const { ngrams } = analyseQuestion(q.text);
    let t = performance.now();
    const a = lookup(ngrams);
    times.index.push(performance.now() - t);
    t = performance.now();
    const b = scan(ngrams);
    times.scan.push(performance.now() - t);
    if (a.join() !== b.join()) throw new Error(`name index and scan disagree on ${JSON.stringify(q.text)}: ${a} vs ${b}`);
  }
  const i = percentiles(times.index);
  const s = percentiles(times.scan);
  return `name seeds   index p50 ${i.p50.toFixed(3)} ms  p95 ${i.p95.toFixed(3)} ms | scan p50 ${s.p50.toFixed(2)} ms  p95 ${s.p95.toFixed(2)} ms | scan/index p50 ${(s.p50 / i.p50).toFixed(0)}x, p95 ${(s.p95 / i.p95).toFixed(0)}x`;
}

const VARIANTS: Record<string, Record<string, unknown>> = {
  'text-only': { sources: ['text'], targets: false },
  'vector-only': { sources: ['vector'], targets: false },
  hybrid: { sources: ['name', 'fulltext', 'vector'], targets: false },
  full: {},
};

async function main(): Promise<void> {
  // Run from the sources (tsx), the lazily loaded modules must come through import() first, or require() makes a second
  // copy of graph_rag's modules whose instanceof checks miss the full-text index (every question would fall back to the text scan).
  await preloadLazyModules();
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-bench-rag-'));
  try {
    const db = await Database.open({ dataDir: dir });
    const t0 = performance.now();
    const questions = build(db);
    console.log(`graph: ${db.graph.nodeCount} nodes, ${db.graph.relCount} relationships, built in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${questions.length} questions`);
    const scores: Record<string, Score> = {};
    for (const [name, options] of Object.entries(VARIANTS)) {
      scores[name] = await evaluate(questions, (q) =>
        db.executeSync('CALL graphdb.rag.retrieve($q, $o) YIELD name RETURN name', { q, o: { ...options, k: 10 } }).records.map((r) => String(r[0])),
      );
      console.log(line(name, scores[name]));
    }
    console.log(nameSeedPeers(db, questions));
    const ratio = (a: number, b: number): string => (b > 0 ? `${(a / b).toFixed(1)}x` : 'n/a (baseline 0)');
    console.log(`ratios: full/text-only hit@1 ${ratio(scores.full.hit1, scores['text-only'].hit1)}, full/hybrid hit@1 ${ratio(scores.full.hit1, scores.hybrid.hit1)}, text-only/full p50 ${ratio(scores['text-only'].p50, scores.full.p50)}`);
    db.close();
    if (WITH_MCP) {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const client = new Client({ name: 'bench-rag', version: '1' });
      const bin = fileURLToPath(new URL('../../bin/graphdb-mcp.js', import.meta.url));
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, '--data-dir', dir] }));
      const mcp = await evaluate(questions, async (q) => {
        const r = (await client.callTool({ name: 'graph_rag', arguments: { query: q } })) as { content: { text: string }[] };
        return (JSON.parse(r.content[0].text) as { results: { name: string }[] }).results.map((x) => x.name);
      });
      console.log(line('full (MCP)', mcp));
      await client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

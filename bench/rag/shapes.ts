/**
 * graph_rag by question shape (issue 32): one harness, many domains. A domain is a module at
 * bench/rag/domains/<name>.ts whose default export is a `Domain` (domain.ts): it builds its
 * graph in the database it is given and returns questions in five shapes with gold answers:
 *
 *   one-hop    paraphrases of a fact asked from its subject
 *   reverse    from a fact's object back to its subject
 *   value      an entity named by a value it holds (a code, an id, a number, a date)
 *   multi-hop  two or three hops through intermediate entities
 *   listing    many answers
 *
 * For each pipeline variant it prints hit@1, hit@5, MRR, p50/p95 latency and the p95 of this
 * process's CPU time per question (steadier under load; 0 through MCP) per shape, and the
 * trust figure: of the questions about a fact with an observed and a more confident predicted
 * answer, how often the predicted one ranks above the observed one (goal 0). Rows a domain
 * marks held out are printed apart.
 *
 *   node --import tsx bench/rag/shapes.ts [--domain products] [--entities 10000] [--per-shape 60]
 *        [--variants full,hybrid] [--mcp] [--misses]
 */

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Database } from '../../src/engine/database.js';
import { Rng, SHAPES, type Domain, type Question } from './domain.js';
import { preloadLazyModules } from '../../src/lazy-module.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const DOMAIN = arg('domain', 'products');
const ENTITIES = Number(arg('entities', '10000'));
const PER_SHAPE = Number(arg('per-shape', '60'));
const SEED = Number(arg('seed', '7'));
const WITH_MCP = process.argv.includes('--mcp');
const SHOW_MISSES = process.argv.includes('--misses');

async function loadDomain(name: string): Promise<Domain> {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name)) throw new Error(`--domain takes a module name under bench/rag/domains/, not ${JSON.stringify(name)}`);
  const file = fileURLToPath(new URL(`./domains/${name}.ts`, import.meta.url));
  if (!existsSync(file)) throw new Error(`no domain module ${file}`);
  const mod = (await import(pathToFileURL(file).href)) as { default?: Domain };
  if (!mod.default || typeof mod.default.build !== 'function') throw new Error(`${file} has no default export with build()`);
  return mod.default;
}

interface Score {
  n: number;
  hit1: number;
  hit5: number;
  mrr: number;
  p50: number;
  p95: number;
  /** This process's CPU time per question (user + system), p95: steadier than wall time on a shared machine; 0 through MCP (another process). */
  cpu95: number;
  trustViolations: number;
  trustCases: number;
}

async function evaluate(qs: readonly Question[], answer: (q: string) => Promise<string[]> | string[]): Promise<Score> {
  let hit1 = 0, hit5 = 0, mrr = 0, trustViolations = 0, trustCases = 0;
  const times: number[] = [];
  const cpu: number[] = [];
  for (const q of qs) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const names = await answer(q.text);
    const c1 = process.cpuUsage(c0);
    times.push(performance.now() - t0);
    cpu.push((c1.user + c1.system) / 1000);
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
  cpu.sort((a, b) => a - b);
  const pick = (xs: number[], f: number): number => xs[Math.min(xs.length - 1, Math.floor(f * xs.length))] ?? 0;
  const at = (f: number): number => pick(times, f);
  const n = Math.max(1, qs.length);
  return { n: qs.length, hit1: hit1 / n, hit5: hit5 / n, mrr: mrr / n, p50: at(0.5), p95: at(0.95), cpu95: pick(cpu, 0.95), trustViolations, trustCases };
}

function line(name: string, s: Score): string {
  return `${name.padEnd(22)} n ${String(s.n).padStart(3)}  hit@1 ${s.hit1.toFixed(3)}  hit@5 ${s.hit5.toFixed(3)}  MRR ${s.mrr.toFixed(3)}  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  cpu p95 ${s.cpu95.toFixed(1)} ms  trust ${s.trustViolations}/${s.trustCases}`;
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
  // CPU seconds of the whole first pass (caches built on first use included) and of the ALL pass that asks them again.
  const c0 = process.cpuUsage();
  for (const shape of SHAPES) console.log(line(`${name} ${shape}`, await evaluate(qs.filter((q) => q.shape === shape), answer)));
  const u0 = process.cpuUsage(c0);
  const c1 = process.cpuUsage();
  console.log(line(`${name} ALL`, await evaluate(qs, answer)));
  const u1 = process.cpuUsage(c1);
  const secs = (u: NodeJS.CpuUsage): string => ((u.user + u.system) / 1e6).toFixed(2);
  console.log(`${name} cpu: first pass ${secs(u0)} s, second pass ${secs(u1)} s for ${qs.length} questions; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const shape of SHAPES) {
    const some = held.filter((q) => q.shape === shape);
    if (some.length > 0) console.log(line(`${name} held-out ${shape}`, await evaluate(some, answer)));
  }
}

async function main(): Promise<void> {
  const domain = await loadDomain(DOMAIN);
  // Run from the sources (tsx), the lazily loaded modules must come through import() first, or require() makes a second
  // copy of graph_rag's modules whose instanceof checks miss the full-text index (every question would fall back to the text scan).
  await preloadLazyModules();
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-bench-rag-shapes-'));
  try {
    const db = await Database.open({ dataDir: dir });
    const t0 = performance.now();
    const qs = domain.build(db, { entities: ENTITIES, perShape: PER_SHAPE, rng: new Rng(SEED) });
    console.log(`domain ${DOMAIN}: ${domain.description}`);
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

/**
 * The procedure the held-out graph_rag runners share (run-heldout.ts for rail,
 * ../heldout2/run-heldout2.ts for the clinical world), so their tables compare: build the domain's
 * graph, ask each question through `graphdb.rag.retrieve` (k 10) for each pipeline variant, and
 * print per shape hit@1, hit@5, MRR, recall@10 (of min(|gold|, 10) gold names, how many are in the
 * ten answers: what a listing needs), p50/p95 latency, and the trust figure (questions whose
 * observed answer has a more confident predicted rival: how often the rival ranks above it; goal
 * 0). With --mcp the full pipeline is also asked through the MCP SDK client against
 * `bin/graphdb-mcp.js` (needs `npm run build`). A domain module stays apart from this file on
 * purpose: a held-out domain is written without reading the pipeline, not without a harness.
 *
 *   [--entities 10000] [--per-shape 72] [--variants text-only,vector-only,hybrid,full] [--mcp] [--misses]
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Database } from '../../../src/engine/database.js';
import { preloadLazyModules } from '../../../src/lazy-module.js';
import { SHAPES, type Shape } from '../domain.js';

/** What a held-out domain's question carries. */
export interface Question {
  shape: Shape;
  /** Which phrasing made it, for reading misses. */
  form: string;
  text: string;
  gold: Set<string>;
  trust?: { observed: string; predicted: string };
}

/** A held-out domain as the harness runs it: its name, and how to build its graph and ask about it. */
export interface HeldOutDomain {
  name: string;
  /** Loads the generated world into `db` and returns its questions (`perShape` of each shape). */
  build(db: Database, entities: number, perShape: number): Question[];
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const ENTITIES = Number(arg('entities', '10000'));
const PER_SHAPE = Number(arg('per-shape', '72'));
const WITH_MCP = process.argv.includes('--mcp');
const SHOW_MISSES = process.argv.includes('--misses');

interface Score {
  n: number;
  hit1: number;
  hit5: number;
  mrr: number;
  recall10: number;
  p50: number;
  p95: number;
  trustViolations: number;
  trustCases: number;
}

type Answer = (question: string) => Promise<string[]> | string[];

async function score(qs: readonly Question[], answer: Answer): Promise<Score> {
  let hit1 = 0, hit5 = 0, mrr = 0, recall = 0, trustViolations = 0, trustCases = 0;
  const times: number[] = [];
  for (const q of qs) {
    const t0 = performance.now();
    const names = await answer(q.text);
    times.push(performance.now() - t0);
    const rank = names.findIndex((n) => q.gold.has(n));
    if (rank === 0) hit1++;
    if (rank >= 0 && rank < 5) hit5++;
    if (rank >= 0) mrr += 1 / (rank + 1);
    const found = new Set(names.slice(0, 10).filter((n) => q.gold.has(n))).size;
    recall += found / Math.min(q.gold.size, 10);
    if (SHOW_MISSES && rank !== 0) {
      console.log(`  miss ${q.shape} [${q.form}] ${JSON.stringify(q.text)} → ${JSON.stringify(names.slice(0, 3))}, gold ${JSON.stringify([...q.gold].slice(0, 3))}${q.gold.size > 3 ? ` (+${q.gold.size - 3})` : ''}`);
    }
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
  return { n: qs.length, hit1: hit1 / n, hit5: hit5 / n, mrr: mrr / n, recall10: recall / n, p50: at(0.5), p95: at(0.95), trustViolations, trustCases };
}

function row(name: string, s: Score): string {
  return `${name.padEnd(24)} n ${String(s.n).padStart(3)}  hit@1 ${s.hit1.toFixed(3)}  hit@5 ${s.hit5.toFixed(3)}  MRR ${s.mrr.toFixed(3)}  recall@10 ${s.recall10.toFixed(3)}  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  trust ${s.trustViolations}/${s.trustCases}`;
}

/** CPU seconds (user + system) of this process since `from`: steadier than wall time on a shared machine. */
function cpuSeconds(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1e6;
}

async function report(variant: string, qs: readonly Question[], answer: Answer): Promise<void> {
  // The per-shape pass asks every question first (caches built on first use are paid there); the ALL pass asks them again.
  const c0 = process.cpuUsage();
  for (const shape of SHAPES) console.log(row(`${variant} ${shape}`, await score(qs.filter((q) => q.shape === shape), answer)));
  const firstPass = cpuSeconds(c0);
  const c1 = process.cpuUsage();
  console.log(row(`${variant} ALL`, await score(qs, answer)));
  const secondPass = cpuSeconds(c1);
  console.log(`${variant} cpu: first pass ${firstPass.toFixed(2)} s, second pass ${secondPass.toFixed(2)} s for ${qs.length} questions; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

// The same variants shapes.ts compares, so the two benches' tables line up.
const VARIANTS: Record<string, Record<string, unknown>> = {
  'text-only': { sources: ['text'], targets: false },
  'vector-only': { sources: ['vector'], targets: false },
  hybrid: { sources: ['name', 'fulltext', 'vector'], targets: false },
  full: {},
};

export async function runHeldOut(domain: HeldOutDomain): Promise<void> {
  // Run from the sources (tsx), the lazily loaded modules must come through import() first, or require() makes a second
  // copy of graph_rag's modules whose instanceof checks miss the full-text index (every question would fall back to the text scan).
  await preloadLazyModules();
  const dir = mkdtempSync(join(tmpdir(), `graphdb-bench-rag-${domain.name}-`));
  try {
    const db = await Database.open({ dataDir: dir });
    const t0 = performance.now();
    const qs = domain.build(db, ENTITIES, PER_SHAPE);
    const forms = new Set(qs.map((q) => `${q.shape}/${q.form}`)).size;
    console.log(`held-out ${domain.name} graph: ${db.graph.nodeCount} nodes, ${db.graph.relCount} relationships, built in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${qs.length} questions in ${forms} phrasings, ${qs.filter((q) => q.trust).length} trust probes`);
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
      const client = new Client({ name: `bench-rag-${domain.name}`, version: '1' });
      const bin = fileURLToPath(new URL('../../../bin/graphdb-mcp.js', import.meta.url));
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, '--data-dir', dir] }));
      try {
        await report('full (MCP)', qs, async (q) => {
          const r = (await client.callTool({ name: 'graph_rag', arguments: { query: q, limit: 10 } })) as { content: { text: string }[] };
          return (JSON.parse(r.content[0].text) as { results: { name: string }[] }).results.map((x) => x.name);
        });
      } finally {
        await client.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}


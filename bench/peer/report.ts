/**
 * Turns the workers' reports into the benchmark's outputs: the cross-check of every answer
 * (an engine that disagrees with the majority is WRONG; two engines that disagree with no
 * majority are both marked as disagreeing), ratios graphdb/peer per workload with geometric
 * means per peer, a Markdown report, and an SVG bar chart of the ratios on a log scale.
 */

import { same, samePageRank, preview, type Plain } from './answers.js';
import type { Measurement, WorkerReport } from './worker.js';
import { ALGO_CHECKS, QUERIES, type AlgoName, type EngineName } from './workloads.js';

export type Verdict = 'ok' | 'WRONG' | 'DISAGREE' | 'unchecked' | 'error' | 'n/a';

/** One workload on one dataset, with every engine's measurement and verdict. */
export interface Row {
  dataset: string;
  workload: string;
  group: string;
  cells: Partial<Record<EngineName, Measurement & { verdict: Verdict }>>;
  mismatch?: string;
}

/** Cross-checks answers: groups equal answers; the largest group (if it is a strict majority) is right. */
export function crossCheck(dataset: string, workload: string, group: string, ms: Partial<Record<EngineName, Measurement>>): Row {
  const row: Row = { dataset, workload, group, cells: {} };
  const answered = (Object.entries(ms) as [EngineName, Measurement][]).filter(([, m]) => m.status === 'ok');
  const classes: { answer: Plain; engines: EngineName[] }[] = [];
  const equal = workload === 'PageRank' ? samePageRank : same;
  for (const [e, m] of answered) {
    const c = classes.find((k) => equal(k.answer, m.answer ?? null));
    if (c) c.engines.push(e);
    else classes.push({ answer: m.answer ?? null, engines: [e] });
  }
  classes.sort((a, b) => b.engines.length - a.engines.length);
  const majority = classes.length > 0 && (classes.length === 1 || classes[0].engines.length > classes[1].engines.length) ? classes[0] : undefined;
  for (const [e, m] of Object.entries(ms) as [EngineName, Measurement][]) {
    let verdict: Verdict;
    if (m.status === 'n/a') verdict = 'n/a';
    else if (m.status === 'error') verdict = 'error';
    else if (answered.length < 2) verdict = 'unchecked';
    else if (majority?.engines.includes(e)) verdict = 'ok';
    else verdict = majority ? 'WRONG' : 'DISAGREE';
    row.cells[e] = { ...m, verdict };
  }
  if (classes.length > 1) row.mismatch = classes.map((c) => `${c.engines.join('+')}: ${preview(c.answer)}`).join(' vs ');
  return row;
}

/** Builds the cross-checked rows of every dataset from the reports. */
export function buildRows(reports: readonly WorkerReport[]): Row[] {
  const rows: Row[] = [];
  const datasets = [...new Set(reports.map((r) => r.dataset))];
  for (const d of datasets) {
    const rs = reports.filter((r) => r.dataset === d);
    const names = [...new Set(rs.flatMap((r) => r.results.map((m) => m.workload)))];
    for (const name of names) {
      const ms: Partial<Record<EngineName, Measurement>> = {};
      for (const r of rs) {
        const m = r.results.find((x) => x.workload === name);
        if (m) ms[r.engine] = m;
      }
      const q = QUERIES.find((w) => w.name === name);
      rows.push(crossCheck(d, name, q ? q.group : 'algorithm', ms));
    }
  }
  return rows;
}

export function fmtMs(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 10) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(0)} µs`;
}

/** graphdb's warm time over the peer's, when both answered correctly. */
export function ratio(row: Row, peer: EngineName, which: 'warmMs' | 'coldMs' | 'cpuMs' = 'warmMs'): number | undefined {
  const a = row.cells.graphdb;
  const b = row.cells[peer];
  if (!a || !b || a.status !== 'ok' || b.status !== 'ok') return undefined;
  if (a.verdict === 'WRONG' || b.verdict === 'WRONG' || a.verdict === 'DISAGREE' || b.verdict === 'DISAGREE') return undefined;
  const x = a[which];
  const y = b[which];
  return x !== undefined && y !== undefined && y > 0 ? x / y : undefined;
}

export function geomean(xs: readonly number[]): number | undefined {
  if (xs.length === 0) return undefined;
  return Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
}

const fmtRatio = (r: number | undefined): string => (r === undefined ? '' : r >= 10 ? `${r.toFixed(0)}×` : `${r.toFixed(2)}×`);

function cell(m: (Measurement & { verdict: Verdict }) | undefined, which: 'warmMs' | 'coldMs' | 'cpuMs'): string {
  if (!m) return '–';
  if (m.status === 'n/a') return 'not available';
  if (m.status === 'error') return 'ERROR';
  const t = fmtMs(m[which]);
  return m.verdict === 'WRONG' ? `WRONG (${t})` : m.verdict === 'DISAGREE' ? `DISAGREE (${t})` : t;
}

function table(header: string[], body: string[][]): string {
  const line = (c: readonly string[]): string => `| ${c.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/** Everything the Markdown report needs besides the rows. */
export interface RunInfo {
  date: string;
  mode: string;
  commit: string;
  machine: string;
  datasets: { name: string; description: string }[];
}

export const PEERS: readonly EngineName[] = ['kuzu', 'grafeo'];

/** Geometric means of graphdb/peer per peer, over rows selected by `pick`. */
export function summary(rows: readonly Row[], pick: (r: Row) => boolean): Record<string, { g?: number; n: number }> {
  const out: Record<string, { g?: number; n: number }> = {};
  for (const p of PEERS) {
    const rs = rows.filter(pick).map((r) => ratio(r, p)).filter((x): x is number => x !== undefined);
    out[p] = { g: geomean(rs), n: rs.length };
  }
  return out;
}

export function markdown(rows: readonly Row[], reports: readonly WorkerReport[], info: RunInfo): string {
  const out: string[] = [];
  out.push(`# graphdb vs peers — ${info.date} (${info.mode})`, '');
  out.push(`Commit \`${info.commit}\`; ${info.machine}. Times are medians of warm runs, after up to 1 s of untimed warm-up runs (at most 10 000) (cold = first run, including graphdb's compile and Kuzu's prepare). Ratio = graphdb time / peer time: below 1 graphdb is faster. A ratio is left out where either answer is wrong. graphdb runs from the compiled \`dist/\` (no TypeScript loader in its process); the peers' adapters run under tsx.`, '');
  for (const d of info.datasets) out.push(`- **${d.name}**: ${d.description}`);
  out.push('', '## Geometric mean of graphdb/peer (warm)', '');
  const snb = rows.filter((r) => r.group !== 'algorithm');
  const datasets = [...new Set(snb.map((r) => r.dataset))];
  const groups: [string, (r: Row) => boolean][] = [
    ['whole query suite', () => true],
    ['short reads (IS1–IS7) + writes', (r) => r.group === 'short read' || r.group === 'write'],
    ['queries', (r) => r.group === 'query'],
    ['complex reads', (r) => r.group === 'complex read'],
  ];
  const gm: string[][] = [];
  for (const d of datasets) {
    for (const [label, pick] of groups) {
      const s = summary(snb, (r) => r.dataset === d && pick(r));
      gm.push([d, label, ...PEERS.map((p) => `${fmtRatio(s[p].g)} (${s[p].n})`)]);
    }
  }
  out.push(table(['dataset', 'workloads', ...PEERS.map((p) => `graphdb/${p} (n)`)], gm), '');

  for (const d of datasets) {
    out.push(`## Queries — ${d}`, '');
    const body = snb
      .filter((r) => r.dataset === d)
      .map((r) => [
        r.workload,
        r.group,
        ...(['graphdb', ...PEERS] as EngineName[]).map((e) => cell(r.cells[e], 'warmMs')),
        ...PEERS.map((p) => fmtRatio(ratio(r, p))),
        ...(['graphdb', ...PEERS] as EngineName[]).map((e) => cell(r.cells[e], 'coldMs')),
        verdictText(r),
      ]);
    out.push(
      table(
        ['workload', 'group', 'graphdb', 'kuzu', 'grafeo', 'graphdb/kuzu', 'graphdb/grafeo', 'graphdb cold', 'kuzu cold', 'grafeo cold', 'answers'],
        body,
      ),
      '',
    );
  }
  out.push(...cpuSection(snb, datasets), '');
  if (datasets.length > 1) out.push(...growthSection(snb, datasets), '');
  const algos = rows.filter((r) => r.group === 'algorithm');
  if (algos.length) {
    out.push(`## Algorithms — ${algos[0].dataset}`, '');
    const engines: EngineName[] = ['graphdb', 'kuzu', 'grafeo', 'graphology'];
    const algoPeers: EngineName[] = ['kuzu', 'grafeo', 'graphology'];
    out.push(
      table(
        ['algorithm', ...engines, ...algoPeers.map((p) => `graphdb/${p}`), 'checked', 'answers'],
        algos.map((r) => [
          r.workload,
          ...engines.map((e) => cell(r.cells[e], 'warmMs')),
          ...algoPeers.map((p) => fmtRatio(ratio(r, p))),
          ALGO_CHECKS[r.workload as AlgoName] ?? '',
          verdictText(r),
        ]),
      ),
      '',
    );
    const means = algoPeers.map((p) => {
      const rs = algos.map((r) => ratio(r, p)).filter((x): x is number => x !== undefined);
      return `graphdb/${p} ${fmtRatio(geomean(rs)) || 'n/a'} (${rs.length})`;
    });
    out.push(`Geometric mean over the algorithms with agreeing answers: ${means.join(', ')}.`, '');
  }
  out.push('## Load time and memory', '');
  out.push(
    table(
      ['dataset', 'engine', 'load', 'RSS after load', 'RSS growth', 'JS heap after load'],
      reports.map((r) => [
        r.dataset,
        r.engine,
        fmtMs(r.loadMs),
        `${r.rssAfterMB.toFixed(0)} MB`,
        `${(r.rssAfterMB - r.rssBeforeMB).toFixed(0)} MB`,
        `${r.heapAfterMB.toFixed(0)} MB`,
      ]),
    ),
    '',
  );
  const bad = rows.filter((r) => r.mismatch);
  if (bad.length) {
    out.push('## Answer mismatches', '');
    for (const r of bad) out.push(`- **${r.dataset} / ${r.workload}**: ${r.mismatch}`);
    out.push('');
  }
  const errors = rows.flatMap((r) => (Object.entries(r.cells) as [EngineName, Measurement][]).filter(([, m]) => m.status === 'error').map(([e, m]) => `- **${r.dataset} / ${r.workload} / ${e}**: ${m.error}`));
  if (errors.length) out.push('## Errors', '', ...errors, '');
  return out.join('\n');
}

/**
 * Process CPU time per warm run beside the wall time: on a machine shared with other work a
 * single-threaded engine gets a smaller share of the cores than one that runs a query on
 * several threads, so wall-time ratios there lean against graphdb; CPU time (every thread of
 * the engine's process, so a parallel engine's threads all count) shows the work done.
 */
function cpuSection(snb: readonly Row[], datasets: readonly string[]): string[] {
  const out = ['## CPU time per warm run (median; process CPU over all threads, user + system)', ''];
  const body = datasets.flatMap((d) =>
    snb
      .filter((r) => r.dataset === d && r.group !== 'short read' && r.group !== 'write')
      .map((r) => [d, r.workload, ...(['graphdb', ...PEERS] as EngineName[]).map((e) => cell(r.cells[e], 'cpuMs')), ...PEERS.map((p) => fmtRatio(ratio(r, p, 'cpuMs')))]),
  );
  out.push(table(['dataset', 'workload', 'graphdb', 'kuzu', 'grafeo', 'graphdb/kuzu', 'graphdb/grafeo'], body));
  return out;
}

function verdictText(r: Row): string {
  const v = Object.entries(r.cells).filter(([, m]) => m.verdict !== 'n/a');
  if (v.every(([, m]) => m.verdict === 'ok')) return 'agree';
  return v
    .filter(([, m]) => m.verdict !== 'ok')
    .map(([e, m]) => `${e}: ${m.verdict}`)
    .join(', ');
}

/** A horizontal bar chart of log2(graphdb/peer) per workload for one dataset. */
export function svgChart(rows: readonly Row[], dataset: string, title: string): string {
  const rs = rows.filter((r) => r.dataset === dataset && r.group !== 'algorithm');
  const colours: Record<string, string> = { kuzu: '#d95f02', grafeo: '#1b9e77' };
  const barH = 9;
  const rowH = PEERS.length * barH + 8;
  const left = 190;
  const width = 760;
  const plotW = width - left - 30;
  const top = 50;
  const height = top + rs.length * rowH + 50;
  const maxLog = Math.max(3, ...rs.flatMap((r) => PEERS.map((p) => Math.abs(Math.log2(ratio(r, p) ?? 1))))) + 0.5;
  const x = (lg: number): number => left + plotW / 2 + (lg / maxLog) * (plotW / 2);
  const esc = (s: string): string => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`);
  parts.push(`<rect width="100%" height="100%" fill="white"/>`);
  parts.push(`<text x="${width / 2}" y="18" text-anchor="middle" font-size="14">${esc(title)}</text>`);
  parts.push(`<text x="${width / 2}" y="34" text-anchor="middle" fill="#555">graphdb time / peer time (log scale; left of 1× graphdb is faster)</text>`);
  for (let lg = -Math.floor(maxLog); lg <= Math.floor(maxLog); lg++) {
    const xx = x(lg);
    parts.push(`<line x1="${xx}" y1="${top - 4}" x2="${xx}" y2="${height - 40}" stroke="${lg === 0 ? '#000' : '#ddd'}"/>`);
    const label = lg >= 0 ? `${2 ** lg}×` : `1/${2 ** -lg}`;
    parts.push(`<text x="${xx}" y="${height - 28}" text-anchor="middle" fill="#555">${label}</text>`);
  }
  rs.forEach((r, i) => {
    const y0 = top + i * rowH;
    parts.push(`<text x="${left - 6}" y="${y0 + rowH / 2 + 3}" text-anchor="end">${esc(r.workload)}</text>`);
    PEERS.forEach((p, k) => {
      const rr = ratio(r, p);
      const y = y0 + k * barH + 2;
      if (rr === undefined) {
        const v = r.cells[p]?.verdict ?? r.cells.graphdb?.verdict;
        parts.push(`<text x="${x(0) + 4}" y="${y + barH - 1}" fill="#b00" font-size="9">${esc(p)}: ${esc(String(v ?? 'missing'))}</text>`);
        return;
      }
      const lg = Math.log2(rr);
      const x1 = Math.min(x(0), x(lg));
      parts.push(`<rect x="${x1.toFixed(1)}" y="${y}" width="${Math.abs(x(lg) - x(0)).toFixed(1)}" height="${barH - 1}" fill="${colours[p]}"><title>${esc(p)}: ${rr.toFixed(3)}×</title></rect>`);
    });
  });
  const ly = height - 12;
  PEERS.forEach((p, k) => {
    parts.push(`<rect x="${left + k * 120}" y="${ly - 9}" width="10" height="10" fill="${colours[p]}"/><text x="${left + k * 120 + 14}" y="${ly}">vs ${p}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** Nodes + relationships of a dataset, read from its name (`snb-50k` → 50 thousand persons). */
function personsOf(dataset: string): number {
  const m = /(\d+)k$/.exec(dataset);
  return m ? Number(m[1]) * 1000 : Number.NaN;
}

/**
 * How each workload's warm time grows from the smallest SNB-like dataset to each larger one,
 * per engine, next to how much the data grew: a ratio near the data's growth is linear.
 */
function growthSection(rows: readonly Row[], datasets: readonly string[]): string[] {
  const sized = [...datasets].sort((a, b) => personsOf(a) - personsOf(b));
  const base = sized[0];
  const engines: EngineName[] = ['graphdb', ...PEERS];
  const out = ['## Growth with data size (warm time ÷ the same workload on ' + base + ')', ''];
  const workloads = [...new Set(rows.filter((r) => r.dataset === base).map((r) => r.workload))];
  const headers = ['workload', ...sized.slice(1).flatMap((d) => engines.map((e) => `${e} ${d}`))];
  const body = workloads.map((w) => {
    const at = (d: string) => rows.find((r) => r.dataset === d && r.workload === w);
    const cells = sized.slice(1).flatMap((d) =>
      engines.map((e) => {
        const from = at(base)?.cells[e]?.warmMs;
        const to = at(d)?.cells[e]?.warmMs;
        return from && to ? `${(to / from).toFixed(1)}×` : '';
      }),
    );
    return [w, ...cells];
  });
  out.push(table(headers, body), '');
  out.push(`Data growth: ${sized.slice(1).map((d) => `${d} is ${(personsOf(d) / personsOf(base)).toFixed(0)}× ${base}`).join('; ')}.`);
  return out;
}

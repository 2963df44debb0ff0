/**
 * The TCK runner's command line:
 *
 *   tsx test/tck/main.ts [FEATURES_DIR] [--filter <text>] [--report <file>]
 *                        [--ratchet <baseline.json> [--update-baseline]] [--verbose]
 *
 * FEATURES_DIR defaults to $GRAPHDB_TCK_DIR, else `../shared/tck/features` from the repo
 * root; named graphs are read from its sibling `graphs`. Prints one summary line per
 * feature folder and, as the last line, `TCK: <passed>/<total> scenarios passed`.
 * `--ratchet` fails the run (exit 1) when a scenario the baseline records as passing no longer
 * passes (ratchet.ts); with `--update-baseline` a run that lost none writes the scenarios
 * passing now back. The engine is imported only
 * after the features are found, so a missing engine or parser is reported plainly.
 */

import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenarios, type TckScenario } from './features.js';
import type { ScenarioOutcome, RunOptions } from './scenario.js';
import { baselineText, compareWithBaseline, parseBaseline, scenarioIds, type Baseline } from './ratchet.js';

const QUERY_TIMEOUT_MS = 10_000;

interface CliOptions {
  featuresDir: string;
  filter?: string;
  report?: string;
  ratchet?: string;
  updateBaseline: boolean;
  verbose: boolean;
}

class UsageError extends Error {}

function repoRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}

function parseArgs(argv: string[]): CliOptions {
  let featuresDir: string | undefined;
  const opts: Omit<CliOptions, 'featuresDir'> = { updateBaseline: false, verbose: false };
  const takeValue = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    switch (a) {
      case '--filter': opts.filter = takeValue(i++, a); break;
      case '--report': opts.report = takeValue(i++, a); break;
      case '--ratchet': opts.ratchet = takeValue(i++, a); break;
      case '--update-baseline': opts.updateBaseline = true; break;
      case '--verbose': opts.verbose = true; break;
      case '--help':
      case '-h':
        throw new UsageError('');
      default:
        if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
        if (featuresDir !== undefined) throw new UsageError(`unexpected argument ${a}`);
        featuresDir = a;
    }
  }
  featuresDir ??= process.env['GRAPHDB_TCK_DIR'] || resolve(repoRoot(), '..', 'shared', 'tck', 'features');
  return { featuresDir: resolve(featuresDir), ...opts };
}

const USAGE = 'usage: npm run tck -- [FEATURES_DIR] [--filter <text>] [--report <file>] [--ratchet <baseline.json> [--update-baseline]] [--verbose]';

interface Failure {
  scenario: TckScenario;
  outcome: ScenarioOutcome;
}

/** Groups a failure reason for the histogram: drops free-text messages, keeps kinds and codes. */
export function reasonGroup(reason: string): string {
  const m = /^(unexpected error|setup query failed|graph setup failed|runner crash|procedure setup failed): ([^:]+(?:: [A-Za-z]+Error)?)/.exec(reason);
  if (m) return `${m[1]!}: ${m[2]!}`;
  if (reason.startsWith('result mismatch')) return reason.startsWith('result mismatch: expected empty') ? 'result mismatch: expected empty' : reason.includes('rows, got') ? 'result mismatch: row count' : 'result mismatch: values';
  if (reason.startsWith('columns mismatch')) return 'columns mismatch';
  if (reason.startsWith('side effects mismatch')) return 'side effects mismatch';
  if (reason.startsWith('unsupported step')) return reason;
  return reason.length > 160 ? `${reason.slice(0, 160)}…` : reason;
}

function histogram(failures: Failure[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const f of failures) {
    const g = reasonGroup(f.outcome.reason ?? 'unknown');
    counts.set(g, (counts.get(g) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function writeReport(path: string, failures: Failure[], passed: number, total: number): void {
  const lines: string[] = [`TCK report: ${passed}/${total} scenarios passed, ${failures.length} failed`, '', 'Failure reasons (grouped):'];
  for (const [g, n] of histogram(failures)) lines.push(`${String(n).padStart(6)}  ${g}`);
  lines.push('', 'Failing scenarios (file:line | scenario | reason):', '');
  for (const f of failures) {
    lines.push(`FAIL ${f.scenario.file}:${f.scenario.line} | ${f.scenario.name} | ${f.outcome.reason ?? ''}`);
    if (f.outcome.detail) for (const d of f.outcome.detail.split('\n')) lines.push(`    ${d}`);
    lines.push('');
  }
  writeFileSync(path, lines.join('\n'));
}

async function main(): Promise<number> {
  let opts: CliOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    if (err instanceof UsageError) {
      if (err.message) console.error(err.message);
      console.error(USAGE);
      return 2;
    }
    throw err;
  }

  if (!existsSync(opts.featuresDir) || !statSync(opts.featuresDir).isDirectory()) {
    console.error(`TCK features not found at ${opts.featuresDir}.`);
    console.error('Put the openCypher TCK there, pass its features folder as an argument, or set GRAPHDB_TCK_DIR.');
    return 2;
  }
  if (opts.ratchet && opts.filter) {
    console.error('--ratchet compares a full run with the baseline; it cannot be combined with --filter.');
    return 2;
  }

  let scenarios = loadScenarios(opts.featuresDir);
  if (scenarios.length === 0) {
    console.error(`No TCK scenarios found under ${opts.featuresDir}.`);
    return 2;
  }
  if (opts.filter) {
    const f = opts.filter;
    scenarios = scenarios.filter((s) => s.file.includes(f) || s.name.includes(f));
  }

  let runScenario: (sc: TckScenario, o: RunOptions) => ScenarioOutcome;
  try {
    ({ runScenario } = await import('./scenario.js'));
    // tsx's require() would load a second copy of a lazy module (and of the error classes it
    // throws), so the engine's lazy modules are loaded here through import() first.
    await (await import('../../src/lazy-module.js')).preloadLazyModules();
  } catch (err) {
    console.error(`Cannot load the engine: ${err instanceof Error ? err.message : String(err)}`);
    console.error('Is the generated parser there? Run `npm run build:grammar` first.');
    return 2;
  }

  const runOpts: RunOptions = { graphsDir: resolve(opts.featuresDir, '..', 'graphs'), queryTimeoutMs: QUERY_TIMEOUT_MS };
  const byFolder = new Map<string, { passed: number; total: number }>();
  const failures: Failure[] = [];
  const timings: { scenario: TckScenario; ms: number }[] = [];
  let passed = 0;
  const ids = scenarioIds(scenarios);
  const passing: string[] = [];
  for (const [index, sc] of scenarios.entries()) {
    let outcome: ScenarioOutcome;
    try {
      outcome = runScenario(sc, runOpts);
    } catch (err) {
      outcome = { passed: false, reason: `runner crash: ${err instanceof Error ? err.message : String(err)}`, ms: 0 };
    }
    const folder = byFolder.get(sc.folder) ?? { passed: 0, total: 0 };
    folder.total++;
    if (outcome.passed) {
      folder.passed++;
      passed++;
      passing.push(ids[index]);
    } else {
      failures.push({ scenario: sc, outcome });
    }
    byFolder.set(sc.folder, folder);
    timings.push({ scenario: sc, ms: outcome.ms });
  }
  const total = scenarios.length;

  const folders = [...byFolder.keys()].sort();
  const width = Math.max(...folders.map((f) => f.length));
  for (const f of folders) {
    const c = byFolder.get(f)!;
    console.log(`${f.padEnd(width)}  ${c.passed}/${c.total}`);
  }

  if (opts.verbose) {
    console.log('');
    console.log('Slowest scenarios:');
    for (const t of [...timings].sort((a, b) => b.ms - a.ms).slice(0, 5)) {
      console.log(`  ${t.ms.toFixed(0).padStart(7)} ms  ${t.scenario.file}:${t.scenario.line}  ${t.scenario.name}`);
    }
    console.log('');
    console.log('Failure reasons (grouped):');
    for (const [g, n] of histogram(failures)) console.log(`  ${String(n).padStart(5)}  ${g}`);
    console.log('');
  }

  if (opts.report) {
    writeReport(resolve(opts.report), failures, passed, total);
    console.log(`Report of ${failures.length} failing scenarios written to ${opts.report}`);
  }

  let code = 0;
  if (opts.ratchet) {
    const path = resolve(opts.ratchet);
    let baseline: Baseline | undefined;
    try {
      baseline = parseBaseline(readFileSync(path, 'utf8'));
    } catch (err) {
      console.error(`Cannot read baseline ${opts.ratchet}: ${err instanceof Error ? err.message : String(err)}`);
      code = 1;
    }
    if (baseline !== undefined) {
      const outcome = compareWithBaseline(baseline, passing);
      for (const line of outcome.lines) console.log(line);
      if (!outcome.ok) code = 1;
      else if (opts.updateBaseline && (baseline.scenarios === undefined || outcome.gained.length > 0)) {
        writeFileSync(path, baselineText(passing));
        console.log(`Baseline now records the ${passing.length} scenarios passing`);
      }
    }
  }

  console.log(`TCK: ${passed}/${total} scenarios passed`);
  return code;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exitCode = 2;
  },
);

#!/usr/bin/env node
// `npm test`: the build (which type-checks the Node sources and the tests: tsconfig.json), then
// the other static checks (the web console's and the browser build's type-check, lint) and the
// TCK ratchet at low CPU priority beside the vitest files that must run one at a time, then every
// other vitest file, several at once.
//
// Why this order: the files of vitest's 'alone' project (vitest.config.ts) assert how quickly a
// server answers beside a heavy query, so they run one after another with nothing else of the
// suite beside them, and on 2 cores that left one core idle for a minute and a half. The checks
// need no timing, so they take that core, at a lower priority (nice 10) so that the timed files
// keep the CPU whenever they want it. Every stage runs even when an earlier one failed; the run
// fails when any did, and ends with each stage's duration.
//
//   node scripts/run-tests.mjs [--no-build]
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The checks' priority: below the tests', so they only use CPU the tests leave. */
const CHECKS_NICE = 10;

/** Runs a command to its end; resolves to its exit status. `capture` buffers its output for later. */
function run(command, args, { capture = false } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks = [];
    if (capture) {
      child.stdout.on('data', (d) => chunks.push(d));
      child.stderr.on('data', (d) => chunks.push(d));
    }
    child.on('error', (err) => {
      chunks.push(Buffer.from(`${command}: ${err.message}\n`));
      done({ status: 1, output: Buffer.concat(chunks).toString('utf8') });
    });
    child.on('close', (code, signal) => done({ status: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') }));
  });
}

const results = [];
async function stage(name, work) {
  const started = performance.now();
  const status = await work();
  results.push({ name, status, seconds: (performance.now() - started) / 1000 });
  return status;
}

const vitest = (project) => run(process.execPath, [resolve(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--project', project]);

/** The checks, one after another at low priority (their output is printed when they finish, not mixed into vitest's). */
async function checks() {
  const r = await run(process.execPath, [fileURLToPath(import.meta.url), '--checks-child'], { capture: true });
  process.stdout.write(`\n── web type-check, lint and TCK (run beside the 'alone' files) ──\n${r.output}`);
  return r.status;
}

async function checksChild() {
  // Set before anything starts, so every process the checks start inherits it.
  try {
    setPriority(0, CHECKS_NICE);
  } catch {
    // Not permitted here (some containers): the checks run at normal priority.
  }
  let failed = 0;
  for (const [label, args] of [
    ['typecheck:web', ['run', 'typecheck:web', '--silent']],
    ['lint', ['run', 'lint', '--silent']],
  ]) {
    const started = performance.now();
    const r = await run(npm, args, { capture: true });
    process.stdout.write(`[${label}] ${r.status === 0 ? 'ok' : `FAILED (exit ${r.status})`} in ${((performance.now() - started) / 1000).toFixed(0)} s\n${r.output}`);
    if (r.status !== 0) failed = 1;
  }
  const tck = await run(process.execPath, [resolve(root, 'scripts', 'tck-stage.mjs')], { capture: true });
  process.stdout.write(`[tck] ${tck.status === 0 ? 'ok' : `FAILED (exit ${tck.status})`}\n${tck.output}`);
  return failed || tck.status;
}

async function main() {
  if (process.argv.includes('--checks-child')) return checksChild();
  if (!process.argv.includes('--no-build')) {
    const built = await stage('build', () => run(npm, ['run', 'build', '--silent']).then((r) => r.status));
    if (built !== 0) {
      process.stderr.write('npm test: the build failed; nothing else was run\n');
      return built;
    }
  }
  await Promise.all([stage("vitest 'alone' files", () => vitest('alone').then((r) => r.status)), stage('web type-check, lint, TCK (nice)', checks)]);
  await stage("vitest 'shared' files", () => vitest('shared').then((r) => r.status));
  process.stdout.write('\nnpm test stages:\n');
  for (const r of results) process.stdout.write(`  ${r.status === 0 ? 'ok    ' : 'FAILED'} ${r.name.padEnd(32)} ${r.seconds.toFixed(0).padStart(5)} s\n`);
  return results.some((r) => r.status !== 0) ? 1 : 0;
}

process.exitCode = await main();

#!/usr/bin/env node
// `npm test`: the build (which type-checks the Node sources and the tests: tsconfig.json) with
// lint beside it; then vitest's 'alone' files (vitest.config.ts) with, beside them, the remaining
// static checks (the web console's and the browser build's type-check, the package declarations
// as a consumer sees them: scripts/check-declarations.mjs) and the TCK ratchet; then vitest's
// other files, several at once. Lint and the checks run at low CPU priority (nice 10).
//
// Why: the build's type-check and the 'alone' files each keep one core busy and leave the other
// idle (the 'alone' files assert how quickly a server answers beside a heavy query, so they run
// one after another with no other test beside them). Lint and the checks need no timing, so they
// take that idle core, at a priority low enough that the build and the timed files keep the CPU
// whenever they want it. (Running the other vitest files beside the 'alone' ones too, even at
// nice 10, made those timings fail at load 18.) Every stage runs even when another failed (but
// nothing runs after a failed build); the run fails when any did, and ends with each stage's
// duration. Output of the stages that run beside another is printed as a block when each ends,
// so that the two do not interleave.
//
//   node scripts/run-tests.mjs [--no-build]
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const vitestBin = resolve(root, 'node_modules', 'vitest', 'vitest.mjs');
/** The checks' priority: below the 'alone' files', so the checks only use CPU those leave. */
const BACKGROUND_NICE = 10;

/** Runs a command to its end; resolves to its exit status, with its output when `capture` buffers it. */
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

/** `run` at BACKGROUND_NICE: through this script, which lowers its own priority before it starts the command, so that every process the command starts inherits it. */
const runInBackground = (command, args, options) => run(process.execPath, [self, '--nice-child', command, ...args], options);

async function niceChild(command, args) {
  try {
    setPriority(0, BACKGROUND_NICE);
  } catch {
    // Not permitted here (some containers): the command runs at normal priority.
  }
  return (await run(command, args)).status;
}

const results = [];
async function stage(name, work) {
  const started = performance.now();
  const status = await work();
  results.push({ name, status, seconds: (performance.now() - started) / 1000 });
  return status;
}

/** Commands run one after another at BACKGROUND_NICE; their output as one block when they end. */
async function inBackground(title, commands) {
  const lines = [];
  let failed = 0;
  for (const [label, command, args] of commands) {
    const started = performance.now();
    const r = await runInBackground(command, args, { capture: true });
    lines.push(`[${label}] ${r.status === 0 ? 'ok' : `FAILED (exit ${r.status})`} in ${((performance.now() - started) / 1000).toFixed(0)} s\n${r.output}`);
    if (r.status !== 0) failed = 1;
  }
  process.stdout.write(`\n── ${title} ──\n${lines.join('')}\n`);
  return failed;
}

const lint = () => inBackground('lint', [['lint', npm, ['run', 'lint', '--silent']]]);

/** The web type-check, the package declarations and the TCK. The declarations need the build. */
const checks = () =>
  inBackground('web type-check, declarations and TCK', [
    ['typecheck:web', npm, ['run', 'typecheck:web', '--silent']],
    ['declarations', process.execPath, [resolve(root, 'scripts', 'check-declarations.mjs')]],
    ['tck', process.execPath, [resolve(root, 'scripts', 'tck-stage.mjs')]],
  ]);

async function aloneFiles() {
  const r = await run(process.execPath, [vitestBin, 'run', '--project', 'alone'], { capture: true });
  process.stdout.write(`\n── vitest 'alone' files ──\n${r.output}\n`);
  return r.status;
}

async function main() {
  const at = process.argv.indexOf('--nice-child');
  if (at >= 0) return niceChild(process.argv[at + 1], process.argv.slice(at + 2));
  const linted = stage(`lint (nice ${BACKGROUND_NICE})`, lint);
  if (!process.argv.includes('--no-build')) {
    const built = await stage('build', async () => (await run(npm, ['run', 'build', '--silent'])).status);
    if (built !== 0) {
      await linted;
      process.stderr.write('npm test: the build failed; no test was run\n');
      return 1;
    }
  }
  await Promise.all([stage("vitest 'alone' files", aloneFiles), stage(`web type-check, declarations, TCK (nice ${BACKGROUND_NICE})`, checks)]);
  await stage("vitest 'shared' files", async () => (await run(process.execPath, [vitestBin, 'run', '--project', 'shared'])).status);
  await linted;
  process.stdout.write('\nnpm test stages (lint ran beside the build, the checks beside the \'alone\' files):\n');
  for (const r of results) process.stdout.write(`  ${r.status === 0 ? 'ok    ' : 'FAILED'} ${r.name.padEnd(44)} ${r.seconds.toFixed(0).padStart(5)} s\n`);
  return results.some((r) => r.status !== 0) ? 1 : 0;
}

process.exitCode = await main();

/**
 * The "main thread freeze" check of the attack tests: a separate probe process polls a
 * server's `/health` every INTERVAL_MS (a fresh connection each time, as a load balancer's
 * probe does) while an attack runs, and reports every answer slower than the threshold. Its
 * own process keeps the measure honest: the test runner's event loop being busy does not
 * delay the probe's clock, and the server's main thread is the only one between each request
 * and its answer. A request still unanswered when the probe stops counts with its wait so far.
 * On a loaded machine the probe itself may be kept off the CPU: a ticker every TICK_MS
 * measures how long its own event loop stalled during each request, and that stall is not
 * the server's, so it is taken off the answer's time.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { expect } from 'vitest';

/** Poll period and the slowest answer allowed, per issue 26. */
export const PROBE_INTERVAL_MS = 50;
export const PROBE_MAX_MS = 250;

export interface ProbeReport {
  /** Answers received. */
  polls: number;
  /** The slowest answer (or unanswered wait) in ms. */
  maxMs: number;
  /** Answers (or unanswered waits) over the threshold, in ms, in order. */
  slow: number[];
  /** Requests that failed (refused, reset) or answered with a status other than 200. */
  failures: string[];
}

export interface FreezeProbe {
  /** Stops polling and reports. */
  stop(): Promise<ProbeReport>;
}

/** The probe process: polls, prints one `ms` line per answer, and on "stop" on stdin prints a `pending` line for a request in flight, then exits. */
const PROBE_SCRIPT = `
const http = require('node:http');
const [port, interval] = process.argv.slice(1).map(Number);
const TICK_MS = 5;
let stopping = false;
let inflight;
// The longest stall of this process's own event loop since the current request went out.
let lastTick = performance.now();
let stall = 0;
setInterval(() => {
  const now = performance.now();
  stall = Math.max(stall, now - lastTick - TICK_MS);
  lastTick = now;
}, TICK_MS);
function poll() {
  if (stopping) return;
  const started = performance.now();
  stall = 0;
  const req = http.get({ host: '127.0.0.1', port, path: '/health', agent: false }, (res) => {
    res.resume();
    res.on('end', () => {
      inflight = undefined;
      const total = performance.now() - started;
      const ms = Math.max(0, total - stall);
      process.stdout.write((res.statusCode === 200 ? 'ms ' + ms.toFixed(1) : 'fail status ' + res.statusCode + ' ' + ms.toFixed(1)) + ' ' + total.toFixed(1) + '\\n');
      setTimeout(poll, Math.max(0, interval - total));
    });
  });
  inflight = started;
  req.setTimeout(10000, () => req.destroy(new Error('no answer in 10 s')));
  req.on('error', (err) => {
    inflight = undefined;
    process.stdout.write('fail ' + err.message + ' ' + (performance.now() - started).toFixed(1) + '\\n');
    setTimeout(poll, interval);
  });
}
process.stdin.on('data', () => {
  stopping = true;
  if (inflight !== undefined) process.stdout.write('pending ' + (performance.now() - inflight).toFixed(1) + '\\n');
  process.stdout.write('done\\n', () => process.exit(0));
});
poll();
`;

/** Starts polling `http://127.0.0.1:<port>/health` from a process of its own; resolves once the first answer came. */
export async function startFreezeProbe(port: number, thresholdMs = PROBE_MAX_MS, intervalMs = PROBE_INTERVAL_MS): Promise<FreezeProbe> {
  const child: ChildProcess = spawn(process.execPath, ['-e', PROBE_SCRIPT, String(port), String(intervalMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let firstAnswer!: () => void;
  const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    if (out.includes('\n')) firstAnswer();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([answered, exited]);
  return {
    async stop(): Promise<ProbeReport> {
      child.stdin!.write('stop\n');
      const late = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(late);
      const report: ProbeReport = { polls: 0, maxMs: 0, slow: [], failures: [] };
      for (const line of out.split('\n')) {
        const [kind, ...rest] = line.split(' ');
        if (kind === 'ms' || kind === 'pending') {
          const ms = Number(rest[0]);
          if (kind === 'ms') report.polls++;
          report.maxMs = Math.max(report.maxMs, ms);
          if (ms > thresholdMs) report.slow.push(ms);
        } else if (kind === 'fail') {
          report.failures.push(rest.join(' '));
        }
      }
      return report;
    },
  };
}

/**
 * Runs `attack` while the probe polls, then expects no freeze: no answer over the threshold,
 * no failed probe, and polls all along. Returns what `attack` returned, and the report.
 */
export async function withoutFreeze<T>(port: number, attack: () => Promise<T>): Promise<{ value: T; report: ProbeReport }> {
  const probe = await startFreezeProbe(port);
  let value: T;
  try {
    value = await attack();
    // A freeze right at the end shows as a pending request: let a few more polls go out.
    await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS * 3));
  } catch (err) {
    await probe.stop();
    throw err;
  }
  const report = await probe.stop();
  expect(report.failures, 'failed /health probes').toEqual([]);
  expect(report.slow, `/health answers over ${PROBE_MAX_MS} ms (max ${report.maxMs.toFixed(0)} ms of ${report.polls})`).toEqual([]);
  expect(report.polls).toBeGreaterThan(0);
  return { value, report };
}

/**
 * The load test's liveness probe: GET /health on a new connection every `interval` ms, as an
 * orchestrator's probe does, appending each answer's seconds (5 for a failure or a timeout)
 * to `file`, one per line, until killed. One long-lived process instead of a `curl` per
 * probe, so that probing neither spends a process start's CPU on the machine under test nor
 * counts one in its latency, and can probe often enough for a p99 to mean something.
 *
 *   node dist/bench/http-load/probe.js <url> <file> [interval ms, default 20]
 */

import { appendFileSync } from 'node:fs';
import { request } from 'node:http';

const [url, file, every = '20'] = process.argv.slice(2);
if (url === undefined || file === undefined) {
  console.error('usage: probe.js <url> <file> [interval ms]');
  process.exit(2);
}
const interval = Number(every);
const TIMEOUT_MS = 5000;

/** Seconds from sending the request to the end of the answer, or 5 when it fails. */
function probeOnce(): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request(url, { agent: false, timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? (performance.now() - started) / 1000 : TIMEOUT_MS / 1000));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(TIMEOUT_MS / 1000));
    req.end();
  });
}

for (;;) {
  appendFileSync(file, `${(await probeOnce()).toFixed(6)}\n`);
  await new Promise((r) => setTimeout(r, interval));
}

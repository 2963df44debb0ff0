/**
 * How long the fuzzers run. CI runs the short form (a few seconds per target); setting
 * GRAPHDB_FUZZ_RUNS (e.g. 100000) runs the long form of every target on demand:
 *
 *   GRAPHDB_FUZZ_RUNS=100000 npx vitest run test/fuzz
 *
 * Each target prints how many cases it ran and how long they took, so a long run's
 * figures can be reported. Also here: the raw socket conversation the socket fuzzers share.
 */

import { connect } from 'node:net';
import fc from 'fast-check';

/** Cases per target: GRAPHDB_FUZZ_RUNS when set, else the target's short-form count. */
export function fuzzRuns(shortForm: number): number {
  const env = process.env.GRAPHDB_FUZZ_RUNS;
  const n = env === undefined || env === '' ? shortForm : Number(env);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : shortForm;
}

/** Whether the long form was asked for. */
export const LONG_FORM = process.env.GRAPHDB_FUZZ_RUNS !== undefined && process.env.GRAPHDB_FUZZ_RUNS !== '';

/**
 * The short form replays the same cases on every run (a fixed seed, or GRAPHDB_FUZZ_SEED), so
 * CI is repeatable; the long form draws a fresh seed each time to explore further.
 */
if (!LONG_FORM || process.env.GRAPHDB_FUZZ_SEED !== undefined) {
  fc.configureGlobal({ seed: Number(process.env.GRAPHDB_FUZZ_SEED ?? 20261123) | 0 });
}

/** A vitest timeout for `runs` cases of about `msPerCase` each (never under a minute). */
export function fuzzTimeout(runs: number, msPerCase: number): number {
  return Math.max(60_000, Math.ceil(runs * msPerCase));
}

/** Prints a target's figures: cases run and time taken (read by whoever runs the long form). */
export function reportFigures(target: string, cases: number, startedAt: number, extra = ''): void {
  const seconds = (performance.now() - startedAt) / 1000;
  process.stderr.write(`fuzz ${target}: ${cases} cases in ${seconds.toFixed(1)} s, no crash${extra ? `; ${extra}` : ''}\n`);
}

/** A connection the server has not closed this long after the client's FIN is a hang. */
const CLOSE_WAIT_MS = 20_000;

/** Sends `stream` in pieces, half-closes, and resolves with everything the server said once it closes. */
export function conversation(port: number, stream: Buffer, pieces: number[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the connection within ${CLOSE_WAIT_MS} ms of the client's end`));
    }, CLOSE_WAIT_MS);
    socket.on('data', (d: Buffer) => got.push(d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(got));
    });
    socket.on('connect', () => {
      let at = 0;
      for (const n of pieces) {
        if (at >= stream.length) break;
        socket.write(stream.subarray(at, at + n));
        at += n;
      }
      if (at < stream.length) socket.write(stream.subarray(at));
      socket.end();
    });
  });
}

/**
 * `text` with lone surrogates replaced by U+FFFD: generated strings may hold them, and
 * `encodeURIComponent` throws on them (a generator problem, not a finding).
 */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

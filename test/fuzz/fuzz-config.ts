/**
 * How long the fuzzers run. CI runs the short form (a few seconds per target); setting
 * GRAPHDB_FUZZ_RUNS (e.g. 100000) runs the long form of every target on demand:
 *
 *   GRAPHDB_FUZZ_RUNS=100000 npx vitest run test/fuzz
 *
 * Each target prints how many cases it ran and how long they took, so a long run's
 * figures can be reported.
 */

/** Cases per target: GRAPHDB_FUZZ_RUNS when set, else the target's short-form count. */
export function fuzzRuns(shortForm: number): number {
  const env = process.env.GRAPHDB_FUZZ_RUNS;
  const n = env === undefined || env === '' ? shortForm : Number(env);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : shortForm;
}

/** Whether the long form was asked for. */
export const LONG_FORM = process.env.GRAPHDB_FUZZ_RUNS !== undefined && process.env.GRAPHDB_FUZZ_RUNS !== '';

/** A vitest timeout for `runs` cases of about `msPerCase` each (never under a minute). */
export function fuzzTimeout(runs: number, msPerCase: number): number {
  return Math.max(60_000, Math.ceil(runs * msPerCase));
}

/** Prints a target's figures: cases run and time taken (read by whoever runs the long form). */
export function reportFigures(target: string, cases: number, startedAt: number, extra = ''): void {
  const seconds = (performance.now() - startedAt) / 1000;
  process.stderr.write(`fuzz ${target}: ${cases} cases in ${seconds.toFixed(1)} s, no crash${extra ? `; ${extra}` : ''}\n`);
}

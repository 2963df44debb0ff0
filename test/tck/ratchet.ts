/**
 * The TCK ratchet: the baseline records WHICH scenarios pass (and how many), and a run fails
 * when any recorded scenario no longer passes, even if as many others started to pass (a
 * count alone would let a regression hide behind a fix). A baseline that lists no
 * scenarios (the older form, a count only) is compared by count, with a hint to record them.
 */

/** What baseline.json holds. */
export interface Baseline {
  passed: number;
  /** The ids of the passing scenarios (`scenarioIds`), sorted. */
  scenarios?: string[];
}

export interface RatchetOutcome {
  ok: boolean;
  /** Recorded as passing, not passing now. */
  lost: string[];
  /** Passing now, not recorded. */
  gained: string[];
  /** What to print, one line each. */
  lines: string[];
}

/** A stable id per scenario: file and name, with `#n` for a name repeated in one file. */
export function scenarioIds(scenarios: readonly { file: string; name: string }[]): string[] {
  const seen = new Map<string, number>();
  return scenarios.map((s) => {
    const base = `${s.file}: ${s.name}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} #${n}`;
  });
}

/** Parses baseline.json; throws with the reason when it is not a baseline. */
export function parseBaseline(text: string): Baseline {
  const parsed = JSON.parse(text) as { passed?: unknown; scenarios?: unknown };
  if (typeof parsed.passed !== 'number') throw new Error('no numeric "passed" field');
  if (parsed.scenarios === undefined) return { passed: parsed.passed };
  if (!Array.isArray(parsed.scenarios) || !parsed.scenarios.every((s) => typeof s === 'string')) throw new Error('"scenarios" is not a list of scenario ids');
  return { passed: parsed.passed, scenarios: parsed.scenarios as string[] };
}

/** Compares the scenarios passing now with the baseline. */
export function compareWithBaseline(baseline: Baseline, passing: readonly string[]): RatchetOutcome {
  if (baseline.scenarios === undefined) {
    const ok = passing.length >= baseline.passed;
    return {
      ok,
      lost: [],
      gained: [],
      lines: [
        `Ratchet ${ok ? 'ok' : 'FAILED'}: ${passing.length} scenarios passed, baseline is ${baseline.passed} (a count only)`,
        'The baseline lists no scenarios: run `npm run tck:ratchet -- --update-baseline` to record which pass.',
      ],
    };
  }
  const now = new Set(passing);
  const before = new Set(baseline.scenarios);
  const lost = baseline.scenarios.filter((id) => !now.has(id));
  const gained = passing.filter((id) => !before.has(id)).sort();
  const lines = [`Ratchet ${lost.length === 0 ? 'ok' : 'FAILED'}: ${passing.length} scenarios passed, baseline is ${baseline.scenarios.length}; ${lost.length} no longer pass, ${gained.length} newly pass`];
  for (const id of lost.slice(0, 50)) lines.push(`  no longer passes: ${id}`);
  if (lost.length > 50) lines.push(`  ... and ${lost.length - 50} more`);
  return { ok: lost.length === 0, lost, gained, lines };
}

/** The baseline file's text for the scenarios passing now. */
export function baselineText(passing: readonly string[]): string {
  const scenarios = [...passing].sort();
  return `${JSON.stringify({ passed: scenarios.length, scenarios }, null, 1)}\n`;
}

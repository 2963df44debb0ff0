/** The TCK ratchet compares the set of passing scenarios, not only how many pass. */

import { describe, expect, it } from 'vitest';
import { baselineText, compareWithBaseline, parseBaseline, scenarioIds } from './ratchet.js';

describe('the TCK ratchet', () => {
  const ids = scenarioIds([
    { file: 'a.feature', name: '[1] one' },
    { file: 'a.feature', name: '[2] two' },
    { file: 'b.feature', name: '[1] one' },
    { file: 'b.feature', name: '[1] one' },
  ]);

  it('names each scenario by file and name, numbering a repeated name', () => {
    expect(ids).toEqual(['a.feature: [1] one', 'a.feature: [2] two', 'b.feature: [1] one', 'b.feature: [1] one #2']);
  });

  it('fails when a recorded scenario stops passing, even if as many others start to pass', () => {
    const baseline = parseBaseline(baselineText([ids[0], ids[1]]));
    expect(baseline).toEqual({ passed: 2, scenarios: [ids[0], ids[1]] });
    const outcome = compareWithBaseline(baseline, [ids[0], ids[2]]);
    expect(outcome.ok).toBe(false);
    expect(outcome.lost).toEqual([ids[1]]);
    expect(outcome.gained).toEqual([ids[2]]);
    expect(outcome.lines.join('\n')).toMatch(/FAILED.*\n {2}no longer passes: a\.feature: \[2\] two/);
  });

  it('passes when every recorded scenario still passes, reporting the new ones', () => {
    const outcome = compareWithBaseline(parseBaseline(baselineText([ids[1]])), [ids[0], ids[1], ids[3]]);
    expect(outcome).toMatchObject({ ok: true, lost: [], gained: [ids[0], ids[3]] });
  });

  it('compares a count-only baseline by count and says how to record the scenarios', () => {
    const baseline = parseBaseline('{"passed": 3}');
    expect(compareWithBaseline(baseline, [ids[0], ids[1]]).ok).toBe(false);
    const ok = compareWithBaseline(baseline, ids);
    expect(ok.ok).toBe(true);
    expect(ok.lines.join('\n')).toMatch(/--update-baseline/);
    expect(() => parseBaseline('{"passed": 1, "scenarios": [1]}')).toThrow(/not a list/);
  });
});

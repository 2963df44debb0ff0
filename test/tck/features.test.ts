/** Unit tests of the TCK runner's feature loading (test/tck/features.ts). */

import { describe, expect, it } from 'vitest';
import { parseFeature } from './features.js';

const FEATURE = `Feature: Demo

  Scenario: [1] Plain
    Given an empty graph
    When executing query:
      """
      RETURN 1 AS x
      """
    Then the result should be, in any order:
      | x |
      | 1 |
    And no side effects

  Scenario Outline: [2] Outline
    Given any graph
    When executing query:
      """
      RETURN <expr> AS x
      """
    Then the result should be, in any order:
      | x        |
      | <result> |

    Examples:
      | expr  | result    |
      | 'a\\|b' | 'a\\|b'   |
      | 2     | 2         |
`;

describe('parseFeature', () => {
  it('expands outlines over every Examples row and substitutes placeholders', () => {
    const scs = parseFeature(FEATURE, 'clauses/demo/Demo1.feature');
    expect(scs.map((s) => s.name)).toEqual(['[1] Plain', '[2] Outline [example 1]', '[2] Outline [example 2]']);
    expect(scs[0]!.folder).toBe('clauses/demo');
    expect(scs[0]!.steps.map((s) => s.text)).toEqual(['an empty graph', 'executing query:', 'the result should be, in any order:', 'no side effects']);
    expect(scs[1]!.steps[1]!.docString).toBe("RETURN 'a|b' AS x");
    expect(scs[1]!.steps[2]!.table).toEqual([['x'], ["'a|b'"]]);
    expect(scs[2]!.steps[2]!.table).toEqual([['x'], ['2']]);
  });
});

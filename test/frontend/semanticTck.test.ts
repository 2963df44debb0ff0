/**
 * Conformance of the semantic checker with the openCypher TCK: every scenario query is
 * parsed and checked. Queries the TCK expects to run (or to fail only at runtime) must not
 * be rejected by the checker — a false positive would break a working query — and queries
 * the TCK expects to fail at compile time with a semantic detail code (not rejected by the
 * parser already) should be rejected with that code. Both counts are printed; false
 * positives fail the test, misses only have to stay below a ceiling.
 */

import { describe, expect, it } from 'vitest';
import { loadScenarios, type TckScenario } from '../tck/features.js';
import { parseProcedureSignature } from '../tck/procedures.js';
import { tckFeaturesDir } from './tckQueries.js';
import { parseStatement } from '../../src/frontend/parser.js';
import { checkStatement, isAggregateFunctionName, type ProcedureSignature } from '../../src/frontend/semantic.js';
import { GraphDbError } from '../../src/errors.js';
import { lookupFunction } from '../../functions/registry.js';

/** Detail codes that are about the text's shape, which the parser (not the checker) reports. */
const SYNTAX_DETAILS = new Set([
  'InvalidNumberLiteral',
  'IntegerOverflow',
  'FloatingPointOverflow',
  'InvalidUnicodeLiteral',
  'InvalidUnicodeCharacter',
  'InvalidRelationshipPattern',
  'UnexpectedSyntax',
]);

/** Functions of openCypher that other modules (temporal, spatial) will register later. */
const LATER_FUNCTIONS = /^(date|datetime|localdatetime|time|localtime|duration)(\.\w+)?$|^(point|distance|point\.distance|exists)$/i;

function isKnownFunction(name: string): boolean {
  return lookupFunction(name) !== undefined || isAggregateFunctionName(name) || LATER_FUNCTIONS.test(name);
}

interface Expectation {
  phase: 'compile time' | 'runtime' | 'any time';
  type: string;
  detail: string;
}

function expectation(s: TckScenario): Expectation | undefined {
  for (const step of s.steps) {
    const m = /^an? (\w+) should be raised at (compile time|runtime|any time): (\w+)/.exec(step.text);
    if (m) return { type: m[1]!, phase: m[2] as Expectation['phase'], detail: m[3]! };
  }
  return undefined;
}

function procedures(s: TckScenario): Map<string, ProcedureSignature> {
  const out = new Map<string, ProcedureSignature>();
  for (const step of s.steps) {
    if (step.text.startsWith('there exists a procedure')) {
      const sig = parseProcedureSignature(step.text);
      out.set(sig.name, sig);
    }
  }
  return out;
}

type Outcome = { kind: 'parseError'; detail: string } | { kind: 'ok' } | { kind: 'error'; detail: string; message: string };

function run(query: string, procs: Map<string, ProcedureSignature>): Outcome {
  let stmt;
  try {
    stmt = parseStatement(query);
  } catch (err) {
    return { kind: 'parseError', detail: err instanceof GraphDbError ? err.detail : String(err) };
  }
  try {
    checkStatement(stmt, { isKnownFunction, lookupProcedure: (name) => procs.get(name) });
    return { kind: 'ok' };
  } catch (err) {
    if (err instanceof GraphDbError) return { kind: 'error', detail: err.detail, message: err.message };
    throw err;
  }
}

const dir = tckFeaturesDir();

describe.skipIf(dir === undefined)('semantic checker against the TCK', () => {
  it('rejects no valid query and catches the semantic compile-time errors', () => {
    const scenarios = loadScenarios(dir!);
    const falsePositives: string[] = [];
    const wrongDetail: string[] = [];
    const missed: string[] = [];
    let expectedErrors = 0;
    let caught = 0;
    let byParser = 0;
    let validChecked = 0;
    for (const s of scenarios) {
      const procs = procedures(s);
      const exp = expectation(s);
      for (const step of s.steps) {
        if (step.docString === undefined) continue;
        const isMain = step.text.startsWith('executing query');
        const isSetup = step.text.startsWith('having executed');
        if (!isMain && !isSetup) continue;
        const outcome = run(step.docString, procs);
        const where = `${s.file} ${s.name}\n    ${step.docString.trim().replace(/\s*\n\s*/g, ' ')}`;
        const expectsCompileError = isMain && exp !== undefined && exp.phase === 'compile time';
        if (!expectsCompileError) {
          if (outcome.kind === 'parseError') continue; // the parser's business
          validChecked++;
          if (outcome.kind === 'error') falsePositives.push(`${where}\n    -> ${outcome.detail}: ${outcome.message}`);
          continue;
        }
        if (SYNTAX_DETAILS.has(exp.detail) && outcome.kind !== 'error') {
          if (outcome.kind === 'parseError') byParser++;
          continue;
        }
        if (outcome.kind === 'parseError') {
          byParser++;
          continue;
        }
        expectedErrors++;
        if (outcome.kind === 'error' && outcome.detail === exp.detail) caught++;
        else if (outcome.kind === 'error') wrongDetail.push(`${where}\n    expected ${exp.detail}, got ${outcome.detail}: ${outcome.message}`);
        else missed.push(`${where}\n    expected ${exp.detail}`);
      }
    }
    const report = [
      `valid queries checked: ${validChecked}, false positives: ${falsePositives.length}`,
      `compile-time errors left to the checker: ${expectedErrors}, caught with the right detail: ${caught}, wrong detail: ${wrongDetail.length}, missed: ${missed.length} (already rejected by the parser: ${byParser})`,
    ].join('\n');
    console.log(report);
    if (process.env.SEMANTIC_TCK_VERBOSE) {
      console.log(['FALSE POSITIVES', ...falsePositives, 'WRONG DETAIL', ...wrongDetail, 'MISSED', ...missed].join('\n'));
    }
    expect(falsePositives, report + '\n' + falsePositives.join('\n')).toEqual([]);
    expect(wrongDetail.length + missed.length, report).toBeLessThanOrEqual(MAX_MISSES);
  });
});

/** Ceiling for expected errors not caught with the right detail; lower it as the checker improves. */
const MAX_MISSES = 3;

/**
 * Runs one TCK scenario against a fresh in-memory Database: interprets its steps in order
 * (graph setup, setup queries, parameters, test procedures, the query under test, then the
 * expectations on its result, error and side effects) and returns pass/fail with a short,
 * greppable reason and a longer detail for reports. Anything thrown inside the runner is
 * caught here and reported as the scenario's failure, so one scenario cannot end the run.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';
import type { Value } from '../../runtime/values.js';
import { compareResult, formatValue, type ExpectedTable, type ResultMode } from './compare.js';
import type { TckScenario, TckStep } from './features.js';
import { literalToValue, parseLiteral } from './literals.js';
import { buildProcedure, parseProcedureSignature } from './procedures.js';
import { compareSideEffects, diffSnapshots, noSideEffects, parseSideEffectsTable, snapshot, type GraphSnapshot, type SideEffects } from './sideEffects.js';

export interface RunOptions {
  /** Folder holding the named graphs (`<name>/<name>.cypher`). */
  graphsDir: string;
  /** Per-query time limit handed to the engine. */
  queryTimeoutMs: number;
  /** The text of a named graph's `.cypher` file, where there are no files (the browser build's TCK sample); throws when unknown. */
  readGraph?: (name: string) => string;
}

export interface ScenarioOutcome {
  passed: boolean;
  /** One line, e.g. `result mismatch` or `unexpected error: TypeError/InvalidArgumentType: …`. */
  reason?: string;
  /** Multi-line detail for reports (query, expected vs actual). */
  detail?: string;
  ms: number;
}

/** Raised inside the step loop to end the scenario as failed. */
class ScenarioFailure extends Error {
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(reason);
  }
}

const MAX_MESSAGE = 160;

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_MESSAGE ? `${flat.slice(0, MAX_MESSAGE)}…` : flat;
}

/** `Kind/Detail: message` for an engine error; `engine crash: Name: message` for anything else. */
export function describeError(err: unknown): string {
  if (err instanceof GraphDbError) return `${err.kind}/${err.detail}: ${oneLine(err.message)}`;
  if (err instanceof Error) return `engine crash: ${err.name}: ${oneLine(err.message)}`;
  return `engine crash: ${oneLine(String(err))}`;
}

type Phase = 'compile time' | 'runtime' | 'any time';

/**
 * Whether a thrown error satisfies `a <kind> should be raised at <phase>: <detail>`.
 * The TCK files at this commit name every compile-time error `SyntaxError`, including
 * semantic ones (UndefinedVariable, VariableTypeConflict, …); the engine distinguishes
 * SemanticError, so a compile-phase SemanticError satisfies an expected compile-time
 * SyntaxError. A detail of `*` accepts any detail.
 */
export function errorMatches(err: unknown, kind: string, phase: Phase, detail: string): boolean {
  if (!(err instanceof GraphDbError)) return false;
  const phaseOk = phase === 'any time' || (phase === 'compile time' ? err.phase === 'compile' : err.phase === 'runtime');
  if (!phaseOk) return false;
  const kindOk = err.kind === kind || (kind === 'SyntaxError' && phase !== 'runtime' && err.kind === 'SemanticError' && err.phase === 'compile');
  if (!kindOk) return false;
  return detail === '*' || err.detail === detail;
}

function formatRows(columns: readonly string[], rows: readonly (readonly Value[])[], limit = 20): string {
  const lines = [`| ${columns.join(' | ')} |`];
  for (const r of rows.slice(0, limit)) lines.push(`| ${r.map(formatValue).join(' | ')} |`);
  if (rows.length > limit) lines.push(`… ${rows.length - limit} more rows`);
  return lines.join('\n');
}

function formatTable(table: string[][], limit = 20): string {
  const lines = table.slice(0, limit + 1).map((r) => `| ${r.join(' | ')} |`);
  if (table.length > limit + 1) lines.push(`… ${table.length - limit - 1} more rows`);
  return lines.join('\n');
}

interface QueryOutcome {
  query: string;
  columns: string[];
  records: Value[][];
  error: unknown;
  failed: boolean;
  before: GraphSnapshot;
  after: GraphSnapshot;
}

export function runScenario(sc: TckScenario, opts: RunOptions): ScenarioOutcome {
  const t0 = performance.now();
  let db: Database | undefined;
  try {
    db = Database.openInMemory({ queryTimeoutMs: opts.queryTimeoutMs });
    runSteps(db, sc.steps, opts);
    return { passed: true, ms: performance.now() - t0 };
  } catch (err) {
    const ms = performance.now() - t0;
    if (err instanceof ScenarioFailure) return { passed: false, reason: err.reason, detail: err.detail, ms };
    // A failure of the runner itself or of the engine outside a query (open, register, snapshot).
    return { passed: false, reason: `runner crash: ${describeError(err)}`, detail: err instanceof Error ? err.stack : undefined, ms };
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a database the scenario already broke is not the scenario's verdict.
    }
  }
}

function requireDocString(step: TckStep): string {
  if (step.docString === undefined) throw new ScenarioFailure(`malformed step: '${step.text}' has no query`);
  return step.docString;
}

function requireTable(step: TckStep): string[][] {
  if (!step.table) throw new ScenarioFailure(`malformed step: '${step.text}' has no table`);
  return step.table;
}

function runSteps(db: Database, steps: TckStep[], opts: RunOptions): void {
  const params = new Map<string, Value>();
  let last: QueryOutcome | undefined;
  const needQuery = (what: string): QueryOutcome => {
    if (!last) throw new ScenarioFailure(`malformed scenario: '${what}' before any query`);
    return last;
  };

  for (const step of steps) {
    const t = step.text;
    let m: RegExpExecArray | null;

    if (t === 'an empty graph' || t === 'any graph') continue;

    if ((m = /^the ([\w-]+) graph$/.exec(t))) {
      const file = join(opts.graphsDir, m[1]!, `${m[1]!}.cypher`);
      let text: string;
      try {
        text = opts.readGraph ? opts.readGraph(m[1]!) : readFileSync(file, 'utf8');
      } catch {
        throw new ScenarioFailure(`named graph not found: ${m[1]!}`, file);
      }
      const query = text.trim().replace(/;\s*$/, '');
      try {
        db.executeSync(query);
      } catch (err) {
        throw new ScenarioFailure(`graph setup failed: ${describeError(err)}`, query);
      }
      continue;
    }

    if (t === 'having executed:') {
      const query = requireDocString(step);
      try {
        db.executeSync(query);
      } catch (err) {
        throw new ScenarioFailure(`setup query failed: ${describeError(err)}`, query);
      }
      continue;
    }

    if (t === 'parameters are:') {
      for (const row of requireTable(step)) {
        const [name, literal] = row;
        if (name === undefined || literal === undefined) throw new ScenarioFailure('malformed parameters table');
        try {
          params.set(name.trim(), literalToValue(parseLiteral(literal)));
        } catch (err) {
          throw new ScenarioFailure(`bad parameter literal: ${(err as Error).message}`);
        }
      }
      continue;
    }

    if (t.startsWith('there exists a procedure')) {
      try {
        db.procedures.register(buildProcedure(parseProcedureSignature(t), requireTable(step)));
      } catch (err) {
        if (err instanceof ScenarioFailure) throw err;
        throw new ScenarioFailure(`procedure setup failed: ${describeError(err)}`);
      }
      continue;
    }

    if (t === 'executing query:' || t === 'executing control query:') {
      const query = requireDocString(step);
      const before = snapshot(db.graph);
      let columns: string[] = [];
      let records: Value[][] = [];
      let error: unknown;
      let failed = false;
      try {
        const r = db.executeSync(query, params);
        columns = r.columns;
        records = r.records;
      } catch (err) {
        error = err;
        failed = true;
      }
      last = { query, columns, records, error, failed, before, after: snapshot(db.graph) };
      continue;
    }

    if ((m = /^the result should be(?:, (in any order|in order))?(?: ?\(ignoring element order for lists\))?:$/.exec(t))) {
      const q = needQuery(t);
      if (q.failed) throw new ScenarioFailure(`unexpected error: ${describeError(q.error)}`, q.query);
      const table = requireTable(step);
      const mode: ResultMode = { ordered: m[1] === 'in order', unorderedLists: t.includes('ignoring element order for lists') };
      let expected: ExpectedTable;
      try {
        expected = { columns: table[0] ?? [], rows: table.slice(1).map((r) => r.map(parseLiteral)) };
      } catch (err) {
        throw new ScenarioFailure(`bad expected literal: ${(err as Error).message}`);
      }
      const reason = compareResult(expected, q.columns, q.records, mode);
      if (reason) {
        throw new ScenarioFailure(reason, `query:\n${q.query}\nexpected:\n${formatTable(table)}\nactual:\n${formatRows(q.columns, q.records)}`);
      }
      continue;
    }

    if (t === 'the result should be empty') {
      const q = needQuery(t);
      if (q.failed) throw new ScenarioFailure(`unexpected error: ${describeError(q.error)}`, q.query);
      if (q.records.length > 0) {
        throw new ScenarioFailure(`result mismatch: expected empty, got ${q.records.length} rows`, `query:\n${q.query}\nactual:\n${formatRows(q.columns, q.records)}`);
      }
      continue;
    }

    if ((m = /^an? (\w+) should be raised at (compile time|runtime|any time): (\S+)$/.exec(t))) {
      const q = needQuery(t);
      const [kind, phase, detail] = [m[1]!, m[2]! as Phase, m[3]!];
      if (!q.failed) {
        throw new ScenarioFailure(`error: ${kind}/${detail} expected, got none`, `query:\n${q.query}\nactual:\n${formatRows(q.columns, q.records)}`);
      }
      if (!errorMatches(q.error, kind, phase, detail)) {
        const got = q.error instanceof GraphDbError ? `${q.error.kind}/${q.error.detail} at ${q.error.phase}` : describeError(q.error);
        throw new ScenarioFailure(`error: ${kind}/${detail} at ${phase} expected, got ${got}`, `query:\n${q.query}\nerror: ${describeError(q.error)}`);
      }
      continue;
    }

    if (t === 'the side effects should be:' || t === 'no side effects') {
      const q = needQuery(t);
      let expected: SideEffects;
      try {
        expected = t === 'no side effects' ? noSideEffects() : parseSideEffectsTable(requireTable(step));
      } catch (err) {
        if (err instanceof ScenarioFailure) throw err;
        throw new ScenarioFailure(`bad side effects table: ${(err as Error).message}`);
      }
      const reason = compareSideEffects(expected, diffSnapshots(q.before, q.after));
      if (reason) throw new ScenarioFailure(reason, `query:\n${q.query}`);
      continue;
    }

    throw new ScenarioFailure(`unsupported step: ${t}`);
  }
}
